// Which limit stopped a search: the castling search of a probe (deadpos/probe_door.h) or the
// analysis beyond the tables (deadpos/analysis.h, AnalysisBudget), and its name.
#pragma once

#include <cstdint>

namespace deadpos {

// Memory: the memory_bytes budget; OutOfMemory: an allocation failed first (the process's limit).
enum class BudgetKind : std::uint8_t { None, Nodes, Time, Memory, OutOfMemory };
// "none", "nodes", "time", "memory", "out-of-memory": stable identifiers (JSON answers, the C API,
// the Python module; docs/cli.md). Pure.
const char* budget_name(BudgetKind b);

}  // namespace deadpos
