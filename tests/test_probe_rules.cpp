// En passant and castling rights: the tables hold neither (docs/design.md, "En passant"; the probe
// answers castling rights by an exact search), so these tests use positions reasoned out by hand
// and an independent forward search over legal moves (probe_test::forward_mates), never the tables,
// for the expected values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "test_probe_util.h"

namespace deadpos {
namespace {

using probe_test::dthm_text;
using probe_test::forward_mates;
using probe_test::position_from;

// The <=5-man tables named by DEADPOS_TABLES5 (e.g. DEADPOS_TABLES5=/path/tables5 ctest -R Castling)
// opened as `tb` (a Result<Tablebase>); without the variable the test is skipped, saying so.
#define TABLES5_OR_SKIP(tb)                                            \
  const char* tables5_dir_ = std::getenv("DEADPOS_TABLES5");           \
  if (tables5_dir_ == nullptr || *tables5_dir_ == '\0')                \
    GTEST_SKIP() << "DEADPOS_TABLES5 (the <=5-man tables) is not set"; \
  auto tb = Tablebase::open({tables5_dir_});                           \
  ASSERT_TRUE(tb) << tb.error().message

// Bellman check: DTHM_X(p) = 0 if p is a checkmate of X, none if p has no legal move otherwise,
// else min over the legal moves m of 1 + DTHM_X(p after m). The successors are probed too, so
// this checks the probe's special rules (en passant, castling) against the definition itself.
std::string bellman_mismatch(const Tablebase& tb, const Position& p) {
  auto r = tb.probe(p);
  if (!r) return p.to_fen() + ": " + r.error().message;
  ByColor<std::optional<int>> want;
  const MoveList moves = p.legal_moves();
  if (moves.empty() && p.in_check()) want[p.side_to_move()] = 0;
  for (Move m : moves) {
    auto s = tb.probe(p.after(m));
    if (!s) return p.to_fen() + " after " + to_uci(m) + ": " + s.error().message;
    for (Color x : {Color::White, Color::Black}) {
      if (s->dthm[x] && (!want[x] || *s->dthm[x] + 1 < *want[x])) want[x] = *s->dthm[x] + 1;
    }
  }
  std::string why;
  for (Color x : {Color::White, Color::Black}) {
    if (r->dthm[x] != want[x]) {
      why += std::string(x == Color::White ? " White" : " Black") + " mated: probe " + dthm_text(r->dthm[x]) +
             ", successors give " + dthm_text(want[x]) + ";";
    }
  }
  return why.empty() ? "" : p.to_fen() + ":" + why;
}

// ---------------------------------------------------------------------------------------------
// En passant

// A checkmate that en passant resolves.
//
//   . . . . . . . .    Black to move. White has just played g2-g4 (so the FEN may carry g3:
//   . . . . . . . .    g4 holds a white pawn, g3 and g2 are empty).
//   . . . . . . . p    The pawn g4 checks the king h5. The king's squares: g6 and g5 are
//   . . . . . K . k    covered by the king f5, g4 is the checker and is defended by the king
//   . . . . . . P p    f5, h6 and h4 hold Black's own pawns. A pawn check cannot be blocked.
//   . . . . . . . .    The only Black man that could take g4 is the pawn h4, and only en
//   . . . . . . . .    passant (hxg3), which needs the right. The pawn h6 is stuck behind its
//   . . . . . . . .    king and h4-h3 leaves the check.
//
// Without the right ('-'): checkmate. With g3: exactly one legal move, hxg3 e.p., after which the
// king h5 is not attacked (the pawn is gone, the king f5 is two files away).
// With the right, DTHM_Black = none: after the only move White has a bare king, and a bare king
// never gives check. DTHM_White = 1 + DTHM_White(after hxg3) = 11; one shortest line is
// 1...hxg3 2.Ke4 Kg4 3.Kd3 Kf3 4.Kc2 Ke3 5.Kd1 g2 6.Ke1 g1=Q#; the forward search proves no
// shorter one exists (and finds this length).
TEST(EnPassant, CaptureResolvesCheckmate) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position with_ep = position_from("8/8/7p/5K1k/6Pp/8/8/8 b - g3 0 1");
  const Position without = position_from("8/8/7p/5K1k/6Pp/8/8/8 b - - 0 1");
  ASSERT_EQ(with_ep.en_passant(), Square::G3) << "the validator must keep a producible en passant square";

