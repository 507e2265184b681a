// Hand-made hard positions for the analyzer beyond the tables (analyze, analyze_side;
// deadpos/analysis.h). Every expected answer is fixed by chess reasoning written next to the
// position (the law, a counting argument) and, where a claim can be checked mechanically, by a
// check written here with Position::legal_moves/after only: a full forward enumeration of the
// reachable positions, an enumeration of the first moves, or the replay of a certificate line.
// None of the expected values comes from the analyzer's own output.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/notation.h"
#include "deadpos/tablebase.h"
#include "test_probe_util.h"

namespace deadpos {
namespace {

using probe_test::check_helpmate_line;
using probe_test::forward_mates;
using probe_test::legal_uci;
using probe_test::position_from;

const char* side_name(Color c) { return c == Color::White ? "White" : "Black"; }

Square sq(const char* name) { return make_square(static_cast<File>(name[0] - 'a'), static_cast<Rank>(name[1] - '1')); }

// Whether a piece of colour `by` attacks square s, decided from the board alone (pawn captures,
// knight, king and sliding moves), independent of the move generator.
bool attacked_by(const Position& p, Square s, Color by) {
  const int f = file_index(s), r = rank_index(s);
  auto at = [&](int ff, int rr) -> Piece {
    if (ff < 0 || ff > 7 || rr < 0 || rr > 7) return kNoPiece;
    return p.piece_on(make_square(static_cast<File>(ff), static_cast<Rank>(rr)));
  };
  auto is = [&](Piece pc, PieceType pt) { return pc != kNoPiece && pc == make_piece(by, pt); };
  // A pawn of `by` attacks s from one rank behind (toward its own side).
  const int pr = by == Color::White ? r - 1 : r + 1;
  if (is(at(f - 1, pr), PieceType::Pawn) || is(at(f + 1, pr), PieceType::Pawn)) return true;
  for (auto [df, dr] : {std::pair{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}})
    if (is(at(f + df, r + dr), PieceType::Knight)) return true;
  for (int df = -1; df <= 1; ++df)
    for (int dr = -1; dr <= 1; ++dr)
      if ((df || dr) && is(at(f + df, r + dr), PieceType::King)) return true;
  auto ray = [&](int df, int dr, PieceType a, PieceType b) {
    for (int ff = f + df, rr = r + dr; ff >= 0 && ff <= 7 && rr >= 0 && rr <= 7; ff += df, rr += dr) {
      const Piece pc = at(ff, rr);
      if (pc == kNoPiece) continue;
      return is(pc, a) || is(pc, b);
    }
    return false;
  };
  for (auto [df, dr] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
    if (ray(df, dr, PieceType::Rook, PieceType::Queen)) return true;
  for (auto [df, dr] : {std::pair{1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
    if (ray(df, dr, PieceType::Bishop, PieceType::Queen)) return true;
  return false;
}

// Replays a certificate line with legality checked at every ply (its length is whatever the
// analyzer returned: a Method::Search line is not claimed to be shortest).
std::string replay(const Position& pos, Color mated, const std::vector<Move>& line) {
  return check_helpmate_line(pos, mated, line, static_cast<int>(line.size()));
}

// Every legal move from p leads to a stalemate of the opponent (when `except` is given, every
// move but that one). Then the game ends after one ply in every line (FIDE 5.2.2: stalemate ends
// the game), so no sequence of legal moves reaches a checkmate of either side: p is dead.
std::string every_move_stalemates(const Position& p, std::optional<Move> except = std::nullopt) {
  for (Move m : p.legal_moves()) {
    if (except && m == *except) continue;
    const Position q = p.after(m);
    if (!q.is_stalemate()) return to_uci(m) + " does not stalemate: " + q.to_fen();
  }
  return "";
}

std::string line_text(const Position& p, const std::vector<Move>& line) { return format_line(p, line); }

// A hand-written line in UCI, each move looked up among the legal moves of the position it is
// played in; empty (and a test failure) when one of them is not legal there.
std::vector<Move> uci_line(const Position& pos, const std::vector<std::string>& ucis) {
  std::vector<Move> out;
  Position p = pos;
  for (const std::string& u : ucis) {
    std::optional<Move> found;
    for (Move m : p.legal_moves())
      if (to_uci(m) == u) found = m;
    if (!found) {
      ADD_FAILURE() << u << " is not legal in " << p.to_fen();
      return {};
    }
    out.push_back(*found);
    p.make_move(*found);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 1. A locked pawn chain that no piece can pass: dead.
//
//   4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2K5/3B4 w - - 0 1
//   White: Kc2, Bd1 (light squares), pawns a4 b5 c4 d5 e4 f5 g4 h5.
//   Black: Ke8, pawns a5 b6 c5 d6 e5 f6 g5 h6.
//
// * Every pawn is blocked by the enemy pawn straight in front of it (a4/a5, b5/b6, ..., h5/h6).
// * The empty squares between the chains are b4 d4 f4 h4 and a6 c6 e6 g6. The white pawns attack
//   only a6 c6 e6 g6 (and their own men), the black pawns only b4 d4 f4 h4 (and their own men):
//   a capture needs an enemy man on one of those squares.
// * The White king cannot step onto b4 d4 f4 h4 (each attacked by a black pawn: b4 by a5 and c5,
//   d4 by c5 and e5, f4 by e5 and g5, h4 by g5), and ranks 4-5 hold nothing else it could use, so
//   it stays on ranks 1-3. Symmetrically the Black king cannot step onto a6 c6 e6 g6 (attacked by
//   b5, b5/d5, d5/f5, f5/h5) and stays on ranks 7-8.
// * The bishop is on light squares, like every white pawn (a4, b5, ..., h5 are all light) while
//   every black pawn and every hole of rank 4 is dark. Its only ways upward run through a4 c4 e4
//   g4, its own pawns: it stays on the light squares of ranks 1-3, never attacks a black pawn
//   (they are dark) and never reaches the Black king.
// So no man ever moves but the kings and the bishop in their own halves: no pawn moves, nothing is
// captured, no check is ever given to either king. Neither side can be mated: dead (5.2.2).
// Counting: the White king has the 24 squares of ranks 1-3, the bishop the 12 light ones of
// them (not the king's), the Black king the 16 squares of ranks 7-8, and every placement can be
// reached with either side to move: 2 x (24 x 12 - 12) x 16 = 8832 positions. The forward
// enumeration below visits exactly that set and must find no checkmate in it.
TEST(AnalyzerCases, LockedChainWithBishopIsDead) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2K5/3B4 w - - 0 1");

  // The claims of the argument, checked on the board.
  for (const char* s : {"b4", "d4", "f4", "h4"}) EXPECT_TRUE(attacked_by(p, sq(s), Color::Black)) << s;
  for (const char* s : {"a6", "c6", "e6", "g6"}) EXPECT_TRUE(attacked_by(p, sq(s), Color::White)) << s;
  for (const char* s : {"a4", "b5", "c4", "d5", "e4", "f5", "g4", "h5", "d1"}) EXPECT_TRUE(is_light_square(sq(s))) << s;
  for (const char* s : {"a5", "b6", "c5", "d6", "e5", "f6", "g5", "h6", "b4", "d4", "f4", "h4"})
    EXPECT_FALSE(is_light_square(sq(s))) << s;

  // Independent: breadth-first over every reachable position (merged by the rules of play only).
  const auto fm = forward_mates(p, 1000, 2'000'000);
  EXPECT_EQ(fm.searched_plies, 1000) << "the enumeration did not complete (" << fm.nodes << " positions)";
  EXPECT_EQ(fm.nodes, 8832u);
  EXPECT_FALSE(fm.plies[Color::White]);
  EXPECT_FALSE(fm.plies[Color::Black]);

  auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->dead(), std::optional<bool>(true));
  for (Color mated : {Color::White, Color::Black}) {
    const MateAnswer& m = a->mate[mated];
    EXPECT_EQ(m.can_mate(), std::optional<bool>(false)) << side_name(mated) << " mated: " << method_name(m.method);
    EXPECT_TRUE(m.method == Method::Exhausted || m.method == Method::Rule) << method_name(m.method);
    // No table or rule closes a branch here (11 men, pawns): the exhausted set is the whole
    // reachable set, counted above by hand and by the independent enumeration.
    if (m.method == Method::Exhausted) {
      EXPECT_EQ(m.positions, 8832u);
    }
    EXPECT_TRUE(m.line.empty());
  }
}

// ---------------------------------------------------------------------------------------------
// 2. The same chain with one lever: not dead.
//
//   4k3/8/2pp1p1p/pPpPpPpP/P1P1P1P1/8/2K5/3B4 w - - 0 1
//   As case 1, but the black b-pawn stands on c6 (b6 is empty): b5 and c6 attack each other.
//
// White can mate: 1.bxc6 puts a white pawn on c6 with c7 and c8 empty; it promotes to a queen,
// and king, queen and bishop mate a king that cooperates (a textbook K+Q v K mate on the back
// ranks; the black pawns need not move). Black can mate too: after a White move, ...cxd5 and
// exd5 free the black e-pawn (e4 is then empty), which runs to e1 and promotes. The certificate
// lines the analyzer returns are replayed here move by move with the move generator.
TEST(AnalyzerCases, ChainWithLeverIsNotDead) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("4k3/8/2pp1p1p/pPpPpPpP/P1P1P1P1/8/2K5/3B4 w - - 0 1");
  // The lever exists: both captures are legal moves.
  const auto moves = legal_uci(p);
  EXPECT_TRUE(moves.count("b5c6")) << probe_test::join(moves);

  auto w = deadpos::analyze_side(*tb, p, Color::Black, AnalysisOptions{}, /*want_line=*/true);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->method, Method::Search) << method_name(w->method) << " (budget " << budget_name(w->budget) << ")";
  EXPECT_EQ(w->can_mate(), std::optional<bool>(true));
  EXPECT_EQ(replay(p, Color::Black, w->line), "") << line_text(p, w->line);

  // Black's question: "can mate" too, with a replayed line.
  auto b = deadpos::analyze_side(*tb, p, Color::White, AnalysisOptions{}, /*want_line=*/true);
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->can_mate(), std::optional<bool>(true)) << "Black can mate after ...cxd5, exd5 and ...e1=Q";
  ASSERT_EQ(b->method, Method::Search) << method_name(b->method) << " (budget " << budget_name(b->budget) << ")";
  EXPECT_EQ(replay(p, Color::White, b->line), "") << line_text(p, b->line);
}

// ---------------------------------------------------------------------------------------------
// 3. A mate that needs an underpromotion.
//
//   8/4NP1k/7p/7P/3B4/8/8/2K5 w - - 0 1
//   White: Kc1, Ne7, Bd4, pawns f7 h5. Black: Kh7, pawn h6.
//
// The Black king's squares: g8 (Ne7, pawn f7), h8 and g7 (Bd4 on the long diagonal), g6 (Ne7,
// pawn h5), h6 (its own pawn, blocked by h5). Black has no move at all.
// * 1.f8=N is mate: the knight on f8 checks h7, the king still has no square (the knight covers
//   g6 too), nothing can capture f8 and a knight check cannot be blocked.
// * 1.f8=Q and 1.f8=R do not check h7 (from f8 a queen sees g8/h8, g7/h6 and the f-file; a rook
//   rank 8 and the f-file) and leave every square covered: stalemate. 1.f8=B is stalemate too.
// * No other White move checks h7: the dark bishop never attacks the light h7, the knight checks
//   h7 only from f6, f8 or g5 (none one move from e7), kings never give check, h5 is blocked.
// So the only mate in one is 1.f8=N#. The analyzer's line must contain an underpromotion, and a
// forward search over legal moves that skips underpromotions must find no checkmate of Black
// within the length of that line (nor within 3 plies).
TEST(AnalyzerCases, MateNeedsUnderpromotion) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("8/4NP1k/7p/7P/3B4/8/8/2K5 w - - 0 1");

  // The four promotions, independently.
  for (Move m : p.legal_moves()) {
    if (m.kind() != Move::Kind::Promotion) continue;
    const Position q = p.after(m);
    if (m.promotion() == PieceType::Knight) {
      EXPECT_TRUE(q.is_checkmate()) << to_uci(m);
    } else {
      EXPECT_TRUE(q.is_stalemate()) << to_uci(m);
    }
  }

  auto a = deadpos::analyze_side(*tb, p, Color::Black, AnalysisOptions{}, /*want_line=*/true);
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_EQ(a->method, Method::Search) << method_name(a->method);
  ASSERT_EQ(replay(p, Color::Black, a->line), "") << line_text(p, a->line);
  bool under = false;
  for (Move m : a->line) under |= m.kind() == Move::Kind::Promotion && m.promotion() != PieceType::Queen;
  EXPECT_TRUE(under) << "no underpromotion in " << line_text(p, a->line);

  // Independent brute force (the forward search, underpromotions left out): every sequence of
  // legal moves without an underpromotion, up to the line's length (and at least 3 plies),
  // reaches no checkmate of Black.
  const int depth = std::max<int>(3, static_cast<int>(a->line.size()));
  const auto no_under = forward_mates(p, depth, 3'000'000, [](const Position&, Move m) {
    return m.kind() == Move::Kind::Promotion && m.promotion() != PieceType::Queen;
  });
  EXPECT_EQ(no_under.searched_plies, depth) << "the enumeration did not complete (" << no_under.nodes << " positions)";
  EXPECT_FALSE(no_under.plies[Color::Black])
      << "a mate without underpromotion at ply " << *no_under.plies[Color::Black];
  EXPECT_GT(no_under.nodes, 1u);
}

// ---------------------------------------------------------------------------------------------
// 4. Only the side that flagged could mate.
//
//   4k3/8/8/8/8/8/PPP5/R2QK3 w - - 0 1
//   White: Ke1, Qd1, Ra1, pawns a2 b2 c2. Black: Ke8 alone.
//
// Black has a lone king and no pawn: a king never gives check (kings never stand adjacent), so
// White can never be checkmated (rule lone-king). White can mate Black (K+Q v K, with Black's
// cooperation). If White's flag falls, Black cannot mate by any series of legal moves: FIDE 6.9
// makes it a draw, 1/2-1/2, "opponent cannot mate". If Black's flag falls, White can mate: 1-0.
TEST(AnalyzerCases, OnlyTheFlaggedSideCanMate) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("4k3/8/8/8/8/8/PPP5/R2QK3 w - - 0 1");
  auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;

