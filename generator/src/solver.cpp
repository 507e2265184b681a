// Retrograde helpmate solver (docs/design.md, "Solver").
//
// State: one byte per index value per (side to move, side to be mated), codes of DthmCode.
// Phases:
//  1. init   - forward pass once over the domain: mark broken/illegal entries kInvalid, checkmates
//              0 (for the mated side), other terminals kNone, and seed every other position with
//              its best exit: 1 + subtable value over captures and promotions, and 2 + subtable
//              value over double pushes that give the opponent an en passant capture (the
//              position reached by such a push has the en passant right the table leaves out).
//  2. solve  - levels d = 0, 1, ...: every position whose value is d is expanded once; its
//              predecessors (un-moves of the side that just moved) get d + 1 if their value is
//              larger. This is a shortest-path search with integer buckets, so every value is
//              final when its level is expanded.
//  3. kUnknown -> kNone.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common.h"
#include "deadpos/solver.h"

namespace deadpos {

namespace {

constexpr std::uint8_t kNone = DthmCode::kNone;
constexpr std::uint8_t kUnknown = DthmCode::kUnknown;
constexpr std::uint8_t kInvalid = DthmCode::kInvalid;
// Parallel loops work on ranges of this many index values (a multiple of 64).
constexpr std::uint64_t kChunk = 1U << 14;

bool is_capture_or_promotion(const Position& pos, Move m) {
  return m.kind() == Move::Kind::Promotion || m.kind() == Move::Kind::EnPassant || pos.piece_on(m.to()) != kNoPiece;
}

bool is_double_push(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from())) == PieceType::Pawn && (to_index(m.to()) ^ to_index(m.from())) == 16;
}

// Whether the side to move of `after` (just reached by a double push, so it has the en passant
// square set by make_move) has a legal en passant capture.
bool has_ep_capture(const Position& after) {
  if (!after.en_passant()) return false;
  for (Move m : after.legal_moves())
    if (m.kind() == Move::Kind::EnPassant) return true;
  return false;
}

// Men of colour `by` (slots of the index) attack square target given occupancy occ.
bool men_attack(const TableIndex& idx, const TableIndex::Squares& sq, Color by, Square target, Bitboard occ) {
  for (int j = 0; j < idx.men(); ++j) {
    const Piece p = idx.piece(j);
    if (color_of(p) != by) continue;
    const Square s = sq[static_cast<std::size_t>(j)];
    Bitboard a = 0;
    switch (type_of(p)) {
      case PieceType::Pawn: a = pawn_attacks(by, s); break;
      case PieceType::Knight: a = knight_attacks(s); break;
      case PieceType::Bishop: a = bishop_attacks(s, occ); break;
      case PieceType::Rook: a = rook_attacks(s, occ); break;
      case PieceType::Queen: a = queen_attacks(s, occ); break;
      case PieceType::King: a = king_attacks(s); break;
    }
    if (a & square_bb(target)) return true;
  }
  return false;
}

using internal::position_of;

// Lowers a predecessor's value to v. Predecessors are legal, non-terminal positions, so their
// entry is never kInvalid or kNone (asserted; skipped in release builds to stay safe).
void store_min(std::uint8_t& slot, std::uint8_t v) {
  std::atomic_ref<std::uint8_t> r(slot);
  // Within one level every writer stores the same value v, so check-then-store cannot lose a
  // smaller value; atomic_ref makes the concurrent access well-defined.
  const std::uint8_t cur = r.load(std::memory_order_relaxed);
  assert(cur != kInvalid && cur != kNone);
  if (cur > v && cur != kInvalid && cur != kNone) r.store(v, std::memory_order_relaxed);
}

}  // namespace

TableIndex::Squares squares_of(const TableIndex& index, const Position& pos) {
  TableIndex::Squares sq{};
  int j = 0;
  while (j < index.men()) {
    const Piece p = index.piece(j);
    Bitboard b = pos.pieces(color_of(p), type_of(p));
    while (j < index.men() && index.piece(j) == p) {
      DEADPOS_CHECK(b != 0);
      sq[static_cast<std::size_t>(j++)] = pop_lsb(b);
    }
  }
  return sq;
}

Status TableSet::require(const Material& canonical) {
  if (find(canonical)) return Ok{};
  const std::string path = dir_ + "/" + table_file_name(canonical);
  auto t = load_table(path);
  if (!t) {
    if (t.error().code == ErrorCode::Io) {
      return make_error(ErrorCode::MissingTable, "table " + canonical.key() + " not found (" + t.error().message + ")");
    }
    return t.error();
  }
  add(canonical, std::move(*t));
  return Ok{};
}

void TableSet::add(const Material& m, std::unique_ptr<LoadedTable> t) {
  for (auto& [mm, tt] : tables_)
    if (mm == m) {
      tt = std::move(t);
      return;
    }
  tables_.emplace_back(m, std::move(t));
}

