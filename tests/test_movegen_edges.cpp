// Edge positions with hand-derived legal move lists. Each expected list comes from the reasoning
// in the comment above it (squares attacked, pins, blocks), not from this program's output; the
// positions are small so that every legal move can be listed by hand.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "test_util.h"

namespace deadpos {
namespace {

using test::join;
using test::legal_uci;
using test::position_from;

void expect_moves(const std::string& fen, const std::set<std::string>& want) {
  const Position pos = position_from(fen);
  const std::set<std::string> got = legal_uci(pos);
  EXPECT_EQ(got, want) << fen << "\n" << pos.to_diagram() << "expected: " << join(want) << "\ngot:      " << join(got);
}

// White pawn d2-d4 has just given check to the black king on e5 (a white pawn on d4 attacks c5
// and e5). Black: Ke5, Pe4; White: Ka1, Pd4. A pawn check cannot be blocked, so Black must
// capture the pawn or move the king:
//   * e4xd3 en passant removes the checking pawn: legal.
//   * Kxd4: d4 is defended by nothing (the white king on a1 is far away): legal.
//   * King to d6, e6, f6, d5, f5, f4: none is attacked (the pawn only covers c5/e5): legal.
//   * e4-e3 leaves the king in check: illegal.
TEST(EdgePositions, EnPassantCapturesTheCheckingPawn) {
  const std::string fen = "8/8/8/4k3/3Pp3/8/8/K7 b - d3 0 1";
  expect_moves(fen, {"e5d6", "e5e6", "e5f6", "e5d5", "e5f5", "e5f4", "e5d4", "e4d3"});
  const Position pos = position_from(fen);
  EXPECT_EQ(pos.checkers(), square_bb(Square::D4));
  const Result<Move> ep = parse_uci(pos, "e4d3");
  ASSERT_TRUE(ep.ok());
  EXPECT_EQ(ep->kind(), Move::Kind::EnPassant);
  EXPECT_EQ(to_san(pos, *ep), "exd3");
  const Position after = pos.after(*ep);
  EXPECT_EQ(after.piece_on(Square::D4), kNoPiece);
  EXPECT_EQ(after.piece_on(Square::D3), make_piece(Color::Black, PieceType::Pawn));
  EXPECT_FALSE(after.in_check());
}

// Black has just played d7-d5 next to the white pawn on e5. White king a5, black rook h5, both
// pawns between them on rank 5. exd6 e.p. would remove both pawns from rank 5 at once and open
// the rank from h5 to a5: illegal (the "horizontal pin"), although neither pawn alone is pinned.
//   * King a5: a4, a6, b4, b5, b6. The rook's rank attack stops at e5; the black pawn d5 covers
//     c4/e4 only; the black king h1 is far away. All five are legal.
//   * Pawn e5: e6 (the rank stays closed by d5): legal; d6 e.p.: illegal; f6: nothing to capture.
TEST(EdgePositions, EnPassantIllegalByHorizontalPin) {
  expect_moves("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", {"a5a4", "a5a6", "a5b4", "a5b5", "a5b6", "e5e6"});
  // Control: without the rook the same capture is legal.
  expect_moves("8/8/8/K2pP3/8/8/8/7k w - d6 0 1", {"a5a4", "a5a6", "a5b4", "a5b5", "a5b6", "e5e6", "e5d6"});
}

// The black rook f8 controls the whole f-file (f7..f1 are empty). White: Ke1, Ra1, Rh1, Pa2, Ph2,
// rights KQ; Black: Kh8, Rf8.
//   * O-O (e1g1): the king would cross f1, which is attacked: illegal.
//   * O-O-O (e1c1): b1, c1, d1 empty; d1 and c1 not attacked: legal.
//   * King: d1, d2, e2 legal; f1, f2 attacked.
//   * Ra1: b1, c1, d1 (a-file blocked by a2). Rh1: g1, f1 (a rook may stand on an attacked
//     square; h-file blocked by h2). Pawns: a3, a4, h3, h4.
// 3 + 1 + 3 + 2 + 4 = 13 moves.
TEST(EdgePositions, CastlingThroughAttackedSquareIsIllegal) {
  const std::string fen = "5r1k/8/8/8/8/8/P6P/R3K2R w KQ - 0 1";
  expect_moves(
      fen, {"e1d1", "e1d2", "e1e2", "e1c1", "a1b1", "a1c1", "a1d1", "h1g1", "h1f1", "a2a3", "a2a4", "h2h3", "h2h4"});
  const Position pos = position_from(fen);
  const Result<Move> ooo = parse_san(pos, "O-O-O");
  ASSERT_TRUE(ooo.ok());
  EXPECT_EQ(ooo->kind(), Move::Kind::Castling);
  EXPECT_EQ(to_uci(*ooo), "e1c1");
  EXPECT_FALSE(parse_san(pos, "O-O").ok());
}

// Queen-side castling only needs d1 and c1 safe: an attack on b1 (the rook's path, not the king's)
// does not prevent it. Black rook b8 attacks b1; White Ke1, Ra1, right Q.
TEST(EdgePositions, QueenSideCastlingWithAttackedB1IsLegal) {
  const Position pos = position_from("1r5k/8/8/8/8/8/8/R3K3 w Q - 0 1");
  EXPECT_EQ(legal_uci(pos).count("e1c1"), 1U);
  const Position after = pos.after(*parse_uci(pos, "e1c1"));
  EXPECT_EQ(after.piece_on(Square::C1), make_piece(Color::White, PieceType::King));
  EXPECT_EQ(after.piece_on(Square::D1), make_piece(Color::White, PieceType::Rook));
  EXPECT_EQ(after.castling_rights(), 0);
}

// White Ke1 is in check from the rook e8. The knight d2 could block on e4, but it is pinned by
// the bishop a5 (a5-b4-c3-d2-e1), so it cannot move at all. The rook a4 is free and can block on
// e4 (b4, c4, d4 empty); its capture of the bishop a5 would leave the check.
//   * King: d1, f1, f2 legal; e2 is on the rook's file; d2 is occupied by the knight.
//   * Ra4-e4: legal. Nothing else resolves the check.
TEST(EdgePositions, PinnedPieceCannotBlockCheck) {
  expect_moves("4r2k/8/8/b7/R7/8/3N4/4K3 w - - 0 1", {"e1d1", "e1f1", "e1f2", "a4e4"});
}

// Double check: the rook e8 (e-file) and the bishop b4 (b4-c3-d2-e1) both attack Ke1. Only king
// moves can answer a double check, so Rb1xb4 (which removes one checker) is illegal.
//   * King: d1, f1, f2 legal; d2 (bishop) and e2 (rook) attacked.
TEST(EdgePositions, DoubleCheckOnlyKingMoves) {
  const std::string fen = "4r2k/8/8/8/1b6/8/8/1R2K3 w - - 0 1";
  expect_moves(fen, {"e1d1", "e1f1", "e1f2"});
  EXPECT_EQ(popcount(position_from(fen).checkers()), 2);
}

// Knight check on Ke1 from d3 (the knight attacks b2, b4, c1, c5, e1, e5, f2, f4). A knight check
// cannot be blocked, so the rook a2 (which could step to d2 or e2) has no legal move.
//   * King: d1, d2, e2 legal; f2 attacked by the knight; f1 holds the bishop.
//   * Bf1xd3 through the empty e2: legal (captures the checker).
TEST(EdgePositions, KnightCheckCannotBeBlocked) {
  expect_moves("7k/8/8/8/8/3n4/R7/4KB2 w - - 0 1", {"e1d1", "e1d2", "e1e2", "f1d3"});
}

// White Pb7 can push to b8 or capture the rook a8, each with four promotions; Ke1 has all five
// neighbours (nothing black reaches rank 1-2 near e1). 5 + 8 = 13 moves.
// SAN: bxa8=Q and bxa8=R give check along rank 8 to Kh8, whose g7/h7 are own pawns and g8 is on
// the checking rank; nothing can block b8-g8 or capture a8: mate. b8=Q/b8=R check too but
// Ra8xb8 answers: '+'. Minor-piece promotions give no check.
TEST(EdgePositions, PromotionCaptureGivesMate) {
  const std::string fen = "r6k/1P4pp/8/8/8/8/8/4K3 w - - 0 1";
  expect_moves(fen, {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7a8q", "b7a8r",
                     "b7a8b", "b7a8n"});
  const Position pos = position_from(fen);
  const auto san = [&](const char* uci) { return to_san(pos, *parse_uci(pos, uci)); };
  EXPECT_EQ(san("b7a8q"), "bxa8=Q#");
  EXPECT_EQ(san("b7a8r"), "bxa8=R#");
  EXPECT_EQ(san("b7a8b"), "bxa8=B");
  EXPECT_EQ(san("b7a8n"), "bxa8=N");
  EXPECT_EQ(san("b7b8q"), "b8=Q+");
  EXPECT_EQ(san("b7b8r"), "b8=R+");
  EXPECT_EQ(san("b7b8n"), "b8=N");
  EXPECT_TRUE(pos.after(*parse_uci(pos, "b7a8q")).is_checkmate());
  EXPECT_FALSE(pos.after(*parse_uci(pos, "b7b8q")).is_checkmate());
}

// Black Kh8, White Qf7 and Kg6: g8 (queen's diagonal), g7 and h7 (queen's rank, white king) are
// covered and h8 itself is not attacked (f7-h8 is no line): stalemate.
TEST(EdgePositions, Stalemate) {
  const Position pos = position_from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_TRUE(pos.legal_moves().empty());
  EXPECT_FALSE(pos.in_check());
  EXPECT_TRUE(pos.is_stalemate());
  EXPECT_FALSE(pos.is_checkmate());
  EXPECT_FALSE(pos.has_legal_move());
}

// Qg7 checks Kh8 and is defended by Kg6; g8 and h7 are covered: checkmate.
TEST(EdgePositions, Checkmate) {
  const Position pos = position_from("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_TRUE(pos.legal_moves().empty());
  EXPECT_TRUE(pos.in_check());
  EXPECT_TRUE(pos.is_checkmate());
  EXPECT_FALSE(pos.is_stalemate());
}

}  // namespace
}  // namespace deadpos
