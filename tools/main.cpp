// The `deadpos` command: registers the subcommands (tools/cmd_*.cpp), parses the arguments and runs
// the one given. Every error leaves as one line and an exit code (docs/cli.md); nothing escapes as
// an uncaught exception.
#include <iostream>
#include <string>
#include <string_view>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "cli.h"
#include "commands.h"

#ifndef DEADPOS_VERSION
#define DEADPOS_VERSION "unknown"
#endif

namespace {

// "deadpos bogus": CLI11 would only say that a subcommand is required.
bool unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  for (const CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == argv[1]) return false;
  std::cerr << "deadpos: usage: unknown subcommand \"" << deadpos::cli::one_line(argv[1])
            << "\" (perft, fen, generate, verify, probe, adjudicate, query, atlas, serve; see deadpos --help)\n";
  return true;
}

int run(int argc, char** argv) {
  using namespace deadpos::cli;
  CLI::App app{"deadpos: exact dead-position and helpmate tablebases for chess endings"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("deadpos ") + DEADPOS_VERSION);
  const Subcommand commands[] = {add_perft(app),  add_fen(app),   add_generate(app),
                                 add_verify(app), add_probe(app), add_adjudicate(app),
                                 add_query(app),  add_atlas(app), add_serve(app)};
  require_decimal_integers(app);
  if (unknown_subcommand(app, argc, argv)) return kExitUsage;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      app.exit(e);
      return finish_output();
    }
    std::string what = one_line(e.what());
    // CLI11's words for an option given twice ("--epd: At Most 1 required but received 2").
    constexpr std::string_view kTwice = "At Most 1 required but received ";
    if (const auto at = what.find(kTwice); at != std::string::npos) {
      what = what.substr(0, at) + "given " + what.substr(at + kTwice.size()) + " times; it takes one value";
    }
    std::cerr << "deadpos: usage: " << what << " (see deadpos --help)\n";
    return kExitUsage;
  }
  for (const Subcommand& c : commands)
    if (*c.app) return c.run();
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  deadpos::cli::note_standard_input();
  return deadpos::cli::guarded_main(run, argc, argv);
}
