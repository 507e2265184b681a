// The analysis's door into the probe (internal to core/: the analysis room, deadpos/analysis.h,
// is its only user). Tablebase::probe and Tablebase::helpmate_line hold their castling searches to
// a fixed limit (kProbeCastlingNodes); the analysis holds them to what is left of the caller's
// budget instead, and learns how many positions they stored and which limit, if any, ran out.
// Thread-safety: as Tablebase::probe (any number of threads at once; each call owns its limits).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "deadpos/budget.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/tablebase.h"
#include "deadpos/verdict_file.h"

namespace deadpos::internal {

// Limits of the castling searches of one request, all of them together (the root's and each
// search for smaller rights it starts), and the count so far. Tablebase::probe holds them to
// kProbeCastlingNodes; the analysis to the request's budget (AnalysisBudget), so that no
// position, however many men move freely beside the castling king and rook, takes longer or more
// memory than the user allowed.
struct CastlingLimits {
  std::uint64_t nodes = 0;       // positions stored; 0: no limit
  std::size_t memory_bytes = 0;  // their estimated memory (kCastlingNodeBytes each); 0: no limit
  std::optional<std::chrono::steady_clock::time_point> deadline;  // checked every 256 positions
  std::uint64_t stored = 0;                                       // out: positions stored so far by every search
  BudgetKind ran_out = BudgetKind::None;                          // out: the limit that stopped a search, if one did
};

// Limit of Tablebase::probe(), which has no budget: positions stored over all the castling
// searches of one probe (about 1.7 GiB by the estimate kCastlingNodeBytes of castling_search.h).
inline constexpr std::uint64_t kProbeCastlingNodes = 4'000'000;

class ProbeDoor {
 public:
  // Tablebase::probe and Tablebase::helpmate_line with the castling searches held to `limits`,
  // which also receive the positions stored and, when a limit ran out (the error is then
  // InvalidArgument), which one.
  static Result<ProbeResult> probe(const Tablebase& tb, const Position& pos, CastlingLimits& limits);
  // Which sides the tables say can be mated from pos (Verdict bit to_index(X)), as probe() would
  // give them, reading the verdict files where the tables have them and no DTHM byte then: the
  // question of the search's table leaves. Errors and limits: as probe().
  static Result<Verdict> verdict(const Tablebase& tb, const Position& pos, CastlingLimits& limits);
  static Result<std::vector<Move>> helpmate_line(const Tablebase& tb, const Position& pos, Color mated,
                                                 CastlingLimits& limits);
  // What Tablebase::probe says of pos besides the DTHMs: checkmate, stalemate, table,
  // castling_search, en_passant (the rules alone, no table read). Pure.
  static ProbeResult describe(const Position& pos);
  // Whether the table of pos's material is loaded in tb. Thread-safe (reads the directory only).
  static bool has_table(const Tablebase& tb, const Position& pos);
};

}  // namespace deadpos::internal
