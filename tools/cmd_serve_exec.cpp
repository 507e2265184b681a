// `deadpos serve ...` inside the deadpos command: replaces the process with the deadpos-serve
// program installed beside it (same process id, so SIGTERM/SIGINT reach the server), which parses
// the options (tools/cmd_serve.cpp) and serves. The server lives in a program of its own because
// cpp-httplib brings OpenSSL, zlib and brotli: mapped into every deadpos run they would cost the
// other subcommands memory and start-up time (tests/cli_robustness_test.sh runs them under
// `ulimit -v`).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli.h"
#include "commands.h"

namespace deadpos::cli {

namespace {

int exec_serve(const std::vector<std::string>& args) {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return report(make_error(ErrorCode::Io, "/proc/self/exe: cannot find the deadpos program's directory"));
  const std::string serve = (exe.parent_path() / "deadpos-serve").string();
  std::vector<std::string> argv_s = {serve, "serve"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::cout.flush();
  ::execv(serve.c_str(), argv.data());
  return report(make_error(
      ErrorCode::Io, serve + ": cannot run (" + std::strerror(errno) + "); it is built and installed beside deadpos"));
}

}  // namespace

Subcommand add_serve(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("serve",
                                     "HTTP API (lichess /standard shape, /flag, /batch) and arbiters' page "
                                     "(docs/server.md; deadpos serve --help)");
  cmd->prefix_command();  // every argument, --help included, goes to deadpos-serve
  cmd->set_help_flag();
  return {cmd, [cmd] { return exec_serve(cmd->remaining()); }};
}

}  // namespace deadpos::cli