  const MateAnswer& white_mated = a->mate[Color::White];
  EXPECT_EQ(white_mated.method, Method::Rule) << method_name(white_mated.method);
  EXPECT_EQ(white_mated.rule, AnalysisRule::LoneKing) << rule_name(white_mated.rule);
  EXPECT_EQ(a->black_can_mate(), std::optional<bool>(false));

  const MateAnswer& black_mated = a->mate[Color::Black];
  ASSERT_EQ(a->white_can_mate(), std::optional<bool>(true)) << method_name(black_mated.method);
  EXPECT_EQ(replay(p, Color::Black, black_mated.line), "") << line_text(p, black_mated.line);
  EXPECT_EQ(a->dead(), std::optional<bool>(false));

  const FlagVerdict white_flag = flag_verdict(*a, p.side_to_move(), Color::White);
  EXPECT_EQ(white_flag.result, "1/2-1/2");
  EXPECT_EQ(white_flag.reason, FlagVerdict::Reason::OpponentCannotMate) << flag_reason_text(white_flag.reason);
  const FlagVerdict black_flag = flag_verdict(*a, p.side_to_move(), Color::Black);
  EXPECT_EQ(black_flag.result, "1-0");
  EXPECT_EQ(black_flag.reason, FlagVerdict::Reason::OpponentCanMate) << flag_reason_text(black_flag.reason);
}

// ---------------------------------------------------------------------------------------------
// 5a. A castling right that decides whether the position is dead.
//
//   8/8/8/8/1p1p1p2/1P1k1P2/1PpP4/2B1K2R w K - 0 1   (and the same with castling field "-")
//   White: Ke1, Rh1, Bc1, pawns b2 b3 d2 f3. Black: Kd3, pawns b4 c2 d4 f4.
//
// The Black king on d3: c2 and d4 hold its own pawns; c3 and e3 are attacked by the pawns b2/d2;
// c4 by b3; e4 by f3; d2 is a white pawn guarded by Bc1; e2 is covered by the White king on e1.
// Every black pawn is blocked (b4 by b3, c2 by Bc1, d4 by its king, f4 by f3) and has nothing to
// capture. Every white man but the king and the rook is blocked too (Bc1 between its own pawns
// b2 and d2). White's moves without castling: Kf1, Kf2 (Kd1 is attacked by c2, d2/e2 are taken
// or next to the Black king), Rf1, Rg1 and the rook up the h-file. After each of them the White
// king still covers e2 and the rook never checks d3 (rank 3 is shut by f3): Black is stalemated.
// Without the right every line ends in stalemate after one ply: dead, neither side can be mated.
// With the right, 1.O-O takes the king to g1, far from e2: Black has 1...Ke2 and the game goes on.
// Both sides can then be mated, e.g.
//   White: 1.O-O Ke2 2.Rd1 Kxf3 3.Kf1 cxd1=Q# (the queen checks f1 along rank 1; e1, g1 are on
//          the line, e2 is covered by the queen and the king f3, f2 and g2 by the king; nothing
//          can capture d1 or block e1);
//   Black: 1.O-O Ke2 2.Kg2 Kd3 3.Rh1 Ke2 4.Kg1 Kd1 5.Kf2# (discovered check from h1 along rank 1;
//          c1 is on the line, c2 is Black's own pawn, d2 a pawn guarded by Bc1, e1 and e2 are
//          covered by Kf2).
// Both lines are replayed below, and a breadth-first search over legal moves finds the mates
// within 9 plies with the right and none at all without it. Any line must begin with O-O, since
// every other first move stalemates.
TEST(AnalyzerCases, CastlingRightDecidesDeadPosition) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position with = position_from("8/8/8/8/1p1p1p2/1P1k1P2/1PpP4/2B1K2R w K - 0 1");
  const Position without = position_from("8/8/8/8/1p1p1p2/1P1k1P2/1PpP4/2B1K2R w - - 0 1");

