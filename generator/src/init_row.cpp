// Stage "init" of the solver (init_row.h): one forward pass over the domain, row by row.
#include "init_row.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common.h"

namespace deadpos::internal {

namespace {

constexpr std::uint8_t kUnknown = DthmCode::kUnknown;
constexpr std::uint8_t kInvalid = DthmCode::kInvalid;

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
    attacks |= attacks_of(type_of(pos.piece_on(s)), s, occ);
  }
  Bitboard pawns = pos.pieces(us, PieceType::Pawn);
  const Bitboard rank7 = us == Color::White ? rank_bb(6) : rank_bb(1);
  const Bitboard rank2 = us == Color::White ? rank_bb(1) : rank_bb(6);
  if (pawns & (rank7 | rank2)) return true;  // promotions; double pushes (ep checked later)
  while (pawns) attacks |= pawn_attacks(us, pop_lsb(pawns));
  return (attacks & targets) != 0;
}

// Men of colour `by` (slots of the index) attack square target given occupancy occ.

// Row by row. Per row (all men but the last fixed) and side to move, masks over
// the last man's square decide most entries at once:
//  - broken entries and "side not to move in check" (kInvalid);
//  - entries where the side to move has a safe king move (so a legal move: not terminal); their
//    exits (captures, promotions) are enumerated per row, each as a mask of the last man's
//    squares where it is legal, and valued from the subtables per entry;
//  - the rest (no safe king move: checkmates, stalemates, positions where only other men can
//    move; double pushes that may allow en passant) goes through init_entry(), the previous
//    per-entry code (Position and legal move generation), as does every entry in debug builds,
//    where both results must agree.

// The per-entry init: codes of entry sq (valid placement) with side to move stm, by target.
ByColor<std::uint8_t> init_entry(const TableIndex& idx, const TableSet& subtables, const TableIndex::Squares& sq,
                                 Color stm) {
  const Position pos = position_of(idx, sq, stm);
  if (pos.attacked_by(stm, pos.king_square(~stm), pos.pieces())) {
    return {{kInvalid, kInvalid}};  // side not to move in check
  }
  if (!pos.has_legal_move()) {
    ByColor<std::uint8_t> c{{DthmCode::kNone, DthmCode::kNone}};
    if (pos.in_check()) c[stm] = Dthm::in_plies(0).code();
    return c;
  }
  if (!may_leave_table(pos)) return {{kUnknown, kUnknown}};
  MoveList moves;
  pos.legal_moves(moves);
  ByColor<Dthm> best;
  for (Move mv : moves) {
    if (is_capture_or_promotion(pos, mv)) {
      const Position after = pos.after(mv);
      for (Color x : {Color::White, Color::Black})
        best[x] = min(best[x], Dthm::from_code(subtables.value(after, x)).before(1));
    } else if (is_double_push(pos, mv)) {
      const Position after = pos.after(mv);
      if (!has_ep_capture(after)) continue;
      for (Move ep : after.legal_moves()) {
        if (ep.kind() != Move::Kind::EnPassant) continue;
        const Position after2 = after.after(ep);
        for (Color x : {Color::White, Color::Black})
          best[x] = min(best[x], Dthm::from_code(subtables.value(after2, x)).before(2));
      }
    }
  }
  ByColor<std::uint8_t> c;
  for (Color x : {Color::White, Color::Black}) c[x] = best[x].is_none() ? kUnknown : best[x].code();
  return c;
}

// The subtable entered by an exit: which of its slots each man goes to, and whether its

struct InitCtx {
  const TableIndex& idx;
  const RowGeometry& geo;
  const TableSet& subtables;
  const Exits& exits;
};

// Attacks of a man of colour c and type pt on square s (pawns need the colour).
inline Bitboard man_attacks(Color c, PieceType pt, Square s, Bitboard occ) {
  switch (pt) {
    case PieceType::Pawn: return pawn_attacks(c, s);
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occ);
    case PieceType::Rook: return rook_attacks(s, occ);
    case PieceType::Queen: return queen_attacks(s, occ);
    case PieceType::King: return king_attacks(s);
  }
  return 0;
}

// One side to move on one row: the men of slots < last fixed (squares sq, occupancy occ).
class InitRow {
 public:
  InitRow(const InitCtx& c, Color us) : c_(c), us_(us), last_(c.geo.last()) {
    last_piece_ = c.geo.piece(last_);
    last_ours_ = color_of(last_piece_) == us;
  }

