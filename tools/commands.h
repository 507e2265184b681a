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

// Option check: integers in plain decimal. CLI11 reads the base from the prefix (010 is 8,
// 0x10 is 16) and takes a sign or spaces; a budget or a cache size must mean what it says.
inline const CLI::Validator kDecimal(
    [](std::string& s) {
      const bool digits = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
      return digits && (s.size() == 1 || s[0] != '0')
                 ? std::string()
                 : "\"" + s + "\" is not a decimal integer (digits only, no sign, no leading 0)";
    },
    "DECIMAL", "decimal");

// Adds kDecimal to every integer option (CLI11's type names INT and UINT) of app and of its
// subcommands: called once after every subcommand is registered. It goes first (CLI11's transform
// puts a validator before those added earlier), so "1e3" or "5.0" is named as not a decimal integer
// rather than as out of a range.
inline void require_decimal_integers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    // The type name carries the checks added so far after a colon ("INT:INT in [1 - 5]").
    const std::string t = o->get_type_name();
    if (t.rfind("INT", 0) == 0 || t.rfind("UINT", 0) == 0) o->transform(kDecimal);
  }
  for (CLI::App* sub : app.get_subcommands({})) require_decimal_integers(*sub);
}

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