  // The law, checked on the moves: castling is legal with the right and is the only move that
  // does not stalemate Black; without the right every move stalemates.
  const Move castle = Move::make(sq("e1"), sq("g1"), Move::Kind::Castling);
  ASSERT_TRUE(with.legal_moves().contains(castle)) << probe_test::join(legal_uci(with));
  EXPECT_FALSE(without.legal_moves().contains(castle));
  EXPECT_EQ(every_move_stalemates(with, castle), "");
  EXPECT_EQ(every_move_stalemates(without), "");
  EXPECT_FALSE(with.after(castle).is_stalemate());
  EXPECT_EQ(legal_uci(without).size() + 1, legal_uci(with).size());

  // The hand-made lines and the independent breadth-first search.
  const auto white_mated_line = uci_line(with, {"e1g1", "d3e2", "f1d1", "e2f3", "g1f1", "c2d1q"});
  EXPECT_EQ(replay(with, Color::White, white_mated_line), "");
  const auto black_mated_line =
      uci_line(with, {"e1g1", "d3e2", "g1g2", "e2d3", "f1h1", "d3e2", "g2g1", "e2d1", "g1f2"});
  EXPECT_EQ(replay(with, Color::Black, black_mated_line), "");
  const auto fm_with = forward_mates(with, 9);
  EXPECT_TRUE(fm_with.plies[Color::White]);
  EXPECT_TRUE(fm_with.plies[Color::Black]);
  const auto fm_without = forward_mates(without, 50);
  EXPECT_EQ(fm_without.searched_plies, 50);  // complete: every line ends after one ply
  EXPECT_FALSE(fm_without.plies[Color::White]);
  EXPECT_FALSE(fm_without.plies[Color::Black]);