  // Mask over the last man's square l: square t is attacked by colour `by`, the men of slots
  // < last on sq (occupancy occ, slot `skip` captured) and the last man on l, which blocks lines
  // and attacks when it is of colour `by` and last_attacks.
  Bitboard attacked_mask(Square t, Color by, Bitboard occ, int skip, bool last_attacks) const {
    Bitboard m = 0;
    for (int j = 0; j < last_; ++j) {
      const Piece p = c_.geo.piece(j);
      if (j == skip || color_of(p) != by) continue;
      const Square s = sq_[static_cast<std::size_t>(j)];
      const PieceType pt = type_of(p);
      if (pt == PieceType::Pawn || pt == PieceType::Knight || pt == PieceType::King) {
        if (man_attacks(by, pt, s, 0) & square_bb(t)) return ~Bitboard{0};
        continue;
      }
      if (!(attacks_of(pt, s, 0) & square_bb(t))) continue;
      const Bitboard line = between(s, t);
      if (!(line & occ)) m |= ~line;  // attacked unless the last man stands in between
    }
    if (last_attacks && color_of(last_piece_) == by) {
      // Squares from which the last man attacks t (pawns: reversed colour).
      const PieceType pt = type_of(last_piece_);
      m |= pt == PieceType::Pawn ? pawn_attacks(~by, t) : attacks_of(pt, t, occ);
    }
    return m;
  }
  // Whether square t is attacked by colour `by` with all men of the after-position on `after`
  // (slot `skip` captured), occupancy occ.
  bool attacked(const TableIndex::Squares& after, Square t, Color by, Bitboard occ, int skip) const {
    for (int j = 0; j <= last_; ++j) {
      const Piece p = c_.geo.piece(j);
      if (j == skip || color_of(p) != by) continue;
      if (man_attacks(by, type_of(p), after[static_cast<std::size_t>(j)], occ) & square_bb(t)) return true;
    }
    return false;
  }

  // Codes of the cursor's row (len bytes at out[target]); max_seed gets the largest exit value.
  void run(RowCursor& cur, const ByColor<std::uint8_t*>& out, int& max_seed);

 private:
  // Exit for the entries in mask: `apply` puts the move into a copy of the squares (last man on
  // l already placed) and returns the sub map.
  template <typename Apply>
  void exits_on(Bitboard mask, Apply apply) {
    while (mask) {
      const Square l = pop_lsb(mask);
      TableIndex::Squares after = sq_;
      after[static_cast<std::size_t>(last_)] = l;
      const auto k = static_cast<std::size_t>(to_index(l));
      apply(after, [&](const SubMap& sm, const TableIndex::Squares& a) {
        lower(k, Exits::values_after(sm, a, c_.geo.men(), us_));
      });
    }
  }

