// The deadpos command's output layer: see cli.h.
#include "cli.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

namespace deadpos::cli {

namespace {

// The line of an allocation failure that no command caught (where: the whole command; why: the
// limits that cause it).
constexpr const char* kOutOfMemoryLine =
    "deadpos: out of memory: an allocation failed (too little free memory, or a limit such as ulimit -v or a "
    "cgroup's memory.max)\n";

// std::terminate's handler (guarded_main). Temporaries of an interrupted generate are removed by
// the next run; written tables are never touched.
[[noreturn]] void on_terminate() {
  int code = kExitInternal;
  const char* what = "deadpos: internal error: terminated\n";
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      code = exit_code(ErrorCode::OutOfMemory);
      what = kOutOfMemoryLine;
    } catch (...) {
      what = "deadpos: internal error: uncaught exception\n";
    }
  }
  std::fflush(stdout);  // the lines answered so far
  std::fputs(what, stderr);
  ::_exit(code);
}

}  // namespace

int guarded_main(int (*run)(int, char**), int argc, char** argv) {
  std::set_terminate(on_terminate);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs(kOutOfMemoryLine, stderr);
    return exit_code(ErrorCode::OutOfMemory);
  } catch (const std::exception& e) {
    std::fputs("deadpos: internal error: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
    return kExitInternal;
  }
}

int exit_code(ErrorCode c) {
  switch (c) {
    case ErrorCode::InvalidFen: return 3;
    case ErrorCode::InvalidArgument: return 4;
    case ErrorCode::Io: return 5;
    case ErrorCode::MissingTable: return 6;
    case ErrorCode::CorruptTable: return 7;
    case ErrorCode::VerificationFailed: return 8;
    case ErrorCode::OutOfMemory: return 9;
    case ErrorCode::InvalidMove: return 10;
    case ErrorCode::TooManyMen: return 11;
  }
  return kExitInternal;
}

int report(const Error& e) {
  std::cerr << "deadpos: " << error_code_name(e.code) << ": " << one_line(e.message) << '\n';
  return exit_code(e.code);
}

bool output_ok() {
  // std::cout is synchronised with stdio (the default): its bytes go to C's stdout buffer, where a
  // failed write shows as ferror after the flush.
  std::cout.flush();
  return std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
}

namespace {
std::optional<std::string> g_stdin_problem;
}  // namespace

void note_standard_input() {
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) {
    g_stdin_problem = std::string("cannot read: ") + std::strerror(errno);
    // Keep descriptor 0 taken: a later open() must never return it.
    const int fd = ::open("/dev/null", O_RDONLY);
    if (fd > STDIN_FILENO) ::close(fd);
  } else if (S_ISDIR(st.st_mode)) {
    g_stdin_problem = "is a directory";
  }
}

std::optional<std::string> standard_input_problem() { return g_stdin_problem; }

int finish_output() {
  if (output_ok()) return 0;
  return report(make_error(ErrorCode::Io, "standard output: write error"));
}

void ProbeTally::add(const ProbeAnswer& a) {
  const PositionAnalysis& r = a.analysis;
  ++answered;
  // A line asked for and not given: the verdict stands, but the exit code says what is missing.
  for (const auto& [mated, m] : shown_lines(a))
    if (m->line_error && !first_error_code) first_error_code = exit_code(m->line_error->code);
  if (r.dead() == true) ++dead;
  // A question a flag answer did not ask (Method::NotAsked) is not undetermined.
  if (r.mate[Color::White].method == Method::Undetermined || r.mate[Color::Black].method == Method::Undetermined)
    ++undetermined;
  if (!a.verdict) return;
  const auto why = a.verdict->reason;
  if (why == FlagVerdict::Reason::Checkmate || why == FlagVerdict::Reason::Stalemate) {
    ++flag_decided;
  } else if (why == FlagVerdict::Reason::Undetermined) {
    ++flag_undetermined;
  } else {
    (a.verdict->result == "1/2-1/2" ? flag_draws : flag_wins)++;
  }
}

void ProbeTally::add(const Error& e) {
  ++errors;
  if (!first_error_code) first_error_code = exit_code(e.code);
}

std::string summary_text(const ProbeTally& t, bool flag) {
  std::string s = "summary: " + std::to_string(t.answered) + " answered, " + std::to_string(t.errors) +
                  " not answered; " + std::to_string(t.answered - t.undetermined) + " decided, " +
                  std::to_string(t.undetermined) + " undetermined; " +
                  count_of(t.dead, "dead position", "dead positions");
  if (flag) {
    s += "; flag-falls: " + std::to_string(t.flag_draws) + " drawn (FIDE 5.2.2 / 6.9), " + std::to_string(t.flag_wins) +
         " won by the opponent";
    if (t.flag_undetermined) s += ", " + std::to_string(t.flag_undetermined) + " undetermined";
    if (t.flag_decided) s += ", " + std::to_string(t.flag_decided) + " already checkmate or stalemate";
  }
  return s;
}

void AdjudicateTally::add(const GameReport& r) {
  ++games;
  if (r.replay->status == ReplayedGame::Status::Unsupported) {
    ++unsupported;
    return;
  }
  if (r.replay->status == ReplayedGame::Status::Unreadable) {
    ++unreadable;
    return;
  }
  ++read;
  if (r.error || !r.adj) {
    ++failed;
    if (!first_error_code) first_error_code = r.error ? exit_code(r.error->code) : kExitInternal;
    return;
  }
  const Adjudication& a = *r.adj;
  if (a.changed) ++changed;
  if (played_on(a)) ++dead_played_on;
  if (a.final_dead == true) ++dead;
  if (a.rule == ResultRule::Undetermined) ++undetermined;
  if (a.flagged) ++time_forfeits;
}

std::string adjudicate_summary_text(const AdjudicateTally& t) {
  std::string s = "summary: " + count_of(t.games, "game", "games") + " in " + count_of(t.files, "file", "files") +
                  (t.files_unreadable ? " (" + std::to_string(t.files_unreadable) + " unreadable)" : std::string()) +
                  ": " + std::to_string(t.read) + " read, " + std::to_string(t.unreadable) + " unreadable, " +
                  std::to_string(t.unsupported) + " unsupported (variants); " + std::to_string(t.changed) +
                  " with a wrong recorded result, " + std::to_string(t.dead_played_on) +
                  " played on in a dead position, " + std::to_string(t.dead) + " ending in a dead position, " +
                  std::to_string(t.time_forfeits) + " lost on time, " + std::to_string(t.undetermined) +
                  " undetermined";
  if (t.failed) s += "; " + std::to_string(t.failed) + " not adjudicated (table errors)";
  return s;
}

nlohmann::json adjudicate_summary_json(const AdjudicateTally& t) {
  return {{"summary",
           {{"files", t.files},
            {"files_unreadable", t.files_unreadable},
            {"games", t.games},
            {"read", t.read},
            {"unreadable", t.unreadable},
            {"unsupported", t.unsupported},
            {"not_adjudicated", t.failed},
            {"changed", t.changed},
            {"dead_played_on", t.dead_played_on},
            {"dead", t.dead},
            {"time_forfeits", t.time_forfeits},
            {"undetermined", t.undetermined}}}};
}

}  // namespace deadpos::cli
