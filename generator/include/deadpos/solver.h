// Retrograde helpmate solver, verifier and generation driver (docs/design.md, docs/format.md).
//
// For a canonical material and each target side X, the solver computes DTHM_X for every position
// of the table's domain (both sides to move): the number of plies of the shortest sequence of
// legal moves that ends with X checkmated, or "none". It is a breadth-first search over un-moves
// from the checkmates of X, seeded with the values of capture and promotion exits taken from the
// already-built subtables; each position's predecessors are generated once per target.
//
// core/ and generator/ never print: progress is reported through ProgressFn; errors are values.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/table.h"

namespace deadpos {

// A table held in memory: its index and the four DTHM arrays (see table.h for the order).
struct LoadedTable {
  TableIndex index;
  std::array<std::vector<std::uint8_t>, kNumArrays> arrays;
};

// Tables by material, loaded from a directory on demand or added after generation.
// require(), add() and retain_only() are not thread-safe; find() and value() are const and
// thread-safe once the tables they need are present (call require() before a parallel section).
class TableSet {
 public:
  explicit TableSet(std::string dir) : dir_(std::move(dir)) {}
  // Loads (and checks: load_table) the table of a canonical material, if not already present.
  // Errors: MissingTable (absent file), Io (unreadable or not a regular file), CorruptTable naming
  // the file, OutOfMemory.
  Status require(const Material& canonical);
  void add(const Material& m, std::unique_ptr<LoadedTable> t);
  // Drops every table except those in keep.
  void retain_only(const std::vector<Material>& keep);
  // Table of a canonical material, or nullptr.
  const LoadedTable* find(const Material& canonical) const;
  // Byte code of DTHM of `mated` in pos (no castling rights; an en passant right is ignored:
  // callers handle it). pos's material may be in either orientation. Precondition: its table is
  // present (require()).
  std::uint8_t value(const Position& pos, Color mated) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::vector<std::pair<Material, std::unique_ptr<LoadedTable>>> tables_;
};

struct Progress {
  std::string material;
  std::string phase;  // "init", "solve", "stats", "write", "verify"
  double fraction;    // 0..1 within the phase
};
using ProgressFn = std::function<void(const Progress&)>;

// Statistics of one table, in raw positions (no symmetry reduction: every placement of the men
// counts once, identical men unordered), per side to move (index 0 White, 1 Black).
struct SideStats {
  std::uint64_t positions = 0;   // potentially legal positions
  std::uint64_t checkmates = 0;  // side to move checkmated
  std::uint64_t stalemates = 0;
  std::uint64_t white_can_mate = 0;  // DTHM of Black finite
  std::uint64_t black_can_mate = 0;  // DTHM of White finite
  std::uint64_t dead = 0;            // neither finite (FIDE 5.2.2)
  // max_dthm[mated]: longest finite DTHM (plies) with `mated` the side to be mated; -1 if none.
  ByColor<int> max_dthm{{-1, -1}};
  // histogram[mated][d]: positions with DTHM of `mated` = d plies.
  ByColor<std::vector<std::uint64_t>> histogram;
};
struct BishopClassStats {
  std::string colours;  // one letter per bishop in table order: 'L' light, 'D' dark
  std::array<SideStats, 2> side;
};
struct TableStats {
  std::string material;
  std::array<SideStats, 2> side;
  std::vector<BishopClassStats> bishop_classes;  // empty without bishops
  double seconds = 0;
  std::uint64_t peak_rss_bytes = 0;
};

// Solves a canonical material. Every subtable (m.successors()) must be present in `subtables`.
// Output: the four arrays of docs/format.md section 3 (DTHM in plies, or kNone/kInvalid), byte-
// identical for any number of OpenMP threads. Runs OpenMP teams; `progress` (may be empty) is
// called from OpenMP thread 0. Errors: InvalidArgument (not canonical, more than kMaxTableMen men,
// or a DTHM past the format's 250-ply limit), MissingTable (a subtable not loaded), OutOfMemory.
Result<LoadedTable> solve(const Material& m, const TableSet& subtables, const ProgressFn& progress);

// Statistics of a solved table (needs only the table itself).
TableStats compute_stats(const LoadedTable& t, const ProgressFn& progress);

// Independent verifier: re-derives every entry from its successors by forward legal move
// generation (core/ Position), using the table itself and its subtables, and checks the domain
// (kInvalid exactly where the placement is not a legal table position). Returns the number of
// mismatches; up to max_report of them are described (with FEN) in `report`.
// checked: index values x 2 sides to move; mismatches: per (entry, target side), so at most
// 2 x checked. Precondition: every subtable present (aborts otherwise). Thread-safe in the sense
// of solve(): one call at a time per TableSet, OpenMP inside.
struct VerifyResult {
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;
  std::vector<std::string> report;
};
VerifyResult verify(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
                    std::size_t max_report = 20);

// One table's outcome in verify_tables().
struct TableVerdict {
  enum class State {
    Ok,         // every entry agrees with its successors
    Failed,     // the file could not be read or checked, or entries disagree (error says which)
    NotChecked  // a table it reads is damaged: no verdict on this one (error names that table)
  };
  std::string name;  // material key, or the file name of a .dpt file whose name is not a table's
  State state = State::Ok;
  VerifyResult result;  // entries checked and mismatches (Ok, or Failed by mismatches)
  // Failed: VerificationFailed (mismatches), or what the reader returned for the file: MissingTable
  // (absent), Io (unreadable, not a regular file), CorruptTable (bad bytes, or a .dpt name that is
  // not a table's), OutOfMemory. NotChecked: the damaged table's category and "subtable X is
  // damaged" or "subtable X is missing", or "subtable X was not checked (Y is damaged)".
  std::optional<Error> error;
  std::string damaged;  // NotChecked: the key of the damaged table at the root of the dependency
};
struct VerifyTablesOptions {
  std::string dir;
  std::vector<Material> materials;  // canonical materials; empty: every <KEY>.dpt file in dir
  ProgressFn progress;
  std::function<void(const TableVerdict&)> on_table;  // once per table, in order, may be empty
  std::size_t max_report = 20;                        // mismatch descriptions per table
};
// Verifies tables of one directory (verify() on each, with its subtables from the same directory)
// in dependency order, subtables first, and goes on after a failure: every table gets a verdict.
// A table is not checked when a subtable it reads cannot be loaded, or failed or was not checked
// in this run (its own values would be judged against wrong ones). Subtables that are not verified
// in this run are only loaded (all checks of load_table). Files named *.dpt whose name is not a
// canonical key of at most kMaxGenerateMen men are Failed (CorruptTable), after the tables.
// Errors, before any table is checked: Io (dir cannot be listed), MissingTable (no *.dpt file in
// dir and no materials given). Not thread-safe (OpenMP inside).
Result<std::vector<TableVerdict>> verify_tables(const VerifyTablesOptions& opt);

// JSON text of the statistics (written beside a table as <KEY>.json).
std::string stats_to_json(const TableStats& s);

// Largest material generate() builds. The index supports kMaxTableMen, but a 6-man pawnless table
// needs 4 x 462 x 64^4 bytes = 31 GB of arrays, more than the machines this project targets.
inline constexpr int kMaxGenerateMen = 5;

struct GenerateOptions {
  std::string out_dir;
  ProgressFn progress;
  int zstd_level = 9;
  // Rebuild the targets even when their files exist and pass their checksums (a table that
  // verify or probe found wrong). Subtables that are not targets are still kept when intact.
  bool force = false;
  // Called once per table, right after its .json and .dpt are written (the statistics of a run
  // that fails or is killed later are not lost). May be empty. Called on the calling thread.
  std::function<void(const TableStats&)> on_table_written;
};
struct GenerateResult {
  std::vector<TableStats> built;                 // tables generated in this run
  std::vector<std::string> skipped;              // tables present and intact (checksums verified)
  std::vector<std::string> removed_temporaries;  // paths of stale temporary files removed
  // Kept tables whose <KEY>.json was absent: statistics recomputed from the table and written
  // (their "seconds" are then the statistics' time, not the solve's).
  std::vector<std::string> restored_statistics;
};
// Builds the targets and every missing subtable, in dependency order, writing <KEY>.json and
// then <KEY>.dpt into out_dir, each atomically (temporary file + rename), so a table file always
// has its statistics beside it. A table file that exists and passes its checksums is kept (unless
// opt.force and it is a target). Before anything is solved: out_dir must be writable (a file of
// the temporaries' naming is created and removed), and no .dpt or .json name of a table to build
// may be taken by something that is not a regular file (a FIFO, a directory: never replaced).
// Temporary files <KEY>.dpt.tmp.<pid> and <KEY>.json.tmp.<pid> (KEY a canonical material key) left
// in out_dir by a run that was killed (no process <pid> any more) are removed first; nothing else
// is ever removed. Errors: Io (directory, write, a name taken by a non-regular file),
// MissingTable/CorruptTable (a subtable that cannot be read; the message says how to rebuild it),
// OutOfMemory, InvalidArgument (a target of more than kMaxGenerateMen men). Not thread-safe (uses
// OpenMP inside).
Result<GenerateResult> generate(const std::vector<Material>& targets, const GenerateOptions& opt);

// Loads the table of canonical material m from a file into memory (checks everything: header,
// that the header names m, block checksums, file checksum, the header's per-array counts against
// the arrays). Errors: MissingTable (no such file), Io, CorruptTable, OutOfMemory, naming the path.
Result<std::unique_ptr<LoadedTable>> load_table(const std::string& path, const Material& m);

}  // namespace deadpos
