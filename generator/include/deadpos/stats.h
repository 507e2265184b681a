// Statistics of a table (docs/design.md, "Statistics"; docs/format.md section 6).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "deadpos/progress.h"
#include "deadpos/table_set.h"
#include "deadpos/types.h"

namespace deadpos {

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

// Statistics of a solved table (needs only the table itself).
TableStats compute_stats(const LoadedTable& t, const ProgressFn& progress);

// JSON text of the statistics (written beside a table as <KEY>.json).
std::string stats_to_json(const TableStats& s);
// Whether text has the shape stats_to_json writes for the material key `key`: a JSON object whose
// "material" is key, with a "white_to_move" and a "black_to_move" object. The counts are not
// checked (that needs the table). generate() recomputes statistics that fail this. Pure.
bool stats_json_intact(const std::string& text, const std::string& key);

}  // namespace deadpos
