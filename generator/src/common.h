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

// A move that leaves the table's material: a capture or a promotion.
inline bool is_capture_or_promotion(const Position& pos, Move m) {
  return m.kind() == Move::Kind::Promotion || m.kind() == Move::Kind::EnPassant || pos.piece_on(m.to()) != kNoPiece;
}

inline bool is_double_push(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from())) == PieceType::Pawn && (to_index(m.to()) ^ to_index(m.from())) == 16;
}

// Whether the side to move of `after` (just reached by a double push, so it has the en passant
// square set by make_move) has a legal en passant capture.
inline bool has_ep_capture(const Position& after) {
  if (!after.en_passant()) return false;
  for (Move m : after.legal_moves())
    if (m.kind() == Move::Kind::EnPassant) return true;
  return false;
}

}  // namespace deadpos::internal