  auto d = deadpos::analyze(*tb, without, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->dead(), std::optional<bool>(true));
  for (Color mated : {Color::White, Color::Black}) EXPECT_EQ(d->mate[mated].can_mate(), std::optional<bool>(false));

  auto a = deadpos::analyze(*tb, with, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->dead(), std::optional<bool>(false));
  for (Color mated : {Color::White, Color::Black}) {
    // Both sides can be mated (the hand-made lines above): a line that replays and, since every
    // other first move stalemates, begins with the castling move.
    const MateAnswer& m = a->mate[mated];
    ASSERT_EQ(m.can_mate(), std::optional<bool>(true))
        << side_name(mated) << " mated: " << method_name(m.method) << " (budget " << budget_name(m.budget) << ")";
    EXPECT_EQ(replay(with, mated, m.line), "") << line_text(with, m.line);
    ASSERT_FALSE(m.line.empty());
    EXPECT_EQ(m.line.front(), castle) << line_text(with, m.line);
  }
}

// A helpmate of one ply found by the search (8 men, beyond the tables) is the DTHM: the root is
// not a checkmate, so every helpmate has at least one ply.
//
//   8/8/8/8/2B1ppp1/4pkp1/8/4K2R w K - 0 1
//   White: Ke1, Rh1, Bc4. Black: Kf3, pawns e4 f4 g4 e3 g3.
// 1.O-O#: the rook on f1 checks along f2; the Black king's e2 is covered by Bc4 (d3 empty), f2 by
// the rook and the king on g1, g2 by that king, its other neighbours hold its own pawns; no black
// man can take f1 or stand on f2. Checked below with Position's is_checkmate.
TEST(AnalyzerCases, OnePlyHelpmateIsShortest) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("8/8/8/8/2B1ppp1/4pkp1/8/4K2R w K - 0 1");
  const Move castle = Move::make(sq("e1"), sq("g1"), Move::Kind::Castling);
  ASSERT_TRUE(p.legal_moves().contains(castle));
  ASSERT_TRUE(p.after(castle).is_checkmate());
  ASSERT_FALSE(p.is_checkmate());
  auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  const MateAnswer& m = a->mate[Color::Black];
  ASSERT_EQ(m.method, Method::Search) << method_name(m.method);
  EXPECT_EQ(m.plies, 1);
  EXPECT_TRUE(m.shortest);  // was "not proven shortest"
  ASSERT_EQ(m.line.size(), 1U);
  EXPECT_EQ(m.line.front(), castle);
}

