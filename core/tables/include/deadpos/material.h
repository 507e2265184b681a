// Material signatures ("material keys") such as KBvKN: White's men, 'v', Black's men, each side
// ordered K Q R B N P (the usual Nalimov/Syzygy convention).
//
// A table is built for the canonical orientation of a material only; the colour-swapped material
// is answered by mirroring the board vertically and swapping colours (docs/format.md, section
// "Materials"). Symmetric materials (KNvKN) are their own swap.
// All functions are pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "deadpos/result.h"
#include "deadpos/types.h"

namespace deadpos {

class Position;
struct SuccessorSides;

struct Material {
  // count[colour][piece type], kings included (always exactly one each).
  ByColor<ByPieceType<int>> count{};

  // Parses "KBvKN" (case-sensitive piece letters, exactly one K per side, at most 8 pawns and
  // 16 men a side). Errors: ErrorCode::InvalidArgument naming the key and the problem.
  static Result<Material> parse(std::string_view key);
  // Material of the men on the board of pos.
  static Material of(const Position& pos);

  std::string key() const;
  int men() const;
  int men(Color c) const;
  bool has_pawns() const { return count[Color::White][PieceType::Pawn] + count[Color::Black][PieceType::Pawn] > 0; }
  // Colours swapped (KNvKB -> KBvKN).
  Material swapped() const;
  // Canonical orientation: the side with the stronger men is White (comparison by men count, then
  // by piece types Q, R, B, N, P in order). is_canonical() is true for that orientation and for
  // symmetric materials.
  bool is_canonical() const;
  bool is_symmetric() const { return swapped() == *this; }
  Material canonical() const { return is_canonical() ? *this : swapped(); }

  // Non-king men in table order: White's Q R B N P, then Black's Q R B N P. These are the index
  // fields after the two kings (docs/format.md, section "Index").
  std::vector<Piece> non_king_men() const;

  // Canonical materials reachable by one capture or promotion (what must be built first).
  std::vector<Material> successors() const;
  // The same materials, in the same order, each with the sides to move its positions have when
  // reached by one move from this material (SuccessorSides).
  std::vector<SuccessorSides> successor_sides() const;

  bool operator==(const Material&) const = default;
};

// A subtable and the sides to move of the positions entered in it by one move (in its canonical
// orientation: after a move of c, ~c is to move; in a colour-swapped table the side to move swaps
// too). A capture of a man of colour c (en passant included) and a capture by a promoting pawn of
// ~c leave c to move; a promotion of c without capture leaves ~c to move. The generator and the
// verifier read only these sides of a subtable (docs/design.md, "Subtables").
struct SuccessorSides {
  Material material;
  ByColor<bool> side_to_move;
};

// Every canonical material with 2..max_men men (kings included), in an order where every
// successor of a material comes before it. Deterministic. Precondition: 2 <= max_men <=
// kMaxTableMen (callers check; larger values are not meaningful for tables).
std::vector<Material> all_materials(int max_men);
// The canonical materials needed to build the targets (each canonicalised), including the targets
// themselves, in build order (every successor first).
std::vector<Material> build_order(const std::vector<Material>& targets);

}  // namespace deadpos
