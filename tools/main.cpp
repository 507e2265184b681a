// The `deadpos` command. Parses arguments, calls core/ and generator/, prints results and maps
// errors to exit codes (docs/cli.md). No chess logic lives here.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "deadpos/notation.h"
#include "deadpos/position.h"

namespace {

using namespace deadpos;

// Exit codes: one per error category (docs/cli.md).
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
  }
  return 1;
}

int report(const Error& e) {
  std::cerr << "deadpos: " << error_code_name(e.code) << ": " << e.message << '\n';
  return exit_code(e.code);
}

int cmd_perft(const std::string& fen, int depth, bool divide) {
  auto pos = Position::from_fen(fen);
  if (!pos) return report(pos.error());
  if (depth < 0 || depth > 20) {
    return report(make_error(ErrorCode::InvalidArgument, "depth " + std::to_string(depth) + " is outside 0..20"));
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (divide && depth >= 1) {
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
  std::fprintf(stderr, "time %.3f s, %.0f nodes/s\n", secs, secs > 0 ? static_cast<double>(total) / secs : 0.0);
  return 0;
}

int cmd_fen(const std::string& fen) {
  auto pos = Position::from_fen(fen);
  if (!pos) return report(pos.error());
  std::cout << pos->to_fen() << '\n' << pos->to_diagram();
  const MoveList moves = pos->legal_moves();
  const char* side = pos->side_to_move() == Color::White ? "White" : "Black";
  if (pos->is_checkmate()) {
    std::cout << side << " to move is checkmated\n";
  } else if (pos->is_stalemate()) {
    std::cout << side << " to move is stalemated\n";
  } else {
    std::cout << side << " to move" << (pos->in_check() ? ", in check" : "") << ", " << moves.size()
              << " legal moves:";
    for (Move m : moves) std::cout << ' ' << to_san(*pos, m);
    std::cout << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"deadpos: exact dead-position and helpmate tablebases for chess endings"};
  app.require_subcommand(1);

  std::string fen;
  int depth = 0;
  bool divide = false;
  auto* perft_cmd = app.add_subcommand("perft", "Count leaf nodes of the legal move tree (perft)");
  perft_cmd->add_option("fen", fen, "position in FEN (quote it)")->required();
  perft_cmd->add_option("depth", depth, "depth in plies")->required();
  perft_cmd->add_flag("--divide", divide, "print the count below each legal move");

  std::string fen2;
  auto* fen_cmd = app.add_subcommand("fen", "Validate a FEN, print it normalised with a diagram");
  fen_cmd->add_option("fen", fen2, "position in FEN (quote it)")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // 2: usage error
  }
  if (*perft_cmd) return cmd_perft(fen, depth, divide);
  if (*fen_cmd) return cmd_fen(fen2);
  return 2;
}
