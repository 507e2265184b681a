// deadpos_random_fens: random legal positions of 3 to 32 men for the property test of the answer
// invariants (tests/property/, docs/cli.md "Invariants of an answer"), one FEN a line on standard
// output, and with --kinds FILE the kind of each line ("random", "walk", "checkmate", "stalemate")
// one a line in FILE.
//
//   deadpos_random_fens COUNT SEED [--kinds FILE]
//
// The mix, by line number i (so that every prefix of the output has every kind):
//   i % 20 in 0..12  "random": a material of n men, n uniform in 3..32 (each man past the kings a
//                    fair coin for its colour, then Q:R:B:N:P = 1:2:2:2:8, at most 8 pawns and 16
//                    men a side), placed by random_position(); castling rights added where a king
//                    and a rook stand on their squares and en passant where a double step could
//                    have just been made (each half the time, kept when the position is legal).
//   i % 20 in 13..15 "walk": 0..199 random legal moves from the initial position (reachable
//                    positions with real castling and en passant rights).
//   i % 20 in 16..18 "checkmate": a random position's child (or grandchild) that is checkmate.
//   i % 20 == 19     "stalemate": a random position's child (or grandchild) that is stalemate.
// Built on the move generator of deadpos_core only (perft-checked, tests/test_perft.cpp); the
// property test checks every built checkmate and stalemate again with an independent Python move
// generator. The output depends only on COUNT and SEED.
// Exit status: 0; 2 for a usage error.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <string>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "support/random_position.h"

namespace {

using namespace deadpos;

Material random_material(std::mt19937_64& rng) {
  Material m;
  m.count[Color::White][PieceType::King] = 1;
  m.count[Color::Black][PieceType::King] = 1;
  const int men = std::uniform_int_distribution<int>(3, 32)(rng);
  // Weights of Q, R, B, N, P: a game's proportions, roughly.
  std::discrete_distribution<int> kind({1, 2, 2, 2, 8});
  const PieceType types[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn};
  int placed = 2;
  while (placed < men) {
    const Color c = (rng() & 1) ? Color::White : Color::Black;
    const PieceType pt = types[kind(rng)];
    if (m.men(c) >= 16) continue;
    if (pt == PieceType::Pawn && m.count[c][PieceType::Pawn] >= 8) continue;
    ++m.count[c][pt];
    ++placed;
  }
  return m;
}

// Adds castling rights and an en passant square where the board allows them, each half the time,
// keeping a change only when the position stays legal.
Position with_rights(const Position& p, std::mt19937_64& rng) {
  Result<Placement> base = Placement::parse_fen(p.to_fen());
  if (!base) return p;
  Placement pl = *base;
  Position best = p;
  const struct {
    Square king, rook;
    Piece k, r;
    std::uint8_t bit;
  } rights[] = {
      {Square::E1, Square::H1, make_piece(Color::White, PieceType::King), make_piece(Color::White, PieceType::Rook),
       kWhiteOO},
      {Square::E1, Square::A1, make_piece(Color::White, PieceType::King), make_piece(Color::White, PieceType::Rook),
       kWhiteOOO},
      {Square::E8, Square::H8, make_piece(Color::Black, PieceType::King), make_piece(Color::Black, PieceType::Rook),
       kBlackOO},
      {Square::E8, Square::A8, make_piece(Color::Black, PieceType::King), make_piece(Color::Black, PieceType::Rook),
       kBlackOOO},
  };
  for (const auto& r : rights) {
    if (pl[r.king] != r.k || pl[r.rook] != r.r || (rng() & 1)) continue;
    Placement t = pl;
    t.castling |= r.bit;
    if (Result<Position> q = Position::from_placement(t)) {
      pl = t;
      best = std::move(*q);
    }
  }
  // En passant: the side not to move's pawn on its fourth rank, the two squares behind it empty.
  const Color mover = pl.side_to_move;
  const Color other = mover == Color::White ? Color::Black : Color::White;
  const int fourth = other == Color::White ? 3 : 4;  // rank index of the pawn after a double step
  const int dir = other == Color::White ? -1 : 1;    // towards the square it came from
  for (int f = 0; f < 8; ++f) {
    const Square s = make_square(static_cast<File>(f), static_cast<Rank>(fourth));
    if (pl[s] != make_piece(other, PieceType::Pawn) || (rng() & 1)) continue;
    Placement t = pl;
    t.en_passant = make_square(static_cast<File>(f), static_cast<Rank>(fourth + dir));
    if (Result<Position> q = Position::from_placement(t)) {
      best = std::move(*q);
      break;
    }
  }
  return best;
}

// A terminal position (checkmate when want_mate, else stalemate) among the children of a random
// position, or among the grandchildren through a few random children.
std::optional<Position> built_terminal(bool want_mate, std::mt19937_64& rng) {
  auto hit = [want_mate](const Position& q) { return want_mate ? q.is_checkmate() : q.is_stalemate(); };
  for (int attempt = 0; attempt < 20000; ++attempt) {
    // Stalemates are rare with many men: draw them mostly from small materials.
    Material m = random_material(rng);
    if (!want_mate && m.men() > 8 && (rng() % 4 != 0)) continue;
    const Position p = with_rights(test::random_position(m, rng), rng);
    const MoveList moves = p.legal_moves();
    if (moves.empty()) continue;
    const int start = static_cast<int>(rng() % static_cast<unsigned>(moves.size()));
    for (int k = 0; k < moves.size(); ++k) {
      const Position q = p.after(moves[(start + k) % moves.size()]);
      if (hit(q)) return q;
    }
    for (int k = 0; k < 3; ++k) {
      const Position q = p.after(moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size()))]);
      const MoveList replies = q.legal_moves();
      for (Move r : replies) {
        const Position g = q.after(r);
        if (hit(g)) return g;
      }
    }
  }
  return std::nullopt;
}

