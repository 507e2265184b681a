// Stage "push" of the solver (docs/design.md, "Solver"), internal to generator/: per entry P of
// a level's frontier, the un-moves (predecessors Q, one quiet move before P) of the edges that
// pushed_edge() (level.h) leaves to it, relaxed with atomic stores.
#pragma once

#include <cstdint>

#include "deadpos/index.h"
#include "level.h"
#include "rows.h"

namespace deadpos::internal {

// Calls visit(j, from, double_push, q) for every un-move of the placement sq (side s to move):
// man j of the other side (the mover) goes back from its square to `from`, a quiet move (no
// capture, no promotion: those leave the table), and q is the predecessor's placement, a legal
// position with the mover to move (s not in check). Pawns go back one rank, or two from their
// fourth rank (a double push, double_push set). Not canonical: the caller encodes q.
template <typename Visit>
void for_each_unmove(const RowGeometry& geo, const TableIndex::Squares& sq, Color s, Visit&& visit) {
  const int men = geo.men();
  const Color mover = ~s;
  const int up = mover == Color::White ? 8 : -8;
  Bitboard occ = 0;
  for (int j = 0; j < men; ++j) occ |= square_bb(sq[static_cast<std::size_t>(j)]);
  const Square king = sq[s == Color::White ? 0 : 1];  // king of the side to move in P
  for (int j = 0; j < men; ++j) {
    const Piece p = geo.piece(j);
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
      from_set = attacks_of(pt, to, occ) & ~occ;
    }
    if (!from_set) continue;
    // Legality of the predecessor Q (man j back on `from`): the side to move in P is not to
    // move in Q, so it must not be in check there.
    //  (a) the man itself must not attack the king from `from` (its old square `to` is empty in
    //      Q; `from` never blocks its own line);
    const Bitboard occ_wo = occ ^ square_bb(to);
    switch (pt) {
      case PieceType::Pawn: from_set &= ~pawn_attacks(s, king); break;
      case PieceType::Knight: from_set &= ~knight_attacks(king); break;
      case PieceType::Bishop: from_set &= ~bishop_attacks(king, occ_wo); break;
      case PieceType::Rook: from_set &= ~rook_attacks(king, occ_wo); break;
      case PieceType::Queen: from_set &= ~queen_attacks(king, occ_wo); break;
      case PieceType::King: from_set &= ~king_attacks(king); break;
    }
    //  (b) another slider of the mover whose line to the king is open once `to` is empty must
    //      be blocked by the man on `from`; another pawn or knight of the mover giving check in
    //      P makes every un-move of man j illegal.
    for (int k = 0; k < men; ++k) {
      const Piece pk = geo.piece(k);
      if (k == j || color_of(pk) != mover) continue;
      const PieceType tk = type_of(pk);
      const Square sk = sq[static_cast<std::size_t>(k)];
      if (tk == PieceType::Pawn || tk == PieceType::Knight) {
        // A pawn or knight checking the king in P still checks it in Q.
        if ((tk == PieceType::Pawn ? pawn_attacks(mover, sk) : knight_attacks(sk)) & square_bb(king)) from_set = 0;
        continue;
      }
      if (tk == PieceType::King) continue;
      if (!(attacks_of(tk, sk, 0) & square_bb(king))) continue;
      const Bitboard line = between(sk, king);
      if (!(line & occ_wo)) from_set &= line;
    }
    while (from_set) {
      const Square from = pop_lsb(from_set);
      TableIndex::Squares q = sq;
      q[static_cast<std::size_t>(j)] = from;
      visit(j, from, (double_from & square_bb(from)) != 0, static_cast<const TableIndex::Squares&>(q));
    }
  }
}

// How push_slot() picks the edges of each frontier entry.
enum class PushMode {
  kAll,      // every un-move (a table without rows, KvK: there is no pull)
  kSpecial,  // the edges pushed_edge() leaves to the push
  kCheck     // debug builds: asserts that every predecessor is already at most d + 1
};

// The push over the frontier entries of one kk slot of level l (atomic stores and marks in
// l.f_next; runs after the pull of the level). Returns the number of entries stored.
std::uint64_t push_slot(const Level& l, int slot, PushMode mode);

}  // namespace deadpos::internal
