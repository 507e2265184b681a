// The deadpos-serve program: `deadpos serve` (tools/cmd_serve_exec.cpp) runs it as
// `deadpos-serve serve OPTIONS...`; the options and the server are tools/cmd_serve.cpp. Errors leave
// as one line and an exit code of docs/cli.md, as in tools/main.cpp.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli.h"
#include "commands.h"

namespace {

int run(int argc, char** argv) {
  using namespace deadpos::cli;
  CLI::App app{"deadpos serve: exact dead-position and flag-fall answers over HTTP"};
  app.require_subcommand(1);
  const Subcommand serve = add_serve(app);
  require_decimal_integers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      app.exit(e);
      return finish_output();
    }
    std::cerr << "deadpos: usage: " << one_line(e.what()) << " (see deadpos serve --help)\n";
    return kExitUsage;
  }
  return serve.run();
}

}  // namespace

int main(int argc, char** argv) { return deadpos::cli::guarded_main(run, argc, argv); }
