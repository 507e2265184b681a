// Probing (docs/design.md, "Probing").
//
// Value of a position for both targets, V(p) = (DTHM_White, DTHM_Black) as byte codes:
//  * castling rights: exact search over the positions reachable while keeping exactly these
//    rights (a finite graph), seeded with the values of moves that lose a right (recursively: the
//    rights only shrink) and solved by breadth-first buckets, like the generator;
//  * an en passant capture is legal: min(V(same placement without the right) if it has a legal
//    move, 1 + V(after each en passant capture));
//  * otherwise: the table of the position's material (colour-swapped if needed).
#include "deadpos/tablebase.h"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/table.h"

namespace deadpos {

namespace {

using Values = ByColor<std::uint8_t>;  // DthmCode bytes, indexed by the side to be mated

constexpr std::uint8_t kNone = DthmCode::kNone;
// Castling search limit: positions per connected set of equal rights. Far above what <= 7 men
// can reach (each right fixes a king and a rook).
constexpr std::size_t kMaxSearchNodes = 4'000'000;

// v + k plies, or none. Errors: CorruptTable when the sum passes the format's 250-ply code limit
// (docs/format.md section 3): real tables stay far below it (the longest DTHM of the <= 5-man set
// is under 60), so only a crafted file with valid checksums gets here, and it gets no answer.
Result<std::uint8_t> plus(std::uint8_t v, int k) {
  if (v > DthmCode::kMaxDthm) return kNone;
  if (v + k > DthmCode::kMaxDthm) {
    return make_error(ErrorCode::CorruptTable, "a table holds DTHM " + std::to_string(v) + ", and " + std::to_string(v + k) +
                                                   " plies exceed the format's limit of " + std::to_string(DthmCode::kMaxDthm));
  }
  return static_cast<std::uint8_t>(v + k);
}

// The identity of a position for the rules of play (FIDE 9.2.3: placement, side to move, castling
// rights, en passant square; not the move counters), exact and without building a FEN: the memo
// key of the castling search.
struct PositionKey {
  std::array<std::uint64_t, 4> squares{};  // 4 bits per square: the Piece code (kNoPiece = 15)
  std::uint64_t rest = 0;                  // side to move | castling rights << 1 | (ep square + 1) << 8
  bool operator==(const PositionKey&) const = default;
};
struct PositionKeyHash {
  std::size_t operator()(const PositionKey& k) const { return static_cast<std::size_t>(XXH3_64bits(&k, sizeof k)); }
};

PositionKey position_key(const Position& p) {
  PositionKey k;
  for (int s = 0; s < 64; ++s) {
    const auto code = static_cast<std::uint64_t>(p.piece_on(square_at(s)));
    k.squares[static_cast<std::size_t>(s / 16)] |= code << (4 * (s % 16));
  }
  const auto ep = p.en_passant();
  k.rest = static_cast<std::uint64_t>(p.side_to_move() == Color::White ? 0 : 1) |
           static_cast<std::uint64_t>(p.castling_rights()) << 1 |
           static_cast<std::uint64_t>(ep ? to_index(*ep) + 1 : 0) << 8;
  return k;
}

}  // namespace

const char* flag_reason_text(FlagVerdict::Reason r) {
  switch (r) {
    case FlagVerdict::Reason::Checkmate: return "the position is checkmate: the game was already over";
    case FlagVerdict::Reason::Stalemate: return "the position is stalemate: the game was already drawn";
    case FlagVerdict::Reason::DeadPosition: return "dead position: neither side can checkmate by any sequence of legal moves (FIDE 5.2.2)";
    case FlagVerdict::Reason::OpponentCannotMate: return "the opponent cannot checkmate by any sequence of legal moves (FIDE 6.9)";
    case FlagVerdict::Reason::OpponentCanMate: return "the opponent can checkmate by a sequence of legal moves (FIDE 6.9)";
  }
  return "?";
}

struct Tablebase::Impl {
  struct Entry {
    std::string path;
    Material material;
    std::once_flag once;
    std::optional<TableFile> file;
    std::optional<Error> error;  // sticky
  };
  std::map<std::string, std::unique_ptr<Entry>> tables;  // by canonical key
  std::vector<Entry*> by_id;
  // Canonical material -> entry id, keyed by the packed men counts (4 bits per colour and piece
  // type): avoids building the key string on every probe.
  std::unordered_map<std::uint64_t, std::size_t> id_by_code;
  int max_men = 0;
  Options opt;

