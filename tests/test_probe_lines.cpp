// Certificate lines: Tablebase::helpmate_line must replay with legal moves (Position::legal_moves,
// make_move) to a checkmate of the right side in exactly DTHM plies. A line is a proof of the
// "can mate" half of every answer, checked without trusting the tables.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "test_probe_util.h"

namespace deadpos {
namespace {

using probe_test::check_helpmate_line;
using probe_test::position_from;

// Checks the lines of every side that can be mated in p; returns the number of lines checked.
int check_lines(const Tablebase& tb, const Position& p) {
  auto r = tb.probe(p);
  EXPECT_TRUE(r) << p.to_fen() << ": " << r.error().message;
  if (!r) return 0;
  int lines = 0;
  for (Color mated : {Color::White, Color::Black}) {
    auto line = tb.helpmate_line(p, mated);
    if (!r->dthm[mated]) {
      // No helpmate: asking for one is an error, not an empty line.
      EXPECT_FALSE(line) << p.to_fen() << ": a line for a side that cannot be mated";
      if (!line) {
        EXPECT_EQ(line.error().code, ErrorCode::InvalidArgument) << line.error().message;
      }
      continue;
    }
    EXPECT_TRUE(line) << p.to_fen() << ": " << line.error().message;
    if (!line) continue;
    EXPECT_EQ(check_helpmate_line(p, mated, *line, *r->dthm[mated]), "")
        << p.to_fen() << " (" << (mated == Color::White ? "White" : "Black") << " mated): " << format_line(p, *line);
    ++lines;
  }
  return lines;
}

// The positions of the rule tests (en passant, castling, terminal positions) and of the public
// file that fit in 4 men.
TEST(HelpmateLines, NamedPositions) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  int lines = 0;
  for (const char* fen : {
           "8/8/7p/5K1k/6Pp/8/8/8 b - g3 0 1",   // en passant resolves a checkmate (5 men, 1 legal move)
           "8/8/8/8/1pP5/k7/8/K7 b - c3 0 1",    // en passant shortens White's mate to 5 plies
           "8/8/8/8/1pP5/k7/8/K7 b - - 0 1",     // the same without the right
           "8/8/8/8/8/8/3Q4/R3K2k w Q - 0 1",    // 1.O-O-O#
           "r3k2K/3q4/8/8/8/8/8/8 b q - 0 1",    // 1...O-O-O#
           "k7/8/1Q6/8/8/8/8/4K2R w K - 0 1",    // castling irrelevant
           "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",   // both sides may castle
           "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",   // two rights of one side
           "r7/K1k5/8/8/8/8/8/8 w - - 4 3",      // PUB-001: dead (no line at all)
           "8/2kr4/8/K7/8/8/8/8 w - - 0 1",      // PUB-002
           "6rk/5N2/7K/8/8/8/8/8 b - - 0 1",     // PUB-006: already checkmate (line of 0 plies)
           "7k/8/7K/2Bb4/8/8/8/8 b - - 0 1",     // PUB-009
           "8/8/8/8/1n6/8/B7/K1k5 b - - 2 1",    // PUB-011
           "8/8/4K3/8/1n6/8/5k1N/8 w - - 0 50",  // PUB-016
       }) {
    const Position p = position_from(fen);
    if (p.men() > tb->max_men() && !p.en_passant()) continue;
    lines += check_lines(*tb, p);
  }
  EXPECT_GE(lines, 15);
}

// 2,000 random legal positions of every material up to 4 men (both orientations); 400 in builds
// with assertions.
TEST(HelpmateLines, RandomPositions) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const std::vector<Material> mats = probe_test::materials_both_ways(std::min(4, tb->max_men()));
  ASSERT_FALSE(mats.empty());
  std::mt19937_64 rng(0x11e5);
  int lines = 0;
  const int n = test::sample_size(2000, 5);
  for (int i = 0; i < n; ++i) {
    const Position p = probe_test::random_position(mats[static_cast<std::size_t>(i) % mats.size()], rng);
    lines += check_lines(*tb, p);
    if (HasFailure()) break;  // one position is enough to report
  }
  // Most random positions of these materials have at least one helpmate.
  EXPECT_GT(lines, n);
  RecordProperty("lines", lines);
}

// The probe against the definition on random positions: DTHM_X(p) = min over legal moves m of
// 1 + DTHM_X(p after m), 0 for a checkmate of X, none for other terminals. With the lines above
// (every finite value is reached) this makes every sampled value exact, not only consistent.
TEST(HelpmateLines, RandomPositionsSatisfyTheDefinition) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const std::vector<Material> mats = probe_test::materials_both_ways(std::min(4, tb->max_men()));
  std::mt19937_64 rng(0xbe11);
  int failures = 0;
  for (int i = 0; i < test::sample_size(1000, 5) && failures < 5; ++i) {
    const Position p = probe_test::random_position(mats[static_cast<std::size_t>(i) % mats.size()], rng);
    auto r = tb->probe(p);
    ASSERT_TRUE(r) << p.to_fen() << ": " << r.error().message;
    ByColor<std::optional<int>> want;
    const MoveList moves = p.legal_moves();
    if (moves.empty() && p.in_check()) want[p.side_to_move()] = 0;
    for (Move m : moves) {
      auto s = tb->probe(p.after(m));
      ASSERT_TRUE(s) << p.to_fen() << " " << to_uci(m) << ": " << s.error().message;
      for (Color x : {Color::White, Color::Black})
        if (s->dthm[x] && (!want[x] || *s->dthm[x] + 1 < *want[x])) want[x] = *s->dthm[x] + 1;
    }
    if (r->dthm != want) {
      ADD_FAILURE() << p.to_fen() << ": probe W " << probe_test::dthm_text(r->dthm[Color::White]) << " B "
                    << probe_test::dthm_text(r->dthm[Color::Black]) << ", successors give W "
                    << probe_test::dthm_text(want[Color::White]) << " B " << probe_test::dthm_text(want[Color::Black]);
      ++failures;
    }
  }
}

}  // namespace
}  // namespace deadpos
