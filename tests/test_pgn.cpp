// The PGN reader (deadpos/pgn.h) on hand-written inputs and on the fixtures of tests/data/pgn/
// (SOURCES.md). Expected values come from reading the inputs (the fixtures' own descriptions and
// the PGN standard), and from counting '[Event ' lines with a plain line scan.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "deadpos/pgn.h"

namespace deadpos {
namespace {

const std::string kData = DEADPOS_PGN_DATA;

std::vector<PgnGame> read_all(const std::string& text) {
  std::istringstream in(text);
  PgnReader r(in);
  std::vector<PgnGame> out;
  for (;;) {
    auto g = r.next();
    EXPECT_TRUE(g.ok());
    if (!g.ok() || !*g) break;
    out.push_back(std::move(**g));
  }
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> moves_of(const PgnGame& g) {
  std::vector<std::string> m;
  for (const auto& x : g.moves) m.push_back(x.text);
  return m;
}

TEST(PgnReader, TagsMovesResult) {
  const auto games = read_all("[Event \"A \\\"B\\\" \\\\ C\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n");
  ASSERT_EQ(games.size(), 1u);
  const PgnGame& g = games[0];
  ASSERT_EQ(g.tags.size(), 2u);
  EXPECT_EQ(g.tags[0].name, "Event");
  EXPECT_EQ(g.tags[0].value, "A \"B\" \\ C");
  EXPECT_EQ(g.tag("Result")->value, "1-0");
  EXPECT_EQ(moves_of(g), (std::vector<std::string>{"e4", "e5", "Nf3"}));
  EXPECT_EQ(g.result_token, "1-0");
  EXPECT_FALSE(g.syntax_error);
  EXPECT_EQ(g.number, 1u);
  EXPECT_EQ(g.line, 1u);
}

TEST(PgnReader, CommentsVariationsNagsGlyphsEscapes) {
  const auto games = read_all(
      "% an escape line { not a comment\n"
      "[Event \"x\"]\n\n"
      "1. e4 {a [%clk 0:03:00] comment} (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 $1 2. Nf3!? ; rest ( of line\n"
      "2... Nc6 ?! 3. Bb5 !! 1/2-1/2\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(moves_of(games[0]), (std::vector<std::string>{"e4", "e5", "Nf3!?", "Nc6", "Bb5"}));
  EXPECT_EQ(games[0].result_token, "1/2-1/2");
  EXPECT_FALSE(games[0].syntax_error) << *games[0].syntax_error;
}

TEST(PgnReader, MoveNumberForms) {
  const auto games = read_all("[FEN \"x\"]\n\n1. ... Ba5 2.Nf3 2...Nf6 3 . e4 3. ... d5 4.O-O 0-0 *\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(moves_of(games[0]), (std::vector<std::string>{"Ba5", "Nf3", "Nf6", "e4", "d5", "O-O", "0-0"}));
  EXPECT_EQ(games[0].result_token, "*");
}

TEST(PgnReader, ByteOrderMarkIsReported) {
  std::istringstream with("\xEF\xBB\xBF[Event \"x\"]\n\n1. e4 *\n");
  PgnReader a(with);
  ASSERT_TRUE(a.next());
  EXPECT_TRUE(a.bom());
  std::istringstream without("[Event \"x\"]\n\n1. e4 *\n");
  PgnReader b(without);
  ASSERT_TRUE(b.next());
  EXPECT_FALSE(b.bom());
}

TEST(PgnReader, MoveNumbersAsWritten) {
  std::istringstream in("[Event \"x\"]\n\n{c} 1. e4 {d} e5 2.Nf3 3... Nc6 *\n");
  PgnReader r(in);
  auto g = r.next();
  ASSERT_TRUE(g && *g);
  const PgnGame& x = **g;
  ASSERT_EQ(x.moves.size(), 4u);
  EXPECT_EQ(x.moves[0].number, "1.");
  EXPECT_EQ(x.text.substr(x.moves[0].number_begin, 5), "1. e4");
  EXPECT_EQ(x.moves[1].number, "");
  EXPECT_EQ(x.moves[1].number_begin, x.moves[1].begin);
  EXPECT_EQ(x.moves[2].number, "2.");
  EXPECT_EQ(x.text.substr(x.moves[2].number_begin, 5), "2.Nf3");
  EXPECT_EQ(x.moves[3].number, "3...");
}

TEST(PgnReader, CrlfAndByteOrderMark) {
  const auto games = read_all("\xEF\xBB\xBF[Event \"x\"]\r\n[Result \"0-1\"]\r\n\r\n1. f3 e5 2. g4 Qh4# 0-1\r\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].tags[0].name, "Event");
  EXPECT_EQ(games[0].tags[0].value, "x");
  EXPECT_EQ(moves_of(games[0]), (std::vector<std::string>{"f3", "e5", "g4", "Qh4#"}));
  EXPECT_EQ(games[0].result_token, "0-1");
}

TEST(PgnReader, GamesWithoutBlankLinesOrTags) {
  // A tag after movetext begins a game; so does a move after a result.
  const auto games = read_all("[Event \"1\"]\n1. e4 1-0\n[Event \"2\"]\n1. d4 0-1 e4 e5 * 1. c4 1/2-1/2\n");
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(moves_of(games[0]), (std::vector<std::string>{"e4"}));
  EXPECT_EQ(games[1].tag("Event")->value, "2");
  EXPECT_EQ(moves_of(games[1]), (std::vector<std::string>{"d4"}));
  EXPECT_EQ(moves_of(games[2]), (std::vector<std::string>{"e4", "e5"}));
  EXPECT_EQ(games[2].result_token, "*");
  EXPECT_TRUE(games[2].tags.empty());
  EXPECT_EQ(games[3].result_token, "1/2-1/2");
  EXPECT_EQ(games[3].number, 4u);
  EXPECT_EQ(games[1].line, 3u);
}

TEST(PgnReader, NullMovesAreMarked) {
  const auto games = read_all("1. e4 -- 2. d4 Z0 *\n");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].first_null_move);
  EXPECT_EQ(*games[0].first_null_move, 1u);
}

TEST(PgnReader, SyntaxErrorsKeepTheNextGame) {
  const auto games = read_all(
      "[Event \"bad\"]\n\n1. e4 ) e5 1-0\n\n[Event \"good\"]\n\n1. d4 1-0\n\n[Event \"unclosed\"]\n\n1. c4 {never "
      "closed\n");
  ASSERT_EQ(games.size(), 3u);
  ASSERT_TRUE(games[0].syntax_error);
  EXPECT_NE(games[0].syntax_error->find("line 3"), std::string::npos) << *games[0].syntax_error;
  EXPECT_FALSE(games[1].syntax_error);
  EXPECT_EQ(moves_of(games[1]), (std::vector<std::string>{"d4"}));
  ASSERT_TRUE(games[2].syntax_error);
  EXPECT_NE(games[2].syntax_error->find("comment"), std::string::npos);
}

TEST(PgnReader, UnknownTokensAreErrorsNotMoves) {
  for (const char* text : {"1. e4 \xC2\xBD-\xC2\xBD\n", "1. O\xE2\x80\x91O *\n", "1. e4 <br /> *\n"}) {
    const auto games = read_all(text);
    ASSERT_EQ(games.size(), 1u) << text;
    EXPECT_TRUE(games[0].syntax_error) << text;
  }
}

TEST(PgnReader, NothingButCommentsIsNoGame) {
  EXPECT_TRUE(read_all("").empty());
  EXPECT_TRUE(read_all("\n\n; only a comment\n% escape\n{ and a brace comment }\n").empty());
}

TEST(PgnReader, StreamThatFailsIsAnIoError) {
  std::istringstream in("[Event \"x\"]\n1. e4 *\n");
  in.setstate(std::ios::badbit);
  PgnReader r(in);
  auto g = r.next();
  // A stream already failed reads as empty; badbit set while reading is an I/O error. Either
  // way, never a made-up game.
  EXPECT_TRUE(!g.ok() || !*g);
}

// Fixture: chessops' pathological headers (values written out by hand from the file).
TEST(PgnFixtures, PathologicalHeaders) {
  const auto games = read_all(slurp(kData + "/torture/torture-chessops-pathological-headers.pgn"));
  ASSERT_EQ(games.size(), 1u);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"A", "b\""}, {"B", "b\""}, {"C", "A]]"}, {"D", "A]]["}, {"E", "\"A]][\""}, {"F", "\"A]][\"\\"}, {"G", "\"]"}};
  ASSERT_EQ(games[0].tags.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(games[0].tags[i].name, want[i].first);
    EXPECT_EQ(games[0].tags[i].value, want[i].second);
  }
}

TEST(PgnFixtures, LenientTagValues) {
  auto g = read_all(slurp(kData + "/torture/torture-chesslib-backslash-in-tag.pgn"));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("Event")->value, "Tournament \\");
  EXPECT_EQ(g[0].tag("Site")->value, "Madrid ESP");
  g = read_all(slurp(kData + "/torture/torture-scalachess-unclosedQuote.pgn"));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("Event")->value, "NII - Lille 2 / Tour Blanche Paris");
  EXPECT_EQ(g[0].tag("Site")->value, "Lille");
  g = read_all(slurp(kData + "/torture/torture-chesslib-unescaped-quotes.pgn"));
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].tag("White")->value, "Smith, John \"The King\"");
  EXPECT_EQ(g[0].moves.size(), 20u);
}

