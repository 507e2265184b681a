// Stage "push" of the solver (push.h).
#include "push.h"

#include <array>

#include "common.h"
#include "deadpos/position.h"

namespace deadpos::internal {

namespace {

// Lowers a predecessor's value to v; true if it stored. Predecessors are legal, non-terminal
// positions, so their entry is never kInvalid or kNone (asserted; skipped in release builds).
bool store_min(std::uint8_t& slot, std::uint8_t v) {
  std::atomic_ref<std::uint8_t> r(slot);
  // Within one level every writer stores the same value v, so check-then-store cannot lose a
  // smaller value; atomic_ref makes the concurrent access well-defined.
  const std::uint8_t cur = r.load(std::memory_order_relaxed);
  assert(cur != DthmCode::kInvalid && cur != DthmCode::kNone);
  if (cur > v && cur != DthmCode::kInvalid && cur != DthmCode::kNone) {
    r.store(v, std::memory_order_relaxed);
    return true;
  }
  return false;
}

// Adds entry qi of target x to the next frontier (atomic).
void mark_next(const Level& l, std::uint64_t qi, Color x) {
  if (!l.f_next) return;
  const auto len = static_cast<std::uint64_t>(l.geo.row_len());
  const std::uint64_t row = qi / len;
  const std::uint64_t bit = std::uint64_t{1} << (qi % len + static_cast<std::uint64_t>(l.geo.row_base()));
  std::atomic_ref<std::uint64_t>(l.f_next->f[2 * row + static_cast<std::uint64_t>(to_index(x))])
      .fetch_or(bit, std::memory_order_relaxed);
}

#ifndef NDEBUG
// Men of colour `by` (slots of the index) attack square target given occupancy occ.
bool men_attack(const TableIndex& idx, const TableIndex::Squares& sq, Color by, Square target, Bitboard occ) {
  for (int j = 0; j < idx.men(); ++j) {
    const Piece p = idx.piece(j);
    if (color_of(p) != by) continue;
    const Square s = sq[static_cast<std::size_t>(j)];
    const PieceType pt = type_of(p);
    const Bitboard a = pt == PieceType::Pawn ? pawn_attacks(by, s) : attacks_of(pt, s, occ);
    if (a & square_bb(target)) return true;
  }
  return false;
}
#endif

// Un-moves of entry i (squares sq, canonical) of side l.s at level l.d, for the targets in e
// (DTHM_x == d). Returns the number of entries stored.
std::uint64_t push_entry(const Level& l, std::uint64_t i, const TableIndex::Squares& sq, const ByColor<bool>& e,
                         PushMode mode) {
  std::uint64_t stored = 0;
  const TableIndex& idx = l.idx;
  const RowGeometry& geo = l.geo;
  const Color s = l.s;
  const Color mover = l.mover();
  const int up = mover == Color::White ? 8 : -8;
  const std::uint8_t next = l.next();
  // With both kings on the a1-h8 diagonal the canonical symmetry of Q depends on the other
  // men, so every un-move needs a full encode there.
  const bool diag_kings =
      !idx.has_pawns() && file_index(sq[0]) == rank_index(sq[0]) && file_index(sq[1]) == rank_index(sq[1]);
  for_each_unmove(geo, sq, s, [&](int j, Square from, bool double_push, const TableIndex::Squares& q) {
    const Piece p = geo.piece(j);
    const bool king = type_of(p) == PieceType::King;
#ifndef NDEBUG
    {
      Bitboard occ_q = 0;
      for (int k = 0; k < idx.men(); ++k) occ_q |= square_bb(q[static_cast<std::size_t>(k)]);
      assert(!men_attack(idx, q, mover, sq[s == Color::White ? 0 : 1], occ_q));
    }
#endif
    if (mode == PushMode::kSpecial) {
      Edge edge{p, double_push, diag_kings, diag_kings, false};
      if (king) {
        const KingPair& kq = geo.king_pair(q[0], q[1]);
        edge.q_diag = kq.diag;
        edge.king_symmetry = kq.g != 0;
      }
      if (!l.pushed(edge)) return;  // the pull's edge
    }
    const Square to = sq[static_cast<std::size_t>(j)];
    if (l.d == 0 && double_push) {
      // P is a checkmate reached by a double push: with its en passant right it may not be
      // mate (section "En passant" of docs/design.md). The edge's exact value was seeded in
      // init; skip it here when an en passant capture exists.
      std::array<Piece, kMaxTableMen> pcs{};
      for (int k = 0; k < idx.men(); ++k) pcs[static_cast<std::size_t>(k)] = geo.piece(k);
      const Position pe = Position::from_men(pcs.data(), sq.data(), idx.men(), s, square_at(to_index(to) - up));
      if (has_ep_capture(pe)) return;
    }
    // Fast path: P is canonical, so moving a man that is alone of its kind changes only its
    // own field (kings fixed, so the symmetry stays the identity): the index moves by
    // (from - to) * stride.
    const std::uint64_t qi = (!king && !geo.grouped(j) && !diag_kings)
                                 ? i + static_cast<std::uint64_t>(to_index(from) - to_index(to)) * idx.stride(j)
                                 : idx.encode(q);
    assert(qi == idx.encode(q));
    for (Color x : {Color::White, Color::Black}) {
      if (!e[x]) continue;
      if (mode == PushMode::kCheck) {
        assert(l.q[x][qi] <= next);
        continue;
      }
      if (store_min(l.q[x][qi], next)) {
        mark_next(l, qi, x);
        ++stored;
      }
    }
  });
  return stored;
}

}  // namespace

std::uint64_t push_slot(const Level& l, int slot, PushMode mode) {
  const std::uint64_t s0 = l.idx.stride(0);
  const auto d = static_cast<std::uint8_t>(l.d);
  std::uint64_t stored = 0;
  TableIndex::Squares sq{};
  for (std::uint64_t i = static_cast<std::uint64_t>(slot) * s0; i < static_cast<std::uint64_t>(slot + 1) * s0; ++i) {
    const ByColor<bool> e{{l.p[Color::White][i] == d, l.p[Color::Black][i] == d}};
    if (!(e[Color::White] || e[Color::Black])) continue;
    const bool ok = l.idx.decode(i, sq);
    assert(ok);
    (void)ok;
    stored += push_entry(l, i, sq, e, mode);
  }
  return stored;
}

#ifndef NDEBUG
bool has_edge_to_level(const Level& l, const TableIndex::Squares& q, Color target) {
  const Position pos = position_of(l.idx, q, l.mover());
  for (Move m : pos.legal_moves()) {
    if (is_capture_or_promotion(pos, m)) continue;
    const Position after = pos.after(m);
    if (l.d == 0 && is_double_push(pos, m) && has_ep_capture(after)) continue;
    const std::uint64_t pi = l.idx.encode(l.idx.squares_of(after));
    if (l.p[target][pi] == l.d) return true;
  }
  return false;
}
#endif

}  // namespace deadpos::internal
