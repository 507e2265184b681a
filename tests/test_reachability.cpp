// Positions no game can reach (deadpos/reachability.h). The oracle is the law of moves itself:
// a position reached by a legal move from a legal position can be in check only as that one move
// gives it, so it never gets "impossible-check"; and a move never makes material harder to
// explain by promotions. Hand-made positions fix each kind of impossible check, and known
// reachable double checks (discovered + direct, en passant with two lines, castling, promotion)
// must stay unflagged.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "deadpos/notation.h"
#include "deadpos/reachability.h"
#include "support/random_position.h"
#include "test_util.h"

namespace deadpos {
namespace {

std::vector<PositionWarning> warnings_of(const std::string& fen) {
  return reachability_warnings(test::position_from(fen));
}
bool has(const std::vector<PositionWarning>& w, PositionWarning x) {
  for (PositionWarning y : w)
    if (y == x) return true;
  return false;
}

TEST(Reachability, ImpossibleChecksAreNamed) {
  const std::vector<std::string> impossible = {
      // Double check by two bishops of one colour (c3, g3): neither can have uncovered the other.
      "8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1",
      // Two knights check e4 (c3, g5): a knight's check is never discovered.
      "7k/8/8/6n1/4K3/2n5/8/8 w - - 0 1",
      // A pawn (d5) and a knight (f2) check e4: neither line can be discovered.
      "7k/8/8/3p4/4K3/8/5n2/8 w - - 0 1",
      // Two rooks check e4 from e8 and e1, on one line: no move leaves one segment onto the other.
      "4r2k/8/8/8/4K3/8/8/4r3 w - - 0 1",
      // Three checkers (rook e8, bishop b7, knight f6).
      "4r2k/1b6/5n2/8/4K3/8/8/8 w - - 0 1",
      // Rook a4 and bishop h1 check e4: the rook's own moves never left h1-e4's squares f3, g2.
      "7k/8/8/8/r3K3/8/8/7b w - - 0 1",
      // The en passant square e3 says the last move was e2-e4, which can neither have given the
      // rook h8's check along rank 8 nor uncovered it.
      "k6R/8/8/8/4Pp2/8/8/4K3 b - e3 0 1",
  };
  for (const auto& fen : impossible) EXPECT_TRUE(has(warnings_of(fen), PositionWarning::ImpossibleCheck)) << fen;
}

// Each case is a legal position and a move that gives the check: the position after it is reached
// by that move, so it must not be flagged (and the move is replayed, not assumed).
TEST(Reachability, ChecksGivenByAMoveAreNotFlagged) {
  struct Case {
    const char* fen;
    const char* uci;
    int checkers;
  };
  const std::vector<Case> cases = {
      // A knight's move checks and uncovers the rook e1 on the e-file.
      {"4k3/8/8/8/4N3/8/8/4R2K w - - 0 1", "e4d6", 2},
      // En passant opens two lines at once: e5xd6 vacates e5 (rook e8) and d5 (bishop b7).
      {"4R3/1B6/8/3pP3/4k3/8/8/7K w - d6 0 1", "e5d6", 2},
      // A capture with promotion: the queen e8 checks f8 and f7's departure opens the f-file to
      // the rook f1.
      {"4rk2/5P2/8/8/8/8/8/5R1K w - - 0 1", "f7e8q", 2},
      // A promotion to a knight checks from e8 and the pawn's departure from e7 uncovers the bishop
      // f8 on the diagonal f8-d6.
      {"5B2/4P3/3k4/8/8/8/8/7K w - - 0 1", "e7e8n", 2},
      // A rook's move along the c-file checks along rank 8.
      {"4k3/8/8/8/8/2R5/1B6/7K w - - 0 1", "c3c8", 1},
      // A double step uncovers the bishop d1 on d1-h5 (e2 is on the line); the en passant
      // square e3 stays (f4 could take).
      {"8/8/8/7k/5p2/8/4P3/3B1K2 w - - 0 1", "e2e4", 1},
      // A double step checks by itself (e4 attacks f5), en passant square e3.
      {"8/8/8/5k2/3p4/8/4P3/4K3 w - - 0 1", "e2e4", 1},
      // Castling queenside: the rook d1 checks d8.
      {"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", 1},
  };
  for (const Case& c : cases) {
    const Position p = test::position_from(c.fen);
    auto m = parse_uci(p, c.uci);
    ASSERT_TRUE(m.ok()) << c.fen << " " << c.uci;
    const Position after = p.after(*m);
    EXPECT_EQ(popcount(after.checkers()), c.checkers) << c.fen << " " << c.uci;
    if (std::string(c.uci) == "e2e4") {
      EXPECT_TRUE(after.en_passant().has_value()) << after.to_fen();
    }
    EXPECT_TRUE(reachability_warnings(after).empty()) << after.to_fen();
  }
}

TEST(Reachability, MaterialBeyondPromotions) {
  // Ten knights need eight promotions: with no pawn left that is possible, with one it is not.
  EXPECT_FALSE(has(warnings_of("7k/8/8/8/8/NNNNN3/NNNNN3/K7 w - - 0 1"), PositionWarning::ImpossibleMaterial));
  EXPECT_TRUE(has(warnings_of("7k/8/8/8/8/NNNNN3/NNNNN1P1/K7 w - - 0 1"), PositionWarning::ImpossibleMaterial));
  // Three light-squared bishops need two promotions: possible with 6 pawns, not with 7.
  EXPECT_FALSE(has(warnings_of("7k/8/8/8/2B1B3/1B6/PPPPPP2/7K w - - 0 1"), PositionWarning::ImpossibleMaterial));
  EXPECT_TRUE(has(warnings_of("7k/8/8/8/2B1B3/1B6/PPPPPPP1/7K w - - 0 1"), PositionWarning::ImpossibleMaterial));
  EXPECT_TRUE(warnings_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").empty());
}

// The oracle: every position reached by a legal move from a random legal position is in check
// only as one move can give it; material never gets harder to explain. Materials rich in sliders,
// knights and pawns make discovered, double and en passant checks frequent.
TEST(Reachability, NoPositionAfterALegalMoveIsFlagged) {
  std::mt19937_64 rng(20261205);
  const std::vector<std::string> keys = {"KQRBNPPvKRBBNPP", "KRRBBvKQNNPP", "KQBBPPPvKRRNPPP", "KBBNNPPvKQRPPPP",
                                         "KQRRBBNNPPPPvKQRRBBNNPPPP"};
  int double_checks = 0, positions = 0;
  for (int i = 0; i < 100000; ++i) {
    const Position p = test::random_position(keys[static_cast<std::size_t>(i) % keys.size()], rng);
    const bool material_ok = !has(reachability_warnings(p), PositionWarning::ImpossibleMaterial);
    for (Move m : p.legal_moves()) {
      const Position c = p.after(m);
      ++positions;
      if (popcount(c.checkers()) == 2) ++double_checks;
      const auto w = reachability_warnings(c);
      ASSERT_FALSE(has(w, PositionWarning::ImpossibleCheck)) << p.to_fen() << " then " << to_uci(m);
      if (material_ok) {
        ASSERT_FALSE(has(w, PositionWarning::ImpossibleMaterial)) << p.to_fen() << " " << to_uci(m);
      }
    }
  }
  EXPECT_GT(double_checks, 1000) << "too few double checks to test (" << positions << " positions)";
}

}  // namespace
}  // namespace deadpos
