// Position <-> index for one material (docs/format.md, section "Index"). One index serves both the
// solver and the file: entries are addressed by a king-pair slot and one field per non-king man.
//
//   index = kk_slot * stride(0) + sum over slots j >= 2 of field_j * stride(j)
//
// Pawnless materials use the 8-fold symmetry of the board: the White king is brought into the
// triangle a1-d1-d4 and, with the White king on the a1-h8 diagonal, the Black king on or below it
// (file >= rank): 462 king-pair slots. Each non-king man is a 6-bit field (square 0..63).
// Materials with pawns use only the left-right mirror: White king on files a-d, 32 x 64 = 2048
// king-pair slots (adjacent or equal kings are broken slots); a pawn field is square-8 (0..47).
//
// Some index values are not positions ("broken" entries: two men on one square, identical men out
// of order, or a non-canonical duplicate when both kings stand on the a1-h8 diagonal). decode()
// reports them; the solver stores kInvalid there.
//
// Thread-safety: immutable after make(); all methods are const and thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/types.h"

namespace deadpos {

// Maximum number of men (kings included) a table may have.
inline constexpr int kMaxTableMen = 7;

// The 8 symmetries of the square board, as 3 bits: bit 0 = flip_diagonal (applied first),
// bit 1 = flip_horizontal, bit 2 = flip_vertical.
constexpr Square apply_symmetry(int g, Square s) {
  if (g & 1) s = flip_diagonal(s);
  if (g & 2) s = flip_horizontal(s);
  if (g & 4) s = flip_vertical(s);
  return s;
}

class TableIndex {
 public:
  // Squares in slot order: [White king, Black king, non-king men in Material::non_king_men() order].
  using Squares = std::array<Square, kMaxTableMen>;

  // Errors: InvalidArgument if m is not canonical or has more than kMaxTableMen men.
  static Result<TableIndex> make(const Material& m);

  const Material& material() const { return material_; }
  bool has_pawns() const { return pawns_; }
  int men() const { return men_; }
  // Piece in slot j (0 = White king, 1 = Black king, ...).
  Piece piece(int j) const { return pieces_[static_cast<std::size_t>(j)]; }
  // Number of index values (entries per side-to-move array).
  std::uint64_t size() const { return size_; }
  // stride(0): of the king-pair slot; stride(j), j >= 2: of the man in slot j (the last man has 1);
  // stride(1) is unused (0).
  std::uint64_t stride(int slot) const { return strides_[static_cast<std::size_t>(slot)]; }
  int kk_slots() const { return pawns_ ? 2048 : 462; }

  // Canonical index of a placement. Precondition: a legal placement of this material (distinct
  // squares, kings not adjacent, pawns on ranks 2-7), men of one kind in any order.
  std::uint64_t encode(const Squares& sq) const;
  // Squares of pos's men in slot order (men of one kind in board order), ready for encode().
  // Precondition: Material::of(pos) == material(), i.e. the caller has already colour-swapped a
  // position of the swapped material (partly checked: aborts if a kind has fewer men than the
  // material; extra men are not detected).
  Squares squares_of(const Position& pos) const;
  // The canonical placement of index i; false for a broken entry (see above).
  bool decode(std::uint64_t i, Squares& sq) const;
  // Number of raw placements (no symmetry reduction, identical men unordered) that encode to
  // the valid entry i whose placement is sq: the size of its symmetry orbit (8 or 4 without pawns,
  // 2 with pawns).
  int multiplicity(const Squares& sq) const;

  // Range of the last man's field (64, or 48 for a pawn); 1 for KvK, whose entries are king slots.
  // A "row" is the last_range() consecutive entries [row * last_range(), (row + 1) * last_range()).
  int last_range() const;
  // Which entries of a row are positions of the array with `stm` to move (docs/format.md, section
  // 4, "Broken entries"): bit f is set iff entry row * last_range() + f decodes (decode() true) and
  // the side not to move is not in check. The format v2 reader restores kInvalid from it (format.md
  // section 5); the result equals decode() plus Position::check_placement and an in-check test per
  // entry (tests/test_index.cpp), computed once per row on bitboards. Precondition: row <
  // size() / last_range().
  std::uint64_t row_positions(std::uint64_t row, Color stm) const;

 private:
  std::uint64_t raw_index(const Squares& sq, int g) const;
  // Squares of every slot of index value i < size() (kings from the king-pair slot); false when
  // the kings touch or coincide (a broken pawn-scheme slot). No other check.
  bool fill_squares(std::uint64_t i, Squares& sq) const;

  Material material_;
  bool pawns_ = false;
  int men_ = 0;
  std::array<Piece, kMaxTableMen> pieces_{};
  std::array<std::uint64_t, kMaxTableMen> strides_{};  // see stride()
  // Groups of identical men: [start, end) slot ranges with the same piece.
  std::vector<std::pair<int, int>> groups_;
  std::uint64_t size_ = 0;
};

}  // namespace deadpos