// A helpmate of two plies of the side to move, found by the search (8 men), is the DTHM: the side
// to move is mated only with it to move again, so after an even number of plies, and the root is
// not a checkmate.
//
//   kr6/8/8/8/p7/7p/P3n2P/7K w - - 0 1
//   White: Kh1, pawns a2 h2. Black: Ka8, Rb8, Ne2, pawns a4 h3.
// White's one legal move is 1.a3: the king's g1 is covered by Ne2, g2 by the pawn h3, h2 holds its
// own pawn (blocked by h3), and a4 blocks the double step. 1...Rb1#: g1 is covered by the rook and
// Ne2, g2 by h3, and no White man can take b1 or stand between. Checked below with Position.
TEST(AnalyzerCases, TwoPlyHelpmateOfTheSideToMoveIsShortest) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("kr6/8/8/8/p7/7p/P3n2P/7K w - - 0 1");
  ASSERT_EQ(p.legal_moves().size(), 1U);
  const Move a3 = p.legal_moves()[0];
  const Move rb1 = Move::make(sq("b8"), sq("b1"));
  ASSERT_TRUE(p.after(a3).legal_moves().contains(rb1));
  ASSERT_TRUE(p.after(a3).after(rb1).is_checkmate());
  auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  const MateAnswer& m = a->mate[Color::White];
  ASSERT_EQ(m.method, Method::Search) << method_name(m.method);
  ASSERT_EQ(m.plies, 2);    // the search's first line; a longer one would not test the rule
  EXPECT_TRUE(m.shortest);  // was "not proven shortest"
  EXPECT_EQ(replay(p, Color::White, m.line), "");
}

