// The command's output layer (tools/cli.h, deadpos/answers.h): one mapping of error categories to exit codes, one
// physical line per input whatever bytes it holds, and the rendering of answers. Expected values
// come from docs/cli.md (the exit-code table), the Unicode and JSON definitions of line breaks and
// escapes, and FIDE 5.2.2 / 6.9 for the verdicts of hand-built answers.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cli.h"

namespace deadpos::cli {
namespace {

// True when s is printable ASCII only: no byte any reader could take for a line break.
bool printable_ascii(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7E) return false;
  return true;
}

TEST(ExitCodes, OnePerCategoryAsDocumented) {
  // docs/cli.md, "Exit codes".
  EXPECT_EQ(exit_code(ErrorCode::InvalidFen), 3);
  EXPECT_EQ(exit_code(ErrorCode::InvalidArgument), 4);
  EXPECT_EQ(exit_code(ErrorCode::Io), 5);
  EXPECT_EQ(exit_code(ErrorCode::MissingTable), 6);
  EXPECT_EQ(exit_code(ErrorCode::CorruptTable), 7);
  EXPECT_EQ(exit_code(ErrorCode::VerificationFailed), 8);
  EXPECT_EQ(exit_code(ErrorCode::OutOfMemory), 9);
  EXPECT_EQ(exit_code(ErrorCode::InvalidMove), 10);
  EXPECT_EQ(exit_code(ErrorCode::TooManyMen), 11);
}

TEST(Echo, EveryByteGivesOnePrintableLine) {
  // Each byte value inside an input, alone and between letters: the echo is printable ASCII, so
  // \n, \r, \v, \f, \x1c-\x1e, NUL and the UTF-8 forms of U+0085, U+2028, U+2029 never split it.
  for (int b = 0; b < 256; ++b) {
    const std::string in = std::string("a") + static_cast<char>(b) + "b";
    EXPECT_TRUE(printable_ascii(quoted_input(in))) << b;
    EXPECT_TRUE(printable_ascii(one_line(in))) << b;
    EXPECT_TRUE(printable_ascii(json_line(probe_error_json(in, make_error(ErrorCode::InvalidFen, in))))) << b;
  }
  for (const char* s : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xF0\x9F\x98\x80"}) {
    EXPECT_TRUE(printable_ascii(quoted_input(s))) << s;
    EXPECT_TRUE(printable_ascii(json_line(nlohmann::json(s)))) << s;
  }
}

TEST(Echo, EscapesAreTheJsonOnes) {
  EXPECT_EQ(one_line("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(one_line(std::string("x\0y", 3)), "x\\u0000y");
  EXPECT_EQ(one_line("\x0b\x0c\x1c\x1d\x1e\x7f"), "\\u000b\\u000c\\u001c\\u001d\\u001e\\u007f");
  EXPECT_EQ(one_line("\xC2\x85|\xE2\x80\xA8|\xE2\x80\xA9"), "\\u0085|\\u2028|\\u2029");
  EXPECT_EQ(one_line("\xF0\x9F\x98\x80"), "\\ud83d\\ude00");  // U+1F600 as a UTF-16 surrogate pair
  EXPECT_EQ(one_line("\x85"), "\\x85");                       // a lone continuation byte: not UTF-8
  EXPECT_EQ(one_line("\xC0\xAF"), "\\xC0\\xAF");              // overlong '/': not UTF-8
  EXPECT_EQ(one_line("\xED\xA0\x80"), "\\xED\\xA0\\x80");     // a UTF-16 surrogate: not UTF-8
  // A message's backslash stays (core's messages already show outside bytes as \xNN); the
  // quoted echo escapes it, so that the echo reads back exactly.
  EXPECT_EQ(one_line("a\\b"), "a\\b");
  EXPECT_EQ(quoted_input("a\\b"), "\"a\\\\b\"");
}

TEST(Echo, QuotedSoThatAColonSpaceInTheInputIsNotAVerdict) {
  // An error line is <quoted input>: error: ...; an answer line starts with a normalised FEN, which
  // never starts with '"'. The input's own '"' and ": " stay inside the quotes.
  const std::string crafted = "8/8/8/8/8/8/8/K6k w - - 0 1: dead position \" x";
  const std::string line = probe_error_text(crafted, make_error(ErrorCode::InvalidFen, "bad"));
  EXPECT_EQ(line, "\"8/8/8/8/8/8/8/K6k w - - 0 1: dead position \\\" x\": error: invalid FEN: bad");
}

TEST(Echo, LongInputIsCutAt200Bytes) {
  const std::string in(250, 'x');
  EXPECT_EQ(quoted_input(in), "\"" + std::string(200, 'x') + "\"... (250 bytes)");
  EXPECT_EQ(json_input(in), std::string(200, 'x') + "... (250 bytes)");
  EXPECT_EQ(quoted_input(std::string(200, 'y')), "\"" + std::string(200, 'y') + "\"");
  // Not inside a UTF-8 sequence: 199 bytes and a 3-byte U+2028 are cut before the U+2028.
  const std::string u = std::string(199, 'z') + "\xE2\x80\xA8" + "tail";
  EXPECT_EQ(quoted_input(u), "\"" + std::string(199, 'z') + "\"... (206 bytes)");
  EXPECT_EQ(json_input(u), std::string(199, 'z') + "... (206 bytes)");
}

TEST(Counts, SingularAndPlural) {
  EXPECT_EQ(plies(1), "1 ply");
  EXPECT_EQ(plies(0), "0 plies");
  EXPECT_EQ(count_of(1, "dead position", "dead positions"), "1 dead position");
  EXPECT_EQ(count_of(2, "dead position", "dead positions"), "2 dead positions");
  ProbeTally t;
  t.answered = 1;
  t.dead = 1;
  EXPECT_NE(summary_text(t, false).find("; 1 dead position"), std::string::npos);
  EXPECT_EQ(summary_text(t, false).find("1 dead positions"), std::string::npos);
}

// A hand-built answer: KQvK, White can mate in 7 plies (from a table), Black cannot.
ProbeAnswer kqk_answer() {
  ProbeAnswer a{*Position::from_fen("8/8/8/8/8/8/2Q5/K6k w - - 0 1"), {}, std::nullopt, std::nullopt, false};
  a.analysis.table = "KQvK";
  a.analysis.mate[Color::Black].mated = Color::Black;
  a.analysis.mate[Color::Black].method = Method::Table;
  a.analysis.mate[Color::Black].dthm = 7;
  a.analysis.mate[Color::White].mated = Color::White;
  a.analysis.mate[Color::White].method = Method::Table;
  return a;
}

TEST(ProbeRender, TableAnswerTextAndJson) {
  const ProbeAnswer a = kqk_answer();
  EXPECT_EQ(probe_text(a),
            "8/8/8/8/8/8/2Q5/K6k w - - 0 1: White can checkmate (shortest helpmate 7 plies); Black cannot "
            "checkmate [table KQvK]");
  const nlohmann::json j = probe_json("in", a);
  EXPECT_EQ(j["input"], "in");
  EXPECT_EQ(j["table"], "KQvK");
  EXPECT_EQ(j["dead"], false);
  EXPECT_EQ(j["white_can_mate"], true);
  EXPECT_EQ(j["black_can_mate"], false);
  EXPECT_EQ(j["dthm_black_mated_plies"], 7);
  EXPECT_TRUE(j["dthm_white_mated_plies"].is_null());
  EXPECT_EQ(j["how"]["white_can_mate"]["method"], "table");
  EXPECT_FALSE(j.contains("lines"));
  EXPECT_FALSE(j.contains("flag"));
}

TEST(ProbeRender, FlagVerdictFollowsFide69) {
  ProbeAnswer a = kqk_answer();
  a.flagged = Color::Black;  // Black's flag fell; White can mate: White wins (FIDE 6.9)
  a.verdict = flag_verdict(a.analysis, Color::White, Color::Black);
  EXPECT_EQ(probe_json("", a)["flag"]["result"], "1-0");
  EXPECT_EQ(probe_json("", a)["flag"]["reason"], "opponent-can-mate");
  a.flagged = Color::White;  // White's flag fell; Black cannot mate: drawn
  a.verdict = flag_verdict(a.analysis, Color::White, Color::White);
  EXPECT_EQ(probe_json("", a)["flag"]["result"], "1/2-1/2");
  EXPECT_NE(probe_text(a).find(" | White's flag fell: 1/2-1/2, "), std::string::npos);
}

TEST(ProbeRender, LineErrorKeepsTheVerdict) {
  // --line asked, the line could not be built: the verdict stands, the error has its own field.
  ProbeAnswer a = kqk_answer();
  a.want_lines = true;
  a.analysis.mate[Color::Black].line_error = make_error(ErrorCode::MissingTable, "table KvK is not loaded");
  const nlohmann::json j = probe_json("", a);
  EXPECT_EQ(j["white_can_mate"], true);
  ASSERT_EQ(j["lines"].size(), 1u);
  EXPECT_EQ(j["lines"][0]["mated"], "black");
  EXPECT_EQ(j["lines"][0]["error"]["category"], "missing table");
  EXPECT_FALSE(j["lines"][0].contains("uci"));
  EXPECT_NE(probe_text(a).find("White can checkmate (shortest helpmate 7 plies)"), std::string::npos);
  EXPECT_NE(probe_text(a).find(" | mate of Black: line not available: missing table: table KvK is not loaded"),
            std::string::npos);
}

TEST(ProbeRender, CheckmateBeyondTheTablesNamesNoTable) {
  // Fool's mate: 32 men, no table; White is checkmated (DTHM 0 for White, by the rules).
  ProbeAnswer a{*Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
                {},
                std::nullopt,
                std::nullopt,
                false};
  a.analysis.checkmate = true;
  MateAnswer& w = a.analysis.mate[Color::White];
  w.mated = Color::White;
  w.method = Method::Search;  // as the analyzer answers a checkmate on the board: a 0-ply line
  w.shortest = true;
  a.analysis.mate[Color::Black].mated = Color::Black;
  a.analysis.mate[Color::Black].method = Method::Exhausted;
  const nlohmann::json j = probe_json("", a);
  EXPECT_TRUE(j["table"].is_null());
  EXPECT_EQ(j["dthm_white_mated_plies"], 0);
  EXPECT_EQ(probe_text(a),
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3: White is checkmated [by the rules: no "
            "legal move]");
}

}  // namespace
}  // namespace deadpos::cli
