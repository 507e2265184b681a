// Cross-checks at every node of a perft tree (style rule 30). The move generator, make/undo, FEN,
// check detection and both notations are compared with each other and with a slow, independent
// model written here:
//   * a mailbox board (std::array<Piece, 64>) read through Position::piece_on only;
//   * attack detection from sliding_attack() (the ray-walking reference) and delta loops for
//     pawns, knights and kings, never Position::attacked_by or the magic tables;
//   * brute-force move generation: every (from, to) pair of the side to move filtered by piece
//     geometry, plus promotions, en passant and castling, then by the slow king-safety test.
//
// Checked at each node (letters as in the test plan):
//   (a) every legal move leaves the mover's king unattacked (slow test on the position after it),
//       and make_move produces exactly the board the slow model predicts;
//   (b) legal_moves() equals the brute-force set exactly (no missing and no extra moves);
//   (c) in_check()/checkers() agree with the slow attack test;
//   (d) to_fen() -> from_fen() gives an equal Position (and the same FEN);
//   (e) make_move then undo_move restores an equal Position;
//   (f) is_checkmate/is_stalemate/has_legal_move agree with the legal move count;
//   (g) to_san -> parse_san and to_uci -> parse_uci return the same move; the SAN check mark
//       agrees with the slow check test on the child;
//   plus colour symmetry: color_swapped() twice is the identity and has the mirrored moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "deadpos/bitboard.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "test_util.h"

