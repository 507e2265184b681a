// deadpos perft FEN DEPTH [--divide]: leaf count of the legal move tree (docs/cli.md).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli.h"
#include "commands.h"
#include "deadpos/notation.h"

namespace deadpos::cli {

Subcommand add_perft(CLI::App& app) {
  struct Args {
    std::string fen;
    std::string depth;  // a decimal integer, read here so that -1 and 99999999999999999999 are out of 0..20
    bool divide = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("perft", "Count leaf nodes of the legal move tree (perft)");
  cmd->add_option("fen", a->fen, "position in FEN (quote it)")->required();
  // A decimal integer, a sign allowed: a negative depth is a number outside 0..20 (exit 4, as a
  // depth of 21), not a misspelt one (exit 2, as "1e3").
  const CLI::Validator integer(
      [](std::string& s) {
        std::string digits = s.size() > 1 && s[0] == '-' ? s.substr(1) : s;
        return kDecimal(digits).empty() && s != "-0"
                   ? std::string()
                   : "\"" + s + "\" is not a decimal integer (digits only, no leading 0)";
      },
      "INTEGER", "integer");
  cmd->add_option("depth", a->depth, "depth in plies, 0..20")->required()->check(integer);
  cmd->add_flag("--divide", a->divide, "print the count below each legal move");
  return {cmd, [a]() -> int {
            auto pos = Position::from_fen(a->fen);
            if (!pos) return report(pos.error());
            if (a->depth[0] == '-' || a->depth.size() > 2 || std::stoi(a->depth) > 20) {
              return report(make_error(ErrorCode::InvalidArgument, "depth " + a->depth + " is outside 0..20"));
            }
            const int depth = std::stoi(a->depth);
            const auto t0 = std::chrono::steady_clock::now();
            std::uint64_t total = 0;
            if (a->divide && depth >= 1) {
              for (Move m : pos->legal_moves()) {
                const std::uint64_t n = perft(pos->after(m), depth - 1);
                std::cout << to_uci(m) << ": " << n << '\n';
                total += n;
              }
              std::cout << '\n';
            } else {
              total = perft(*pos, depth);
            }
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::cout << "Nodes searched: " << total << '\n';
            std::fprintf(stderr, "time %.3f s, %.0f nodes/s\n", secs,
                         secs > 0 ? static_cast<double>(total) / secs : 0.0);
            return finish_output();
          }};
}

}  // namespace deadpos::cli
