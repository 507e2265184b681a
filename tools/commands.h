// The subcommands of the deadpos command, one file each (tools/cmd_<name>.cpp). Each add_* function
// registers its options on the CLI11 app and returns the subcommand with the function that runs it
// after parsing (its result is the exit code of docs/cli.md). The option values live in storage
// the closure shares with the app's option bindings, so both stay valid as long as either is held.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace deadpos::cli {

struct Subcommand {
  CLI::App* app = nullptr;   // the parsed subcommand (true when given)
  std::function<int()> run;  // called once, after a successful parse
};

// Option check: an empty directory or file name (e.g. --tables "") is a usage error, not a
// directory named "".
inline const CLI::Validator kNonEmpty(
    [](std::string& s) { return s.empty() ? std::string("an empty name is not a directory or file") : std::string(); },
    "NON-EMPTY", "non-empty");

Subcommand add_perft(CLI::App& app);
Subcommand add_fen(CLI::App& app);
Subcommand add_generate(CLI::App& app);
Subcommand add_verify(CLI::App& app);
Subcommand add_probe(CLI::App& app);
Subcommand add_adjudicate(CLI::App& app);
Subcommand add_query(CLI::App& app);
Subcommand add_serve(CLI::App& app);
Subcommand add_atlas(CLI::App& app);

}  // namespace deadpos::cli