  // LRU cache of decompressed blocks, in kShards independent shards (by a hash of the block key)
  // so that threads probing different blocks do not wait on one mutex; each shard holds at most
  // cache_bytes / kShards bytes, or one block. A hit copies the entry's byte under the shard's
  // lock: no reference count is touched, so threads reading the same hot block do not bounce a
  // counter between cores.
  using Block = std::shared_ptr<const std::vector<std::uint8_t>>;
  static constexpr std::size_t kShards = 16;
  struct alignas(64) Shard {
    std::mutex mu;
    std::list<std::pair<std::uint64_t, Block>> lru;  // front = most recent
    std::unordered_map<std::uint64_t, std::list<std::pair<std::uint64_t, Block>>::iterator> where;
    std::size_t bytes = 0;
  };
  mutable std::array<Shard, kShards> shards;

  static std::uint64_t code_of(const Material& m) {
    std::uint64_t c = 0;
    for (Color col : {Color::White, Color::Black})
      for (int t = 0; t < kNumPieceTypes; ++t) c = (c << 4) | static_cast<std::uint64_t>(m.count[col][static_cast<PieceType>(t)]);
    return c;
  }

  // Entry id of a canonical material, or nullopt.
  std::optional<std::size_t> id_of(const Material& canonical) const {
    const auto it = id_by_code.find(code_of(canonical));
    if (it == id_by_code.end()) return std::nullopt;
    return it->second;
  }

  Result<const TableFile*> file_of(std::size_t id) const {
    Entry& e = *by_id[id];
    std::call_once(e.once, [&] {
      auto f = TableFile::open(e.path, e.material, FileCheck::HeaderOnly);
      if (!f) {
        e.error = f.error();
      } else {
        e.file.emplace(std::move(*f));
      }
    });
    if (e.error) return *e.error;
    return &*e.file;
  }

  // Byte `off` of block b of table id (decompressed and cached on a miss).
  Result<std::uint8_t> entry(std::size_t id, const TableFile& f, std::uint32_t b, std::uint32_t off) const {
    const std::uint64_t key = (static_cast<std::uint64_t>(id) << 32) | b;
    Shard& sh = shards[static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 60) % kShards];
    {
      std::lock_guard lock(sh.mu);
      if (auto it = sh.where.find(key); it != sh.where.end()) {
        if (it->second != sh.lru.begin()) sh.lru.splice(sh.lru.begin(), sh.lru, it->second);
        const auto& data = *it->second->second;
        if (off >= data.size()) return corrupt_offset(f, b, off);
        return data[off];
      }
    }
    auto data = std::make_shared<std::vector<std::uint8_t>>();
    if (Status s = f.read_block(b, *data); !s) return s.error();
    if (off >= data->size()) return corrupt_offset(f, b, off);
    const std::uint8_t v = (*data)[off];
    std::lock_guard lock(sh.mu);
    if (sh.where.count(key)) return v;  // raced with another thread: keep its copy
    const std::size_t cap = opt.cache_bytes / kShards;
    sh.bytes += data->size();
    sh.lru.emplace_front(key, std::move(data));
    sh.where[key] = sh.lru.begin();
    while (sh.bytes > cap && sh.lru.size() > 1) {
      sh.bytes -= sh.lru.back().second->size();
      sh.where.erase(sh.lru.back().first);
      sh.lru.pop_back();
    }
    return v;
  }

  static Error corrupt_offset(const TableFile& f, std::uint32_t b, std::uint32_t off) {
    return make_error(ErrorCode::CorruptTable, f.name() + ": block " + std::to_string(b) + " has no entry " + std::to_string(off));
  }

  // Table values of a position without castling rights (an en passant right is ignored).
  Result<Values> lookup(const Position& pos) const {
    if (pos.men() > max_men) {
      return make_error(ErrorCode::TooManyMen, std::to_string(pos.men()) + " men on the board, tables go up to " +
                                                   std::to_string(max_men));
    }
    const Material m = Material::of(pos);
    const bool swap = !m.is_canonical();
    const Position p = swap ? pos.color_swapped() : pos;
    const Material cm = swap ? m.swapped() : m;
    const auto id = id_of(cm);
    if (!id) return make_error(ErrorCode::MissingTable, "table " + cm.key() + " is not in the table directories");
    auto f = file_of(*id);
    if (!f) return f.error();
    const TableFile& tf = **f;
    const std::uint64_t idx = tf.index().encode(tf.index().squares_of(p));
    Values v{};
    for (Color x : {Color::White, Color::Black}) {
      const auto [b, off] = tf.locate(array_of(p.side_to_move(), x), idx);
      auto e = entry(*id, tf, b, off);
      if (!e) return e.error();
      const std::uint8_t code = *e;
      if (code == DthmCode::kInvalid) {
        return make_error(ErrorCode::CorruptTable, tf.name() + ": entry " + std::to_string(idx) +
                                                       " is marked invalid for the legal position " + p.to_fen());
      }
      v[swap ? ~x : x] = code;
    }
    return v;
  }

  // Memo of castling-search results within one top-level request.
  using Memo = std::unordered_map<PositionKey, Values, PositionKeyHash>;

