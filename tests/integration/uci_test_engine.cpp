// A tiny UCI engine for the tournament-manager integration tests (tests/integration/): from the
// position the manager sends it plays a capture when it has one, else any legal move, chosen by a
// seeded generator (the same seed and the same game give the same moves, whatever the clocks).
//   uci_test_engine [--seed S] [--flag-at N] [--think]
// --flag-at N: from its N-th "go" on it does not answer until "stop" (as an engine that hangs),
// so that it loses on time whatever the manager's time margin. --think: it uses its time as an engine would (a 40th of
// its clock plus the increment per move), for measuring what the manager's own work costs a game.
// Moves come from deadpos's own move generator (deadpos_core). Exit status 0 on "quit" or EOF,
// 2 on a bad argument.
#include <chrono>
#include <cstdint>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "deadpos/notation.h"
#include "deadpos/position.h"

namespace {

using deadpos::Position;

// "position startpos|fen FEN [moves M...]": the position, or the start position when unreadable.
Position parse_position(const std::string& line) {
  std::istringstream in(line);
  std::string word, fen;
  in >> word >> word;
  Position pos = Position::startpos();
  if (word == "fen") {
    while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    auto p = Position::from_fen(fen);
    if (p) pos = *p;
  } else {
    in >> word;  // "moves" or nothing
  }
  while (in >> word) {
    auto m = deadpos::parse_uci(pos, word);
    if (!m) break;
    pos.make_move(*m);
  }
  return pos;
}

// A value of a "go" line ("wtime", "binc", ...), ms; 0 when absent.
long long go_value(const std::string& line, const std::string& key) {
  std::istringstream in(line);
  std::string word;
  while (in >> word) {
    long long v = 0;
    if (word == key && in >> v) return v;
  }
  return 0;
}

bool is_capture(const Position& pos, deadpos::Move m) {
  return m.kind() == deadpos::Move::Kind::EnPassant ||
         (m.kind() != deadpos::Move::Kind::Castling && pos.piece_on(m.to()) != deadpos::kNoPiece);
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  int flag_at = 0;
  bool think = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--think") {
      think = true;
    } else if ((a == "--seed" || a == "--flag-at") && i + 1 < argc) {
      try {
        if (a == "--seed") {
          seed = std::stoull(argv[++i]);
        } else {
          flag_at = std::stoi(argv[++i]);
        }
      } catch (const std::exception&) {
        std::cerr << "uci_test_engine: " << a << " needs a number\n";
        return 2;
      }
    } else {
      std::cerr << "uci_test_engine: unknown argument '" << a << "'\n";
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  Position pos = Position::startpos();
  int goes = 0;
  std::string pending;  // the bestmove held back until "stop" (--flag-at)
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line == "uci") {
      std::cout << "id name deadpos-test-engine" << (flag_at ? " (flags)" : "") << "\nid author deadpos\nuciok"
                << std::endl;
    } else if (line == "isready") {
      std::cout << "readyok" << std::endl;
    } else if (line.rfind("position", 0) == 0) {
      pos = parse_position(line);
    } else if (line.rfind("go", 0) == 0) {
      ++goes;
      const deadpos::MoveList moves = pos.legal_moves();
      if (moves.size() == 0) {
        std::cout << "bestmove 0000" << std::endl;
        continue;
      }
      const bool white = pos.side_to_move() == deadpos::Color::White;
      const long long left = go_value(line, white ? "wtime" : "btime");
      const long long inc = go_value(line, white ? "winc" : "binc");
      if (think && !(flag_at && goes >= flag_at)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(left / 40 + inc));
      }
      deadpos::MoveList captures;
      for (const deadpos::Move m : moves)
        if (is_capture(pos, m)) captures.push(m);
      const deadpos::MoveList& pool = captures.empty() ? moves : captures;
      const deadpos::Move m = pool[static_cast<int>(rng() % static_cast<std::uint64_t>(pool.size()))];
      if (flag_at && goes >= flag_at) {
        pending = deadpos::to_uci(m);
      } else {
        std::cout << "info depth 1 score cp 0\nbestmove " << deadpos::to_uci(m) << std::endl;
      }
    } else if (line == "stop") {
      if (!pending.empty()) std::cout << "bestmove " << pending << std::endl;
      pending.clear();
    } else if (line == "quit") {
      return 0;
    }
  }
  return 0;
}
