// Helpers shared by the solver, the verifier and the statistics pass (internal to generator/).
#pragma once

#include "deadpos/index.h"
#include "deadpos/position.h"

namespace deadpos::internal {

// The position of a decoded index value with side to move stm (no castling, no en passant).
inline Position position_of(const TableIndex& idx, const TableIndex::Squares& sq, Color stm) {
  std::array<Piece, kMaxTableMen> pcs{};
  for (int j = 0; j < idx.men(); ++j) pcs[static_cast<std::size_t>(j)] = idx.piece(j);
  return Position::from_men(pcs.data(), sq.data(), idx.men(), stm);
}

}  // namespace deadpos::internal
