// The deadpos command's shared output layer (library deadpos_cli): the one mapping of error
// categories to exit codes (docs/cli.md, "Exit codes"), the one escaping of echoed input, the text
// and JSON rendering of probe answers, the progress printer, and the output-stream check. Every
// subcommand file (tools/cmd_*.cpp) prints through these, so that each input gives exactly one
// physical output line and each failure one category. Not thread-safe: call from one thread.
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
#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/stats.h"
#include "deadpos/table_set.h"
#include "deadpos/tablebase.h"
#include "deadpos/verify.h"

namespace deadpos::cli {

// Exit codes besides the error categories (docs/cli.md).
inline constexpr int kExitInternal = 1;
inline constexpr int kExitUsage = 2;

// The body of main() of the deadpos programs (deadpos, deadpos-serve): runs run(argc, argv) with
// a std::terminate handler installed, so that anything thrown - also inside an OpenMP parallel
// region, whose threads cannot pass an exception on, or through a noexcept function - leaves as
// one line on standard error and its exit code: std::bad_alloc is out of memory (exit 9), anything
// else an internal error (exit 1). The handlers allocate nothing.
int guarded_main(int (*run)(int, char**), int argc, char** argv);
// `adjudicate`: every file was read, but some game could not be (docs/cli.md, "deadpos adjudicate").
inline constexpr int kExitGamesUnreadable = 12;

// The exit code of an error category: 3..11, one per ErrorCode, distinct (docs/cli.md).
int exit_code(ErrorCode c);

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

// Prints "deadpos: <category>: <message>" (message through one_line) on standard error and
// returns exit_code(e.code).
int report(const Error& e);

// Flushes standard output (C++ and C streams) and checks it: 0 when every byte was written, else
// prints "deadpos: I/O error: standard output: write error" and returns the I/O exit code.
// Called at the end of every subcommand and by long streams after each line (output_ok()).
int finish_output();
bool output_ok();

// Progress on standard error: a rewritten line with percent and ETA on a terminal; otherwise one
// plain line per table with the time of each phase.
ProgressFn make_progress();

// Material keys given on a command line, canonicalised; InvalidArgument for a bad key or more men
// than the generator builds (kMaxGenerateMen).
Result<std::vector<Material>> parse_materials(const std::vector<std::string>& keys);

// ---- probe answers ----------------------------------------------------------------------------

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

// Counts over a probe run, for the summary line.
struct ProbeTally {
  std::uint64_t answered = 0, errors = 0, dead = 0;
  std::uint64_t undetermined = 0;       // answered, at least one side's question undetermined
  std::uint64_t flag_draws = 0;         // drawn although a flag fell
  std::uint64_t flag_wins = 0;          // won by the flagged side's opponent
  std::uint64_t flag_decided = 0;       // checkmate or stalemate on the board
  std::uint64_t flag_undetermined = 0;  // the opponent's question undetermined
  int first_error_code = 0;             // exit code of the first error or line not given, else 0
  void add(const ProbeAnswer& a);
  void add(const Error& e);
};
// "summary: ..." without '\n' (docs/cli.md); `flag`: --flag was given.
std::string summary_text(const ProbeTally& t, bool flag);

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

// Counts over an adjudicate run, for the summary.
struct AdjudicateTally {
  std::uint64_t games = 0, read = 0, unreadable = 0, unsupported = 0, failed = 0;
  std::uint64_t changed = 0, dead_played_on = 0, dead = 0, undetermined = 0, time_forfeits = 0;
  std::uint64_t files = 0;             // files given (standard input counts one)
  std::uint64_t files_unreadable = 0;  // of those, not opened or not read to their end
  int first_error_code = 0;            // exit code of the first failed analysis, else 0
  void add(const GameReport& r);
};
// "summary: ..." without '\n' (docs/cli.md), and the same counts as {"summary": {...}}.
std::string adjudicate_summary_text(const AdjudicateTally& t);
nlohmann::json adjudicate_summary_json(const AdjudicateTally& t);

}  // namespace deadpos::cli