// The same rule when the search's line ends in the tables (5 men, the tables hold 4): the answer
// without a printed line must say what the answer with one says (the property test found the two
// apart: DTHM unknown in the C API's flag result, 2 plies in `probe --json --line`).
//
//   Kq6/4r3/4k3/8/8/5r2/8/8 w - - 0 1
//   White: Ka8. Black: Ke6, Qb8, Re7, Rf3.
// 1.Kxb8 (the queen is not defended) leaves KvKRR; 1...Rf8#: the rook checks along rank 8 (a8 and
// c8 with it), Re7 covers a7, b7 and c7. White is mated only with White to move, so after an even
// number of plies, and the root is not a checkmate: two plies are the DTHM.
TEST(AnalyzerCases, TwoPlyHelpmateIntoTheTablesIsShortestWithOrWithoutLines) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("Kq6/4r3/4k3/8/8/5r2/8/8 w - - 0 1");
  const Move kxb8 = Move::make(sq("a8"), sq("b8"));
  const Move rf8 = Move::make(sq("f3"), sq("f8"));
  ASSERT_TRUE(p.legal_moves().contains(kxb8));
  ASSERT_TRUE(p.after(kxb8).legal_moves().contains(rf8));
  ASSERT_TRUE(p.after(kxb8).after(rf8).is_checkmate());
  ASSERT_FALSE(p.is_checkmate());
  for (bool want_lines : {false, true}) {
    auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, want_lines);
    ASSERT_TRUE(a) << a.error().message;
    const MateAnswer& m = a->mate[Color::White];
    ASSERT_EQ(m.method, Method::Search) << method_name(m.method);
    EXPECT_EQ(m.plies, 2) << "want_lines " << want_lines;
    EXPECT_TRUE(m.shortest) << "want_lines " << want_lines;
  }
}

