// The verifiers' en passant rule (docs/design.md, "Verification"), shared by the fast verifier
// (verify.cpp) and its reference oracle (verify_reference.cpp); nothing of the solver.
#pragma once

#include <algorithm>

#include "deadpos/position.h"
#include "deadpos/table.h"
#include "deadpos/types.h"

namespace deadpos::internal {

// Byte codes of DTHM of each target for the position `after` reached by a move, honouring the en
// passant right it may carry (tables hold positions without one): when an en passant capture is
// legal, min(table value of the same placement if another legal move exists, 1 + value after each
// en passant capture); otherwise the table value. table_values(p) gives both targets' codes of a
// position without an en passant right.
template <class TableValues>
ByColor<int> values_honouring_en_passant(const Position& after, const TableValues& table_values) {
  if (!after.en_passant()) return table_values(after);
  bool other_move = false;
  bool any_ep = false;
  ByColor<int> best{{DthmCode::kUnknown, DthmCode::kUnknown}};
  for (Move m : after.legal_moves()) {
    if (m.kind() != Move::Kind::EnPassant) {
      other_move = true;
      continue;
    }
    any_ep = true;
    const ByColor<int> v = table_values(after.after(m));
    for (Color x : {Color::White, Color::Black})
      if (v[x] <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v[x] + 1);
  }
  if (!any_ep) return table_values(after);
  if (other_move) {
    const ByColor<int> v = table_values(after);  // same placement, no en passant right
    for (Color x : {Color::White, Color::Black})
      if (v[x] <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v[x]);
  }
  for (Color x : {Color::White, Color::Black})
    if (best[x] == DthmCode::kUnknown) best[x] = DthmCode::kNone;
  return best;
}

}  // namespace deadpos::internal