  // Exit for the entries in mask whose position after differs along the row only in the square
  // of man u, which stands on the last man's square l (u is the last man, or the man that took
  // it); `after` holds the other men's squares after the move. The subtable index is then
  // base + field(h(l)) * stride, h = the colour swap's flip and the symmetry of the (fixed) king
  // pair: no encode() per entry, and consecutive entries of the row read nearby subtable bytes
  // (encode() and its cache misses were 40% of the init pass of KRPvKR).
  void exits_along(Bitboard mask, const SubMap& sm, TableIndex::Squares after, int u) {
    const RowGeometry& sg = *sm.geo;
    const TableIndex& si = sm.table->index;
    const int su = sm.slot[static_cast<std::size_t>(u)];
    TableIndex::Squares ss{};
    for (int j = 0; j < c_.geo.men(); ++j) {
      const int k = sm.slot[static_cast<std::size_t>(j)];
      if (k < 0 || j == u) continue;
      const Square s = after[static_cast<std::size_t>(j)];
      ss[static_cast<std::size_t>(k)] = sm.swapped ? flip_vertical(s) : s;
    }
    const KingPair& kp = sg.king_pair(ss[0], ss[1]);
    if (kp.diag || sg.grouped(su)) {
      exits_on(mask, [&](TableIndex::Squares& a, auto&& relax) {
        TableIndex::Squares b = after;
        b[static_cast<std::size_t>(u)] = a[static_cast<std::size_t>(last_)];
        relax(sm, b);
      });
      return;
    }
    TableIndex::Squares t{};
    for (int k = 2; k < si.men(); ++k)
      if (k != su) t[static_cast<std::size_t>(k)] = apply_symmetry(kp.g, ss[static_cast<std::size_t>(k)]);
    for (const auto& [a, b] : sg.groups())  // identical men in increasing square order
      for (int j = a + 1; j < b; ++j)
        for (int k = j; k > a && t[static_cast<std::size_t>(k - 1)] > t[static_cast<std::size_t>(k)]; --k)
          std::swap(t[static_cast<std::size_t>(k - 1)], t[static_cast<std::size_t>(k)]);
    std::uint64_t base = static_cast<std::uint64_t>(kp.slot) * si.stride(0);
    for (int k = 2; k < si.men(); ++k)
      if (k != su)
        base += static_cast<std::uint64_t>(to_index(t[static_cast<std::size_t>(k)]) - sg.field_base(k)) * si.stride(k);
    const ArrayView arr_w = sm.array(us_, Color::White);
    const ArrayView arr_b = sm.array(us_, Color::Black);
    // In a promotion slice (both arrays of one side share it) the row is linear too when the
    // man that varies comes after the promoted piece in the subtable's slots (the stride of a
    // lower field is unchanged by the compaction) and the promoted piece stands on the slice's
    // rank: the only row exits into a sliced subtable are push promotions of a man other than
    // the last, whose last man (their pawn, or a man of the other colour) has the higher slot.
    const RankSlice& sl = arr_w.slice;
    const std::uint64_t stride = si.stride(su);
    if (sl.active()) {
      DEADPOS_CHECK(su > sl.slot);
      base = sl.offset(base);
    }
    const int fb = sg.field_base(su);
    while (mask) {
      const Square l = pop_lsb(mask);
      const Square h = apply_symmetry(kp.g, sm.swapped ? flip_vertical(l) : l);
      const std::uint64_t i = base + static_cast<std::uint64_t>(to_index(h) - fb) * stride;
#ifndef NDEBUG
      TableIndex::Squares e = ss;
      e[static_cast<std::size_t>(su)] = sm.swapped ? flip_vertical(l) : l;
      assert(i == (sl.active() ? sl.offset(si.encode(e)) : si.encode(e)));
#endif
      const auto k = static_cast<std::size_t>(to_index(l));
      lower(k, {{Dthm::from_code(arr_w.data[i]), Dthm::from_code(arr_b.data[i])}});
    }
  }

  // Lowers the codes of entry k (last man on square k) to 1 + the values after an exit.
  void lower(std::size_t k, const ByColor<Dthm>& after) {
    for (Color x : {Color::White, Color::Black}) {
      const Dthm v = after[x].before(1);
      if (v.is_finite()) best_[x][k] = std::min(best_[x][k], v.code());
    }
  }

  const InitCtx& c_;
  Color us_;
  int last_;
  Piece last_piece_;
  bool last_ours_;
  TableIndex::Squares sq_{};
  // Codes by square of the last man (kInvalid, kUnknown, or the best exit so far).
  ByColor<std::array<std::uint8_t, 64>> best_{};
};