void TableSet::retain_only(const std::vector<Material>& keep) {
  std::erase_if(tables_, [&](const auto& e) { return std::find(keep.begin(), keep.end(), e.first) == keep.end(); });
}

const LoadedTable* TableSet::find(const Material& canonical) const {
  for (const auto& [m, t] : tables_)
    if (m == canonical) return t.get();
  return nullptr;
}

std::uint8_t TableSet::value(const Position& pos, Color mated) const {
  const Material m = Material::of(pos);
  if (m.is_canonical()) {
    const LoadedTable* t = find(m);
    DEADPOS_CHECK(t != nullptr);
    const std::uint64_t i = t->index.encode(squares_of(t->index, pos));
    return t->arrays[static_cast<std::size_t>(array_of(pos.side_to_move(), mated))][i];
  }
  const Position sw = pos.color_swapped();
  const LoadedTable* t = find(m.swapped());
  DEADPOS_CHECK(t != nullptr);
  const std::uint64_t i = t->index.encode(squares_of(t->index, sw));
  return t->arrays[static_cast<std::size_t>(array_of(sw.side_to_move(), ~mated))][i];
}

Result<std::unique_ptr<LoadedTable>> load_table(const std::string& path) {
  auto f = TableFile::open(path);
  if (!f) return f.error();
  auto t = std::make_unique<LoadedTable>();
  t->index = f->index();
  for (int a = 0; a < kNumArrays; ++a) {
    auto arr = f->read_array(a);
    if (!arr) return arr.error();
    t->arrays[static_cast<std::size_t>(a)] = std::move(*arr);
  }
  return t;
}

