// The `deadpos` command: registers the subcommands (tools/cmd_*.cpp), parses the arguments and runs
// the one given. Every error leaves as one line and an exit code (docs/cli.md); nothing escapes as
// an uncaught exception.
#include <cstdio>
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>

#include "cli.h"
#include "commands.h"

#ifndef DEADPOS_VERSION
#define DEADPOS_VERSION "unknown"
#endif

namespace {

int run(int argc, char** argv) {
  using namespace deadpos::cli;
  CLI::App app{"deadpos: exact dead-position and helpmate tablebases for chess endings"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("deadpos ") + DEADPOS_VERSION);
  const Subcommand commands[] = {add_perft(app), add_fen(app), add_generate(app), add_verify(app), add_probe(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      app.exit(e);
      return finish_output();
    }
    std::cerr << "deadpos: usage: " << one_line(e.what()) << " (see deadpos --help)\n";
    return kExitUsage;
  }
  for (const Subcommand& c : commands)
    if (*c.app) return c.run();
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // Anything thrown is a defect or an exhausted resource (std::bad_alloc outside the places that
  // report OutOfMemory as a value, e.g. under `ulimit -v`): one line and its exit code, never an
  // uncaught abort. The handlers allocate nothing.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("deadpos: out of memory: out of memory\n", stderr);
    return deadpos::cli::exit_code(deadpos::ErrorCode::OutOfMemory);
  } catch (const std::exception& e) {
    std::fputs("deadpos: internal error: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
    return deadpos::cli::kExitInternal;
  }
}
