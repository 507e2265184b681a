// The deadpos command's shared output layer (library deadpos_cli, on core and deadpos_answers):
// the one mapping of error categories to exit codes (docs/cli.md, "Exit codes"), the output-stream
// check, the tallies and summaries of a run; the escaping and the rendering of answers are
// deadpos/answers.h's, named here (progress.h: the parts that need the generator). Every
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
#include "deadpos/answers.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/tablebase.h"

namespace deadpos::cli {

// The answers and their renderings are the library's (deadpos/answers.h), shared with the server,
// the C API and the Python module; the command prints them.
using answers::count_of;
using answers::game_json;
using answers::game_text;
using answers::GameReport;
using answers::json_input;
using answers::json_line;
using answers::one_line;
using answers::played_on;
using answers::plies;
using answers::probe_error_json;
using answers::probe_error_text;
using answers::probe_json;
using answers::probe_text;
using answers::ProbeAnswer;
using answers::quoted_input;
using answers::shown_lines;

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

// Prints "deadpos: <category>: <message>" (message through one_line) on standard error and
// returns exit_code(e.code).
int report(const Error& e);

// Flushes standard output (C++ and C streams) and checks it: 0 when every byte was written, else
// prints "deadpos: I/O error: standard output: write error" and returns the I/O exit code.
// Called at the end of every subcommand and by long streams after each line (output_ok()).
int finish_output();
bool output_ok();

// Why standard input cannot be read as text, as found when the program started (before any file
// was opened, so that a closed descriptor 0 is not mistaken for a file opened later): "cannot
// read: Bad file descriptor" (closed), "is a directory"; nullopt when it can be read. Call
// note_standard_input() first thing in main(); a closed descriptor 0 is then pointed at /dev/null
// so that no table file is ever opened as descriptor 0.
void note_standard_input();
std::optional<std::string> standard_input_problem();

// ---- probe answers ----------------------------------------------------------------------------

// Counts over a probe run, for the summary line.
struct ProbeTally {
  std::uint64_t answered = 0, errors = 0, dead = 0;
  std::uint64_t undetermined = 0;       // answered, a question asked and left undetermined
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