  // The rules of play, independently of any table.
  EXPECT_TRUE(without.is_checkmate()) << without.to_diagram();
  EXPECT_FALSE(with_ep.is_checkmate());
  const MoveList moves = with_ep.legal_moves();
  ASSERT_EQ(moves.size(), 1) << probe_test::join(probe_test::legal_uci(with_ep));
  EXPECT_EQ(to_uci(moves[0]), "h4g3");
  EXPECT_EQ(moves[0].kind(), Move::Kind::EnPassant);

  const probe_test::ForwardMates f = forward_mates(with_ep, 12);
  ASSERT_GE(f.searched_plies, 11);
  EXPECT_EQ(f.plies[Color::White], 11);
  EXPECT_EQ(f.plies[Color::Black], std::nullopt);  // within 12 plies; none by the bare-king argument

  auto r = tb->probe(with_ep);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->checkmate);
  EXPECT_FALSE(r->stalemate);
  EXPECT_TRUE(r->en_passant);
  EXPECT_EQ(r->dthm[Color::White], 11);
  EXPECT_EQ(r->dthm[Color::Black], std::nullopt);
  EXPECT_TRUE(r->black_can_mate());
  EXPECT_FALSE(r->white_can_mate());
  EXPECT_FALSE(r->dead());

  // The same placement without the right is a checkmate: decided by the rules alone, so it is
  // answered whatever tables are loaded (this 5-man position has no table in the <=4-man set).
  auto q = tb->probe(without);
  ASSERT_TRUE(q) << q.error().message;
  EXPECT_TRUE(q->checkmate);
  EXPECT_FALSE(q->en_passant);
  EXPECT_EQ(q->dthm[Color::Black], 0);
  EXPECT_EQ(q->dthm[Color::White], std::nullopt);
}

// An en passant capture that shortens a helpmate.
//
//   . . . . . . . .    Black to move; White has just played c2-c4 (c3 producible).
//   . . . . . . . .
//   . . . . . . . .    With the right: 1...bxc3 e.p. 2.Kb1 (a2 and b2 are covered by the king
//   . . . . . . . .    a3) c2+ 3.Ka1 c1=Q# -- White is mated in 5 plies. Fewer is impossible:
//   . p P . . . . .    a bare-king-and-pawn side mates only after promoting, and the pawn c3
//   k . . . . . . .    needs two more moves (ply 3's c2+ is no mate: a1 is free).
//   . . . . . . . .    Without the right the pawn b4 promotes next to White's king and Black
//   K . . . . . . .    needs 11 plies (found by the forward search).
//
// DTHM_Black is 12 either way: the capture removes White's only pawn, and a bare king never gives
// check, so no helpmate of Black starts with it.
TEST(EnPassant, CaptureShortensHelpmate) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position with_ep = position_from("8/8/8/8/1pP5/k7/8/K7 b - c3 0 1");
  const Position without = position_from("8/8/8/8/1pP5/k7/8/K7 b - - 0 1");

  const probe_test::ForwardMates fe = forward_mates(with_ep, 12);
  const probe_test::ForwardMates fn = forward_mates(without, 12);
  ASSERT_GE(fe.searched_plies, 12);
  ASSERT_GE(fn.searched_plies, 12);
  EXPECT_EQ(fe.plies[Color::White], 5);
  EXPECT_EQ(fe.plies[Color::Black], 12);
  EXPECT_EQ(fn.plies[Color::White], 11);
  EXPECT_EQ(fn.plies[Color::Black], 12);

  auto a = tb->probe(with_ep);
  auto b = tb->probe(without);
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE(a->en_passant);
  EXPECT_FALSE(b->en_passant);
  EXPECT_EQ(a->dthm[Color::White], fe.plies[Color::White]);
  EXPECT_EQ(a->dthm[Color::Black], fe.plies[Color::Black]);
  EXPECT_EQ(b->dthm[Color::White], fn.plies[Color::White]);
  EXPECT_EQ(b->dthm[Color::Black], fn.plies[Color::Black]);
  EXPECT_EQ(a->table, "KPvKP");

  // The same with colours exchanged: White to move after ...c7-c5.
  auto sa = tb->probe(with_ep.color_swapped());
  ASSERT_TRUE(sa) << sa.error().message;
  EXPECT_TRUE(sa->en_passant);
  EXPECT_EQ(sa->dthm[Color::Black], 5);
  EXPECT_EQ(sa->dthm[Color::White], 12);
}

