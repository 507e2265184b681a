// The parts of the command's output layer that need the generator (deadpos generate, verify,
// query): the progress printer and the material keys of a command line. Not thread-safe: call
// from one thread. Includes the generator headers these commands use.
#pragma once

#include <string>
#include <vector>

#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/result.h"
#include "deadpos/stats.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"

namespace deadpos::cli {

// Progress on standard error: a rewritten line with percent and ETA on a terminal; otherwise one
// plain line per table with the time of each phase.
ProgressFn make_progress();

// Material keys given on a command line, canonicalised; InvalidArgument for a bad key or more men
// than the generator builds (kMaxGenerateMen).
Result<std::vector<Material>> parse_materials(const std::vector<std::string>& keys);

}  // namespace deadpos::cli