namespace deadpos {
namespace {

using Board = std::array<Piece, 64>;

Piece at(const Board& b, int f, int r) { return b[static_cast<std::size_t>(r * 8 + f)]; }
Piece at(const Board& b, Square s) { return b[static_cast<std::size_t>(to_index(s))]; }
void set(Board& b, Square s, Piece p) { b[static_cast<std::size_t>(to_index(s))] = p; }
bool is(const Board& b, Square s, Color c, PieceType pt) { return at(b, s) == make_piece(c, pt); }
Square sq(int f, int r) { return make_square(static_cast<File>(f), static_cast<Rank>(r)); }
int abs_int(int x) { return x < 0 ? -x : x; }

Board board_of(const Position& pos) {
  Board b;
  for (int i = 0; i < 64; ++i) b[static_cast<std::size_t>(i)] = pos.piece_on(square_at(i));
  return b;
}

Bitboard occupancy(const Board& b) {
  Bitboard occ = 0;
  for (int i = 0; i < 64; ++i)
    if (b[static_cast<std::size_t>(i)] != kNoPiece) occ |= square_bb(square_at(i));
  return occ;
}

Square find_king(const Board& b, Color c) {
  for (int i = 0; i < 64; ++i)
    if (b[static_cast<std::size_t>(i)] == make_piece(c, PieceType::King)) return square_at(i);
  ADD_FAILURE() << "no king";
  return Square::A1;
}

// Men of colour `by` attacking s, looking outwards from s. Sliders: sliding_attack from s reaches
// a slider's square exactly when the slider, looking back along the same ray, reaches s. Leapers
// and pawns: delta loops over the mailbox.
Bitboard slow_attackers(const Board& b, Square s, Color by) {
  const Bitboard occ = occupancy(b);
  Bitboard result = 0;
  auto add_sliders = [&](Bitboard rays, PieceType slider) {
    while (rays) {
      const Square t = pop_lsb(rays);
      if (at(b, t) == make_piece(by, slider) || at(b, t) == make_piece(by, PieceType::Queen)) result |= square_bb(t);
    }
  };
  add_sliders(sliding_attack(PieceType::Bishop, s, occ), PieceType::Bishop);
  add_sliders(sliding_attack(PieceType::Rook, s, occ), PieceType::Rook);
  auto add_leapers = [&](std::initializer_list<std::pair<int, int>> deltas, PieceType leaper) {
    for (const auto& [df, dr] : deltas) {
      const int f = file_index(s) + df;
      const int r = rank_index(s) + dr;
      if (f >= 0 && f < 8 && r >= 0 && r < 8 && at(b, f, r) == make_piece(by, leaper)) result |= square_bb(sq(f, r));
    }
  };
  add_leapers({{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}, PieceType::Knight);
  add_leapers({{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}, PieceType::King);
  // A white pawn attacks s from one rank below, a black pawn from one rank above.
  const int back = by == Color::White ? -1 : 1;
  add_leapers({{-1, back}, {1, back}}, PieceType::Pawn);
  return result;
}

bool slow_attacked(const Board& b, Square s, Color by) { return slow_attackers(b, s, by) != 0; }

// Squares strictly between two aligned squares are all empty (own stepping, not between_bb).
bool path_clear(const Board& b, Square from, Square to) {
  const int df = file_index(to) - file_index(from);
  const int dr = rank_index(to) - rank_index(from);
  const int sf = (df > 0) - (df < 0);
  const int sr = (dr > 0) - (dr < 0);
  for (int f = file_index(from) + sf, r = rank_index(from) + sr; f != file_index(to) || r != rank_index(to);
       f += sf, r += sr) {
    if (at(b, f, r) != kNoPiece) return false;
  }
  return true;
}

// The board after a move, applied by the slow model's own rules.
Board apply(const Board& b, Move m) {
  Board n = b;
  const Piece moving = at(b, m.from());
  const Color us = color_of(moving);
  set(n, m.from(), kNoPiece);
  switch (m.kind()) {
    case Move::Kind::Normal: set(n, m.to(), moving); break;
    case Move::Kind::Promotion: set(n, m.to(), make_piece(us, m.promotion())); break;
    case Move::Kind::EnPassant:
      set(n, m.to(), moving);
      set(n, sq(file_index(m.to()), rank_index(m.from())), kNoPiece);
      break;
    case Move::Kind::Castling: {
      const int r = rank_index(m.from());
      const bool king_side = file_index(m.to()) == 6;
      set(n, m.to(), moving);
      set(n, sq(king_side ? 7 : 0, r), kNoPiece);
      set(n, sq(king_side ? 5 : 3, r), make_piece(us, PieceType::Rook));
      break;
    }
  }
  return n;
}

bool leaves_king_safe(const Board& b, Move m, Color us) {
  const Board n = apply(b, m);
  return !slow_attacked(n, find_king(n, us), ~us);
}

// Brute force: every (from, to) pair of the side to move that the piece's geometry allows, plus
// castling, filtered by the slow king-safety test. Returns the raw move codes, sorted.
std::vector<std::uint16_t> brute_force_legal(const Position& pos) {
  const Board b = board_of(pos);
  const Color us = pos.side_to_move();
  const Color them = ~us;
  const int up = us == Color::White ? 1 : -1;
  const int start_rank = us == Color::White ? 1 : 6;
  const int last_rank = us == Color::White ? 7 : 0;
  std::vector<Move> pseudo;
  for (int i = 0; i < 64; ++i) {
    const Square from = square_at(i);
    const Piece p = at(b, from);
    if (p == kNoPiece || color_of(p) != us) continue;
    for (int j = 0; j < 64; ++j) {
      const Square to = square_at(j);
      if (to == from) continue;
      const Piece target = at(b, to);
      if (target != kNoPiece && color_of(target) == us) continue;
      const int df = file_index(to) - file_index(from);
      const int dr = rank_index(to) - rank_index(from);
      const int adf = abs_int(df);
      const int adr = abs_int(dr);
      switch (type_of(p)) {
        case PieceType::Knight:
          if ((adf == 1 && adr == 2) || (adf == 2 && adr == 1)) pseudo.push_back(Move::make(from, to));
          break;
        case PieceType::King:
          if (std::max(adf, adr) == 1) pseudo.push_back(Move::make(from, to));
          break;
        case PieceType::Bishop:
          if (adf == adr && path_clear(b, from, to)) pseudo.push_back(Move::make(from, to));
          break;
        case PieceType::Rook:
          if ((adf == 0 || adr == 0) && path_clear(b, from, to)) pseudo.push_back(Move::make(from, to));
          break;
        case PieceType::Queen:
          if ((adf == adr || adf == 0 || adr == 0) && path_clear(b, from, to)) pseudo.push_back(Move::make(from, to));
          break;
        case PieceType::Pawn: {
          const bool push = df == 0 && dr == up && target == kNoPiece;
          const bool double_push = df == 0 && dr == 2 * up && rank_index(from) == start_rank && target == kNoPiece &&
                                   at(b, file_index(from), rank_index(from) + up) == kNoPiece;
          const bool capture = adf == 1 && dr == up && target != kNoPiece;
          const bool en_passant = adf == 1 && dr == up && target == kNoPiece && pos.en_passant() == to &&
                                  is(b, sq(file_index(to), rank_index(from)), them, PieceType::Pawn);
          if (push || capture) {
            if (rank_index(to) == last_rank) {
              for (PieceType pt : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen})
                pseudo.push_back(Move::make(from, to, Move::Kind::Promotion, pt));
            } else {
              pseudo.push_back(Move::make(from, to));
            }
          }
          if (double_push) pseudo.push_back(Move::make(from, to));
          if (en_passant) pseudo.push_back(Move::make(from, to, Move::Kind::EnPassant));
          break;
        }
      }
    }
  }
  std::vector<std::uint16_t> legal;
  for (Move m : pseudo)
    if (leaves_king_safe(b, m, us)) legal.push_back(m.raw());

  // Castling: the right, king and rook in place, the squares between them empty, and the king
  // not in check, not crossing an attacked square and not landing on one (FIDE 3.8.2).
  const int r = us == Color::White ? 0 : 7;
  const std::uint8_t rights = pos.castling_rights();
  const std::uint8_t oo = us == Color::White ? kWhiteOO : kBlackOO;
  const std::uint8_t ooo = us == Color::White ? kWhiteOOO : kBlackOOO;
  const Square e = sq(4, r);
  if (is(b, e, us, PieceType::King) && !slow_attacked(b, e, them)) {
    if ((rights & oo) && is(b, sq(7, r), us, PieceType::Rook) && path_clear(b, e, sq(7, r)) &&
        !slow_attacked(b, sq(5, r), them) && !slow_attacked(b, sq(6, r), them)) {
      legal.push_back(Move::make(e, sq(6, r), Move::Kind::Castling).raw());
    }
    if ((rights & ooo) && is(b, sq(0, r), us, PieceType::Rook) && path_clear(b, e, sq(0, r)) &&
        !slow_attacked(b, sq(3, r), them) && !slow_attacked(b, sq(2, r), them)) {
      legal.push_back(Move::make(e, sq(2, r), Move::Kind::Castling).raw());
    }
  }
  std::sort(legal.begin(), legal.end());
  return legal;
}

// Rebuilds a move from its 16-bit code (layout in types.h), for failure messages.
Move decode(std::uint16_t raw) {
  const auto kind = static_cast<Move::Kind>(raw >> 14);
  const auto promo = static_cast<PieceType>(to_index(PieceType::Knight) + ((raw >> 12) & 3));
  return Move::make(square_at(raw & 63), square_at((raw >> 6) & 63), kind, promo);
}

std::string describe(const std::vector<std::uint16_t>& raws) {
  static constexpr const char* kKindNames[] = {"", "(promotion)", "(en passant)", "(castling)"};
  std::string out;
  for (std::uint16_t r : raws) out += ' ' + to_uci(decode(r)) + kKindNames[r >> 14];
  return out;
}

Move mirrored(Move m) { return Move::make(flip_vertical(m.from()), flip_vertical(m.to()), m.kind(), m.promotion()); }

struct WalkStats {
  std::uint64_t nodes = 0;
  std::uint64_t leaves = 0;
};

// Whether the per-move checks (a), (e), (g) also run at the leaves, i.e. for the moves one ply
// beyond the walked tree. Release: yes (Kiwipete then takes ~10 s). Builds with assertions: no,
// only the tree's own edges; the leaves' move sets are still compared with brute force.
#ifdef NDEBUG
constexpr bool kCheckLeafMoves = true;
#else
constexpr bool kCheckLeafMoves = false;
#endif

// All checks for one node. Uses EXPECT_*; the walk stops at the first node with a failure.
void check_node(const Position& pos, bool check_moves) {
  const std::string fen = pos.to_fen();
  SCOPED_TRACE("at " + fen);
  ASSERT_TRUE(pos.is_ok());
  const Board b = board_of(pos);
  const Color us = pos.side_to_move();
  const Square ksq = find_king(b, us);
  ASSERT_EQ(pos.king_square(us), ksq);

  // (c) check detection.
  const Bitboard slow_checkers = slow_attackers(b, ksq, ~us);
  EXPECT_EQ(pos.checkers(), slow_checkers) << "checkers:\n"
                                           << to_diagram(pos.checkers()) << "slow:\n"
                                           << to_diagram(slow_checkers);
  EXPECT_EQ(pos.in_check(), slow_checkers != 0);

  // (b) completeness and soundness against brute force.
  const MoveList moves = pos.legal_moves();
  std::vector<std::uint16_t> got;
  for (Move m : moves) got.push_back(m.raw());
  std::sort(got.begin(), got.end());
  EXPECT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << "duplicate moves";
  const std::vector<std::uint16_t> want = brute_force_legal(pos);
  if (got != want) {
    std::vector<std::uint16_t> missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(extra));
    ADD_FAILURE() << pos.to_diagram() << "missing:" << describe(missing) << "\nextra:" << describe(extra);
  }

  // (f) terminal predicates.
  EXPECT_EQ(pos.has_legal_move(), !moves.empty());
  EXPECT_EQ(pos.is_checkmate(), slow_checkers != 0 && moves.empty());
  EXPECT_EQ(pos.is_stalemate(), slow_checkers == 0 && moves.empty());

  // (d) FEN round trip.
  const Result<Position> back = Position::from_fen(fen);
  if (back.ok()) {
    EXPECT_TRUE(*back == pos) << "from_fen(to_fen()) differs: " << back->to_fen();
    EXPECT_EQ(back->to_fen(), fen);
  } else {
    ADD_FAILURE() << "to_fen() output rejected: " << back.error().message;
  }

  for (Move m : moves) {
    if (!check_moves) break;
    const std::string uci = to_uci(m);
    // (a) the mover's king is safe after the move, and make_move agrees with the slow model.
    Position child = pos;
    const UndoInfo u = child.make_move(m);
    const Board after = board_of(child);
    EXPECT_TRUE(after == apply(b, m)) << uci << ": make_move gave\n" << child.to_diagram();
    EXPECT_FALSE(slow_attacked(after, find_king(after, us), ~us)) << uci << " leaves the king attacked";
    EXPECT_EQ(child.side_to_move(), ~us) << uci;
    EXPECT_TRUE(child.is_ok()) << uci;
    // (e) undo restores the position.
    child.undo_move(m, u);
    EXPECT_TRUE(child == pos) << uci << ": undo_move gave " << child.to_fen();

    // (g) notation round trips.
    const Result<Move> from_uci = parse_uci(pos, uci);
    EXPECT_TRUE(from_uci.ok() && *from_uci == m) << uci << ": parse_uci failed or differs";
    const std::string san = to_san(pos, m);
    const Result<Move> from_san = parse_san(pos, san);
    EXPECT_TRUE(from_san.ok() && *from_san == m)
        << uci << ": SAN '" << san << "' "
        << (from_san.ok() ? "parsed as " + to_uci(*from_san) : from_san.error().message);
    const Position next = pos.after(m);
    const bool gives_check = slow_attacked(after, find_king(after, ~us), us);
    const char mark = san.back();
    EXPECT_EQ(mark == '+' || mark == '#', gives_check) << uci << ": SAN '" << san << "'";
    if (gives_check) {
      EXPECT_EQ(mark == '#', !next.has_legal_move()) << uci << ": SAN '" << san << "'";
    }
  }

  // Colour symmetry: swapping twice is the identity; the swapped position's moves are the
  // vertically mirrored moves.
  const Position swapped = pos.color_swapped();
  EXPECT_TRUE(swapped.color_swapped() == pos);
  std::vector<std::uint16_t> mirrored_moves;
  for (Move m : moves) mirrored_moves.push_back(mirrored(m).raw());
  std::sort(mirrored_moves.begin(), mirrored_moves.end());
  std::vector<std::uint16_t> swapped_moves;
  for (Move m : swapped.legal_moves()) swapped_moves.push_back(m.raw());
  std::sort(swapped_moves.begin(), swapped_moves.end());
  EXPECT_TRUE(swapped_moves == mirrored_moves) << "color_swapped() moves differ: " << swapped.to_fen();
}

void walk(Position& pos, int depth, WalkStats& stats) {
  ++stats.nodes;
  check_node(pos, depth > 0 || kCheckLeafMoves);
  if (testing::Test::HasFailure()) return;
  if (depth == 0) {
    ++stats.leaves;
    return;
  }
  for (Move m : pos.legal_moves()) {
    const UndoInfo u = pos.make_move(m);
    walk(pos, depth - 1, stats);
    pos.undo_move(m, u);
    if (testing::Test::HasFailure()) return;
  }
}

struct Root {
  const char* name;
  const char* fen;
  int depth;
  std::uint64_t leaves;  // published perft(depth), chessprogramming.org "Perft Results"
  // Builds with assertions (Debug, sanitizers) walk one ply less where the full walk would take
  // about a minute under ASan; 0 = same as Release.
  int debug_depth = 0;
  std::uint64_t debug_leaves = 0;
};

class CrossCheck : public testing::TestWithParam<Root> {};

TEST_P(CrossCheck, EveryNodeToDepth) {
  const Root& r = GetParam();
  int depth = r.depth;
  std::uint64_t leaves = r.leaves;
#ifndef NDEBUG
  if (r.debug_depth != 0) {
    depth = r.debug_depth;
    leaves = r.debug_leaves;
  }
#endif
  Position pos = test::position_from(r.fen);
  WalkStats stats;
  walk(pos, depth, stats);
  if (!HasFailure()) {
    EXPECT_EQ(stats.leaves, leaves);
  }
}

const Root kRoots[] = {
    {"StartPosition", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8902},
    {"Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862, 2, 2039},
    {"Position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2812},
    {"Position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467},
    // The same position with colours swapped, as published: Black castles and promotes.
    {"Position4Mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 3, 9467},
    {"Position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2, 1486},
};

INSTANTIATE_TEST_SUITE_P(PerftTree, CrossCheck, testing::ValuesIn(kRoots),
                         [](const testing::TestParamInfo<Root>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace deadpos