// An en passant square that a double push produced, but no pawn can take: the right changes no
// legal move, so nothing changes (and the probe does not report en passant).
TEST(EnPassant, RightWithoutCaptureChangesNothing) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  for (const char* fen :
       {"8/8/8/8/4P3/8/8/k1K5 b - e3 0 1", "8/8/8/8/p3P3/8/8/k1K5 b - e3 0 1", "8/8/8/8/2p1P3/4K3/8/k7 b - - 0 1"}) {
    const Position p = position_from(fen);
    Placement pl = p.placement();
    pl.en_passant.reset();
    const Position q = *Position::from_placement(pl);
    auto a = tb->probe(p);
    auto b = tb->probe(q);
    ASSERT_TRUE(a) << fen << ": " << a.error().message;
    ASSERT_TRUE(b) << fen << ": " << b.error().message;
    EXPECT_FALSE(a->en_passant) << fen;
    EXPECT_EQ(a->dthm[Color::White], b->dthm[Color::White]) << fen;
    EXPECT_EQ(a->dthm[Color::Black], b->dthm[Color::Black]) << fen;
  }
}

// Every KPvKP position with a legal en passant capture (both kings anywhere, Black to move after a
// White double push): the probe equals the definition, min over every legal move (the capture
// included) of 1 + the successor's value. About 5,000 positions.
TEST(EnPassant, EveryKPvKPPositionSatisfiesTheDefinition) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  int checked = 0;
  int changed = 0;
  int failures = 0;
  for (int wk = 0; wk < 64 && failures < 5; ++wk) {
    for (int bk = 0; bk < 64; ++bk) {
      for (int f = 0; f < 8; ++f) {
        for (int df : {-1, 1}) {
          if (f + df < 0 || f + df > 7) continue;
          const Square pushed = make_square(static_cast<File>(f), Rank::R4);
          const Square taker = make_square(static_cast<File>(f + df), Rank::R4);
          if (wk == bk || wk == to_index(pushed) || wk == to_index(taker) || bk == to_index(pushed) ||
              bk == to_index(taker))
            continue;
          Placement pl;
          pl[square_at(wk)] = make_piece(Color::White, PieceType::King);
          pl[square_at(bk)] = make_piece(Color::Black, PieceType::King);
          pl[pushed] = make_piece(Color::White, PieceType::Pawn);
          pl[taker] = make_piece(Color::Black, PieceType::Pawn);
          pl.side_to_move = Color::Black;
          Placement no_right = pl;
          pl.en_passant = make_square(static_cast<File>(f), Rank::R3);
          auto p = Position::from_placement(pl);
          if (!p) continue;
          ++checked;
          const std::string why = bellman_mismatch(*tb, *p);
          if (!why.empty()) {
            ADD_FAILURE() << why;
            ++failures;
          }
          auto a = tb->probe(*p);
          auto b = tb->probe(*Position::from_placement(no_right));
          if (a && b && a->dthm != b->dthm) ++changed;
        }
      }
    }
  }
  EXPECT_GT(checked, 4000);
  // The right matters in thousands of these positions (4,644 with the tables of this project).
  EXPECT_GT(changed, 1000);
}

