// The name of a BudgetKind (deadpos/budget.h).
#include "deadpos/budget.h"

namespace deadpos {

const char* budget_name(BudgetKind b) {
  switch (b) {
    case BudgetKind::None: return "none";
    case BudgetKind::Nodes: return "nodes";
    case BudgetKind::Time: return "time";
    case BudgetKind::Memory: return "memory";
    case BudgetKind::OutOfMemory: return "out-of-memory";
  }
  return "?";
}

}  // namespace deadpos
