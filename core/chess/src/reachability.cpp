// Positions no game can reach: see deadpos/reachability.h. Each test is one-sided: it names a
// position unreachable only when no last move (nor earlier history) could explain it, and
// accepts every case it does not analyse exactly (the tests below are deliberately permissive:
// a move pattern is tried on an empty board, so blockers never make a check "impossible").
#include "deadpos/reachability.h"

#include <algorithm>
#include <array>

namespace deadpos {

const char* warning_name(PositionWarning w) {
  switch (w) {
    case PositionWarning::ImpossibleCheck: return "impossible-check";
    case PositionWarning::ImpossibleMaterial: return "impossible-material";
  }
  return "?";
}

const char* warning_text(PositionWarning w) {
  switch (w) {
    case PositionWarning::ImpossibleCheck:
      return "the side to move is in check in a way no single move can give: no game can reach this position";
    case PositionWarning::ImpossibleMaterial:
      return "a side has more pieces than promotions of its missing pawns can explain: no game can reach this "
             "position";
  }
  return "?";
}

namespace {

bool is_slider(PieceType pt) { return pt == PieceType::Bishop || pt == PieceType::Rook || pt == PieceType::Queen; }

// The squares a man of type pt and colour c could have come from to stand on `to`, by one move on
// an empty board: its own move pattern (a pawn: one or two steps back, or a capture back), and,
// for a piece on the promotion rank, the squares of a pawn that promoted there.
Bitboard origins(Color c, PieceType pt, Square to) {
  const int t = to_index(to);
  const int r = t / 8, f = t % 8;
  Bitboard from = 0;
  const int back = c == Color::White ? -1 : 1;  // a pawn of c came from rank r + back
  const int promotion_rank = c == Color::White ? 7 : 0;
  auto add = [&](int rr, int ff) {
    if (rr >= 0 && rr < 8 && ff >= 0 && ff < 8) from |= square_bb(square_at(rr * 8 + ff));
  };
  switch (pt) {
    case PieceType::Pawn:
      add(r + back, f);
      if (r == (c == Color::White ? 3 : 4)) add(r + 2 * back, f);  // a double step
      add(r + back, f - 1);
      add(r + back, f + 1);
      return from;
    case PieceType::Knight: from = knight_attacks(to); break;
    case PieceType::Bishop: from = bishop_attacks(to, 0); break;
    case PieceType::Rook: from = rook_attacks(to, 0); break;
    case PieceType::Queen: from = queen_attacks(to, 0); break;
    case PieceType::King: from = king_attacks(to); break;
  }
  if (pt != PieceType::King && r == promotion_rank) {
    add(r + back, f);
    add(r + back, f - 1);
    add(r + back, f + 1);
  }
  return from;
}

// Whether a double check by a (the mover, or a castling rook) and s (discovered, a slider) of the
// side not to move can be the result of one move.
bool double_check_possible(const Position& p, Square a, Square s, Square king) {
  const Color them = ~p.side_to_move();
  const PieceType ta = type_of(p.piece_on(a));
  const Bitboard s_line = between_bb(s, king) & ~p.pieces();  // the squares the mover may have left
  if (origins(them, ta, a) & s_line) return true;
  // En passant: the capturing pawn stands on rank 6 (White) or 3 (Black); the captured pawn's
  // square, behind it, was vacated too.
  if (ta == PieceType::Pawn) {
    const int t = to_index(a);
    const int ep_rank = them == Color::White ? 5 : 2;
    if (t / 8 == ep_rank) {
      const Square captured = square_at(them == Color::White ? t - 8 : t + 8);
      if (s_line & square_bb(captured)) return true;
    }
  }
  // Castling: the rook gives check and the king's departure (e1 / e8) uncovers s.
  if (ta == PieceType::Rook) {
    const int home = them == Color::White ? 0 : 56;
    const int t = to_index(a);
    if ((t == home + 3 || t == home + 5) && (s_line & square_bb(square_at(home + 4)))) return true;
  }
  return false;
}

constexpr Bitboard rank_bb_of(int r) { return Bitboard{0xFF} << (8 * r); }

// With an en passant square the last move was that double step (FEN 5th field, FIDE 3.7.d): every
// checker must be the pawn that made it, or a slider whose line to the king crosses the square the
// pawn left.
bool check_unexplained_by_double_step(const Position& p, Bitboard checkers) {
  const Square ep = *p.en_passant();
  const int dir = p.side_to_move() == Color::White ? 8 : -8;  // the pawn moved towards the side to move
  const Square pawn = square_at(to_index(ep) - dir), origin = square_at(to_index(ep) + dir);
  const Square king = p.king_square(p.side_to_move());
  while (checkers) {
    const Square c = pop_lsb(checkers);
    if (c == pawn) continue;
    if (is_slider(type_of(p.piece_on(c))) && (between_bb(c, king) & square_bb(origin))) continue;
    return true;
  }
  return false;
}

bool impossible_check(const Position& p) {
  const Bitboard checkers = p.checkers();
  const int n = popcount(checkers);
  if (n >= 1 && p.en_passant() && check_unexplained_by_double_step(p, checkers)) return true;
  if (n <= 1) return false;
  if (n > 2) return true;
  const Square king = p.king_square(p.side_to_move());
  const Square a = lsb(checkers), b = lsb(checkers & (checkers - 1));
  const bool sa = is_slider(type_of(p.piece_on(a))), sb = is_slider(type_of(p.piece_on(b)));
  if (!sa && !sb) return true;
  // Two sliders along one line through the king, on either side of it: no piece can have left
  // one segment and arrived on the other in one move.
  if (sa && sb && (line_bb(a, king) & square_bb(b))) return true;
  if ((sb && double_check_possible(p, a, b, king)) || (sa && double_check_possible(p, b, a, king))) return false;
  // Both discovered at once by an en passant capture: the capturing pawn left one segment and the
  // captured pawn the other (e.g. Black's king e4, White's rook e8 and bishop b7: e5xd6 e.p.).
  if (sa && sb) {
    const Color them = ~p.side_to_move();
    const Bitboard seg_a = between_bb(a, king) & ~p.pieces(), seg_b = between_bb(b, king) & ~p.pieces();
    Bitboard pawns = p.pieces(them, PieceType::Pawn) & (them == Color::White ? rank_bb_of(5) : rank_bb_of(2));
    while (pawns) {
      const int t = to_index(pop_lsb(pawns));
      const int behind = them == Color::White ? t - 8 : t + 8;
      const Bitboard z = square_bb(square_at(behind));
      Bitboard x = 0;
      if (t % 8 > 0) x |= square_bb(square_at(behind - 1));
      if (t % 8 < 7) x |= square_bb(square_at(behind + 1));
      if (((seg_a & x) && (seg_b & z)) || ((seg_b & x) && (seg_a & z))) return false;
    }
  }
  return true;
}

bool impossible_material(const Position& p) {
  for (Color c : {Color::White, Color::Black}) {
    const auto count = [&](PieceType pt) { return popcount(p.pieces(c, pt)); };
    const Bitboard bishops = p.pieces(c, PieceType::Bishop);
    const int promoted = std::max(0, count(PieceType::Queen) - 1) + std::max(0, count(PieceType::Rook) - 2) +
                         std::max(0, count(PieceType::Knight) - 2) +
                         std::max(0, popcount(bishops & kLightSquares) - 1) +
                         std::max(0, popcount(bishops & kDarkSquares) - 1);
    if (promoted > 8 - count(PieceType::Pawn)) return true;
  }
  return false;
}

}  // namespace

std::vector<PositionWarning> reachability_warnings(const Position& pos) {
  std::vector<PositionWarning> w;
  if (impossible_check(pos)) w.push_back(PositionWarning::ImpossibleCheck);
  if (impossible_material(pos)) w.push_back(PositionWarning::ImpossibleMaterial);
  return w;
}

}  // namespace deadpos