// ---------------------------------------------------------------------------------------------
// Castling

// Castling is the fastest helpmate.
//
//   . . . . . . . .    White to move, may castle queen side. 1.O-O-O#: the king goes to c1,
//   . . . . . . . .    the rook to d1 and checks h1 along the first rank through e1, which the
//   . . . . . . . .    king has just left. The king h1's squares: g1 (rook), g2 and h2 (queen
//   . . . . . . . .    d2 along the second rank). Mate in 1 ply.
//   . . . . . . . .
//   . . . . . . . .    Without the right there is no mate in 1: every king move that opens the
//   . . . Q . . . .    rook's line lands on d1/f1 (still on the line) or on e2/f2, cutting the
//   R . . . K . . k    queen's second rank, and no queen or rook move alone mates. 3 plies.
//
// DTHM_White = none with or without the right: Black has a bare king, which never gives check.
TEST(Castling, CastlingIsTheFastestHelpmate) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position rights = position_from("8/8/8/8/8/8/3Q4/R3K2k w Q - 0 1");
  const Position none = position_from("8/8/8/8/8/8/3Q4/R3K2k w - - 0 1");
  const Move castle = Move::make(Square::E1, Square::C1, Move::Kind::Castling);
  ASSERT_TRUE(rights.legal_moves().contains(castle)) << probe_test::join(probe_test::legal_uci(rights));
  EXPECT_TRUE(rights.after(castle).is_checkmate()) << rights.after(castle).to_diagram();

  const probe_test::ForwardMates fr = forward_mates(rights, 3);
  const probe_test::ForwardMates fn = forward_mates(none, 3);
  EXPECT_EQ(fr.plies[Color::Black], 1);
  EXPECT_EQ(fn.plies[Color::Black], 3);

  auto a = tb->probe(rights);
  auto b = tb->probe(none);
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE(a->castling_search);
  EXPECT_FALSE(b->castling_search);
  EXPECT_EQ(a->dthm[Color::Black], 1);
  EXPECT_EQ(b->dthm[Color::Black], 3);
  EXPECT_EQ(a->dthm[Color::White], std::nullopt);
  EXPECT_EQ(b->dthm[Color::White], std::nullopt);
  EXPECT_EQ(a->table, "KQRvK");

  auto line = tb->helpmate_line(rights, Color::Black);
  ASSERT_TRUE(line) << line.error().message;
  ASSERT_EQ(line->size(), 1U);
  EXPECT_EQ((*line)[0], castle) << to_uci((*line)[0]);

  // Black castling: the colour-swapped position (1...O-O-O#), rights follow the swap.
  const Position swapped = rights.color_swapped();
  EXPECT_EQ(swapped.castling_rights(), kBlackOOO);
  auto s = tb->probe(swapped);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_TRUE(s->castling_search);
  EXPECT_EQ(s->dthm[Color::White], 1);
  EXPECT_EQ(s->dthm[Color::Black], std::nullopt);
  EXPECT_EQ(forward_mates(swapped, 1).plies[Color::White], 1);
}

// Castling rights that change nothing: 1.Rh8# mates at once (a7 and b7 covered by the queen b6,
// b8 by rook and queen), with or without the right to castle king side.
TEST(Castling, RightsWithoutEffect) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position rights = position_from("k7/8/1Q6/8/8/8/8/4K2R w K - 0 1");
  const Position none = position_from("k7/8/1Q6/8/8/8/8/4K2R w - - 0 1");
  ASSERT_TRUE(rights.legal_moves().contains(Move::make(Square::E1, Square::G1, Move::Kind::Castling)));
  EXPECT_EQ(forward_mates(rights, 1).plies[Color::Black], 1);
  auto a = tb->probe(rights);
  auto b = tb->probe(none);
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE(a->castling_search);
  EXPECT_FALSE(b->castling_search);
  EXPECT_EQ(a->dthm[Color::Black], 1);
  EXPECT_EQ(a->dthm[Color::White], std::nullopt);
  EXPECT_EQ(a->dthm, b->dthm);
}