Position random_walk(std::mt19937_64& rng) {
  Position p = Position::startpos();
  const int plies = static_cast<int>(rng() % 200);
  for (int i = 0; i < plies; ++i) {
    const MoveList moves = p.legal_moves();
    if (moves.empty()) break;
    p.make_move(moves[static_cast<int>(rng() % static_cast<unsigned>(moves.size()))]);
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && !(argc == 5 && std::string(argv[3]) == "--kinds")) {
    std::fprintf(stderr, "usage: deadpos_random_fens COUNT SEED [--kinds FILE]\n");
    return 2;
  }
  char* end = nullptr;
  const unsigned long long count = std::strtoull(argv[1], &end, 10);
  if (*end != '\0') {
    std::fprintf(stderr, "deadpos_random_fens: COUNT '%s' is not a number\n", argv[1]);
    return 2;
  }
  const unsigned long long seed = std::strtoull(argv[2], &end, 10);
  if (*end != '\0') {
    std::fprintf(stderr, "deadpos_random_fens: SEED '%s' is not a number\n", argv[2]);
    return 2;
  }
  std::ofstream kinds;
  if (argc == 5) {
    kinds.open(argv[4]);
    if (!kinds) {
      std::fprintf(stderr, "deadpos_random_fens: cannot write '%s'\n", argv[4]);
      return 2;
    }
  }
  std::mt19937_64 rng(seed);
  for (unsigned long long i = 0; i < count; ++i) {
    const unsigned slot = static_cast<unsigned>(i % 20);
    const char* kind = "random";
    std::optional<Position> p;
    if (slot >= 16) {
      kind = slot == 19 ? "stalemate" : "checkmate";
      p = built_terminal(slot != 19, rng);
      if (!p) kind = "random";
    } else if (slot >= 13) {
      kind = "walk";
      p = random_walk(rng);
    }
    if (!p) p = with_rights(test::random_position(random_material(rng), rng), rng);
    std::printf("%s\n", p->to_fen().c_str());
    if (kinds.is_open()) kinds << kind << '\n';
  }
  return 0;
}
