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

// The entries of a table with pawns whose man in `slot` (a piece, field range 64) stands on
// `rank` (0..7, in the table's orientation): one eighth of each array. A non-capturing promotion
// puts the promoted piece on the promotion rank, and an index with pawns keeps ranks (docs/format.md
// section 4: only the left-right mirror), so a subtable entered only by promotions into a piece
// alone of its kind and colour is read only there (docs/design.md, "Subtables").
// Index arithmetic (stride = S_slot of the index): i = hi * 64 * stride + f * stride + lo with
// lo < stride; the slice offset is hi * 8 * stride + (f - 8 * rank) * stride + lo.
struct RankSlice {
  int slot = -1;  // -1: no slice (the whole array)
  int rank = 0;
  std::uint64_t stride = 0;  // stride(slot) of the table's index (set when the slice is loaded)

  bool active() const { return slot >= 0; }
  bool same_entries(const RankSlice& o) const { return slot == o.slot && (slot < 0 || rank == o.rank); }
  // Whether index value i lies in the slice. Precondition: the stride is set (DEADPOS_CHECK).
  bool contains(std::uint64_t i) const {
    DEADPOS_CHECK(stride > 0);
    return static_cast<int>((i / stride) % 64 / 8) == rank;
  }
  // Offset of i in the slice's array. Precondition: contains(i) (DEADPOS_CHECK: an entry outside
  // the slice was never loaded).
  std::uint64_t offset(std::uint64_t i) const {
    DEADPOS_CHECK(contains(i));
    const std::uint64_t q = i / stride;
    return (q / 64) * 8 * stride + (q % 64 - 8 * static_cast<std::uint64_t>(rank)) * stride + (i - q * stride);
  }
};

// One array of a LoadedTable as its readers index it (by the table's index value): the whole
// array, or its RankSlice.
struct ArrayView {
  const std::uint8_t* data = nullptr;
  RankSlice slice;
  std::uint8_t operator[](std::uint64_t i) const { return data[slice.active() ? slice.offset(i) : i]; }
};

// A table held in memory: its index and the four DTHM arrays (Sides, sides.h). A
// subtable may hold only the arrays of the sides to move its parent enters it with
// (SuccessorSides): the arrays of a side not loaded are empty (has_side). The generator may hold a
// side as a RankSlice only (slice_arrays, has_slice): then its `arrays` stay empty, so that a
// reader of whole arrays (verifier, statistics) stops at its has_side check instead of misreading.
struct LoadedTable {
  TableIndex index;
  Sides<std::vector<std::uint8_t>> arrays;
  RankSlice slice;  // of slice_arrays
  Sides<std::vector<std::uint8_t>> slice_arrays;
  bool has_side(Color stm) const { return !arrays(stm, Color::White).empty(); }
  bool has_slice(Color stm) const { return !slice_arrays(stm, Color::White).empty(); }
  // Array (stm, mated), whole when loaded whole, else the slice. Precondition: has_side(stm) or
  // has_slice(stm) (DEADPOS_CHECK).
  ArrayView view(Color stm, Color mated) const {
    if (has_side(stm)) return {arrays(stm, mated).data(), {}};
    DEADPOS_CHECK(has_slice(stm));
    return {slice_arrays(stm, mated).data(), slice};
  }
};

// What is read of one subtable: the sides to move it is entered with and, when every entry is a
// promotion that RankSlice describes, only that slice (slice.stride unset: the loader sets it).
struct SubtableNeed {
  Material material;
  ByColor<bool> side_to_move{};
  RankSlice slice;
  SubtableNeed(const Material& m, ByColor<bool> sides, RankSlice s = {}) : material(m), side_to_move(sides), slice(s) {}
  explicit SubtableNeed(const SuccessorSides& s) : material(s.material), side_to_move(s.side_to_move) {}
};

// The subtables a generation of canonical material m reads (Material::successor_sides), with the
// promotion slice of each subtable with pawns, of m's number of men, whose promoted piece is alone
// of its kind and colour there (a subtable of as many men is entered by non-capturing promotions
// only). Pure.
std::vector<SubtableNeed> generation_needs(const Material& m);

// Tables by material, loaded from a directory on demand or added after generation.
// require(), add() and retain_only() are not thread-safe; find() and value() are const and
// thread-safe once the tables they need are present (call require() before a parallel section).
class TableSet {
 public:
  explicit TableSet(std::string dir) : dir_(std::move(dir)) {}
  // Loads (and checks: load_table) what `need` names of the table of a canonical material: the
  // arrays of its sides to move, whole or as its slice, unless present (a side present whole
  // serves a slice too; a missing side is loaded into the present table). Errors: MissingTable
  // (absent file), Io (unreadable or not a regular file), CorruptTable naming the file,
  // OutOfMemory.
  Status require(const SubtableNeed& need);
  Status require(const Material& canonical, ByColor<bool> sides = kBothSides) {
    return require(SubtableNeed(canonical, sides));
  }
  void add(const Material& m, std::unique_ptr<LoadedTable> t);
  // Drops every table except those in keep, and of a kept table what keep does not name: the
  // arrays of the sides it does not list, a slice where a whole side is needed, and a whole
  // side where only a slice is needed (cut to the slice: a table kept whole from an earlier step
  // that is now read on the promotion rank only).
  void retain_only(const std::vector<SubtableNeed>& keep);
  // Table of a canonical material, or nullptr.
  const LoadedTable* find(const Material& canonical) const;
  // Byte code of DTHM of `mated` in pos (no castling rights; an en passant right is ignored:
  // callers handle it). pos's material may be in either orientation. Precondition: its table is
  // present with the side to move pos has in it, whole or as a slice holding pos (require();
  // DEADPOS_CHECK).
  std::uint8_t value(const Position& pos, Color mated) const;
  const std::string& dir() const { return dir_; }

 private:
  LoadedTable* find_mutable(const Material& canonical);
  std::string dir_;
  std::vector<std::pair<Material, std::unique_ptr<LoadedTable>>> tables_;
};

// Loads the table of canonical material m from a file into memory: the arrays of the given sides
// to move (the others stay empty). Checks the header, that it names m, the file checksum, and the
// blocks and the header's per-array counts of the arrays it loads. Errors: MissingTable (no such
// file), Io, CorruptTable, OutOfMemory, naming the path. Blocks are read in parallel (OpenMP).
// With an active slice (m has pawns, slice.slot a piece) the sides go to slice_arrays.
Result<std::unique_ptr<LoadedTable>> load_table(const std::string& path, const Material& m,
                                                ByColor<bool> sides = kBothSides, RankSlice slice = {});

}  // namespace deadpos
