// Stage "pull" of the solver (docs/design.md, "Solver"), internal to generator/: the bulk of a
// level's edges, row by row of the predecessors.
//
// For every row of predecessors Q (side ~s to move) with entries still open (value > d + 1), the
// frontier masks of the rows the mover's quiet moves lead to are brought back into Q's frame and
// OR-ed; open entries of the result get d + 1. A move of a man other than the last changes the
// row, not the bit: one mask operation handles the move for all 64 squares of the last man. A
// king move goes to another slot through the symmetry that makes the new pair canonical (bitboard
// images of the symmetries). With both kings of P on the a1-h8 diagonal, P has two raw images
// (itself and its mirror in the diagonal); the non-canonical one is a broken entry, never in the
// frontier, so OR-ing the masks of both images gives the canonical one's bit. When the last man
// has one identical twin, P's twins may come in either order along the row; transposed masks give
// the other order (Level::t). The same pass writes the frontier masks of side ~s for level d + 1
// (the row is loaded anyway), so levels need no separate scan. Edges that pushed_edge() (level.h)
// names are left to the push.
#pragma once

#include <array>
#include <cstdint>

#include "level.h"
#include "rows.h"

namespace deadpos::internal {

// The next frontier's count in the rows a pull wrote.
struct PullCount {
  std::uint64_t entries = 0;
  ByColor<bool> any{};
};

// The pull over the rows of one kk slot of Q (the calling thread owns them and their words of
// the next frontier, so stores are plain).
class PullSlot {
 public:
  PullSlot(const Level& l, int slot);
  // Relaxes the slot's rows and writes their masks of l.f_next; returns their count.
  PullCount run();

 private:
  // The mover's king moves from this slot, with the slot and symmetry of the new pair.
  struct KingMove {
    Square t;
    KingPair kp;
  };
  // Candidates of a row (cand, a local of run(): kept in registers): bits of Q's entries with an
  // edge into the frontier; open: the row's open entries.
  void pull_row(std::uint64_t row, const TableIndex::Squares& sq, Bitboard occ_rest, const ByColor<std::uint64_t>& open,
                ByColor<std::uint64_t>& cand) const;
  static bool covered(const ByColor<std::uint64_t>& cand, const ByColor<std::uint64_t>& open) {
    return (cand[Color::White] & open[Color::White]) == open[Color::White] &&
           (cand[Color::Black] & open[Color::Black]) == open[Color::Black];
  }
  // The frontier masks of P's canonical row for the placement a (slots < last, king pair of
  // slot pslot; rest groups sorted here), the twins in either order.
  ByColor<std::uint64_t> source(int pslot, TableIndex::Squares& a) const;
  // P's image with squares a, seen from Q's frame through g (bit l of Q is bit g(l) of the
  // image); keep: Q's entries the move allows. With `mirrored`, the image is the mirror in the
  // diagonal of g's image.
  void pull_image(int pslot, int g, bool mirrored, TableIndex::Squares& a, Bitboard keep,
                  ByColor<std::uint64_t>& cand) const;
  // Both images of P when its kings are on the diagonal (pdiag), else the one.
  void pull_p(int pslot, int g, const TableIndex::Squares& ts, bool pdiag, Bitboard keep,
              ByColor<std::uint64_t>& cand) const;
  // Man j (2 <= j < last) of Q moves to t: the row changes, the bit does not (keep: the last man
  // must not stand on the path).
  void pull_move(std::uint64_t row, const TableIndex::Squares& sq, int j, Square t, Bitboard keep,
                 ByColor<std::uint64_t>& cand) const;
  // The last man moves: the row stays, the bit moves.
  void pull_last(std::uint64_t row, const TableIndex::Squares& sq, Bitboard occ_rest,
                 ByColor<std::uint64_t>& cand) const;

  const Level& l_;
  const RowGeometry& geo_;
  int slot_;
  std::uint64_t first_;  // first row of the slot
  const std::uint64_t* f_;
  const std::uint64_t* tr_;
  bool pair_;
  std::size_t ta_;  // the last man's twin, if pair_
  Color mover_;
  int last_;
  bool diag_;
  bool last_mine_;
  PieceType last_type_;
  int up_;
  Bitboard rank2_, rank4_, promo_rank_;
  std::array<KingMove, 8> kmoves_{};
  int nk_ = 0;
};

}  // namespace deadpos::internal
