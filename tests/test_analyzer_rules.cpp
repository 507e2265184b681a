// The analyzer's rules against the verified tables' statistics (docs/design.md, "Rules"): for every
// pawnless material of at most 4 men and each side X, a rule fires only where the table's
// <KEY>.json counts no position (either side to move, or, for same-coloured bishops, in the
// position's bishop-colour class) in which X can be mated, and some rule fires wherever it counts none. A rule that
// fired where the table has a mate would be an unsound proof; one that never fired would be dead code.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "test_probe_util.h"

namespace deadpos::probe_test {
namespace {

TEST(AnalyzerRules, RulesAgreeWithTheTablesStatistics) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  ASSERT_GE(complete_men(*tb), 4);
  AnalysisOptions opt;
  opt.table_men = 0;     // no table may answer: the rule (or nothing) decides at the root
  opt.budget.nodes = 1;  // when no rule holds, stop at once (undetermined)
  int enumerated = 0, one_colour = 0, checked = 0;
  std::mt19937_64 rng(42);
  for (const Material& m : materials_both_ways(4)) {
    if (m.has_pawns()) continue;
    std::ifstream in(tables_dir() + "/" + m.canonical().key() + ".json");
    ASSERT_TRUE(in) << m.canonical().key() << ".json missing";
    const auto stats = nlohmann::json::parse(in);
    for (Color mated : {Color::White, Color::Black}) {
      // The canonical table's counts; a swapped material swaps the colours.
      const bool swap = !m.is_canonical();
      const std::string who = (mated == Color::White) != swap ? "black_can_mate" : "white_can_mate";
      const auto mates =
          stats["white_to_move"][who].get<std::uint64_t>() + stats["black_to_move"][who].get<std::uint64_t>();
      for (int k = 0; k < 4; ++k) {
        const Position pos = random_position(m, rng);
        auto a = deadpos::analyze_side(*tb, pos, mated, opt, false);
        ASSERT_TRUE(a) << a.error().message;
        ++checked;
        if (a->method != Method::Rule) continue;
        if (a->rule == AnalysisRule::SameColouredBishops) {
          // A property of the placement: the table's count for this bishop-colour class. The
          // colour swap mirrors the board vertically, which swaps square colours.
          const Bitboard bishops = pos.pieces(PieceType::Bishop);
          const bool light = (bishops & kLightSquares) != 0;
          const std::string cls(static_cast<std::size_t>(popcount(bishops)), light != swap ? 'L' : 'D');
          bool seen = false;
          for (const auto& c : stats["bishop_colour_classes"]) {
            if (c["bishop_colours"] != cls) continue;
            seen = true;
            EXPECT_EQ(c["white_to_move"][who].get<std::uint64_t>() + c["black_to_move"][who].get<std::uint64_t>(), 0u)
                << m.key() << " bishops " << cls << ": the rule says no mate, the table's class has one";
          }
          EXPECT_TRUE(seen) << m.key() << ": no bishop class " << cls;
          continue;
        }
        EXPECT_EQ(mates, 0u) << m.key() << ": rule " << rule_name(a->rule) << " says "
                             << (mated == Color::White ? "White" : "Black") << " can never be mated, the table counts "
                             << mates;
        if (a->rule == AnalysisRule::NoCheckmatePlacement) ++enumerated;
        if (a->rule == AnalysisRule::OneColourBishops) ++one_colour;
      }
      if (mates == 0) {
        const Position pos = random_position(m, rng);
        auto a = deadpos::analyze_side(*tb, pos, mated, opt, false);
        ASSERT_TRUE(a);
        EXPECT_EQ(a->method, Method::Rule) << m.key() << ": the table counts no mate of "
                                           << (mated == Color::White ? "White" : "Black") << " but no rule fired";
      }
    }
  }
  // one-colour-bishops: K+B never mates K+R or K+Q (KRvKB, KQvKB and their swaps: 4 material-side
  // pairs, 4 positions each); no-checkmate-placement: at least K+N never mates K+Q (2 pairs).
  EXPECT_GE(one_colour, 4 * 4) << "of " << checked;
  EXPECT_GE(enumerated, 2 * 4) << "of " << checked;
}

// Beyond the 4-man tables: bishops of one colour against queens and rooks (the argument in
// docs/design.md, "Rules"). No search could exhaust these; without the rule they are undetermined.
TEST(AnalyzerRules, OneColourBishopsNeverMateQueensAndRooks) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  const char* fens[] = {
      "8/1Q6/1b3K2/2k5/1b6/8/8/8 w - - 0 1",     // K+2B (dark) v K+Q
      "8/3R4/8/6K1/8/4k1b1/8/7R w - - 0 1",      // K+B v K+2R
      "kb6/8/8/8/8/8/1RRRRR2/KQQQQ3 w - - 0 1",  // K+B v K+4Q+5R
      "3b4/8/8/6b1/8/8/R7/K1k5 w - - 0 1",       // PUB-024: K+2B v K+R
  };
  for (const char* fen : fens) {
    const Position pos = test::position_from(fen);
    auto a = deadpos::analyze_side(*tb, pos, Color::White, AnalysisOptions{}, false);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->method, Method::Rule) << fen;
    EXPECT_EQ(a->rule, AnalysisRule::OneColourBishops) << fen;
  }
  // Not when the mated side has a knight, a pawn or a bishop of the other colour: a knight or a
  // bishop on the dark flight square cannot block the light check.
  for (const char* fen : {"8/1Q6/1b3K2/2k5/1b6/8/8/6N1 w - - 0 1", "8/1Q6/1b3K2/2k5/1b6/8/6P1/8 w - - 0 1",
                          "8/1Q6/1b3K2/2k5/1b6/7B/8/8 w - - 0 1"}) {
    const Position pos = test::position_from(fen);
    AnalysisOptions opt;
    opt.budget.nodes = 1;
    auto a = deadpos::analyze_side(*tb, pos, Color::White, opt, false);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_NE(a->rule, AnalysisRule::OneColourBishops) << fen;
  }
}

// analyze_side may be called from many threads at once (each thread has its own
// position store): the answers, counts and lines are those of a sequential run.
TEST(AnalyzerThreads, TwoThreadsGiveTheSequentialAnswers) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  std::vector<Position> positions;
  std::mt19937_64 rng(7);
  for (const Material& m : materials_both_ways(4))
    if (m.men() == 4) positions.push_back(random_position(m, rng));
  AnalysisOptions opt;
  opt.table_men = 3;
  opt.budget.nodes = 20'000;  // some answers undetermined: those must agree too
  std::vector<MateAnswer> seq(positions.size()), par(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i)
    seq[i] = deadpos::analyze_side(*tb, positions[i], Color::Black, opt, true).value();
  // Two std::threads taking the next position in turn (rather than an OpenMP loop: libgomp is not
  // ThreadSanitizer-instrumented, and this test is one of the TSan build's, tests/CMakeLists.txt).
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < positions.size(); i = next++)
      par[i] = deadpos::analyze_side(*tb, positions[i], Color::Black, opt, true).value();
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  for (std::size_t i = 0; i < positions.size(); ++i) EXPECT_EQ(seq[i], par[i]) << positions[i].to_fen();
}

}  // namespace
}  // namespace deadpos::probe_test