  Result<Values> values(const Position& pos, Memo& memo, ProbeResult* info) const {
    // Checkmate and stalemate are decided by the rules alone: no table is needed (nor read), so a
    // finished game is answered whatever tables are loaded.
    if (!pos.has_legal_move()) {
      const bool mate = pos.in_check();
      Values v{};
      for (Color x : {Color::White, Color::Black}) v[x] = (mate && x == pos.side_to_move()) ? 0 : kNone;
      return v;
    }
    if (pos.castling_rights()) {
      if (info) info->castling_search = true;
      const PositionKey key = position_key(pos);
      if (auto it = memo.find(key); it != memo.end()) return it->second;
      if (Status s = castling_search(pos, memo); !s) return s.error();
      return memo.at(key);
    }
    if (pos.en_passant()) {
      const MoveList moves = pos.legal_moves();
      bool other = false;
      bool any_ep = false;
      Values best{{kNone, kNone}};
      for (Move m : moves) {
        if (m.kind() != Move::Kind::EnPassant) {
          other = true;
          continue;
        }
        any_ep = true;
        auto v = values(pos.after(m), memo, nullptr);
        if (!v) return v.error();
        for (Color x : {Color::White, Color::Black}) {
          auto c = plus((*v)[x], 1);
          if (!c) return c.error();
          best[x] = std::min(best[x], *c);
        }
      }
      if (any_ep) {
        if (info) info->en_passant = true;
        if (other) {
          auto v = lookup(pos);
          if (!v) return v.error();
          for (Color x : {Color::White, Color::Black}) best[x] = std::min(best[x], (*v)[x]);
        }
        return best;
      }
    }
    return lookup(pos);
  }

  // Solves every position reachable from root while keeping exactly root's castling rights and
  // stores their values in memo (docs/design.md, "Probing").
  Status castling_search(const Position& root, Memo& memo) const {
    const std::uint8_t rights = root.castling_rights();
    std::vector<Position> nodes{root};
    std::unordered_map<PositionKey, std::uint32_t, PositionKeyHash> id{{position_key(root), 0}};
    std::vector<std::vector<std::uint32_t>> preds(1);
    std::vector<Values> dist(1);
    for (std::size_t u = 0; u < nodes.size(); ++u) {
      const Position pu = nodes[u];
      const MoveList moves = pu.legal_moves();
      Values best{{DthmCode::kUnknown, DthmCode::kUnknown}};
      if (moves.empty()) {
        const bool mate = pu.in_check();
        for (Color x : {Color::White, Color::Black}) best[x] = (mate && x == pu.side_to_move()) ? 0 : kNone;
      }
      for (Move m : moves) {
        const Position pv = pu.after(m);
        if (pv.castling_rights() == rights) {
          const PositionKey k = position_key(pv);
          auto [it, inserted] = id.try_emplace(k, static_cast<std::uint32_t>(nodes.size()));
          if (inserted) {
            if (nodes.size() >= kMaxSearchNodes) {
              return make_error(ErrorCode::InvalidArgument, "castling search from " + root.to_fen() + " exceeds " +
                                                                std::to_string(kMaxSearchNodes) + " positions");
            }
            nodes.push_back(pv);
            preds.emplace_back();
            dist.emplace_back();
          }
          preds[it->second].push_back(static_cast<std::uint32_t>(u));
        } else {
          auto v = values(pv, memo, nullptr);
          if (!v) return v.error();
          for (Color x : {Color::White, Color::Black}) {
            auto cr = plus((*v)[x], 1);
            if (!cr) return cr.error();
            const std::uint8_t c = *cr;
            if (c <= DthmCode::kMaxDthm && (best[x] == DthmCode::kUnknown || c < best[x])) best[x] = c;
          }
        }
      }
      dist[u] = best;
    }
    // Integer-bucket shortest paths over the internal edges (weight 1), per target.
    for (Color x : {Color::White, Color::Black}) {
      std::vector<std::vector<std::uint32_t>> bucket(DthmCode::kMaxDthm + 2);
      for (std::uint32_t u = 0; u < nodes.size(); ++u)
        if (dist[u][x] <= DthmCode::kMaxDthm) bucket[dist[u][x]].push_back(u);
      for (int d = 0; d <= DthmCode::kMaxDthm; ++d) {
        for (std::size_t k = 0; k < bucket[static_cast<std::size_t>(d)].size(); ++k) {
          const std::uint32_t u = bucket[static_cast<std::size_t>(d)][k];
          if (dist[u][x] != d) continue;  // stale entry
          for (std::uint32_t p : preds[u]) {
            std::uint8_t& dp = dist[p][x];
            if (dp == kNone) continue;  // terminal
            if (dp == DthmCode::kUnknown || dp > d + 1) {
              dp = static_cast<std::uint8_t>(d + 1);
              if (d + 1 <= DthmCode::kMaxDthm) bucket[static_cast<std::size_t>(d + 1)].push_back(p);
            }
          }
        }
      }
      for (auto& v : dist)
        if (v[x] == DthmCode::kUnknown) v[x] = kNone;
    }
    for (std::size_t u = 0; u < nodes.size(); ++u) memo[position_key(nodes[u])] = dist[u];
    return Ok{};
  }
};

