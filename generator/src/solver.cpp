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

// Cheap filter for the init pass: false only if no legal move of the side to move can capture,
// promote, or be a double push next to an enemy pawn (the moves whose value comes from outside
// the table). Conservative: true may still find no such move.
bool may_leave_table(const Position& pos) {
  const Color us = pos.side_to_move();
  const Bitboard occ = pos.pieces();
  const Bitboard targets = pos.pieces(~us) & ~pos.pieces(PieceType::King);
  if (!targets) {
    // No captures possible; only pawn moves can leave the table.
    if (!pos.pieces(us, PieceType::Pawn)) return false;
  }
  Bitboard attacks = 0;
  Bitboard b = pos.pieces(us) & ~pos.pieces(PieceType::Pawn);
  while (b) {
    const Square s = pop_lsb(b);
    attacks |= piece_attacks(type_of(pos.piece_on(s)), s, occ);
  }
  Bitboard pawns = pos.pieces(us, PieceType::Pawn);
  const Bitboard rank7 = us == Color::White ? rank_bb(6) : rank_bb(1);
  const Bitboard rank2 = us == Color::White ? rank_bb(1) : rank_bb(6);
  if (pawns & (rank7 | rank2)) return true;  // promotions; double pushes (ep checked later)
  while (pawns) attacks |= pawn_attacks(us, pop_lsb(pawns));
  return (attacks & targets) != 0;
}