// ProbeResult::en_passant says an en passant capture was legal and taken into account; the
// castling search plays every legal move, so with castling rights too (black-box finding: it was
// false there). Castling and an en passant capture need 5 men (two kings, a rook, two pawns), so
// this reads the 5-man tables named by DEADPOS_TABLES5 (e.g. DEADPOS_TABLES5=/path/tables5 ctest -R
// EnPassantCapture); without them it is skipped, saying so. The capture d4xe3 is legal by FIDE
// 3.7.3.1 (e2-e4 was the last move).
TEST(Castling, EnPassantCaptureIsReportedInTheCastlingSearch) {
  TABLES5_OR_SKIP(tb);
  const Position rights = position_from("8/8/8/2k5/3pP3/8/8/4K2R b K e3 0 1");
  ASSERT_TRUE(rights.legal_moves().contains(Move::make(Square::D4, Square::E3, Move::Kind::EnPassant)));
  auto a = tb->probe(rights);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->table, "KRPvKP");
  EXPECT_TRUE(a->castling_search);
  EXPECT_TRUE(a->en_passant);
  // Without a legal capture (no black pawn beside e4) it stays false.
  auto b = tb->probe(position_from("8/8/8/1k1p4/4P3/8/8/4K2R b K e3 0 1"));
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_TRUE(b->castling_search);
  EXPECT_FALSE(b->en_passant);
}

// The castling search against the definition (every legal move, successors probed, those that
// keep the rights searched again) on positions with rights for one or both sides.
TEST(Castling, SearchSatisfiesTheDefinition) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  for (const char* fen : {"r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1",
                          "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/n3K2R w K - 0 1"}) {
    EXPECT_EQ(bellman_mismatch(*tb, position_from(fen)), "") << fen;
  }
  // With a free queen every successor is a search of ~7,500 positions (1-2 s in Release, minutes
  // under the sanitizers): not in slow builds.
  if (!test::slow_build()) {
    for (const char* fen : {"8/8/8/8/8/8/3Q4/R3K2k w Q - 0 1", "k7/8/1Q6/8/8/8/8/4K2R w K - 0 1"}) {
      EXPECT_EQ(bellman_mismatch(*tb, position_from(fen)), "") << fen;
    }
  }
}

// Positions reachable from p by legal moves that keep p's castling rights (p included), counted
// by a breadth-first walk over Position::legal_moves, stopping at `cap`: how many positions the
// castling search of p must store at least, found without it.
std::size_t positions_keeping_rights(const Position& p, std::size_t cap) {
  std::vector<Position> seen{p};
  std::set<std::string> fens{p.to_fen()};
  for (std::size_t i = 0; i < seen.size() && seen.size() < cap; ++i) {
    const Position u = seen[i];  // a copy: push_back may move the vector's elements
    for (Move m : u.legal_moves()) {
      const Position v = u.after(m);
      if (v.castling_rights() == p.castling_rights() && fens.insert(v.to_fen()).second) seen.push_back(v);
    }
  }
  return seen.size();
}

