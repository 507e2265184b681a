// Stage "init" of the solver (docs/design.md, "Solver"), internal to generator/: one forward
// pass over the domain that writes every entry's starting code, for both targets:
//  - kInvalid: broken index values, and placements where the side not to move is in check;
//  - 0 for the checkmated side, kNone for the other target and for stalemates (terminals);
//  - otherwise the best exit (exits.h): 1 + the subtable value over captures and promotions,
//    and 2 + the subtable value over double pushes that give the opponent an en passant capture
//    (the position reached has the en passant right the table leaves out); kUnknown without one.
// Row by row (rows.h, class InitRow in init_row.cpp): per row and side to move, masks over the
// last man's square decide most entries at once; entries with no safe king move (checkmates,
// stalemates, positions where only other men move) and double pushes that may allow en passant
// go through init_entry(), per-entry code on core's Position and legal move generation, as does
// every entry in debug builds, where both results must agree.
#pragma once

#include <functional>

#include "deadpos/table_set.h"
#include "exits.h"
#include "rows.h"

namespace deadpos::internal {

// Writes the starting codes of the four arrays of t (t.index set, arrays of its size). Returns
// the largest exit value seeded (plies): levels below it must run even with an empty frontier.
// OpenMP inside; report (may be empty) gets the fraction done, from OpenMP thread 0.
int init_pass(LoadedTable& t, const RowGeometry& geo, const Exits& exits, const TableSet& subtables,
              const std::function<void(double)>& report);

}  // namespace deadpos::internal
