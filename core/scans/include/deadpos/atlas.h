// The numbers of `deadpos atlas` (docs/atlas.md): per table, over every position of its domain,
// positions, dead positions, who can mate, DTHM histograms, the deepest helpmate per target and
// side to move with an example position and its line, and positions dead by forced lines.
//
// Counts are raw positions as in docs/design.md, "Statistics", and `deadpos query --count`
// (deadpos/query.h): every placement of the men once, identical men unordered, no symmetry
// reduction; positions of the table domain (no castling or en passant rights, the side not to move
// not in check). Colours are the table's (canonical material key).
//
// Built on scan_table (deadpos/query.h): one scan of the table for the byte statistics, and
// run_query with QueryFilter::dead_not_by_material for the positions dead by forced lines. The
// result does not depend on the thread count: per-unit results are reduced in index order, and the
// example position of a deepest helpmate is the first entry of the table index with that DTHM.
//
// Thread-safety: reentrant; a TableFile / Tablebase may be shared by concurrent calls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/table.h"
#include "deadpos/tablebase.h"
#include "deadpos/types.h"

namespace deadpos {

// The deepest shortest helpmate of one side (the mated side) with one side to move.
struct AtlasDeepest {
  int plies = -1;                // the largest DTHM of the mated side in plies; -1: no helpmate at all
  std::uint64_t index = 0;       // the first table entry (index order) with that DTHM
  Position position;             // its canonical placement; no castling, no en passant, counters 0 1
  std::vector<Move> line;        // Tablebase::helpmate_line(position, mated): exactly `plies` moves
  std::vector<std::string> san;  // the line in SAN (line_to_san)
  bool operator==(const AtlasDeepest&) const = default;
};

// Statistics of one side to move (table colours).
struct AtlasSide {
  std::uint64_t positions = 0;             // raw positions
  std::uint64_t dead = 0;                  // neither side can mate (FIDE 5.2.2)
  std::uint64_t dead_not_by_material = 0;  // QueryFilter::dead_not_by_material
  std::uint64_t checkmates = 0;            // the side to move is checkmated (DTHM 0)
  ByColor<std::uint64_t> can_mate{};       // can_mate[X]: X can checkmate (DTHM of ~X finite)
  // dthm_histogram[X][p]: raw positions where X is helpmated in exactly p plies; length
  // deepest[X].plies + 1 (empty when X can never be mated).
  ByColor<std::vector<std::uint64_t>> dthm_histogram{};
  ByColor<AtlasDeepest> deepest{};  // by mated side
  bool operator==(const AtlasSide&) const = default;
};

struct AtlasMaterial {
  Material material;            // canonical
  std::string table;            // the table file read
  ByColor<AtlasSide> by_stm{};  // by side to move
  bool operator==(const AtlasMaterial&) const = default;
};

// The atlas numbers of table t. tb: the tablebase that answers the example lines (the helpmate
// line of a position with captures or promotions needs the subtables; a line is always found when
// the subtables are present). threads: OpenMP threads for the scans, 0 = default.
// Errors: CorruptTable (a block checksum fails, a broken entry holds a value, or a helpmate line
// does not have the table's DTHM), MissingTable (a subtable the example line needs is absent),
// Io, OutOfMemory.
Result<AtlasMaterial> atlas_material(const TableFile& t, const Tablebase& tb, int threads = 0);

}  // namespace deadpos
