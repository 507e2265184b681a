// Positions from public bug reports and disputes (examples/positions-public.tsv): the probe must
// give exactly the verdicts of the file. One ctest case per line, named by the line's id.
//
// A case with more men than the loaded tables cover completely is skipped with a message naming the
// case and its number of men (never passed silently); with all 5-man tables it runs.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_probe_util.h"

namespace deadpos {
namespace {

struct PublicCase {
  std::string id;
  std::string fen;
  bool white_can_mate = false;
  bool black_can_mate = false;
  bool dead = false;
  std::string source;
  int line = 0;
  std::string load_error;  // non-empty: the line (or the file) could not be read
};

std::vector<std::string> split_tabs(const std::string& s) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(s);
  while (std::getline(in, field, '\t')) out.push_back(field);
  return out;
}

// Reads the file. Problems come back as cases carrying load_error so that they fail visibly.
std::vector<PublicCase> load_cases() {
  const std::string path = DEADPOS_PUBLIC_POSITIONS;
  std::ifstream in(path);
  if (!in) return {PublicCase{"load", "", false, false, false, "", 0, "cannot open " + path}};
  std::vector<PublicCase> cases;
  std::string text;
  int line = 0;
  bool header = false;
  auto yes_no = [](const std::string& s, bool& out) {
    if (s != "yes" && s != "no") return false;
    out = s == "yes";
    return true;
  };
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text[0] == '#') continue;
    const std::vector<std::string> f = split_tabs(text);
    if (!header) {
      header = true;
      if (f.size() >= 5 && f[0] == "id" && f[1] == "fen") continue;
    }
    PublicCase c;
    c.line = line;
    c.id = f.empty() ? "line" + std::to_string(line) : f[0];
    if (f.size() < 5) {
      c.load_error = path + ":" + std::to_string(line) + ": expected at least 5 tab-separated fields";
    } else {
      c.fen = f[1];
      c.source = f.size() > 5 ? f[5] : "";
      if (!yes_no(f[2], c.white_can_mate) || !yes_no(f[3], c.black_can_mate) || !yes_no(f[4], c.dead)) {
        c.load_error = path + ":" + std::to_string(line) + ": verdict fields must be 'yes' or 'no'";
      }
    }
    cases.push_back(c);
  }
  if (cases.empty()) return {PublicCase{"empty", "", false, false, false, "", 0, path + " holds no case"}};
  return cases;
}

// gtest names allow only letters, digits and '_': "PUB-001" becomes "PUB_001".
std::string case_name(const testing::TestParamInfo<PublicCase>& info) {
  std::string n = info.param.id;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n.empty() ? "line" + std::to_string(info.param.line) : n;
}

class PublicPositions : public testing::TestWithParam<PublicCase> {};

TEST_P(PublicPositions, ProbeGivesTheVerdict) {
  const PublicCase& c = GetParam();
  ASSERT_TRUE(c.load_error.empty()) << c.load_error;
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position pos = probe_test::position_from(c.fen);
  // The file's own consistency: dead means neither side can mate.
  ASSERT_EQ(c.dead, !c.white_can_mate && !c.black_can_mate) << c.id << ": the file contradicts itself";
  // Above the men count for which the directory has every table: the analyzer beyond the tables
  // (docs/design.md, "Beyond the tables") must decide it and give the file's verdict.
  if (const int complete = probe_test::complete_men(*tb); pos.men() > complete) {
    auto a = deadpos::analyze(*tb, pos, AnalysisOptions{}, true);
    ASSERT_TRUE(a) << c.id << ": " << a.error().message;
    EXPECT_EQ(a->white_can_mate(), std::optional<bool>(c.white_can_mate)) << c.id << " " << c.fen;
    EXPECT_EQ(a->black_can_mate(), std::optional<bool>(c.black_can_mate)) << c.id << " " << c.fen;
    EXPECT_EQ(a->dead(), std::optional<bool>(c.dead)) << c.id << " " << c.fen;
    for (Color flagged : {Color::White, Color::Black}) {
      const bool opponent_can_mate = flagged == Color::White ? c.black_can_mate : c.white_can_mate;
      const std::string loss = flagged == Color::White ? "0-1" : "1-0";
      EXPECT_EQ(flag_verdict(*a, pos.side_to_move(), flagged).result, opponent_can_mate ? loss : "1/2-1/2") << c.id;
    }
    for (Color mated : {Color::White, Color::Black}) {
      const MateAnswer& m = a->mate[mated];
      if (m.can_mate() != true) continue;
      EXPECT_EQ(probe_test::check_helpmate_line(pos, mated, m.line, m.plies), "") << c.id << " " << c.fen;
    }
    return;
  }
  auto r = tb->probe(pos);
  ASSERT_TRUE(r) << c.id << ": " << r.error().message;
  EXPECT_EQ(r->white_can_mate(), c.white_can_mate) << c.id << " " << c.fen << " (" << c.source << ")";
  EXPECT_EQ(r->black_can_mate(), c.black_can_mate) << c.id << " " << c.fen << " (" << c.source << ")";
  EXPECT_EQ(r->dead(), c.dead) << c.id << " " << c.fen << " (" << c.source << ")";
  EXPECT_EQ(r->table, Material::of(pos).canonical().key());
  // FIDE 6.9 with 5.2.2 first: a flag-fall loses only if the opponent can mate.
  for (Color flagged : {Color::White, Color::Black}) {
    auto v = tb->flag_verdict(pos, flagged);
    ASSERT_TRUE(v) << c.id << ": " << v.error().message;
    const bool opponent_can_mate = flagged == Color::White ? c.black_can_mate : c.white_can_mate;
    const std::string loss = flagged == Color::White ? "0-1" : "1-0";
    if (r->checkmate) {
      EXPECT_EQ(v->reason, FlagVerdict::Reason::Checkmate) << c.id;
      EXPECT_EQ(v->result, pos.side_to_move() == Color::White ? "0-1" : "1-0") << c.id;
    } else if (r->stalemate) {
      EXPECT_EQ(v->reason, FlagVerdict::Reason::Stalemate) << c.id;
      EXPECT_EQ(v->result, "1/2-1/2") << c.id;
    } else if (c.dead) {
      EXPECT_EQ(v->reason, FlagVerdict::Reason::DeadPosition) << c.id;
      EXPECT_EQ(v->result, "1/2-1/2") << c.id;
    } else {
      EXPECT_EQ(v->result, opponent_can_mate ? loss : "1/2-1/2")
          << c.id << " flag of " << (flagged == Color::White ? "White" : "Black");
    }
  }
  // The certificate of every mate the probe claims (see also test_probe_lines.cpp).
  for (Color mated : {Color::White, Color::Black}) {
    if (!r->dthm[mated]) continue;
    auto line = tb->helpmate_line(pos, mated);
    ASSERT_TRUE(line) << c.id << ": " << line.error().message;
    EXPECT_EQ(probe_test::check_helpmate_line(pos, mated, *line, *r->dthm[mated]), "") << c.id << " " << c.fen;
  }
}

INSTANTIATE_TEST_SUITE_P(File, PublicPositions, testing::ValuesIn(load_cases()), case_name);

}  // namespace
}  // namespace deadpos
