// The locked-structure rule: pawns that can never move or be taken wall the men in, and a test on
// the squares each man can ever reach shows that no checkmate of one side can ever be built
// (docs/design.md, "Locked structures", gives the soundness argument). Internal to the analysis
// room; the search applies it at the root and after every pawn move or capture.
#pragma once

#include <string>

#include "deadpos/position.h"

namespace deadpos::internal {

// Whether the locked-structure rule proves that `mated` can never be checkmated by any sequence of
// legal moves from p. Sound for every legal position; incomplete (false means "not proven").
// Positions with an en passant square are not analysed (false): the pawn that just moved may be
// taken en passant. With `reason` non-null and a proof found, *reason gets it in words, e.g. "the
// pawns on d3, d4, d5 can never move or be taken; Black's king can only ever stand on a8, b8, where
// no man of White can ever give check". Pure function: thread-safe; a few microseconds.
bool locked_cannot_mate(const Position& p, Color mated, std::string* reason = nullptr);

}  // namespace deadpos::internal