// The castling search of a position in the tables is held to the analysis budget (black-box
// finding: with the 5-man tables r3k3/8/8/8/8/8/P7/4K2R w Kq - ran for minutes at 1.1 GiB whatever
// the budget). 8/8/8/8/8/8/3Q4/R3K2k w Q - (CastlingIsTheFastestHelpmate): the queen and the black
// king move freely while White keeps the right, so its castling search stores more than 100
// positions (counted below without the search). With a budget of 100 positions, or 1 ms, or
// 64 KiB, the table answer (exact, with the castling search) does not fit: each question is
// answered by the search beyond the tables instead, never wrongly: can mate with a replayed line
// no shorter than the DTHM (probe(), which has its own limit, gives the DTHM), cannot mate where
// the DTHM is none, or undetermined naming the budget.
TEST(Castling, SearchIsHeldToTheAnalysisBudget) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Position p = position_from("8/8/8/8/8/8/3Q4/R3K2k w Q - 0 1");
  EXPECT_GT(positions_keeping_rights(p, 200), 100U);

  auto exact = tb->probe(p);
  ASSERT_TRUE(exact) << exact.error().message;
  ASSERT_TRUE(exact->castling_search);
  // The default budget holds the search: the table's exact answer.
  auto full = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/false);
  ASSERT_TRUE(full) << full.error().message;
  EXPECT_TRUE(full->castling_search);
  for (Color x : {Color::White, Color::Black}) {
    EXPECT_EQ(full->mate[x].method, Method::Table);
    EXPECT_EQ(full->mate[x].dthm, exact->dthm[x]);
  }
  AnalysisOptions nodes, time, memory;
  nodes.budget.nodes = 100;
  time.budget.time_ms = 1;
  memory.budget.memory_bytes = 64 << 10;
  for (const AnalysisOptions& o : {nodes, time, memory}) {
    auto a = deadpos::analyze(*tb, p, o, /*want_lines=*/true);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_FALSE(a->castling_search);
    EXPECT_EQ(a->table, "");
    for (Color x : {Color::White, Color::Black}) {
      const MateAnswer& m = a->mate[x];
      EXPECT_NE(m.method, Method::Table) << method_name(m.method);
      EXPECT_NE(m.can_mate(), !exact->dthm[x].has_value()) << method_name(m.method);
      if (m.method == Method::Search) {
        ASSERT_TRUE(exact->dthm[x]);
        EXPECT_GE(m.plies, *exact->dthm[x]);
        EXPECT_EQ(probe_test::check_helpmate_line(p, x, m.line, m.plies), "");
      }
    }
  }
}

// The position of the black-box finding itself, with the 5-man tables (DEADPOS_TABLES5, as
// EnPassantCaptureIsReportedInTheCastlingSearch): 1 s of budget gives an answer within seconds
// (it ran for minutes), and both sides can mate (a line replayed, or the table's DTHM: without the
// rights the position is KRPvKR, where each side has mating material and room).
TEST(Castling, FiveManSearchAnswersWithinTheBudget) {
  TABLES5_OR_SKIP(tb);
  const Position p = position_from("r3k3/8/8/8/8/8/P7/4K2R w Kq - 0 1");
  AnalysisOptions o;
  o.budget.time_ms = 1000;
  const auto start = std::chrono::steady_clock::now();
  auto a = deadpos::analyze(*tb, p, o, /*want_lines=*/true);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_LT(secs, 10.0);  // the budget's clock, not a speed figure: without it this took minutes
  for (Color x : {Color::White, Color::Black}) {
    const MateAnswer& m = a->mate[x];
    EXPECT_TRUE(m.method == Method::Table || m.method == Method::Search) << method_name(m.method);
    if (m.method == Method::Search) {
      EXPECT_EQ(probe_test::check_helpmate_line(p, x, m.line, m.plies), "");
    }
  }
}

