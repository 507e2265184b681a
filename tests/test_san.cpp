// SAN and UCI: disambiguation by file, rank and both; castling; promotions; check and mate marks;
// lenient parsing; and the errors (ErrorCode::InvalidMove) for ambiguous, illegal and malformed
// text. Expected strings follow FIDE Laws Appendix C.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "test_util.h"

namespace deadpos {
namespace {

using test::position_from;

// SAN of the legal move given in UCI.
std::string san_of(const Position& pos, const char* uci) {
  const Result<Move> m = parse_uci(pos, uci);
  if (!m) return "<illegal UCI " + std::string(uci) + ": " + m.error().message + ">";
  return to_san(pos, *m);
}

// UCI of parse_san(text), or the error message.
std::string parsed(const Position& pos, const char* san) {
  const Result<Move> m = parse_san(pos, san);
  return m ? to_uci(*m) : "error: " + m.error().message;
}

::testing::AssertionResult rejected(const Position& pos, const char* san) {
  const Result<Move> m = parse_san(pos, san);
  if (m) return ::testing::AssertionFailure() << "'" << san << "' parsed as " << to_uci(*m);
  if (m.error().code != ErrorCode::InvalidMove) {
    return ::testing::AssertionFailure() << "'" << san << "' gave code " << error_code_name(m.error().code);
  }
  return ::testing::AssertionSuccess() << m.error().message;
}

// Knights b1 and f3 both reach d2; they stand on different files, so the file disambiguates.
// Only b1 reaches c3.
TEST(San, DisambiguatesByFile) {
  const Position pos = position_from("7k/8/8/8/8/5N2/8/1N5K w - - 0 1");
  EXPECT_EQ(san_of(pos, "b1d2"), "Nbd2");
  EXPECT_EQ(san_of(pos, "f3d2"), "Nfd2");
  EXPECT_EQ(san_of(pos, "b1c3"), "Nc3");
  EXPECT_EQ(parsed(pos, "Nbd2"), "b1d2");
  EXPECT_EQ(parsed(pos, "Nfd2"), "f3d2");
  EXPECT_EQ(parsed(pos, "N1d2"), "b1d2");  // a rank is enough too
  EXPECT_TRUE(rejected(pos, "Nd2"));       // ambiguous
}

// A pawn promotes to a queen, rook, bishop or knight only (FIDE 3.7.5): "a8=K" names an illegal
// promotion piece, not a bad square, and so does the form without '='.
TEST(San, PromotionToAKingIsNamedAsSuch) {
  const Position pos = position_from("8/P7/8/8/8/8/8/k6K w - - 0 1");
  EXPECT_EQ(parsed(pos, "a8=Q"), "a7a8q");
  EXPECT_EQ(parsed(pos, "a8N"), "a7a8n");
  for (const char* san : {"a8=K", "a8K", "a8=P", "a8=q", "a8=1"}) {
    EXPECT_TRUE(rejected(pos, san));
    EXPECT_NE(parsed(pos, san).find("a pawn cannot promote to '"), std::string::npos) << parsed(pos, san);
  }
}

// Rooks a1 and a5 both reach a3 along the a-file: same file, so the rank disambiguates.
TEST(San, DisambiguatesByRank) {
  const Position pos = position_from("7k/8/8/R7/8/8/8/R6K w - - 0 1");
  EXPECT_EQ(san_of(pos, "a1a3"), "R1a3");
  EXPECT_EQ(san_of(pos, "a5a3"), "R5a3");
  EXPECT_EQ(san_of(pos, "a5e5"), "Re5");  // only a5 reaches e5
  EXPECT_EQ(parsed(pos, "R1a3"), "a1a3");
  EXPECT_EQ(parsed(pos, "R5a3"), "a5a3");
  EXPECT_TRUE(rejected(pos, "Ra3"));
  EXPECT_TRUE(rejected(pos, "Raa3"));  // the file does not help: both are on a
}

// Queens a1, a3 and c1 all reach b2. Qa1 shares its file with Qa3 and its rank with Qc1, so it
// needs both ("Qa1b2"); Qa3 is the only queen on rank 3 but not on file a ("Q3b2"); Qc1 is the
// only queen on file c ("Qcb2").
TEST(San, DisambiguatesByFileAndRank) {
  const Position pos = position_from("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1");
  EXPECT_EQ(san_of(pos, "a1b2"), "Qa1b2");
  EXPECT_EQ(san_of(pos, "a3b2"), "Q3b2");
  EXPECT_EQ(san_of(pos, "c1b2"), "Qcb2");
  EXPECT_EQ(parsed(pos, "Qa1b2"), "a1b2");
  EXPECT_EQ(parsed(pos, "Q3b2"), "a3b2");
  EXPECT_EQ(parsed(pos, "Qcb2"), "c1b2");
  EXPECT_EQ(parsed(pos, "Qa3b2"), "a3b2");  // redundant disambiguation is accepted
  EXPECT_TRUE(rejected(pos, "Qb2"));
  EXPECT_TRUE(rejected(pos, "Qab2"));  // a1 or a3
  EXPECT_TRUE(rejected(pos, "Q1b2"));  // a1 or c1
}

TEST(San, Castling) {
  const Position white = position_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(san_of(white, "e1g1"), "O-O");
  EXPECT_EQ(san_of(white, "e1c1"), "O-O-O");
  EXPECT_EQ(parsed(white, "O-O"), "e1g1");
  EXPECT_EQ(parsed(white, "O-O-O"), "e1c1");
  EXPECT_EQ(parsed(white, "0-0"), "e1g1");
  EXPECT_EQ(parsed(white, "0-0-0"), "e1c1");
  // The king's own two-square move is castling, not a king move "Kg1".
  EXPECT_TRUE(rejected(white, "Kg1"));
  const Position black = position_from("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_EQ(san_of(black, "e8g8"), "O-O");
  EXPECT_EQ(san_of(black, "e8c8"), "O-O-O");
  EXPECT_EQ(parsed(black, "O-O-O"), "e8c8");
  // Castling with check: the rook lands on f1 (d1) facing the king on f8 (d8).
  EXPECT_EQ(san_of(position_from("5k2/8/8/8/8/8/8/4K2R w K - 0 1"), "e1g1"), "O-O+");
  EXPECT_EQ(san_of(position_from("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1"), "e1c1"), "O-O-O+");
  EXPECT_TRUE(rejected(position_from("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "O-O"));
}

// Pe7 promotes on e8 next to Kd6. Only the knight checks (e8 attacks d6); queen, rook and bishop
// on e8 do not reach d6.
TEST(San, Promotions) {
  const Position pos = position_from("8/4P3/3k4/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(san_of(pos, "e7e8q"), "e8=Q");
  EXPECT_EQ(san_of(pos, "e7e8r"), "e8=R");
  EXPECT_EQ(san_of(pos, "e7e8b"), "e8=B");
  EXPECT_EQ(san_of(pos, "e7e8n"), "e8=N+");
  EXPECT_EQ(parsed(pos, "e8=Q"), "e7e8q");
  EXPECT_EQ(parsed(pos, "e8Q"), "e7e8q");  // '=' may be omitted
  EXPECT_EQ(parsed(pos, "e8=N+"), "e7e8n");
  EXPECT_EQ(parsed(pos, "e8N"), "e7e8n");
  EXPECT_TRUE(rejected(pos, "e8"));    // a pawn reaching the last rank must promote
  EXPECT_TRUE(rejected(pos, "e8=K"));  // no promotion to a king
  EXPECT_TRUE(rejected(pos, "e8=P"));
}

TEST(San, CheckAndMateMarks) {
  // Ra8+: Kh8 can step to g7 or h7.
  EXPECT_EQ(san_of(position_from("7k/8/8/8/8/8/8/R3K3 w - - 0 1"), "a1a8"), "Ra8+");
  // Ra8#: back-rank mate, the pawns f7 g7 h7 box the king in.
  EXPECT_EQ(san_of(position_from("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1"), "a1a8"), "Ra8#");
  // Scholar's mate as a line.
  Position start = Position::startpos();
  std::vector<Move> line;
  for (const char* uci : {"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"}) {
    const Result<Move> m = parse_uci(start, uci);
    ASSERT_TRUE(m.ok()) << uci << ": " << m.error().message;
    line.push_back(*m);
    start.make_move(*m);
  }
  EXPECT_EQ(line_to_san(Position::startpos(), line),
            (std::vector<std::string>{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}));
  EXPECT_TRUE(start.is_checkmate());
}

TEST(San, Captures) {
  EXPECT_EQ(san_of(position_from("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1"), "f3e5"), "Nxe5");
  EXPECT_EQ(san_of(position_from("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"), "e4d5"), "exd5");
  EXPECT_EQ(san_of(position_from("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), "e5d6"), "exd6");  // en passant
  const Position pos = position_from("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(parsed(pos, "exd5"), "e4d5");
  EXPECT_EQ(parsed(pos, "ed5"), "e4d5");  // 'x' omitted
  EXPECT_EQ(parsed(pos, "e5"), "e4e5");
}

// Knights b6 and f8 both reach d7 (which attacks Ke5, so each move checks).
TEST(San, LenientParsing) {
  const Position pos = position_from("5N2/8/1N6/4k3/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(san_of(pos, "b6d7"), "Nbd7+");
  EXPECT_EQ(san_of(pos, "f8d7"), "Nfd7+");
  EXPECT_EQ(parsed(pos, "Nbd7+!?"), "b6d7");
  EXPECT_EQ(parsed(pos, "Nbd7"), "b6d7");   // check mark omitted
  EXPECT_EQ(parsed(pos, "Nfd7#"), "f8d7");  // wrong check mark ignored
  EXPECT_EQ(parsed(pos, "Nbd7??"), "b6d7");
  EXPECT_EQ(parsed(pos, "Nbd7!"), "b6d7");
  EXPECT_EQ(parsed(pos, "N6d7"), "b6d7");
  EXPECT_EQ(parsed(pos, "Nb6d7"), "b6d7");
  EXPECT_EQ(parsed(pos, "Ke2"), "e1e2");
}

TEST(San, Errors) {
  const Position pos = position_from("5N2/8/1N6/4k3/8/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(rejected(pos, "Nd7"));   // ambiguous: b6 or f8
  EXPECT_TRUE(rejected(pos, "Nd7+"));  // still ambiguous
  EXPECT_TRUE(rejected(pos, "Nc3"));   // no knight reaches c3
  EXPECT_TRUE(rejected(pos, "Qd4"));   // no queen
  EXPECT_TRUE(rejected(pos, "Nad7"));  // no knight on the a-file
  EXPECT_TRUE(rejected(pos, "e4"));    // no pawn
  EXPECT_TRUE(rejected(pos, "O-O"));   // no castling rights
  for (const char* garbage : {"", "+", "!?", "xyz", "Zf3", "e9", "N", "Nz9", "i4", "O-O-O-O", "0000", "K"}) {
    EXPECT_TRUE(rejected(pos, garbage)) << "'" << garbage << "'";
  }
  // Moving a pinned piece, and moving the king into check.
  const Position pinned = position_from("4r2k/8/8/b7/R7/8/3N4/4K3 w - - 0 1");
  EXPECT_TRUE(rejected(pinned, "Ne4"));
  EXPECT_TRUE(rejected(pinned, "Ke2"));
  EXPECT_TRUE(rejected(pinned, "Rxa5"));  // legal-looking capture that leaves the king in check
  EXPECT_EQ(parsed(pinned, "Re4"), "a4e4");
}

TEST(Uci, RoundTripAndErrors) {
  const Position start = Position::startpos();
  const Result<Move> e4 = parse_uci(start, "e2e4");
  ASSERT_TRUE(e4.ok());
  EXPECT_EQ(e4->from(), Square::E2);
  EXPECT_EQ(e4->to(), Square::E4);
  EXPECT_EQ(to_uci(*e4), "e2e4");
  EXPECT_EQ(to_uci(Move::none()), "0000");
  for (const char* bad : {"e2e5", "e2e", "e2e4q", "e7e5", "", "e2e4e5", "a1a1", "E2E4"}) {
    const Result<Move> m = parse_uci(start, bad);
    EXPECT_FALSE(m.ok()) << "'" << bad << "' parsed";
    if (!m.ok()) {
      EXPECT_EQ(m.error().code, ErrorCode::InvalidMove) << bad;
    }
  }
  const Position promo = position_from("8/4P3/3k4/8/8/8/8/K7 w - - 0 1");
  EXPECT_FALSE(parse_uci(promo, "e7e8").ok());  // the promotion piece is required
  const Result<Move> q = parse_uci(promo, "e7e8q");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->kind(), Move::Kind::Promotion);
  EXPECT_EQ(q->promotion(), PieceType::Queen);
  const Position castle = position_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Result<Move> oo = parse_uci(castle, "e1g1");
  ASSERT_TRUE(oo.ok());
  EXPECT_EQ(oo->kind(), Move::Kind::Castling);
}

}  // namespace
}  // namespace deadpos

namespace deadpos {

// EPD records (PGN spec 16.2: 4 fields, then operations whose opcodes begin with a letter) give
// their 4 fields; everything else is a FEN and is passed on whole, junk included, for from_fen to
// reject (a line must never be answered after silently dropping fields).
TEST(Epd, FenOfLine) {
  const std::string k = "8/8/8/8/8/8/8/K6k w - -";
  EXPECT_EQ(fen_of_epd_line(k), k);
  EXPECT_EQ(fen_of_epd_line("  " + k + " 3 9 \r"), k + " 3 9");
  EXPECT_EQ(fen_of_epd_line(k + " bm Kb2; id \"x 1\";"), k);
  EXPECT_EQ(fen_of_epd_line(k + "\thmvc 0; fmvn 1;"), k);
  EXPECT_EQ(fen_of_epd_line(k + " 0 1 extra"), k + " 0 1 extra");
  EXPECT_EQ(fen_of_epd_line(k + " -1 1"), k + " -1 1");
  EXPECT_EQ(fen_of_epd_line(k + " 5 junk"), k + " 5 junk");
  EXPECT_EQ(fen_of_epd_line(""), "");
  for (const char* bad : {" 0 1 extra", " -1 1", " 5 junk", " 1e3 1"}) {
    EXPECT_FALSE(Position::from_fen(fen_of_epd_line(k + bad)).ok()) << bad;
  }
}

}  // namespace deadpos
