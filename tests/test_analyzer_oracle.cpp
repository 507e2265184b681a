// The tables are the oracle of the search (docs/design.md, "Beyond the tables"): the analyzer,
// allowed to use only the tables of at most 3 men, must agree with the 4-man tables whenever it
// decides, decide at least 99% of the questions, and give lines that replay to mate of the right
// side. 50,000 random legal 4-man positions over every 4-man material (both orientations), both
// sides to be mated: 100,000 questions (about 110 s on 2 cores; 100,000 positions took 213 s, too
// much of the suite's 20-minute budget). DEADPOS_ANALYZER_POSITIONS sets another count (a run with
// 100,000 passed on 2026-12-01 with all 200,000 questions decided).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "test_probe_util.h"

namespace deadpos::probe_test {
namespace {

// Why the analyzer's answer for `mated` (limited to the 3-man tables) disagrees with the 4-man
// table's, or "" when it agrees: an undecided answer agrees; a decided one must give the table's
// can/cannot, a line that replays to mate of `mated`, and, when it claims the line is shortest,
// exactly the table's DTHM.
std::string disagreement(const Position& pos, Color mated, const Result<ProbeResult>& truth,
                         const Result<MateAnswer>& a) {
  if (!truth) return "table probe failed: " + truth.error().message;
  if (!a) return "analyzer error: " + a.error().message;
  if (a->method == Method::Table) return "answered from a table above the 3-man cap";
  const auto c = a->can_mate();
  if (!c) return "";
  const std::optional<int>& dthm = truth->dthm[mated];
  if (*c != dthm.has_value()) {
    return std::string("analyzer says ") + (*c ? "can" : "cannot") + " (" + method_name(a->method) +
           "), the 4-man table says DTHM " + dthm_text(dthm);
  }
  if (!*c) return "";
  if (a->shortest && a->plies != *dthm) {
    return "line of " + std::to_string(a->plies) + " plies marked shortest, the 4-man table says DTHM " +
           std::to_string(*dthm);
  }
  return check_helpmate_line(pos, mated, a->line, static_cast<int>(a->line.size()));
}

TEST(AnalyzerOracle, AgreesWithTheFourManTablesWhenLimitedToThreeMen) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  ASSERT_GE(complete_men(*tb), 4);
  std::vector<Material> mats;
  for (const Material& m : materials_both_ways(4))
    if (m.men() == 4) mats.push_back(m);
  ASSERT_EQ(mats.size(), 55u);  // 30 canonical 4-man materials, 25 of them asymmetric
  // Builds with assertions run 10-20 times slower: a tenth of the sample there.
  long count = test::sample_size(50'000, 10);
  if (const char* e = std::getenv("DEADPOS_ANALYZER_POSITIONS")) count = std::max(1L, std::atol(e));
  AnalysisOptions opt;
  opt.table_men = 3;
  long decided = 0, questions = 0;
  std::mutex mu;
  std::vector<std::string> failures;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : decided, questions)
  for (long i = 0; i < count; ++i) {
    // One generator per position: the sample is the same for any thread count.
    std::mt19937_64 rng(0x5EED0000ULL + static_cast<std::uint64_t>(i));
    const Position pos = random_position(mats[static_cast<std::size_t>(i) % mats.size()], rng);
    auto truth = tb->probe(pos);
    for (Color mated : {Color::White, Color::Black}) {
      ++questions;
      auto a = deadpos::analyze_side(*tb, pos, mated, opt, true);
      if (a && a->method != Method::Table && a->can_mate()) ++decided;
      const std::string why = disagreement(pos, mated, truth, a);
      if (!why.empty()) {
        std::lock_guard lock(mu);
        failures.push_back(pos.to_fen() + (mated == Color::White ? " (White mated): " : " (Black mated): ") + why);
      }
    }
  }
  for (std::size_t k = 0; k < std::min<std::size_t>(failures.size(), 20); ++k) ADD_FAILURE() << failures[k];
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures";
  EXPECT_GE(static_cast<double>(decided), 0.99 * static_cast<double>(questions))
      << decided << " of " << questions << " questions decided";
  std::printf("[ analyzer ] %ld of %ld questions decided (%.3f%%)\n", decided, questions,
              100.0 * static_cast<double>(decided) / static_cast<double>(questions));
}

// Locked pawns under the same oracle: KPvKP with the two pawns head to head on one file (neither
// can ever move unless a king takes the other's), the kings and the side to move random. The
// locked-structure rule and the search run with the tables capped at 3 men; every decided answer
// must be the 4-man table's, every line must replay. With 4 men a king can always reach the
// other's pawn, so the rule closes none of these roots (the count is printed); what this checks is
// that the search, which tries the rule after every pawn move and capture, never contradicts the
// tables around head-to-head pawns. The rule's own soundness on real walls is the brute-force test
// of tests/test_locks.cpp; larger locked structures need the 5-man set as the oracle (not built in CI).
TEST(AnalyzerOracle, AgreesWithTheFourManTablesOnLockedPawns) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  ASSERT_GE(complete_men(*tb), 4);
  const long count = test::sample_size(4'000, 10);
  AnalysisOptions opt;
  opt.table_men = 3;
  long decided = 0, questions = 0, closed_by_rule = 0;
  std::mutex mu;
  std::vector<std::string> failures;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : decided, questions, closed_by_rule)
  for (long i = 0; i < count; ++i) {
    std::mt19937_64 rng(0x10C4ED00ULL + static_cast<std::uint64_t>(i));
    std::uniform_int_distribution<int> sq(0, 63), file(0, 7), rank(1, 5);
    std::optional<Position> pos;
    while (!pos) {
      Placement pl;
      const int f = file(rng), r = rank(rng);  // White's pawn on rank r+1 (2..6), Black's just above
      pl[make_square(static_cast<File>(f), static_cast<Rank>(r))] = make_piece(Color::White, PieceType::Pawn);
      pl[make_square(static_cast<File>(f), static_cast<Rank>(r + 1))] = make_piece(Color::Black, PieceType::Pawn);
      for (Color c : {Color::White, Color::Black}) {
        Square s;
        do s = square_at(sq(rng));
        while (pl[s] != kNoPiece);
        pl[s] = make_piece(c, PieceType::King);
      }
      pl.side_to_move = (rng() & 1) ? Color::White : Color::Black;
      if (auto p = Position::from_placement(pl)) pos = std::move(*p);
    }
    auto truth = tb->probe(*pos);
    for (Color mated : {Color::White, Color::Black}) {
      ++questions;
      auto a = deadpos::analyze_side(*tb, *pos, mated, opt, true);
      if (a && a->method != Method::Table && a->can_mate()) {
        ++decided;
        if (a->method == Method::Rule) ++closed_by_rule;
      }
      const std::string why = disagreement(*pos, mated, truth, a);
      if (!why.empty()) {
        std::lock_guard lock(mu);
        failures.push_back(pos->to_fen() + (mated == Color::White ? " (White mated): " : " (Black mated): ") + why);
      }
    }
  }
  for (std::size_t k = 0; k < std::min<std::size_t>(failures.size(), 20); ++k) ADD_FAILURE() << failures[k];
  EXPECT_TRUE(failures.empty()) << failures.size() << " failures";
  EXPECT_GE(static_cast<double>(decided), 0.99 * static_cast<double>(questions))
      << decided << " of " << questions << " questions decided";
  std::printf("[ analyzer ] locked KPvKP: %ld of %ld questions decided, %ld by a rule at the root\n", decided,
              questions, closed_by_rule);
}

}  // namespace
}  // namespace deadpos::probe_test
