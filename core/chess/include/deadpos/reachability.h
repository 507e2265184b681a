// Positions no game can reach (FIDE 3.10.3: a position is reached by legal moves from the initial
// position): the signs of such a position that are cheap and certain, as warnings. A position
// with a warning is still answered (its moves are legal moves), but no rule whose soundness
// argument assumes that the position was reached by a move may decide it (docs/design.md,
// "Beyond the tables: Positions no game can reach"). Every warning is certain: a position that a
// game can reach never gets one; a position without one may still be unreachable.
#pragma once

#include <cstdint>
#include <vector>

#include "deadpos/position.h"

namespace deadpos {

enum class PositionWarning : std::uint8_t {
  // The side to move is in check in a way no single move can give: more than two checkers, two
  // checkers that are not sliders, two sliders on one line through the king, or a double check
  // in which no checker could have moved off the other's line (nor captured en passant, nor
  // castled).
  ImpossibleCheck,
  // A side has more queens, rooks, knights and bishops of one square colour than its missing
  // pawns could have been promoted to (8 pawns, one queen, two rooks, two knights, one bishop of
  // each colour at the start).
  ImpossibleMaterial,
};

// "impossible-check", "impossible-material": stable identifiers (JSON "warnings", docs/cli.md).
const char* warning_name(PositionWarning w);
// A sentence for people: "the side to move is in check in a way no single move can give".
const char* warning_text(PositionWarning w);

// The warnings of pos, in PositionWarning order. Pure; thread-safe.
std::vector<PositionWarning> reachability_warnings(const Position& pos);

}  // namespace deadpos
