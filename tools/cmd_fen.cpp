// deadpos fen FEN: validate a FEN, print it normalised with a diagram and the legal moves.
#include <iostream>
#include <memory>

#include "cli.h"
#include "commands.h"
#include "deadpos/notation.h"

namespace deadpos::cli {

Subcommand add_fen(CLI::App& app) {
  auto fen = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("fen", "Validate a FEN, print it normalised with a diagram");
  cmd->add_option("fen", *fen, "position in FEN (quote it)")->required();
  return {cmd, [fen]() -> int {
            auto pos = Position::from_fen(*fen);
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
            return finish_output();
          }};
}

}  // namespace deadpos::cli