TEST(PgnFixtures, ByteOrderMarkAndPercentLines) {
  auto g = read_all(slurp(kData + "/torture/torture-pythonchess-utf8-bom.pgn"));
  ASSERT_FALSE(g.empty());
  EXPECT_EQ(g[0].tags[0].name, "Event");
  g = read_all(slurp(kData + "/torture/torture-pychessgui-percent-escape-lines.pgn"));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(moves_of(g[0]).size(), 8u);
  EXPECT_EQ(moves_of(g[1]).size(), 12u);
  EXPECT_FALSE(g[0].syntax_error);
}

TEST(PgnFixtures, HeadersAndMovesOnOneLine) {
  const auto g = read_all(slurp(kData + "/torture/torture-chessops-headers-moves-same-line.pgn"));
  ASSERT_EQ(g.size(), 3u);
  for (const auto& x : g) {
    EXPECT_EQ(x.tag("Variant")->value, "Antichess");
    EXPECT_EQ(moves_of(x), (std::vector<std::string>{"e3", "e6", "b4", "Bxb4", "Qg4"}));
  }
}

// Every byte of every fixture is in exactly one game's text (the BOM of the first line aside), in
// order; every move's offsets point at its text. What --pgn-out writes rests on this.
TEST(PgnFixtures, TextIsKeptByteForByte) {
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kData)) {
    if (e.path().extension() != ".pgn") continue;
    ++files;
    std::string all = slurp(e.path().string());
    if (all.starts_with("\xEF\xBB\xBF")) all.erase(0, 3);
    std::string joined;
    for (const PgnGame& g : read_all(all)) {
      for (const PgnMove& m : g.moves) ASSERT_EQ(g.text.substr(m.begin, m.end - m.begin), m.text) << e.path();
      for (const PgnTag& t : g.tags) ASSERT_LE(t.value_end, g.text.size());
      if (!g.result_token.empty()) {
        ASSERT_EQ(g.text.substr(g.result_begin, g.result_token.size()), g.result_token);
      }
      joined += g.text;
    }
    // The text after the last game (blank lines, comments) belongs to no game.
    ASSERT_TRUE(all.starts_with(joined)) << e.path();
    ASSERT_EQ(all.substr(joined.size()).find_first_not_of(" \t\r\n"), std::string::npos) << e.path();
  }
  EXPECT_GT(files, 100);
}

// The real files hold one game per '[Event ' line (each game has an Event tag).
TEST(PgnFixtures, GameCountsOfRealFiles) {
  for (const char* name : {"lichess-timeforfeit-draws.pgn", "lichess-insufficient-material-draws.pgn",
                           "lichess-2013-chessjs-benchmark.pgn", "lichess-db-2025-05-first438.pgn",
                           "torture/torture-chesscom-magnus-no-blank-line-between-games-first40.pgn"}) {
    const std::string text = slurp(kData + "/" + name);
    std::size_t events = 0;
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);)
      if (l.starts_with("[Event ")) ++events;
    const auto games = read_all(text);
    EXPECT_EQ(games.size(), events) << name;
    for (const auto& g : games) EXPECT_FALSE(g.syntax_error) << name << " game " << g.number << ": " << *g.syntax_error;
  }
}

}  // namespace
}  // namespace deadpos
