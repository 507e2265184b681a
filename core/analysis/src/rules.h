// The rules that prove "cannot mate" without a search (internal to the analysis room; each
// soundness argument is in docs/design.md, "Beyond the tables").
#pragma once

#include <cstdint>

#include "deadpos/analysis.h"
#include "deadpos/position.h"

namespace deadpos::internal {

// Per search: the last material asked of the placement rule and its answer (a search meets few
// materials, and the process-wide memo takes a lock).
struct RuleCache {
  std::uint64_t code = ~std::uint64_t{0};
  bool none = false;
};

// A rule that proves `mated` can never be checkmated from p, or AnalysisRule::None. Men never
// increase, so each rule holds in every later position. `cache` (optional) is the caller's
// RuleCache. Thread-safe (the placement rule's memo is shared under a lock).
AnalysisRule cannot_mate_rule(const Position& p, Color mated, RuleCache* cache = nullptr);

}  // namespace deadpos::internal
