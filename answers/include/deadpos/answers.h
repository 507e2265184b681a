// Answers as every surface gives them (library deadpos_answers, on core only): the request (the
// flagged side, lines wanted, the budget), the one pipeline from a position to its answer that the
// command, the server, the C API and the Python module share, and the text and JSON renderings of
// answers with the escaping of echoed input (docs/cli.md, "deadpos probe" and "deadpos
// adjudicate", gives the shapes). Pure functions of their arguments; answer() is thread-safe like
// analyze() (deadpos/analysis.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "deadpos/adjudicate.h"
#include "deadpos/analysis.h"
#include "deadpos/pgn.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/tablebase.h"

namespace deadpos::answers {

// ---- escaping ---------------------------------------------------------------------------------

// Text as one physical line of printable ASCII: control bytes (C0, DEL) and every byte
// >= 0x80 are escaped (\n, \r, \t, \u00xx for other controls; valid UTF-8 as \uXXXX, or a
// surrogate pair above U+FFFF; a byte that is not part of valid UTF-8 as \xNN). Readers that split
// on universal newlines (\v, \f, \x1c-\x1e, U+0085, U+2028, U+2029) therefore see one line.
std::string one_line(std::string_view s);

// Echo of an input in text answers: one_line of at most the first 200 bytes, in double quotes
// ('"' and '\\' inside are escaped as \" and \\), followed by "... (N bytes)" outside the quotes when cut. A
// quoted echo never begins a normalised FEN, so "<echo>: error: ..." cannot be mistaken for an
// answer, whatever ": " the input holds.
std::string quoted_input(std::string_view input);

// The input as a JSON string value: at most 200 bytes (then "... (N bytes)" appended).
std::string json_input(std::string_view input);

// One JSON object per line in pure ASCII (non-ASCII as \uXXXX; bytes that are not UTF-8 become
// U+FFFD): no character of the line can be read as a line break.
std::string json_line(const nlohmann::json& j);

// "1 ply" / "2 plies"; "1 dead position" / "2 dead positions" (noun given in singular and plural).
std::string plies(int n);
std::string count_of(std::uint64_t n, std::string_view singular, std::string_view plural);

// ---- probe answers ----------------------------------------------------------------------------

// What is asked of a position: both sides' questions (FIDE 5.2.2, 6.9), with certificate lines
// when want_lines, and the flag-fall verdict when a flag fell.
struct Request {
  std::optional<Color> flagged;  // whose flag fell; nullopt: no flag verdict
  bool want_lines = false;
  AnalysisOptions options;
  // With flagged: false answers only what the verdict needs (analyze_flag: the other side's
  // question is Method::NotAsked when the flagged side can be mated or that is undetermined);
  // true asks both questions.
  bool both_sides = false;
};

// One answered position, as rendered.
struct ProbeAnswer {
  Position pos;
  PositionAnalysis analysis;
  std::optional<Color> flagged;        // --flag given
  std::optional<FlagVerdict> verdict;  // with flagged
  bool want_lines = false;             // --line given
};

// The certificate lines an answer prints: with a flag the flagged side's mate, else every side
// that can be mated (pairs of the mated side and its answer, which holds the line).
std::vector<std::pair<Color, const MateAnswer*>> shown_lines(const ProbeAnswer& a);

// The text answer, one line without '\n': "<normalised FEN>: <verdict> [| flag ...] [| lines]
// [<source>]" (docs/cli.md).
std::string probe_text(const ProbeAnswer& a);
// The JSON answer object (keys of docs/cli.md, "--json"); `input` is the raw input line.
nlohmann::json probe_json(std::string_view input, const ProbeAnswer& a);
// A position that cannot be answered: "<quoted input>: error: <category>: <message>" and its JSON.
std::string probe_error_text(std::string_view input, const Error& e);
nlohmann::json probe_error_json(std::string_view input, const Error& e);

// The answer to `req` for pos: analyze() of both sides (with lines when req.want_lines), or with
// req.flagged (and not req.both_sides) analyze_flag(), then the flag verdict of req.flagged. Errors: as analyze().
// Thread-safe like analyze().
Result<ProbeAnswer> answer(const Tablebase& tb, const Position& pos, const Request& req);

// ---- adjudicate answers -----------------------------------------------------------------------

// One game of `deadpos adjudicate`, as rendered. `adj` is set when the game was replayed and
// adjudicated; `error` when its analysis failed (a table error).
struct GameReport {
  std::string file;
  const PgnGame* game = nullptr;
  const ReplayedGame* replay = nullptr;
  const Adjudication* adj = nullptr;
  std::optional<Error> error;
};

// The JSON object of one game (keys of docs/cli.md, "deadpos adjudicate"): an adjudicated game,
// or one with "unsupported" (a variant) or "error" ({"category", "message"}) instead.
nlohmann::json game_json(const GameReport& r);
// The text line of a game worth a look (unreadable, unsupported, failed, result changed, a dead
// position played on, undetermined), without '\n'; empty for the others.
std::string game_text(const GameReport& r);

// Whether the game went on after a dead position (FIDE 5.2.2 ended it at the first dead ply).
bool played_on(const Adjudication& a);

}  // namespace deadpos::answers
