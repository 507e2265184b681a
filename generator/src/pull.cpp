// Stage "pull" of the solver (pull.h).
#include "pull.h"

#include <algorithm>
#include <bit>

namespace deadpos::internal {

PullSlot::PullSlot(const Level& l, int slot)
    : l_(l),
      geo_(l.geo),
      slot_(slot),
      first_(static_cast<std::uint64_t>(slot) * l.geo.rows_per_slot()),
      f_(l.f->f.data()),
      tr_(l.t),
      pair_(l.geo.last_pair()),
      ta_(static_cast<std::size_t>(l.geo.last() - 1)),
      mover_(l.mover()),
      last_(l.geo.last()),
      diag_(l.geo.slot_diag(slot)),
      last_mine_(color_of(l.geo.piece(l.geo.last())) == l.mover()),
      last_type_(type_of(l.geo.piece(l.geo.last()))),
      up_(l.mover() == Color::White ? 8 : -8),
      rank2_(l.mover() == Color::White ? rank_bb(1) : rank_bb(6)),
      rank4_(l.mover() == Color::White ? rank_bb(3) : rank_bb(4)),
      promo_rank_(l.mover() == Color::White ? rank_bb(7) : rank_bb(0)) {
  const Square kf = geo_.slot_king(slot, mover_);
  const Square ko = geo_.slot_king(slot, ~mover_);
  const Piece king = make_piece(mover_, PieceType::King);
  for (Bitboard b = king_attacks(kf) & ~king_attacks(ko); b;) {
    const Square t = pop_lsb(b);
    const KingPair& kp = mover_ == Color::White ? geo_.king_pair(t, ko) : geo_.king_pair(ko, t);
    if (l_.pushed(Edge{king, false, kp.diag, diag_, kp.g != 0})) continue;
    kmoves_[static_cast<std::size_t>(nk_++)] = {t, kp};
  }
}

ByColor<std::uint64_t> PullSlot::source(int pslot, TableIndex::Squares& a) const {
  geo_.sort_rest_groups(a);
  const std::uint64_t src = geo_.row_of(pslot, a);
  ByColor<std::uint64_t> m = l_.f->mask(src);
  if (pair_) {
    // The last man below its twin (on a[ta]): the transposed masks (Level::t).
    const Bitboard below = square_bb(a[ta_]) - 1;
    for (Color x : {Color::White, Color::Black})
      m[x] = (m[x] & ~below) | (tr_[2 * src + static_cast<std::uint64_t>(to_index(x))] & below);
  }
  return m;
}

void PullSlot::pull_image(int pslot, int g, bool mirrored, TableIndex::Squares& a, Bitboard keep,
                          ByColor<std::uint64_t>& cand) const {
  const ByColor<std::uint64_t> m = source(pslot, a);
  for (Color x : {Color::White, Color::Black})
    cand[x] |= symmetry_preimage(g, mirrored ? mirror_diagonal(m[x]) : m[x]) & keep;
}

void PullSlot::pull_p(int pslot, int g, const TableIndex::Squares& ts, bool pdiag, Bitboard keep,
                      ByColor<std::uint64_t>& cand) const {
  TableIndex::Squares a = ts;
  for (int j = 2; j < last_; ++j) a[static_cast<std::size_t>(j)] = apply_symmetry(g, ts[static_cast<std::size_t>(j)]);
  pull_image(pslot, g, false, a, keep, cand);
  if (!pdiag) return;
  for (int j = 2; j < last_; ++j)
    a[static_cast<std::size_t>(j)] = flip_diagonal(apply_symmetry(g, ts[static_cast<std::size_t>(j)]));
  pull_image(pslot, g, true, a, keep, cand);
}

void PullSlot::pull_move(std::uint64_t row, const TableIndex::Squares& sq, int j, Square t, Bitboard keep,
                         ByColor<std::uint64_t>& cand) const {
  if (!diag_ && !geo_.in_rest_group(j) && !(pair_ && j == static_cast<int>(ta_))) {
    const std::uint64_t src =
        row + static_cast<std::uint64_t>(to_index(t) - to_index(sq[static_cast<std::size_t>(j)])) * geo_.row_stride(j);
    cand[Color::White] |= f_[2 * src] & keep;
    cand[Color::Black] |= f_[2 * src + 1] & keep;
    return;
  }
  TableIndex::Squares ts = sq;
  ts[static_cast<std::size_t>(j)] = t;
  pull_p(slot_, 0, ts, diag_, keep, cand);
}

void PullSlot::pull_last(std::uint64_t row, const TableIndex::Squares& sq, Bitboard occ_rest,
                         ByColor<std::uint64_t>& cand) const {
  // Piece moves are symmetric (f reaches t iff t reaches f with the same other men), so the
  // sources' bits (P with the last man moved to t, canonical: both images on the diagonal, the
  // twins in either order) are dilated by the moves.
  ByColor<std::uint64_t> fm{};
  if (!pair_) {
    fm = l_.f->mask(row);
  } else {
    TableIndex::Squares a = sq;
    fm = source(slot_, a);
  }
  if (diag_) {
    TableIndex::Squares a = sq;
    for (int j = 2; j < last_; ++j) a[static_cast<std::size_t>(j)] = flip_diagonal(sq[static_cast<std::size_t>(j)]);
    const ByColor<std::uint64_t> m = source(slot_, a);
    for (Color x : {Color::White, Color::Black}) fm[x] |= mirror_diagonal(m[x]);
  }
  if (last_type_ == PieceType::Pawn) {
    // Single push f -> f + up (f on ranks 2-7); double push from the second rank.
    const Bitboard ok = geo_.row_squares() & ~occ_rest;
    const Bitboard mid_free = mover_ == Color::White ? ~(occ_rest >> 8) : ~(occ_rest << 8);
    const bool doubles = !l_.pushed(Edge{geo_.piece(last_), true, diag_, diag_, false});
    for (Color x : {Color::White, Color::Black}) {
      const std::uint64_t m = fm[x];
      Bitboard r = mover_ == Color::White ? m >> 8 : m << 8;
      if (doubles) r |= (mover_ == Color::White ? (m & rank4_) >> 16 : (m & rank4_) << 16) & mid_free;
      cand[x] |= r & ok;
    }
  } else {
    for (Color x : {Color::White, Color::Black}) {
      Bitboard r = 0;
      for (std::uint64_t m = fm[x]; m;) r |= attacks_of(last_type_, pop_lsb(m), occ_rest);
      cand[x] |= r & ~occ_rest;
    }
  }
}

void PullSlot::pull_row(std::uint64_t row, const TableIndex::Squares& sq, Bitboard occ_rest,
                        const ByColor<std::uint64_t>& open, ByColor<std::uint64_t>& cand) const {
  // Candidates, move by move; stops once every open entry is one (in the middle levels most rows
  // are covered by the first men's moves).
  const std::uint64_t rps = geo_.rows_per_slot();
  for (int k = 0; k < nk_; ++k) {
    const KingMove& km = kmoves_[static_cast<std::size_t>(k)];
    if (occ_rest & square_bb(km.t)) continue;
    if (km.kp.g == 0 && !km.kp.diag) {
      const std::uint64_t src = static_cast<std::uint64_t>(km.kp.slot) * rps + (row - first_);
      cand[Color::White] |= f_[2 * src];
      cand[Color::Black] |= f_[2 * src + 1];
    } else {
      pull_p(km.kp.slot, km.kp.g, sq, km.kp.diag, ~Bitboard{0}, cand);
    }
  }
  if (covered(cand, open)) return;
  for (int j = 2; j < last_; ++j) {
    const Piece p = geo_.piece(j);
    if (color_of(p) != mover_) continue;
    if (l_.pushed(Edge{p, false, diag_, diag_, false})) continue;
    const Square fs = sq[static_cast<std::size_t>(j)];
    const PieceType pt = type_of(p);
    if (pt == PieceType::Pawn) {
      const Square t = square_at(to_index(fs) + up_);
      if ((occ_rest | promo_rank_) & square_bb(t)) continue;
      pull_move(row, sq, j, t, ~Bitboard{0}, cand);
      if ((square_bb(fs) & rank2_) && !l_.pushed(Edge{p, true, diag_, diag_, false})) {
        const Square t2 = square_at(to_index(t) + up_);
        if (!(occ_rest & square_bb(t2))) pull_move(row, sq, j, t2, ~square_bb(t), cand);
      }
      continue;
    }
    for (Bitboard targets = attacks_of(pt, fs, occ_rest) & ~occ_rest; targets;) {
      const Square t = pop_lsb(targets);
      pull_move(row, sq, j, t, ~between(fs, t), cand);
    }
    if (covered(cand, open)) return;
  }
  if (last_mine_ && !l_.pushed(Edge{geo_.piece(last_), false, diag_, diag_, false})) pull_last(row, sq, occ_rest, cand);
}

PullCount PullSlot::run() {
  const std::uint64_t rps = geo_.rows_per_slot();
  std::uint64_t* fn = l_.f_next->f.data();
  PullCount out;
  if (geo_.slot_broken(slot_)) {
    std::fill(fn + 2 * first_, fn + 2 * (first_ + rps), std::uint64_t{0});
    return out;
  }
  const int len = geo_.row_len();
  const int base = geo_.row_base();
  const std::uint8_t next = l_.next();
  RowCursor cur(geo_, slot_);
  for (std::uint64_t row = first_; row < first_ + rps; ++row, cur.next()) {
    Bitboard occ_rest = 0;
    if (!cur.valid(occ_rest)) {
      l_.f_next->set(row, {});
      continue;
    }
    const TableIndex::Squares& sq = cur.squares();
    const std::uint64_t off = row * static_cast<std::uint64_t>(len);
    ByColor<std::uint64_t> eq{};
    ByColor<std::uint64_t> open{};
    for (Color x : {Color::White, Color::Black}) {
      std::uint64_t e;
      std::uint64_t o;
      row_masks(l_.q[x] + off, len, next, e, o);
      eq[x] = e << base;
      open[x] = l_.f->any[x] ? o << base : 0;
    }
    if (open[Color::White] | open[Color::Black]) {
      ByColor<std::uint64_t> cand{};
      pull_row(row, sq, occ_rest, open, cand);
      for (Color x : {Color::White, Color::Black}) {
        const std::uint64_t upd = cand[x] & open[x];
        std::uint8_t* q = l_.q[x] + off;
        for (std::uint64_t u = upd >> base; u; u &= u - 1) {
          const int k = std::countr_zero(u);
#ifndef NDEBUG
          TableIndex::Squares qs = sq;
          qs[static_cast<std::size_t>(last_)] = square_at(k + base);
          assert(has_edge_to_level(l_, qs, x));
#endif
          q[k] = next;
        }
        eq[x] |= upd;
      }
    }
    l_.f_next->set(row, eq);
    out.entries += static_cast<std::uint64_t>(std::popcount(eq[Color::White] | eq[Color::Black]));
    for (Color x : {Color::White, Color::Black}) out.any[x] = out.any[x] || eq[x] != 0;
  }
  return out;
}

}  // namespace deadpos::internal
