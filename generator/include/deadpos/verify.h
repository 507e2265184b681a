// Independent verifier of tables (docs/design.md, "Verification"): forward legal move generation
// only, nothing of the solver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/progress.h"
#include "deadpos/result.h"
#include "deadpos/table_set.h"

namespace deadpos {

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
// Reports are in index order (White to move first; per entry White's target first), and the
// result is the same for any thread count.
VerifyResult verify(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
                    std::size_t max_report = 20);
// The first verifier, one entry at a time through core/ Position (legal_moves, after): same
// checks, same result fields and report lines, but about 10x slower and its reports in no fixed
// order when it runs on several threads. Kept as the test oracle of verify().
VerifyResult verify_reference(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
                              std::size_t max_report = 20);

// Computes the arrays of side `side` to move of t (both targets) from its other side's arrays and
// the subtables, by the verifier's forward move generation: every entry gets the value verify()
// requires of it (kInvalid exactly at entries that are not positions), so a table verify() passes
// is reproduced byte for byte. The building block of one-sided storage (docs/design.md, "Table
// size"): a side kept out of a file is rebuilt from the side kept in it. t's arrays of `side` are
// allocated if empty and overwritten. Precondition: t.has_side(~side) (DEADPOS_CHECK), subtables
// as for verify() (every side that moves of `side` enter). Errors: OutOfMemory (the two arrays).
// Progress as Phase::Verify. Not thread-safe in the sense of verify(); OpenMP inside, the same
// bytes for any thread count (each entry is a function of the inputs alone).
Status derive_side(LoadedTable& t, const TableSet& subtables, Color side, const ProgressFn& progress = nullptr);

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
  // damaged" or "subtable X is missing", or "subtable X was not checked (Y is damaged)", for the
  // first subtable (in successors() order) that cannot be used, followed by "; also missing: A, B"
  // when other subtable files are absent too (all are named in one run).
  std::optional<Error> error;
  std::string damaged;  // NotChecked: the key of the damaged table at the root of the dependency
  // The table file is intact and every entry agrees with its successors, so the tables that read
  // it can be checked, even when its verdict file failed (state Failed, error naming <KEY>.dpv:
  // CorruptTable, Io, or VerificationFailed "N of M verdict entries disagree with the table"; an
  // absent verdict file is not checked and fails nothing).
  bool table_ok = false;
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

}  // namespace deadpos
