// Probing (docs/design.md, "Probing").
//
// Value of a position for both targets, V(p) = (DTHM_White, DTHM_Black) as byte codes:
//  * castling rights: exact search over the positions reachable while keeping exactly these
//    rights (castling_search.h);
//  * an en passant capture is legal: min(V(same placement without the right) if it has a legal
//    move, 1 + V(after each en passant capture));
//  * otherwise: the table of the position's material (colour-swapped if needed), read through the
//    block cache (block_cache.h).
// This file keeps the table registry (lazily opened files by material), the table lookup, the en
// passant rule and the public methods.
#include "deadpos/tablebase.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <unordered_map>

#include "block_cache.h"
#include "castling_search.h"
#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/table.h"
#include "probe_values.h"

namespace deadpos {

using internal::BlockCache;
using internal::kNone;
using internal::plus;
using internal::position_key;
using internal::PositionKey;
using internal::Values;

struct Tablebase::Impl {
  struct Entry {
    std::string path;  // the table file; empty for a verdict-only table (its .dpv alone was found)
    Material material;
    std::once_flag once;
    std::optional<TableFile> file;
    std::optional<Error> error;  // sticky
    // The verdict file beside it (<KEY>.dpv), opened on the first verdict lookup; absent, the
    // table file's DTHM bytes give the verdicts.
    std::string verdict_path;
    std::once_flag verdict_once;
    std::optional<VerdictFile> verdicts;
    std::optional<Error> verdict_error;  // sticky; never MissingTable (absent is allowed)
  };
  std::map<std::string, std::unique_ptr<Entry>> tables;  // by canonical key
  std::vector<Entry*> by_id;
  std::vector<std::string> verdict_only_keys;  // keys of the verdict-only tables, sorted
  // Canonical material -> entry id, keyed by the packed men counts (4 bits per colour and piece
  // type): avoids building the key string on every probe.
  std::unordered_map<std::uint64_t, std::size_t> id_by_code;
  int max_men = 0;          // over the tables with a table file (the DTHM answers)
  int max_verdict_men = 0;  // over every table, verdict-only ones included

  mutable BlockCache cache;

  explicit Impl(std::size_t cache_bytes) : cache(cache_bytes), cache_limit(cache_bytes) {}
  std::size_t cache_limit;