Tablebase::Tablebase(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Tablebase::Tablebase(Tablebase&&) noexcept = default;
Tablebase& Tablebase::operator=(Tablebase&&) noexcept = default;
Tablebase::~Tablebase() = default;

Result<Tablebase> Tablebase::open(const std::vector<std::string>& dirs, Options opt) {
  auto impl = std::make_unique<Impl>();
  impl->opt = opt;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec) return make_error(ErrorCode::Io, dir + ": cannot list table directory: " + ec.message());
    std::vector<std::filesystem::path> files;
    // increment(ec), not a range-for: a listing error must be a value, not an exception.
    for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
      if (it->path().extension() == ".dpt") files.push_back(it->path());
    }
    if (ec) return make_error(ErrorCode::Io, dir + ": cannot list table directory: " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& path : files) {
      auto m = Material::parse(path.stem().string());
      if (!m || !m->is_canonical() || m->men() > kMaxTableMen) continue;  // not a table name
      if (impl->tables.count(m->key())) continue;
      auto e = std::make_unique<Impl::Entry>();
      e->path = path.string();
      e->material = *m;
      impl->max_men = std::max(impl->max_men, m->men());
      impl->id_by_code[Impl::code_of(*m)] = impl->by_id.size();
      impl->by_id.push_back(e.get());
      impl->tables.emplace(m->key(), std::move(e));
    }
  }
  return Tablebase(std::move(impl));
}

int Tablebase::max_men() const { return impl_->max_men; }

std::vector<std::string> Tablebase::materials() const {
  std::vector<std::string> out;
  for (const auto& [k, e] : impl_->tables) out.push_back(k);
  return out;
}

Result<ProbeResult> Tablebase::probe(const Position& pos) const {
  ProbeResult r;
  if (!pos.has_legal_move()) {
    const bool check = pos.in_check();
    r.checkmate = check;
    r.stalemate = !check;
  }
  Impl::Memo memo;
  auto v = impl_->values(pos, memo, &r);
  if (!v) return v.error();
  r.table = Material::of(pos).canonical().key();
  for (Color x : {Color::White, Color::Black})
    if ((*v)[x] <= DthmCode::kMaxDthm) r.dthm[x] = (*v)[x];
  return r;
}

Result<std::vector<Move>> Tablebase::helpmate_line(const Position& pos, Color mated) const {
  Impl::Memo memo;
  auto v0 = impl_->values(pos, memo, nullptr);
  if (!v0) return v0.error();
  int v = (*v0)[mated];
  if (v > DthmCode::kMaxDthm) {
    return make_error(ErrorCode::InvalidArgument,
                      std::string(mated == Color::White ? "White" : "Black") + " cannot be checkmated from " + pos.to_fen());
  }
  std::vector<Move> line;
  Position cur = pos;
  while (v > 0) {
    bool found = false;
    for (Move m : cur.legal_moves()) {
      const Position next = cur.after(m);
      auto w = impl_->values(next, memo, nullptr);
      if (!w) return w.error();
      if ((*w)[mated] == v - 1) {
        line.push_back(m);
        cur = next;
        --v;
        found = true;
        break;
      }
    }
    // Exact tables always have such a move; its absence means the tables disagree with the rules.
    if (!found) return make_error(ErrorCode::CorruptTable, "no move continues the helpmate from " + cur.to_fen());
  }
  return line;
}

Result<FlagVerdict> Tablebase::flag_verdict(const Position& pos, Color flagged) const {
  auto p = probe(pos);
  if (!p) return p.error();
  FlagVerdict v;
  v.probe = *p;
  const char* opponent_wins = flagged == Color::White ? "0-1" : "1-0";
  if (p->checkmate) {
    v.reason = FlagVerdict::Reason::Checkmate;
    v.result = pos.side_to_move() == Color::White ? "0-1" : "1-0";
  } else if (p->stalemate) {
    v.reason = FlagVerdict::Reason::Stalemate;
    v.result = "1/2-1/2";
  } else if (p->dead()) {
    v.reason = FlagVerdict::Reason::DeadPosition;
    v.result = "1/2-1/2";
  } else if (!p->dthm[flagged]) {
    v.reason = FlagVerdict::Reason::OpponentCannotMate;
    v.result = "1/2-1/2";
  } else {
    v.reason = FlagVerdict::Reason::OpponentCanMate;
    v.result = opponent_wins;
  }
  return v;
}

}  // namespace deadpos