// A second black-box finding (DEADPOS_TABLES5): a KRRvKR root with three castling rights is
// answered by the table with its castling search, but its lines were "not available" (invalid
// argument, exit 4): they were built within the search's first stage of 200,000 positions, not the
// analysis budget that answered the root. With the default budget each line is given, as long as
// the table's DTHM, legal and ending in checkmate.
TEST(Castling, FiveManTableLinesGetTheWholeBudget) {
  TABLES5_OR_SKIP(tb);
  for (const char* fen : {"r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", "4k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1"}) {
    const Position p = position_from(fen);
    auto a = deadpos::analyze(*tb, p, AnalysisOptions{}, /*want_lines=*/true);
    ASSERT_TRUE(a) << a.error().message;
    for (Color x : {Color::White, Color::Black}) {
      const MateAnswer& m = a->mate[x];
      ASSERT_EQ(m.method, Method::Table) << fen << ": " << method_name(m.method);
      ASSERT_TRUE(m.dthm) << fen;  // both sides have mating material and room
      EXPECT_FALSE(m.line_error) << fen << ": " << m.line_error->message;
      EXPECT_EQ(probe_test::check_helpmate_line(p, x, m.line, *m.dthm), "") << fen;
    }
  }
}

// Short helpmates with castling rights, against the forward search: random placements of the
// other men around a king and rook(s) on their original squares. Where the search finds a mate
// within kDepth plies the probe must give that number; where it finds none the probe must give
// more than kDepth or none.
TEST(Castling, RandomPositionsAgreeWithForwardSearch) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  constexpr int kDepth = 3;
  std::mt19937_64 rng(20240601);
  struct Setup {
    const char* base;  // FEN with the castling men only
    const char* rights;
    const char* extra;  // men to scatter, as FEN letters
  };
  const Setup setups[] = {{"4k3/8/8/8/8/8/8/R3K3", "Q", "Q"},
                          {"4k3/8/8/8/8/8/8/4K2R", "K", "B"},
                          {"4k3/8/8/8/8/8/8/4K2R", "K", "n"},
                          {"r3k3/8/8/8/8/8/8/4K3", "q", "N"}};
  int compared = 0;
  int finite = 0;
  for (const Setup& s : setups) {
    for (int n = 0; n < 6;) {
      Placement pl = *Placement::parse_fen(std::string(s.base) + " w - - 0 1");
      // Move the lone king of the side without rights, then drop the extra man.
      const bool white_castles = std::string(s.rights) == "K" || std::string(s.rights) == "Q";
      const Square old_king = white_castles ? Square::E8 : Square::E1;
      pl[old_king] = kNoPiece;
      std::uniform_int_distribution<int> sq(0, 63);
      const Square k = square_at(sq(rng));
      const Square x = square_at(sq(rng));
      if (pl[k] != kNoPiece || pl[x] != kNoPiece || k == x) continue;
      pl[k] = make_piece(white_castles ? Color::Black : Color::White, PieceType::King);
      const char c = s.extra[0];
      const PieceType pt = c == 'Q' ? PieceType::Queen : (c == 'B' || c == 'b') ? PieceType::Bishop : PieceType::Knight;
      pl[x] = make_piece(std::isupper(static_cast<unsigned char>(c)) ? Color::White : Color::Black, pt);
      pl.side_to_move = (rng() & 1) ? Color::White : Color::Black;
      pl.castling = std::string(s.rights) == "K" ? kWhiteOO : std::string(s.rights) == "Q" ? kWhiteOOO : kBlackOOO;
      auto p = Position::from_placement(pl);
      if (!p) continue;
      ++n;
      const probe_test::ForwardMates f = forward_mates(*p, kDepth);
      auto r = tb->probe(*p);
      ASSERT_TRUE(r) << p->to_fen() << ": " << r.error().message;
      EXPECT_TRUE(r->castling_search) << p->to_fen();
      for (Color c2 : {Color::White, Color::Black}) {
        ++compared;
        if (f.plies[c2]) {
          ++finite;
          EXPECT_EQ(r->dthm[c2], f.plies[c2]) << p->to_fen();
        } else {
          EXPECT_TRUE(!r->dthm[c2] || *r->dthm[c2] > f.searched_plies)
              << p->to_fen() << ": probe " << dthm_text(r->dthm[c2]);
        }
      }
    }
  }
  EXPECT_EQ(compared, 48);
  RecordProperty("short_mates_compared", finite);
}

}  // namespace
}  // namespace deadpos