// ---------------------------------------------------------------------------------------------
// 5b. An en passant right that decides whether the position is dead.
//
//   8/1k6/4p3/2bpP3/8/7p/7P/7K w - d6 0 2   (and the same with en passant field "-")
//   White: Kh1, pawns e5 h2. Black: Kb7, Bc5, pawns d5 e6 h3 (Black has just played ...d7-d5).
//
// The White king on h1: g1 is covered by Bc5 (c5-d4-e3-f2-g1), g2 by the pawn h3, h2 is its own
// pawn, blocked by h3. The pawn e5 is blocked by e6 and has nothing on f6 to capture. Without the
// en passant right White has no legal move and is not in check: stalemate, the game is over and
// no checkmate can follow: dead. With the right, 1.exd6 e.p. is White's only legal move and the
// game goes on: the black e-pawn is then free, e.g.
//   1.exd6 e5 2.d7 e4 3.d8=R e3 4.Rc8 e2 5.Rd8 e1=Q#
// (the queen checks h1 along rank 1; g1 is covered by the queen and by Bc5 again once the pawn
// has left e3, g2 by h3, h2 is White's own pawn; the rook on d8 can neither capture e1 nor block
// f1/g1). The line is replayed below; the analyzer's line must start with exd6.
TEST(AnalyzerCases, EnPassantRightDecidesDeadPosition) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position with = position_from("8/1k6/4p3/2bpP3/8/7p/7P/7K w - d6 0 2");
  const Position without = position_from("8/1k6/4p3/2bpP3/8/7p/7P/7K w - - 0 2");

  EXPECT_EQ(legal_uci(with), (std::set<std::string>{"e5d6"}));
  EXPECT_TRUE(without.is_stalemate());
  const Move ep = Move::make(sq("e5"), sq("d6"), Move::Kind::EnPassant);
  ASSERT_TRUE(with.legal_moves().contains(ep));
  const auto hand = uci_line(with, {"e5d6", "e6e5", "d6d7", "e5e4", "d7d8r", "e4e3", "d8c8", "e3e2", "c8d8", "e2e1q"});
  EXPECT_EQ(replay(with, Color::White, hand), "");

  auto d = deadpos::analyze(*tb, without, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_TRUE(d->stalemate);
  EXPECT_EQ(d->dead(), std::optional<bool>(true));

  auto a = deadpos::analyze(*tb, with, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_FALSE(a->stalemate);
  // Black can mate White (the e-pawn's promotion above): decided "can", with a replayed line.
  const MateAnswer& white_mated = a->mate[Color::White];
  ASSERT_EQ(white_mated.can_mate(), std::optional<bool>(true)) << method_name(white_mated.method);
  EXPECT_EQ(replay(with, Color::White, white_mated.line), "") << line_text(with, white_mated.line);
  ASSERT_FALSE(white_mated.line.empty());
  EXPECT_EQ(white_mated.line.front(), ep);
  EXPECT_EQ(a->dead(), std::optional<bool>(false));
  const MateAnswer& black_mated = a->mate[Color::Black];
  if (black_mated.can_mate() == true) {
    EXPECT_EQ(replay(with, Color::Black, black_mated.line), "") << line_text(with, black_mated.line);
  }
}

// ---------------------------------------------------------------------------------------------
// 6. A tiny node budget on a full middle-game position: undetermined (naming the budget), never
// a guess. With 32 men the reachable set is astronomically larger than 10 positions, so "cannot"
// cannot be proven; and no sequence of at most 2 plies ends in a checkmate (checked below by
// enumeration), so a "can" needs a line of 3 plies or more, whose search must generate at least
// the root's 20+ successors and one position beyond them: more than 10. The only correct answer
// within the budget is "undetermined (nodes)".
TEST(AnalyzerCases, TinyBudgetIsUndetermined) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4");
  const auto fm = forward_mates(p, 2);
  EXPECT_EQ(fm.searched_plies, 2);
  EXPECT_FALSE(fm.plies[Color::White]);
  EXPECT_FALSE(fm.plies[Color::Black]);
  EXPECT_GT(p.legal_moves().size(), 10);

  AnalysisOptions opt;
  opt.budget.nodes = 10;
  auto a = deadpos::analyze(*tb, p, opt, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  for (Color mated : {Color::White, Color::Black}) {
    const MateAnswer& m = a->mate[mated];
    EXPECT_EQ(m.method, Method::Undetermined) << side_name(mated) << " mated: " << method_name(m.method);
    EXPECT_EQ(m.budget, BudgetKind::Nodes) << budget_name(m.budget);
    EXPECT_EQ(m.can_mate(), std::nullopt);
    EXPECT_TRUE(m.line.empty());
  }
  EXPECT_EQ(a->dead(), std::nullopt);
  const FlagVerdict v = flag_verdict(*a, p.side_to_move(), Color::White);
  EXPECT_EQ(v.reason, FlagVerdict::Reason::Undetermined) << flag_reason_text(v.reason);
  EXPECT_EQ(v.result, "");
}

// ---------------------------------------------------------------------------------------------
// The board first: 8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1.
// White's king e1 is attacked by the bishops c3 (via d2) and g3 (via f2). Its squares: d1 and f1
// hold its rooks; d2, e2 and f2 touch the black king e3. A double check is answered only by a king
// move: White is checkmated on the board, by Black (DTHM 0 of White mated, an empty line), so the
// position is not dead, whatever a rule says of bishops of one colour (whose proof assumes a single
// check: no move gives this double check, hence the impossible-check warning).
TEST(AnalyzerCases, CheckmateOnTheBoardComesFirst) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1");
  ASSERT_TRUE(p.in_check());
  ASSERT_TRUE(p.legal_moves().empty());
  EXPECT_EQ(popcount(p.checkers()), 2);
  auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/true);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->black_can_mate(), std::optional<bool>(true));
  EXPECT_EQ(a->mate[Color::White].plies, 0);  // Method::Search: the line's length, proven shortest
  EXPECT_TRUE(a->mate[Color::White].shortest);
  EXPECT_TRUE(a->mate[Color::White].line.empty());
  EXPECT_EQ(a->white_can_mate(), std::optional<bool>(false));  // White has no move: the game is over
  EXPECT_EQ(a->dead(), std::optional<bool>(false));
  ASSERT_EQ(a->warnings.size(), 1u);
  EXPECT_EQ(a->warnings[0], PositionWarning::ImpossibleCheck);
  const FlagVerdict v = flag_verdict(*a, Color::White, Color::White);
  EXPECT_EQ(v.reason, FlagVerdict::Reason::Checkmate) << flag_reason_text(v.reason);
}