  static std::uint64_t code_of(const Material& m) {
    std::uint64_t c = 0;
    for (Color col : {Color::White, Color::Black})
      for (int t = 0; t < kNumPieceTypes; ++t)
        c = (c << 4) | static_cast<std::uint64_t>(m.count[col][static_cast<PieceType>(t)]);
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
    if (e.path.empty()) {
      // docs/format.md section 7: a verdict file answers verdicts only.
      return make_error(ErrorCode::MissingTable, "table " + TableDirectory::table_file_name(e.material) +
                                                     " is not in the table directories (only its verdict file " +
                                                     e.verdict_path + "): distances and lines need it");
    }
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

  // The verdict file of table id, or nullptr when it has none.
  Result<const VerdictFile*> verdicts_of(std::size_t id) const {
    Entry& e = *by_id[id];
    std::call_once(e.verdict_once, [&] {
      auto f = VerdictFile::open(e.verdict_path, e.material, FileCheck::HeaderOnly);
      if (f) {
        e.verdicts.emplace(std::move(*f));
      } else if (f.error().code != ErrorCode::MissingTable) {
        e.verdict_error = f.error();
      }
    });
    if (e.verdict_error) return *e.verdict_error;
    return e.verdicts ? &*e.verdicts : nullptr;
  }

  // Byte `off` of block b of table id (decompressed and cached on a miss). The cache key is the
  // entry id in the high 32 bits and the block in the low 32: unique over every table.
  Result<std::uint8_t> entry(std::size_t id, const TableFile& f, std::uint32_t b, std::uint32_t off) const {
    return cache.entry((static_cast<std::uint64_t>(id) << 32) | b, f, b, off);
  }

  // Table values of a position without castling rights (an en passant right is ignored).
  Result<Values> lookup(const Position& pos) const {
    // Up to the verdict-only tables' men: a position of one is answered "its table file is
    // missing" (file_of), which names what to add.
    if (pos.men() > max_verdict_men) {
      return make_error(ErrorCode::TooManyMen, std::to_string(pos.men()) + " men on the board, tables go up to " +
                                                   std::to_string(max_verdict_men));
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
      const auto [b, off] = tf.locate(p.side_to_move(), x, idx);
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

  // Verdicts of a position without castling rights (an en passant right is ignored): bit
  // to_index(X) when X can be mated. From the verdict file when the table has one (one small
  // block), else from the table's DTHM bytes. verdict_only: whether a table of verdicts alone
  // (no table file) may answer; else such a table is missing, as for lookup().
  Result<Verdict> verdict_lookup(const Position& pos, bool verdict_only) const {
    if (pos.men() > max_verdict_men) {
      return make_error(ErrorCode::TooManyMen, std::to_string(pos.men()) + " men on the board, tables go up to " +
                                                   std::to_string(max_verdict_men));
    }
    const Material m = Material::of(pos);
    const bool swap = !m.is_canonical();
    const Material cm = swap ? m.swapped() : m;
    const auto id = id_of(cm);
    if (!id) return make_error(ErrorCode::MissingTable, "table " + cm.key() + " is not in the table directories");
    if (!verdict_only && by_id[*id]->path.empty()) return file_of(*id).error();
    auto vf = verdicts_of(*id);
    if (!vf) return vf.error();
    if (!*vf) return verdict_of(lookup(pos));
    const VerdictFile& f = **vf;
    const Position p = swap ? pos.color_swapped() : pos;
    const std::uint64_t idx = f.index().encode(f.index().squares_of(p));
    const auto [b, e] = f.locate(p.side_to_move(), idx);
    // Verdict blocks share the cache with table blocks: bit 31 of the block part tells them apart.
    auto byte = cache.entry((static_cast<std::uint64_t>(*id) << 32) | 0x80000000U | b, f, b, e >> 2);
    if (!byte) return byte.error();
    const unsigned bits = (*byte >> (2 * (e & 3U))) & 3U;
    return Verdict{static_cast<std::uint8_t>(swap ? ((bits & 1U) << 1) | (bits >> 1) : bits)};
  }

  static Result<Verdict> verdict_of(const Result<Values>& v) {
    if (!v) return v.error();
    return Verdict{static_cast<std::uint8_t>(((*v)[Color::White] <= DthmCode::kMaxDthm ? 1U : 0U) |
                                             ((*v)[Color::Black] <= DthmCode::kMaxDthm ? 2U : 0U))};
  }

  // Memo of castling-search results within one top-level request, with its limits.
  using Memo = internal::CastlingMemo;

  Result<Values> values(const Position& pos, Memo& memo) const {
    // Checkmate and stalemate are decided by the rules alone: no table is needed (nor read), so a
    // finished game is answered whatever tables are loaded.
    if (!pos.has_legal_move()) {
      const bool mate = pos.in_check();
      Values v{};
      for (Color x : {Color::White, Color::Black}) v[x] = (mate && x == pos.side_to_move()) ? 0 : kNone;
      return v;
    }
    if (pos.castling_rights()) {
      const PositionKey key = position_key(pos);
      if (auto it = memo.values.find(key); it != memo.values.end()) return it->second;
      // Successors that lose a right are valued by this function again, sharing the memo.
      const auto values_of = [&](const Position& p) { return values(p, memo); };
      if (Status s = internal::castling_search(pos, memo, values_of); !s) return s.error();
      return memo.values.at(key);
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
        auto v = values(pos.after(m), memo);
        if (!v) return v.error();
        for (Color x : {Color::White, Color::Black}) {
          auto c = plus((*v)[x], 1);
          if (!c) return c.error();
          best[x] = std::min(best[x], *c);
        }
      }
      if (any_ep) {
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

  // The verdicts of values(pos, memo), reading no DTHM where none is needed: the same cases, with
  // "can be mated" for "finite" (the least of finite values is finite exactly when one is).
  Result<Verdict> verdicts(const Position& pos, Memo& memo, bool verdict_only) const {
    if (!pos.has_legal_move()) {
      const bool mate = pos.in_check();
      return Verdict{static_cast<std::uint8_t>(mate ? 1U << to_index(pos.side_to_move()) : 0U)};
    }
    if (pos.castling_rights()) return verdict_of(values(pos, memo));  // the castling search values exactly
    if (pos.en_passant()) {
      bool other = false;
      bool any_ep = false;
      std::uint8_t bits = 0;
      for (Move m : pos.legal_moves()) {
        if (m.kind() != Move::Kind::EnPassant) {
          other = true;
          continue;
        }
        any_ep = true;
        auto v = verdicts(pos.after(m), memo, verdict_only);
        if (!v) return v.error();
        bits = static_cast<std::uint8_t>(bits | v->bits);
      }
      if (any_ep) {
        if (other) {
          auto v = verdict_lookup(pos, verdict_only);
          if (!v) return v.error();
          bits = static_cast<std::uint8_t>(bits | v->bits);
        }
        return Verdict{bits};
      }
    }
    return verdict_lookup(pos, verdict_only);
  }
};

Tablebase::Tablebase(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Tablebase::Tablebase(Tablebase&&) noexcept = default;
Tablebase& Tablebase::operator=(Tablebase&&) noexcept = default;
Tablebase::~Tablebase() = default;

std::size_t Tablebase::default_cache_bytes() {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  std::uint64_t mem = 0;
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) mem = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  // A container's memory limit (cgroup v2), when it is lower: "max" or a number of bytes.
  if (std::ifstream cg("/sys/fs/cgroup/memory.max"); cg) {
    std::uint64_t limit = 0;
    if (cg >> limit && limit > 0 && (mem == 0 || limit < mem)) mem = limit;
  }
  std::uint64_t bytes = std::clamp<std::uint64_t>(mem / 8, 256 * kMiB, 4096 * kMiB);
  struct rlimit rl {};
  if (::getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    bytes = std::min<std::uint64_t>(bytes, static_cast<std::uint64_t>(rl.rlim_cur) / 4);
  }
  return static_cast<std::size_t>(bytes);
}

std::size_t Tablebase::cache_bytes() const { return impl_->cache_limit; }

Result<Tablebase> Tablebase::open(const std::vector<std::string>& dirs, Options opt) {
  auto impl = std::make_unique<Impl>(opt.cache_bytes ? *opt.cache_bytes : default_cache_bytes());
  // Table files first, from every directory; then the verdict files of materials that have no
  // table file in any of them (verdict-only tables: docs/format.md section 7).
  for (const std::string_view ext : {TableDirectory::kTableExtension, TableDirectory::kVerdictExtension}) {
    const bool verdicts = ext == TableDirectory::kVerdictExtension;
    for (const std::string& dir : dirs) {
      // "" would be listed as the current directory by some calls and refused by others.
      if (dir.empty()) return make_error(ErrorCode::InvalidArgument, "an empty name is not a table directory");
      auto files = TableDirectory(dir).list(ext);
      if (!files) return files.error();
      std::sort(files->begin(), files->end(),
                [](const TableDirectory::Entry& a, const TableDirectory::Entry& b) { return a.name < b.name; });
      for (const TableDirectory::Entry& f : *files) {
        const std::optional<Material>& m = f.material;
        if (!m || m->men() > kMaxTableMen) continue;  // not a table name
        if (impl->tables.count(m->key())) continue;
        auto e = std::make_unique<Impl::Entry>();
        e->material = *m;
        if (verdicts) {
          e->verdict_path = f.path;
          impl->verdict_only_keys.push_back(m->key());
        } else {
          e->path = f.path;
          e->verdict_path = TableDirectory(dir).verdict_path(*m);
          impl->max_men = std::max(impl->max_men, m->men());
        }
        impl->max_verdict_men = std::max(impl->max_verdict_men, m->men());
        impl->id_by_code[Impl::code_of(*m)] = impl->by_id.size();
        impl->by_id.push_back(e.get());
        impl->tables.emplace(m->key(), std::move(e));
      }
    }
  }
  std::sort(impl->verdict_only_keys.begin(), impl->verdict_only_keys.end());
  return Tablebase(std::move(impl));
}

int Tablebase::max_men() const { return impl_->max_men; }

std::vector<std::string> Tablebase::materials() const {
  std::vector<std::string> out;
  for (const auto& [k, e] : impl_->tables)
    if (!e->path.empty()) out.push_back(k);
  return out;
}

std::vector<std::string> Tablebase::verdict_only_materials() const { return impl_->verdict_only_keys; }

int Tablebase::max_verdict_men() const { return impl_->max_verdict_men; }

using internal::ProbeDoor;

ProbeResult ProbeDoor::describe(const Position& pos) {
  ProbeResult r;
  const MoveList moves = pos.legal_moves();
  r.checkmate = moves.empty() && pos.in_check();
  r.stalemate = moves.empty() && !pos.in_check();
  r.table = Material::of(pos).canonical().key();
  // Impl::values: rights with a legal move go to the castling search; an en passant capture, when
  // legal, is played (by the castling search, which plays every move, or by the en passant rule).
  r.castling_search = !moves.empty() && pos.castling_rights() != 0;
  for (Move m : moves)
    if (m.kind() == Move::Kind::EnPassant) r.en_passant = true;
  return r;
}

bool ProbeDoor::has_table(const Tablebase& tb, const Position& pos) {
  const auto it = tb.impl_->tables.find(Material::of(pos).canonical().key());
  return it != tb.impl_->tables.end() && !it->second->path.empty();
}

Result<Verdict> ProbeDoor::verdict(const Tablebase& tb, const Position& pos, internal::CastlingLimits& limits) {
  Tablebase::Impl::Memo memo(limits);
  return tb.impl_->verdicts(pos, memo, /*verdict_only=*/false);
}

Result<PositionVerdict> Tablebase::verdict(const Position& pos) const {
  const ProbeResult d = ProbeDoor::describe(pos);
  PositionVerdict r;
  r.checkmate = d.checkmate;
  r.stalemate = d.stalemate;
  r.table = d.table;
  r.castling_search = d.castling_search;
  r.en_passant = d.en_passant;
  internal::CastlingLimits limits;
  limits.nodes = internal::kProbeCastlingNodes;
  Impl::Memo memo(limits);
  auto v = impl_->verdicts(pos, memo, /*verdict_only=*/true);
  if (!v) return v.error();
  for (Color x : {Color::White, Color::Black}) r.can_be_mated[x] = v->can_be_mated(x);
  return r;
}

Result<ProbeResult> ProbeDoor::probe(const Tablebase& tb, const Position& pos, internal::CastlingLimits& limits) {
  ProbeResult r = describe(pos);
  Tablebase::Impl::Memo memo(limits);
  auto v = tb.impl_->values(pos, memo);
  if (!v) return v.error();
  for (Color x : {Color::White, Color::Black})
    if ((*v)[x] <= DthmCode::kMaxDthm) r.dthm[x] = (*v)[x];
  return r;
}

Result<ProbeResult> Tablebase::probe(const Position& pos) const {
  internal::CastlingLimits limits;
  limits.nodes = internal::kProbeCastlingNodes;
  return ProbeDoor::probe(*this, pos, limits);
}

Result<std::vector<Move>> Tablebase::helpmate_line(const Position& pos, Color mated) const {
  internal::CastlingLimits limits;
  limits.nodes = internal::kProbeCastlingNodes;
  return ProbeDoor::helpmate_line(*this, pos, mated, limits);
}

Result<std::vector<Move>> ProbeDoor::helpmate_line(const Tablebase& tb, const Position& pos, Color mated,
                                                   internal::CastlingLimits& limits) {
  const Tablebase::Impl& impl = *tb.impl_;
  Tablebase::Impl::Memo memo(limits);
  auto v0 = impl.values(pos, memo);
  if (!v0) return v0.error();
  int v = (*v0)[mated];
  if (v > DthmCode::kMaxDthm) {
    return make_error(ErrorCode::InvalidArgument, std::string(mated == Color::White ? "White" : "Black") +
                                                      " cannot be checkmated from " + pos.to_fen());
  }
  std::vector<Move> line;
  Position cur = pos;
  while (v > 0) {
    bool found = false;
    std::optional<Error> missing;  // the first continuation that needed a table not loaded
    for (Move m : cur.legal_moves()) {
      const Position next = cur.after(m);
      auto w = impl.values(next, memo);
      if (!w && w.error().code == ErrorCode::MissingTable) {
        if (!missing) missing = w.error();
        continue;
      }
      if (!w) return w.error();
      if ((*w)[mated] == v - 1) {
        line.push_back(m);
        cur = next;
        --v;
        found = true;
        break;
      }
    }
    if (!found && missing) return *missing;
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
