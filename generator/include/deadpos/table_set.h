// In-memory tables of the generator: a table's four DTHM arrays, the set of tables by material,
// and loading a table file whole (docs/format.md). Used by the solver, the verifier and the
// statistics pass.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/table.h"

namespace deadpos {

// Both sides to move (what load_table and TableSet::require load unless told otherwise).
inline constexpr ByColor<bool> kBothSides{{true, true}};

// A table held in memory: its index and the four DTHM arrays (see table.h for the order). A
// subtable may hold only the arrays of the sides to move its parent enters it with
// (SuccessorSides): the arrays of a side not loaded are empty (has_side).
struct LoadedTable {
  TableIndex index;
  std::array<std::vector<std::uint8_t>, kNumArrays> arrays;
  bool has_side(Color stm) const { return !arrays[static_cast<std::size_t>(array_of(stm, Color::White))].empty(); }
};

// Tables by material, loaded from a directory on demand or added after generation.
// require(), add() and retain_only() are not thread-safe; find() and value() are const and
// thread-safe once the tables they need are present (call require() before a parallel section).
class TableSet {
 public:
  explicit TableSet(std::string dir) : dir_(std::move(dir)) {}
  // Loads (and checks: load_table) the arrays of the given sides to move of the table of a
  // canonical material, unless they are present (a table present with fewer sides is reloaded
  // with both sets). Errors: MissingTable (absent file), Io (unreadable or not a regular file),
  // CorruptTable naming the file, OutOfMemory.
  Status require(const Material& canonical, ByColor<bool> sides = kBothSides);
  void add(const Material& m, std::unique_ptr<LoadedTable> t);
  // Drops every table except those in keep, and the arrays of the sides to move keep does not
  // name (the memory of a table kept whole from an earlier step that is now read on one side).
  void retain_only(const std::vector<SuccessorSides>& keep);
  // Table of a canonical material, or nullptr.
  const LoadedTable* find(const Material& canonical) const;
  // Byte code of DTHM of `mated` in pos (no castling rights; an en passant right is ignored:
  // callers handle it). pos's material may be in either orientation. Precondition: its table is
  // present with the side to move pos has in it (require(); DEADPOS_CHECK).
  std::uint8_t value(const Position& pos, Color mated) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::vector<std::pair<Material, std::unique_ptr<LoadedTable>>> tables_;
};

// Loads the table of canonical material m from a file into memory: the arrays of the given sides
// to move (the others stay empty). Checks the header, that it names m, the file checksum, and the
// blocks and the header's per-array counts of the arrays it loads. Errors: MissingTable (no such
// file), Io, CorruptTable, OutOfMemory, naming the path. Blocks are read in parallel (OpenMP).
Result<std::unique_ptr<LoadedTable>> load_table(const std::string& path, const Material& m,
                                                ByColor<bool> sides = kBothSides);

}  // namespace deadpos