// analyze_flag() against analyze(): the same FIDE 6.9 verdict, the same answer to the flagged side's
// question, and the other question either the same or (only when the verdict does not need it:
// the opponent can mate, or that is undetermined) not asked. Random positions of materials beyond
// the 4-man tables, both flags, with a budget small enough to leave some undetermined.
TEST(AnalyzeFlag, GivesAnalyzesVerdictAndAsksOnlyWhatItNeeds) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  AnalysisOptions opt;
  opt.budget.nodes = 20'000;
  std::mt19937_64 rng(69);
  int not_asked = 0, asked = 0;
  for (const char* key : {"KQvKRN", "KRPvKB", "KNNvKP", "KBBvKN", "KPPvKP", "KRvKBP", "KBPvKBP", "KQPvKQ"}) {
    for (int i = 0; i < static_cast<int>(test::sample_size(60, 4)); ++i) {
      const Position pos = test::random_position(key, rng);
      auto both = deadpos::analyze(*tb, pos, opt, false);
      ASSERT_TRUE(both) << both.error().message;
      for (Color flagged : {Color::White, Color::Black}) {
        SCOPED_TRACE(pos.to_fen() + (flagged == Color::White ? " (White flagged)" : " (Black flagged)"));
        auto one = deadpos::analyze_flag(*tb, pos, flagged, opt, false);
        ASSERT_TRUE(one) << one.error().message;
        const FlagVerdict a = flag_verdict(*both, pos.side_to_move(), flagged);
        const FlagVerdict b = flag_verdict(*one, pos.side_to_move(), flagged);
        EXPECT_EQ(a.reason, b.reason);
        EXPECT_EQ(a.result, b.result);
        EXPECT_EQ(one->mate[flagged], both->mate[flagged]);
        const MateAnswer& other = one->mate[~flagged];
        if (other.method == Method::NotAsked) {
          ++not_asked;
          EXPECT_NE(one->mate[flagged].can_mate(), false) << "the draw's reason needs the other question";
        } else {
          ++asked;
          EXPECT_EQ(other, both->mate[~flagged]);
        }
        EXPECT_EQ(one->checkmate, both->checkmate);
        EXPECT_EQ(one->stalemate, both->stalemate);
        EXPECT_EQ(one->warnings, both->warnings);
      }
    }
  }
  // Both branches are reached.
  EXPECT_GT(not_asked, 0);
  EXPECT_GT(asked, 0);
}

}  // namespace
}  // namespace deadpos
