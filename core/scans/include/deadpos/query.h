// Whole-table questions: which positions of a material satisfy a filter, and how many
// (docs/cli.md, "deadpos query"; counts as in docs/design.md, "Statistics").
//
// Two layers:
//   scan_table   reads a table block by block on an OpenMP team and hands every (side to move,
//                block) unit to a caller's map function in parallel, then to its reduce
//                function in index order on the calling thread. Anything that summarises a whole
//                table (a query, a report over all tables) is built on it.
//   run_query    the filters of `deadpos query` on top of scan_table: exact raw-position counts,
//                and the matching index entries in index order.
//
// Counts are raw positions: every placement of the men once (identical men unordered), no
// symmetry reduction. A table entry stands for its symmetry orbit (TableIndex::multiplicity: 8, 4
// or 2 placements), and every filter but the per-side bishop colours is the same on the whole
// orbit. The per-side bishop colours split an orbit in two halves of equal size (the symmetries
// that exchange light and dark squares are half of the group): the canonical placement's colours
// and their complement. Positions are those of the table domain (docs/design.md,
// "Definitions"): no castling or en passant rights, the side not to move not in check; entries
// marked invalid never match.
//
// Thread-safety: the functions are reentrant; a TableFile may be shared by concurrent scans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/table.h"
#include "deadpos/types.h"

namespace deadpos {

// ---- block scan ---------------------------------------------------------------------------

// The entries of one side to move in one block of a table (table colours): entries
// first .. first + size - 1 of the index, codes of DthmCode, both spans of one length.
struct ScanUnit {
  Color stm = Color::White;
  std::uint32_t block = 0;  // block number within the array (0-based)
  std::uint64_t first = 0;
  std::span<const std::uint8_t> white_mated;  // DTHM of White (array_of(stm, White))
  std::span<const std::uint8_t> black_mated;  // DTHM of Black (array_of(stm, Black))
};

// Units of a table: White to move, blocks in index order, then Black to move. Unit u is side to
// move White for u < units/2, block u mod units/2.
std::size_t scan_unit_count(const TableFile& t);

// Reads every unit of t (only those of `only_stm` when given) and calls map(unit, u) for each on
// `threads` OpenMP threads (0: the OpenMP default), in any order and concurrently: map must be
// thread-safe and write only to storage of its own u. reduce(u) is then called on the calling
// thread, in unit order, each after its map returned; returning false stops the scan (units after
// it are not reduced). window: units mapped before they are reduced (0: 4 per thread; SIZE_MAX:
// all at once, for small per-unit results). Memory: two blocks per thread, whatever the table
// size, plus what map keeps for `window` units.
// Errors: CorruptTable naming the file and block (a block checksum failed: the scan stops at the
// first bad unit in unit order, after reducing every unit before it), OutOfMemory.
Status scan_table(const TableFile& t, int threads, const std::function<void(const ScanUnit&, std::size_t)>& map,
                  const std::function<bool(std::size_t)>& reduce, std::optional<Color> only_stm = std::nullopt,
                  std::size_t window = 0);

// ---- query --------------------------------------------------------------------------------

// Plies lo..hi, both included (0 <= lo <= hi <= DthmCode::kMaxDthm).
struct PlyRange {
  int lo = 0;
  int hi = DthmCode::kMaxDthm;
  bool operator==(const PlyRange&) const = default;
};

// Square colours of all bishops on the board: Same = at least two bishops, all on squares of one
// colour; Opposite = bishops on both colours (one bishop a side: opposite-coloured bishops).
enum class BishopPair : std::uint8_t { Any, Same, Opposite };
// Square colours of one side's bishops: Light / Dark = it has bishops, all on light / dark
// squares; Mixed = it has bishops on both colours.
enum class BishopShade : std::uint8_t { Any, Light, Dark, Mixed };

// Every condition given must hold (an empty filter matches every position). Colours are the
// user's, i.e. those of the material passed to run_query.
struct QueryFilter {
  std::optional<Color> side_to_move;
  // Neither side can be checkmated by any sequence of legal moves (FIDE 5.2.2).
  bool dead = false;
  // can_mate[X]: whether X can checkmate its opponent by some sequence of legal moves, i.e.
  // DTHM of ~X is finite (FIDE 6.9: when ~X's flag falls, X wins iff X can mate).
  ByColor<std::optional<bool>> can_mate{};
  // dthm_mated[X]: the shortest helpmate of X (X checkmated) exists and has lo..hi plies.
  ByColor<std::optional<PlyRange>> dthm_mated{};
  // The side to move is checkmated / stalemated (no legal move, in check / not in check).
  bool checkmate = false;
  bool stalemate = false;
  BishopPair bishops = BishopPair::Any;
  ByColor<BishopShade> bishop_shade{{BishopShade::Any, BishopShade::Any}};
  // Dead, although the same material with the same bishop-colour class has a position (either
  // side to move) where some side can mate: dead by the placement (forced captures, stalemates,
  // forced lines), not by the material. The class of a position: the number of light-squared
  // bishops of each side, up to exchanging light and dark for all bishops at once (a symmetry of
  // the board does that; a bishop never changes its square colour). Materials without bishops have
  // one class. So KBvKB with same-coloured bishops is dead by material, KQvK stalemates are not.
  bool dead_not_by_material = false;
  // The weaker side can mate and the stronger side cannot. Weaker: the side whose men are worth
  // less, with Q 9, R 5, B 3, N 3, P 1 (material_value); equal values: no position matches.
  bool only_weaker_side_can_mate = false;
};

// Value of side c's men other than the king: Q 9, R 5, B 3, N 3, P 1.
int material_value(const Material& m, Color c);
// The side whose men are worth less (material_value), or nullopt when both are worth the same.
std::optional<Color> weaker_side(const Material& m);

// One matching table entry.
struct QueryMatch {
  std::uint64_t index = 0;  // entry of the canonical table
  // A placement of the entry's orbit that satisfies the filter, in the user's colours: the
  // canonical placement (colour-swapped for a swapped material), or its left-right mirror when
  // only the mirror has the bishop colours asked for. No castling, no en passant, counters 0 1.
  Position position;
  ByColor<std::optional<int>> dthm_mated{};  // DTHM of each side in plies, nullopt: none
  std::uint64_t positions = 0;               // raw positions of the orbit that satisfy the filter
};

// Raw positions and entries matched, by side to move (user colours).
struct QueryCounts {
  ByColor<std::uint64_t> positions{};
  ByColor<std::uint64_t> entries{};  // entries with at least one matching placement
  std::uint64_t total_positions() const { return positions[Color::White] + positions[Color::Black]; }
  std::uint64_t total_entries() const { return entries[Color::White] + entries[Color::Black]; }
};

// Runs filter f over table t, which must be the table of material.canonical(); `material` may be
// the canonical key or its colour swap (KvKQ: answered from KQvK, positions and filters in the
// user's colours). threads: OpenMP threads, 0 = default; the result does not depend on it.
// on_match (optional): called on the calling thread for every matching entry in output order
// (side to move White first, then Black, each in index order of the canonical table; for a
// swapped material White to move is the canonical Black to move); returning false stops, and the
// counts then cover the entries delivered so far. Without on_match the whole table is counted.
// Errors: InvalidArgument (t is another material's table), CorruptTable (a block fails its
// checksum, or an entry the index calls broken holds a value), OutOfMemory.
Result<QueryCounts> run_query(const TableFile& t, const Material& material, const QueryFilter& f, int threads = 0,
                              const std::function<bool(const QueryMatch&)>& on_match = {});

}  // namespace deadpos