Result<LoadedTable> solve(const Material& m, const TableSet& subtables, const ProgressFn& progress) {
  auto index_r = TableIndex::make(m);
  if (!index_r) return index_r.error();
  LoadedTable out;
  out.index = *index_r;
  const TableIndex& idx = out.index;
  const std::uint64_t n = idx.size();
  for (auto& a : out.arrays) {
    try {
      a.assign(n, kUnknown);
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::OutOfMemory, m.key() + ": cannot allocate " + std::to_string(n * 4) + " bytes");
    }
  }
  for (const Material& s : m.successors()) {
    if (!subtables.find(s)) return make_error(ErrorCode::MissingTable, "subtable " + s.key() + " of " + m.key() + " is not loaded");
  }
  const std::string key = m.key();
  auto report = [&](const char* phase, double f) {
    if (progress) progress(Progress{key, phase, f});
  };
  const std::uint64_t chunks = (n + kChunk - 1) / kChunk;

  // Phase 1: init.
  std::atomic<std::uint64_t> done{0};
  int max_seed = 0;
  for (Color stm : {Color::White, Color::Black}) {
    std::uint8_t* to_w = out.arrays[static_cast<std::size_t>(array_of(stm, Color::White))].data();
    std::uint8_t* to_b = out.arrays[static_cast<std::size_t>(array_of(stm, Color::Black))].data();
#pragma omp parallel for schedule(dynamic, 1) reduction(max : max_seed)
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const std::uint64_t end = std::min(n, (c + 1) * kChunk);
      TableIndex::Squares sq;
      for (std::uint64_t i = c * kChunk; i < end; ++i) {
        if (!idx.decode(i, sq)) {
          to_w[i] = to_b[i] = kInvalid;
          continue;
        }
        const Position pos = position_of(idx, sq, stm);
        if (pos.attacked_by(stm, pos.king_square(~stm), pos.pieces())) {
          to_w[i] = to_b[i] = kInvalid;  // side not to move in check
          continue;
        }
        MoveList moves;
        pos.legal_moves(moves);
        if (moves.empty()) {
          const bool mate = pos.in_check();
          to_w[i] = (mate && stm == Color::White) ? 0 : kNone;
          to_b[i] = (mate && stm == Color::Black) ? 0 : kNone;
          continue;
        }
        ByColor<int> best{{kUnknown, kUnknown}};
        for (Move mv : moves) {
          if (is_capture_or_promotion(pos, mv)) {
            const Position after = pos.after(mv);
            for (Color x : {Color::White, Color::Black}) {
              const std::uint8_t v = subtables.value(after, x);
              if (v <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v + 1);
            }
          } else if (is_double_push(pos, mv)) {
            const Position after = pos.after(mv);
            if (!has_ep_capture(after)) continue;
            for (Move ep : after.legal_moves()) {
              if (ep.kind() != Move::Kind::EnPassant) continue;
              const Position after2 = after.after(ep);
              for (Color x : {Color::White, Color::Black}) {
                const std::uint8_t v = subtables.value(after2, x);
                if (v <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v + 2);
              }
            }
          }
        }
        DEADPOS_CHECK(best[Color::White] <= DthmCode::kMaxDthm || best[Color::White] == kUnknown);
        DEADPOS_CHECK(best[Color::Black] <= DthmCode::kMaxDthm || best[Color::Black] == kUnknown);
        to_w[i] = static_cast<std::uint8_t>(best[Color::White]);
        to_b[i] = static_cast<std::uint8_t>(best[Color::Black]);
        for (Color x : {Color::White, Color::Black})
          if (best[x] != kUnknown) max_seed = std::max(max_seed, best[x]);
      }
      const std::uint64_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (omp_get_thread_num() == 0 && (d & 63) == 0) report("init", static_cast<double>(d) / static_cast<double>(2 * chunks));
    }
    done.store(chunks, std::memory_order_relaxed);
  }
  report("init", 1.0);

  // Phase 2: level-by-level expansion, per target.
  std::array<Piece, kMaxTableMen> pieces{};
  for (int k = 0; k < idx.men(); ++k) pieces[static_cast<std::size_t>(k)] = idx.piece(k);
  for (Color x : {Color::White, Color::Black}) {
    for (int d = 0; d < DthmCode::kMaxDthm; ++d) {
      std::uint64_t expanded = 0;
      for (Color s : {Color::White, Color::Black}) {
        const std::uint8_t* cur = out.arrays[static_cast<std::size_t>(array_of(s, x))].data();
        std::uint8_t* pred = out.arrays[static_cast<std::size_t>(array_of(~s, x))].data();
        const Color mover = ~s;
        const int up = mover == Color::White ? 8 : -8;
        const auto next = static_cast<std::uint8_t>(d + 1);
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : expanded)
        for (std::uint64_t c = 0; c < chunks; ++c) {
          const std::uint64_t end = std::min(n, (c + 1) * kChunk);
          const void* hit = std::memchr(cur + c * kChunk, d, end - c * kChunk);
          if (!hit) continue;
          TableIndex::Squares sq;
          for (std::uint64_t i = static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(hit) - cur); i < end; ++i) {
            if (cur[i] != d) continue;
            ++expanded;
            const bool ok = idx.decode(i, sq);
            assert(ok);
            (void)ok;
            Bitboard occ = 0;
            for (int j = 0; j < idx.men(); ++j) occ |= square_bb(sq[static_cast<std::size_t>(j)]);
            const Square their_king = sq[s == Color::White ? 0 : 1];  // king of the side to move in P
            for (int j = 0; j < idx.men(); ++j) {
              const Piece p = idx.piece(j);
              if (color_of(p) != mover) continue;
              const Square to = sq[static_cast<std::size_t>(j)];
              const PieceType pt = type_of(p);
              Bitboard from_set;
              Bitboard double_from = 0;
              if (pt == PieceType::Pawn) {
                from_set = 0;
                const int rr = relative_rank(mover, to);
                const Square one = square_at(to_index(to) - up);
                if (rr >= 2 && !(occ & square_bb(one))) {
                  from_set |= square_bb(one);
                  if (rr == 3) {
                    const Square two = square_at(to_index(to) - 2 * up);
                    if (!(occ & square_bb(two))) double_from = square_bb(two);
                  }
                }
                from_set |= double_from;
              } else if (pt == PieceType::King) {
                from_set = king_attacks(to) & ~occ;
              } else {
                from_set = piece_attacks(pt, to, occ) & ~occ;
              }
              while (from_set) {
                const Square from = pop_lsb(from_set);
                TableIndex::Squares q = sq;
                q[static_cast<std::size_t>(j)] = from;
                if (pt == PieceType::King && square_distance(from, their_king) <= 1) continue;
                const Bitboard occ_q = occ ^ square_bb(to) ^ square_bb(from);
                // The side to move in P is not to move in Q: it must not be in check there.
                if (men_attack(idx, q, mover, their_king, occ_q)) continue;
                if (d == 0 && (double_from & square_bb(from))) {
                  // P is a checkmate reached by a double push: with its en passant right it may
                  // not be mate (section "En passant" of docs/design.md). The edge's exact value
                  // was seeded in init; skip it here when an en passant capture exists.
                  const Position pe =
                      Position::from_men(pieces.data(), sq.data(), idx.men(), s, square_at(to_index(to) - up));
                  if (has_ep_capture(pe)) continue;
                }
                store_min(pred[idx.encode(q)], next);
              }
            }
          }
        }
      }
      report("solve", static_cast<double>(d + 1) / 64.0 > 1 ? 1.0 : static_cast<double>(d + 1) / 64.0);
      if (expanded == 0 && d >= max_seed) break;
    }
  }
  for (auto& a : out.arrays)
    for (auto& v : a)
      if (v == kUnknown) v = kNone;
  report("solve", 1.0);
  return out;
}

}  // namespace deadpos