void InitRow::run(RowCursor& cur, const ByColor<std::uint8_t*>& out, int& max_seed) {
  const RowGeometry& geo = c_.geo;
  const TableIndex& idx = c_.idx;
  const int len = geo.row_len();
  const int base = geo.row_base();
  const Color them = ~us_;
  Bitboard occ = 0;
  if (!cur.valid(occ)) {
    for (Color x : {Color::White, Color::Black}) std::memset(out[x], kInvalid, static_cast<std::size_t>(len));
    return;
  }
  sq_ = cur.squares();
  const std::uint64_t row = cur.row();
  const auto slot = static_cast<int>(row / geo.rows_per_slot());
  const std::uint64_t first = row * static_cast<std::uint64_t>(len);
  Bitboard valid = geo.row_squares() & ~occ;
  if (geo.last_grouped()) valid &= ~((square_bb(sq_[static_cast<std::size_t>(last_ - 1)]) << 1) - 1);
  if (geo.slot_diag(slot)) {
    // Both kings on the a1-h8 diagonal: the larger of two mirror-image indices is broken. The
    // mirror's index is rowflip * 64 + flip(l) when the last man has no twin (encode() per entry
    // was 2% of the init pass on KRBvKR).
    TableIndex::Squares m = sq_;
    for (int j = 2; j < last_; ++j) m[static_cast<std::size_t>(j)] = flip_diagonal(sq_[static_cast<std::size_t>(j)]);
    geo.sort_rest_groups(m);
    const std::uint64_t mirror_first = geo.row_of(slot, m) * static_cast<std::uint64_t>(len);
    for (Bitboard b = valid; b;) {
      const Square l = pop_lsb(b);
      const std::uint64_t i = first + static_cast<std::uint64_t>(to_index(l) - base);
      TableIndex::Squares q = sq_;
      q[static_cast<std::size_t>(last_)] = l;
      const std::uint64_t canonical =
          geo.last_grouped()
              ? idx.encode(q)
              : std::min(i, mirror_first + static_cast<std::uint64_t>(to_index(flip_diagonal(l)) - base));
      assert(canonical == idx.encode(q));
      if (canonical != i) valid &= ~square_bb(l);
    }
  }
  const int ku = us_ == Color::White ? 0 : 1;
  const Square king = sq_[static_cast<std::size_t>(ku)];
  const Square their_king = sq_[static_cast<std::size_t>(1 - ku)];
  const Bitboard legal = valid & ~attacked_mask(their_king, us_, occ, -1, true);
  // Safe king moves (the king leaves its square, so sliders see through it).
  Bitboard ours = 0;
  std::array<int, 64> man_on{};  // slot of the man on a square (slots < last)
  for (int j = 0; j < last_; ++j) {
    const Square s = sq_[static_cast<std::size_t>(j)];
    man_on[static_cast<std::size_t>(to_index(s))] = j;
    if (color_of(geo.piece(j)) == us_) ours |= square_bb(s);
  }
  const Bitboard occ_nk = occ ^ square_bb(king);
  Bitboard safe = 0;
  for (Bitboard dests = king_attacks(king) & ~ours; dests;) {
    const Square e = pop_lsb(dests);
    const int skip = (occ & square_bb(e)) ? man_on[static_cast<std::size_t>(to_index(e))] : -1;
    Bitboard unsafe = attacked_mask(e, them, occ_nk, skip, true);
    if (last_ours_) unsafe |= square_bb(e);
    safe |= ~unsafe;
  }
  const Bitboard fast = legal & safe;
  Bitboard slow = legal & ~safe;
  const int up = us_ == Color::White ? 8 : -8;
  const Bitboard rank2 = us_ == Color::White ? rank_bb(1) : rank_bb(6);
  const Bitboard rank7 = us_ == Color::White ? rank_bb(6) : rank_bb(1);
  const Bitboard last_rank = us_ == Color::White ? rank_bb(7) : rank_bb(0);
  // Double pushes next to an enemy pawn (en passant): per entry.
  if (idx.material().count[them][PieceType::Pawn] > 0 && idx.material().count[us_][PieceType::Pawn] > 0) {
    Bitboard their_pawns = 0;
    for (int j = 2; j < last_; ++j)
      if (geo.piece(j) == make_piece(them, PieceType::Pawn)) their_pawns |= square_bb(sq_[static_cast<std::size_t>(j)]);
    const bool last_their_pawn = last_piece_ == make_piece(them, PieceType::Pawn);
    auto beside = [](Square t) { return king_attacks(t) & rank_bb(rank_index(t)); };
    for (int j = 2; j <= last_; ++j) {
      if (geo.piece(j) != make_piece(us_, PieceType::Pawn)) continue;
      if (j < last_) {
        const Square sp = sq_[static_cast<std::size_t>(j)];
        if (!(square_bb(sp) & rank2)) continue;
        const Square t2 = square_at(to_index(sp) + 2 * up);
        if ((their_pawns & beside(t2)) != 0) slow |= fast;
        if (last_their_pawn) slow |= fast & beside(t2);
      } else {
        for (Bitboard b = fast & rank2; b;) {
          const Square l = pop_lsb(b);
          if (their_pawns & beside(square_at(to_index(l) + 2 * up))) slow |= square_bb(l);
        }
      }
    }
  }
  for (Color x : {Color::White, Color::Black}) best_[x].fill(kInvalid);
  for (Bitboard b = fast & ~slow; b;) {
    const auto k = static_cast<std::size_t>(to_index(pop_lsb(b)));
    best_[Color::White][k] = best_[Color::Black][k] = kUnknown;
  }
  const Bitboard ex = fast & ~slow;
  const Exits& exits = c_.exits;
  // (A) a man of slots < last (king included) takes an enemy man of slots < last.
  for (int cj = 0; cj < last_; ++cj) {
    const Piece cp = geo.piece(cj);
    if (color_of(cp) != us_) continue;
    const PieceType ct = type_of(cp);
    const Square sc = sq_[static_cast<std::size_t>(cj)];
    for (int v = 2; v < last_; ++v) {
      if (color_of(geo.piece(v)) != them) continue;
      const Square sv = sq_[static_cast<std::size_t>(v)];
      if (!(man_attacks(us_, ct, sc, occ) & square_bb(sv))) continue;
      Bitboard mask = ex & ~between(sc, sv);
      if (ct == PieceType::King) {
        mask &= ~attacked_mask(sv, them, occ_nk, v, true);
      } else {
        mask &= ~attacked_mask(king, them, occ ^ square_bb(sc), v, true);
      }
      const bool promo = ct == PieceType::Pawn && (square_bb(sv) & last_rank);
      TableIndex::Squares a = sq_;
      a[static_cast<std::size_t>(cj)] = sv;
      for (int x = 0; x < (promo ? 4 : 1); ++x) exits_along(mask, exits.map(v, promo ? cj : -1, x), a, last_);
    }
  }
  // (B) a man of slots < last takes the last man.
  if (!last_ours_) {
    for (int cj = 0; cj < last_; ++cj) {
      const Piece cp = geo.piece(cj);
      if (color_of(cp) != us_) continue;
      const PieceType ct = type_of(cp);
      const Square sc = sq_[static_cast<std::size_t>(cj)];
      Bitboard mask = ex & man_attacks(us_, ct, sc, occ);
      if (ct == PieceType::King) {
        Bitboard defended = 0;
        for (int j = 0; j < last_; ++j)
          if (color_of(geo.piece(j)) == them)
            defended |= man_attacks(them, type_of(geo.piece(j)), sq_[static_cast<std::size_t>(j)], occ_nk);
        mask &= ~defended;
      } else {
        mask &= ~attacked_mask(king, them, occ ^ square_bb(sc), -1, false);
      }
      const Bitboard promo_mask = ct == PieceType::Pawn ? last_rank : 0;
      const SubMap& sm = exits.map(last_, -1, 0);
      if (ct == PieceType::King) {  // the king pair changes along the row
        exits_on(mask, [&](TableIndex::Squares& a, auto&& relax) {
          a[static_cast<std::size_t>(cj)] = a[static_cast<std::size_t>(last_)];
          relax(sm, a);
        });
      } else {
        exits_along(mask & ~promo_mask, sm, sq_, cj);
        if (mask & promo_mask) {
          for (int x = 0; x < 4; ++x) exits_along(mask & promo_mask, exits.map(last_, cj, x), sq_, cj);
        }
      }
    }
  }
  // (C) the last man takes an enemy man of slots < last: the position after does not depend on
  // where the last man came from.
  if (last_ours_) {
    const PieceType lt = type_of(last_piece_);
    for (int v = 2; v < last_; ++v) {
      if (color_of(geo.piece(v)) != them) continue;
      const Square sv = sq_[static_cast<std::size_t>(v)];
      const Bitboard from = lt == PieceType::Pawn ? pawn_attacks(them, sv) : attacks_of(lt, sv, occ);
      const Bitboard mask = ex & from;
      if (!mask) continue;
      TableIndex::Squares a = sq_;
      a[static_cast<std::size_t>(last_)] = sv;
      if (attacked(a, king, them, occ, v)) continue;
      const bool promo = lt == PieceType::Pawn && (square_bb(sv) & last_rank);
      for (int x = 0; x < (promo ? 4 : 1); ++x) {
        const SubMap& sm = exits.map(v, promo ? last_ : -1, x);
        const ByColor<Dthm> after = Exits::values_after(sm, a, geo.men(), us_);
        for (Bitboard b = mask; b;) lower(static_cast<std::size_t>(to_index(pop_lsb(b))), after);
      }
    }
  }
  // (D) promotions by a push.
  for (int pj = 2; pj <= last_; ++pj) {
    if (geo.piece(pj) != make_piece(us_, PieceType::Pawn)) continue;
    if (pj < last_) {
      const Square sp = sq_[static_cast<std::size_t>(pj)];
      if (!(square_bb(sp) & rank7)) continue;
      const Square dest = square_at(to_index(sp) + up);
      if (occ & square_bb(dest)) continue;
      const Bitboard mask =
          ex & ~square_bb(dest) & ~attacked_mask(king, them, occ ^ square_bb(sp) ^ square_bb(dest), -1, true);
      TableIndex::Squares a = sq_;
      a[static_cast<std::size_t>(pj)] = dest;
      for (int x = 0; x < 4; ++x) exits_along(mask, exits.map(-1, pj, x), a, last_);
    } else {
      for (Bitboard b = ex & rank7; b;) {
        const Square l = pop_lsb(b);
        const Square dest = square_at(to_index(l) + up);
        if (occ & square_bb(dest)) continue;
        TableIndex::Squares a = sq_;
        a[static_cast<std::size_t>(last_)] = dest;
        if (attacked(a, king, them, occ | square_bb(dest), -1)) continue;
        const auto k = static_cast<std::size_t>(to_index(l));
        for (int x = 0; x < 4; ++x) lower(k, Exits::values_after(exits.map(-1, last_, x), a, geo.men(), us_));
      }
    }
  }

  // Write the row: the codes by square (kInvalid where not legal), then the per-entry entries.
  for (Color x : {Color::White, Color::Black}) {
    std::memcpy(out[x], best_[x].data() + base, static_cast<std::size_t>(len));
    for (const std::uint8_t c : best_[x]) max_seed = std::max(max_seed, Dthm::from_code(c).plies());
  }
  for (Bitboard b = slow; b;) {
    const Square l = pop_lsb(b);
    const auto k = static_cast<std::size_t>(to_index(l) - base);
    TableIndex::Squares q = sq_;
    q[static_cast<std::size_t>(last_)] = l;
    const ByColor<std::uint8_t> c = init_entry(idx, c_.subtables, q, us_);
    for (Color x : {Color::White, Color::Black}) {
      out[x][k] = c[x];
      max_seed = std::max(max_seed, Dthm::from_code(c[x]).plies());
    }
  }
#ifndef NDEBUG
  for (Bitboard b = valid; b;) {
    const Square l = pop_lsb(b);
    const auto k = static_cast<std::size_t>(to_index(l) - base);
    TableIndex::Squares q = sq_;
    q[static_cast<std::size_t>(last_)] = l;
    const ByColor<std::uint8_t> c = init_entry(idx, c_.subtables, q, us_);
    assert(c[Color::White] == out[Color::White][k] && c[Color::Black] == out[Color::Black][k]);
    (void)c;
  }
#endif
}

}  // namespace

