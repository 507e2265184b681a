// Generation driver: builds tables and their subtables in dependency order and writes them
// (docs/format.md sections 5 and 6).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/progress.h"
#include "deadpos/result.h"
#include "deadpos/stats.h"

namespace deadpos {

// Largest material generate() builds. The index supports kMaxTableMen, but a 6-man pawnless table
// needs 4 x 462 x 64^4 bytes = 31 GB of arrays, more than the machines this project targets.
inline constexpr int kMaxGenerateMen = 5;

struct GenerateOptions {
  std::string out_dir;
  ProgressFn progress;
  int zstd_level = kZstdLevel;
  // Rebuild the targets even when their files exist and pass their checksums (a table that
  // verify or probe found wrong). Subtables that are not targets are still kept when intact.
  bool force = false;
  // Called once per table, right after its .json and .dpt are written (the statistics of a run
  // that fails or is killed later are not lost). May be empty. Called on the calling thread.
  std::function<void(const TableStats&)> on_table_written;
};
struct GenerateResult {
  std::vector<TableStats> built;     // tables generated in this run
  std::vector<std::string> skipped;  // tables present and intact (checksums verified)
  // Of the skipped: tables of an older format version, rewritten in the current one (same entries).
  std::vector<std::string> rewritten;
  std::vector<std::string> removed_temporaries;  // paths of stale temporary files removed
  // Kept tables whose <KEY>.json was absent or damaged (stats_json_intact): statistics recomputed
  // from the table and written
  // (their "seconds" are then the statistics' time, not the solve's).
  std::vector<std::string> restored_statistics;
  // Kept tables whose <KEY>.dpv was absent, damaged or not of this table: rewritten from the table.
  std::vector<std::string> restored_verdicts;
};
// Builds the targets and every missing subtable, in dependency order, writing <KEY>.json, then
// <KEY>.dpv (verdict file) and then <KEY>.dpt into out_dir, each atomically (temporary file +
// rename), so a table file always has its statistics and verdicts beside it (a kept table that
// lost either gets it back from its own arrays). A table file that exists and passes its checksums is kept (unless
// opt.force and it is a target); one of an older format version (format.md) is rewritten in the
// current one from its own entries, not solved again. Before anything is solved: out_dir must be writable (a file of
// the temporaries' naming is created and removed), and no .dpt or .json name of a table to build
// (nor .dpv) may be taken by something that is not a regular file (a FIFO, a directory: never replaced).
// Temporary files <KEY>.dpt.tmp.<pid> and <KEY>.json.tmp.<pid> (KEY a canonical material key) left
// in out_dir by a run that was killed (no process <pid> any more) are removed first; nothing else
// is ever removed. Errors: Io (directory, write, a name taken by a non-regular file),
// MissingTable/CorruptTable (a subtable that cannot be read; the message says how to rebuild it),
// OutOfMemory, InvalidArgument (a target of more than kMaxGenerateMen men). Not thread-safe (uses
// OpenMP inside).
Result<GenerateResult> generate(const std::vector<Material>& targets, const GenerateOptions& opt);

}  // namespace deadpos