// Men of colour `by` (slots of the index) attack square target given occupancy occ.
[[maybe_unused]] bool men_attack(const TableIndex& idx, const TableIndex::Squares& sq, Color by, Square target, Bitboard occ) {
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
        if (!pos.has_legal_move()) {
          const bool mate = pos.in_check();
          to_w[i] = (mate && stm == Color::White) ? 0 : kNone;
          to_b[i] = (mate && stm == Color::Black) ? 0 : kNone;
          continue;
        }
        if (!may_leave_table(pos)) {
          to_w[i] = to_b[i] = kUnknown;
          continue;
        }
        MoveList moves;
        pos.legal_moves(moves);
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
  std::array<bool, kMaxTableMen> grouped{};  // man shares its kind with another man
  for (int k = 0; k < idx.men(); ++k) pieces[static_cast<std::size_t>(k)] = idx.piece(k);
  for (int k = 2; k < idx.men(); ++k)
    for (int l = 2; l < idx.men(); ++l)
      if (k != l && pieces[static_cast<std::size_t>(k)] == pieces[static_cast<std::size_t>(l)])
        grouped[static_cast<std::size_t>(k)] = true;
  // Both targets share one expansion: a position whose value is d for either target generates its
  // un-moves once and relaxes the predecessors of each target at level d.
  for (int d = 0; d < DthmCode::kMaxDthm; ++d) {
    std::uint64_t expanded = 0;
    const auto next = static_cast<std::uint8_t>(d + 1);
    for (Color s : {Color::White, Color::Black}) {
      const std::uint8_t* cw = out.arrays[static_cast<std::size_t>(array_of(s, Color::White))].data();
      const std::uint8_t* cb = out.arrays[static_cast<std::size_t>(array_of(s, Color::Black))].data();
      std::uint8_t* pw = out.arrays[static_cast<std::size_t>(array_of(~s, Color::White))].data();
      std::uint8_t* pb = out.arrays[static_cast<std::size_t>(array_of(~s, Color::Black))].data();
      const Color mover = ~s;
      const int up = mover == Color::White ? 8 : -8;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : expanded)
      for (std::uint64_t c = 0; c < chunks; ++c) {
        const std::uint64_t end = std::min(n, (c + 1) * kChunk);
        TableIndex::Squares sq;
        for (std::uint64_t i = c * kChunk; i < end; ++i) {
          const bool ew = cw[i] == d;
          const bool eb = cb[i] == d;
          if (!(ew || eb)) continue;
          ++expanded;
          const bool ok = idx.decode(i, sq);
          assert(ok);
          (void)ok;
          Bitboard occ = 0;
          for (int j = 0; j < idx.men(); ++j) occ |= square_bb(sq[static_cast<std::size_t>(j)]);
          const Square king = sq[s == Color::White ? 0 : 1];  // king of the side to move in P
          // With both kings on the a1-h8 diagonal the canonical symmetry of Q depends on the
          // other men, so every un-move needs a full encode there.
          const bool diag_kings = !idx.has_pawns() && file_index(sq[0]) == rank_index(sq[0]) &&
                                  file_index(sq[1]) == rank_index(sq[1]);
          for (int j = 0; j < idx.men(); ++j) {
            const Piece p = pieces[static_cast<std::size_t>(j)];
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
            if (!from_set) continue;
            // Legality of the predecessor Q (man j back on `from`): the side to move in P is
            // not to move in Q, so it must not be in check there.
            //  (a) the man itself must not attack the king from `from` (its old square `to` is
            //      empty in Q; `from` never blocks its own line);
            const Bitboard occ_wo = occ ^ square_bb(to);
            switch (pt) {
              case PieceType::Pawn: from_set &= ~pawn_attacks(s, king); break;
              case PieceType::Knight: from_set &= ~knight_attacks(king); break;
              case PieceType::Bishop: from_set &= ~bishop_attacks(king, occ_wo); break;
              case PieceType::Rook: from_set &= ~rook_attacks(king, occ_wo); break;
              case PieceType::Queen: from_set &= ~queen_attacks(king, occ_wo); break;
              case PieceType::King: from_set &= ~king_attacks(king); break;
            }
            //  (b) another slider of the mover whose line to the king is open once `to` is empty
            //      must be blocked by the man on `from`; another pawn or knight of the mover
            //      giving check in P makes every un-move of man j illegal.
            for (int k = 0; k < idx.men(); ++k) {
              const Piece pk = pieces[static_cast<std::size_t>(k)];
              if (k == j || color_of(pk) != mover) continue;
              const PieceType tk = type_of(pk);
              const Square sk = sq[static_cast<std::size_t>(k)];
              if (tk == PieceType::Pawn || tk == PieceType::Knight) {
                // A pawn or knight checking the king in P still checks it in Q.
                if ((tk == PieceType::Pawn ? pawn_attacks(mover, sk) : knight_attacks(sk)) & square_bb(king)) from_set = 0;
                continue;
              }
              if (tk == PieceType::King) continue;
              if (!(piece_attacks(tk, sk, 0) & square_bb(king))) continue;
              const Bitboard line = between_bb(sk, king);
              if (!(line & occ_wo)) from_set &= line;
            }
            while (from_set) {
              const Square from = pop_lsb(from_set);
              TableIndex::Squares q = sq;
              q[static_cast<std::size_t>(j)] = from;
              assert(!men_attack(idx, q, mover, king, occ_wo | square_bb(from)));
              if (d == 0 && (double_from & square_bb(from))) {
                // P is a checkmate reached by a double push: with its en passant right it may
                // not be mate (section "En passant" of docs/design.md). The edge's exact value
                // was seeded in init; skip it here when an en passant capture exists.
                const Position pe =
                    Position::from_men(pieces.data(), sq.data(), idx.men(), s, square_at(to_index(to) - up));
                if (has_ep_capture(pe)) continue;
              }
              // Fast path: P is canonical, so moving a man that is alone of its kind changes only
              // its own field (kings fixed, so the symmetry stays the identity): the index moves
              // by (from - to) * stride. Checked against encode() by assert in debug builds
              // (the test suite runs the solver in the sanitizer build).
              const std::uint64_t qi =
                  (pt != PieceType::King && !grouped[static_cast<std::size_t>(j)] && !diag_kings)
                      ? i + static_cast<std::uint64_t>(to_index(from) - to_index(to)) * idx.stride(j)
                      : idx.encode(q);
              assert(qi == idx.encode(q));
              if (ew) store_min(pw[qi], next);
              if (eb) store_min(pb[qi], next);
            }
          }
        }
      }
    }
    report("solve", std::min(1.0, static_cast<double>(d + 1) / 64.0));
    if (expanded == 0 && d >= max_seed) break;
  }
  for (auto& a : out.arrays)
    for (auto& v : a)
      if (v == kUnknown) v = kNone;
  report("solve", 1.0);
  return out;
}

}  // namespace deadpos