int init_pass(LoadedTable& t, const RowGeometry& geo, const Exits& exits, const TableSet& subtables,
              const std::function<void(double)>& report) {
  const TableIndex& idx = t.index;
  const std::uint64_t n = idx.size();
  const InitCtx ictx{idx, geo, subtables, exits};
  std::atomic<std::uint64_t> done{0};
  int max_seed = 0;
  for (Color stm : {Color::White, Color::Black}) {
    ByColor<std::uint8_t*> out;
    for (Color x : {Color::White, Color::Black}) out[x] = t.arrays(stm, x).data();
    if (!geo.has_rows()) {  // KvK
      TableIndex::Squares sq{};
      for (std::uint64_t i = 0; i < n; ++i) {
        ByColor<std::uint8_t> c{{kInvalid, kInvalid}};
        if (idx.decode(i, sq)) c = init_entry(idx, subtables, sq, stm);
        for (Color x : {Color::White, Color::Black}) out[x][i] = c[x];
      }
      continue;
    }
    const auto len = static_cast<std::uint64_t>(geo.row_len());
#pragma omp parallel for schedule(dynamic, 1) reduction(max : max_seed)
    for (int slot = 0; slot < geo.slots(); ++slot) {
      InitRow r(ictx, stm);
      RowCursor cur(geo, slot);
      for (std::uint64_t k = 0; k < geo.rows_per_slot(); ++k, cur.next()) {
        const ByColor<std::uint8_t*> row{{out[Color::White] + cur.row() * len, out[Color::Black] + cur.row() * len}};
        r.run(cur, row, max_seed);
      }
      const std::uint64_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (report && omp_get_thread_num() == 0 && (d & 15) == 0) {
        report(static_cast<double>(d) / static_cast<double>(2 * geo.slots()));
      }
    }
  }
  return max_seed;
}

}  // namespace deadpos::internal
