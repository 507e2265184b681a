// Perft against published counts (style rule 29): tests/data/perft.perft is read by one
// parameterized test; each line is its own ctest case.
//
// Node cap: a Release build (NDEBUG) runs every case. A build with assertions (Debug, and so the
// sanitizer build) skips cases whose expected count is above kDebugNodeCap, reporting the skip.
// The environment variable DEADPOS_PERFT_MAX_NODES=<n> sets the cap in any build (0 = no cap).
#include <gtest/gtest.h>

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "deadpos/position.h"

namespace deadpos {
namespace {

#ifdef NDEBUG
constexpr std::uint64_t kDefaultNodeCap = 0;  // no cap
#else
// Measured with -DDEADPOS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug: 0.2-1.3 million nodes/s depending
// on the position, so the 13 cases under this cap take about 13 s; all 20 take about 60 s of CPU.
constexpr std::uint64_t kDefaultNodeCap = 2'000'000;
#endif

struct PerftCase {
  int line = 0;
  std::string fen;
  int depth = 0;
  std::uint64_t nodes = 0;
  std::string load_error;  // non-empty: the line (or the file) could not be read
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

template <typename T>
bool parse_number(std::string_view s, T& out) {
  s = trim(s);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && ec == std::errc() && ptr == s.data() + s.size();
}

// Reads the data file. Problems come back as cases carrying load_error, so that they fail
// visibly instead of silently shrinking the suite.
std::vector<PerftCase> load_cases() {
  const std::string path = std::string(DEADPOS_TEST_DATA) + "/perft.perft";
  std::ifstream in(path);
  if (!in) return {PerftCase{0, "", 0, 0, "cannot open " + path}};
  std::vector<PerftCase> cases;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    const std::string_view t = trim(text);
    if (t.empty() || t.front() == '#') continue;
    PerftCase c;
    c.line = line;
    const std::size_t a = t.find(';');
    const std::size_t b = a == std::string_view::npos ? a : t.find(';', a + 1);
    if (b == std::string_view::npos || t.find(';', b + 1) != std::string_view::npos) {
      c.load_error = path + ":" + std::to_string(line) + ": expected 'FEN; depth; nodes'";
    } else {
      c.fen = std::string(trim(t.substr(0, a)));
      if (!parse_number(t.substr(a + 1, b - a - 1), c.depth) || c.depth < 0 ||
          !parse_number(t.substr(b + 1), c.nodes)) {
        c.load_error = path + ":" + std::to_string(line) + ": depth or node count is not a number";
      }
    }
    cases.push_back(std::move(c));
  }
  if (cases.empty()) cases.push_back(PerftCase{0, "", 0, 0, path + " has no cases"});
  return cases;
}

// "L19_rnbqkbnr_pppppppp_8_8_8_8_PPPPPPPP_RNBQKBNR_w_KQkq_0_1_d5": gtest names allow only
// letters, digits and '_'; the line number keeps names unique.
std::string case_name(const testing::TestParamInfo<PerftCase>& info) {
  const PerftCase& c = info.param;
  // Built with += only: GCC 12 gives a false -Wrestrict for "literal" + std::string&&.
  std::string name = c.load_error.empty() ? "L" : "LoadError_L";
  name += std::to_string(c.line);
  if (!c.load_error.empty()) return name;
  name += '_';
  bool gap = false;
  for (char ch : c.fen) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      if (gap && name.back() != '_') name += '_';
      name += ch;
      gap = false;
    } else {
      gap = true;
    }
  }
  return name + "_d" + std::to_string(c.depth);
}

std::uint64_t node_cap() {
  if (const char* env = std::getenv("DEADPOS_PERFT_MAX_NODES")) {
    std::uint64_t v = 0;
    if (parse_number(std::string_view(env), v)) return v;
  }
  return kDefaultNodeCap;
}

class PerftFile : public testing::TestWithParam<PerftCase> {};

TEST_P(PerftFile, Nodes) {
  const PerftCase& c = GetParam();
  ASSERT_TRUE(c.load_error.empty()) << c.load_error;
  const std::uint64_t cap = node_cap();
  if (cap != 0 && c.nodes > cap) {
    GTEST_SKIP() << c.nodes << " nodes is above the node cap of " << cap
                 << " for builds with assertions; set DEADPOS_PERFT_MAX_NODES=0 to run it";
  }
  const Result<Position> pos = Position::from_fen(c.fen);
  ASSERT_TRUE(pos.ok()) << "line " << c.line << ": " << pos.error().message;
  EXPECT_EQ(perft(*pos, c.depth), c.nodes) << "line " << c.line << ": perft(" << c.fen << ", " << c.depth << ")";
}

INSTANTIATE_TEST_SUITE_P(Published, PerftFile, testing::ValuesIn(load_cases()), case_name);

// Guards the data file itself: the 6 chessprogramming.org positions and the 14 Sedlak positions.
TEST(PerftData, HasTwentyCases) {
  const std::vector<PerftCase> cases = load_cases();
  EXPECT_EQ(cases.size(), 20U);
  for (const PerftCase& c : cases) EXPECT_TRUE(c.load_error.empty()) << c.load_error;
}

TEST(Perft, ShallowStartPosition) {
  const Position start = Position::startpos();
  // Depth 0 counts the root itself.
  EXPECT_EQ(perft(start, 0), 1U);
  EXPECT_EQ(perft(start, 1), 20U);
  EXPECT_EQ(perft(start, 2), 400U);
  EXPECT_EQ(perft(start, 3), 8902U);
  EXPECT_EQ(perft(start, 4), 197281U);
}

}  // namespace
}  // namespace deadpos
