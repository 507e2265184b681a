// Retrograde helpmate solver (docs/design.md, "Solver"; docs/format.md).
//
// For a canonical material and each target side X, the solver computes DTHM_X for every position
// of the table's domain (both sides to move): the number of plies of the shortest sequence of
// legal moves that ends with X checkmated, or "none". It is a breadth-first search over un-moves
// from the checkmates of X, seeded with the values of capture and promotion exits taken from the
// already-built subtables; each position's predecessors are generated once per target.
//
// core/ and generator/ never print: progress is reported through ProgressFn; errors are values.
#pragma once

#include "deadpos/material.h"
#include "deadpos/progress.h"
#include "deadpos/result.h"
#include "deadpos/table_set.h"

namespace deadpos {

// Solves a canonical material. Every subtable (m.successors()) must be present in `subtables`.
// Output: the four arrays of docs/format.md section 3 (DTHM in plies, or kNone/kInvalid), byte-
// identical for any number of OpenMP threads. Runs OpenMP teams; `progress` (may be empty) is
// called from OpenMP thread 0. Errors: InvalidArgument (not canonical, more than kMaxTableMen men,
// or a DTHM past the format's 250-ply limit), MissingTable (a subtable not loaded), OutOfMemory.
Result<LoadedTable> solve(const Material& m, const TableSet& subtables, const ProgressFn& progress);

}  // namespace deadpos
