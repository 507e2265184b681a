// Game adjudication (deadpos/adjudicate.h) on real games and on games built for one rule each.
//   - The first dead ply from the bisection equals a brute-force oracle that decides every ply of
//     the game (and the oracle's answers are monotone, the property the bisection relies on).
//   - Where lichess ended a game one ply after our first dead ply, that position is dead by an
//     argument independent of the analyzer: every legal move leaves insufficient material.
//   - The result rules of docs/api.md, "PGN adjudication", each on a game whose answer follows from the
//     Laws by hand (checkmate, stalemate, dead position, flag-falls, undetermined).
// Reads the <=4-man tables of the "tables4" fixture (DEADPOS_TABLES); fails without them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "deadpos/adjudicate.h"

namespace deadpos {
namespace {

const std::string kData = DEADPOS_PGN_DATA;

const Tablebase& tables() {
  static const Tablebase tb = [] {
    const char* dir = std::getenv("DEADPOS_TABLES");
    if (!dir) {
      ADD_FAILURE() << "DEADPOS_TABLES not set";
      std::abort();
    }
    auto t = Tablebase::open({dir});
    if (!t || t->max_men() == 0) {
      ADD_FAILURE() << "no tables in " << dir;
      std::abort();
    }
    return std::move(*t);
  }();
  return tb;
}

std::vector<PgnGame> read_file(const std::string& path, std::size_t max_games = SIZE_MAX) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  PgnReader r(in);
  std::vector<PgnGame> out;
  while (out.size() < max_games) {
    auto g = r.next();
    if (!g || !*g) break;
    out.push_back(std::move(**g));
  }
  return out;
}

PgnGame parse_one(const std::string& text) {
  std::istringstream in(text);
  PgnReader r(in);
  auto g = r.next();
  EXPECT_TRUE(g.ok() && *g);
  return std::move(**g);
}

struct Judged {
  ReplayedGame replay;
  Adjudication adj;
};

Judged judge(const PgnGame& g, const AnalysisOptions& opt = {}) {
  Judged j{replay_game(g), {}};
  EXPECT_EQ(j.replay.status, ReplayedGame::Status::Ok) << j.replay.problem;
  if (j.replay.status != ReplayedGame::Status::Ok) return j;
  auto a = adjudicate_game(tables(), opt, g, j.replay);
  EXPECT_TRUE(a.ok()) << (a ? "" : a.error().message);
  if (a) j.adj = *a;
  return j;
}

bool insufficient(const Position& p) {
  // K v K, K+minor v K, and bishops all on squares of one colour: no placement of such material
  // is a checkmate (docs/rules.md), independent of tables and analyzer.
  const Bitboard big = p.pieces(PieceType::Pawn) | p.pieces(PieceType::Rook) | p.pieces(PieceType::Queen);
  if (big != 0) return false;
  if (p.men() <= 3) return true;
  constexpr Bitboard kDark = 0xAA55AA55AA55AA55ULL;
  const Bitboard bishops = p.pieces(PieceType::Bishop);
  return p.pieces(PieceType::Knight) == 0 && ((bishops & kDark) == 0 || (bishops & ~kDark) == 0);
}

// The oracle: every ply decided on its own; the first dead one, and monotonicity checked.
void check_against_oracle(const PgnGame& g, const Judged& j) {
  const int n = j.replay.plies();
  std::optional<int> first;
  bool undetermined = false;
  for (int k = 0; k <= n; ++k) {
    auto d = position_dead(tables(), AnalysisOptions{}, j.replay.positions[static_cast<std::size_t>(k)]);
    ASSERT_TRUE(d.ok());
    if (!d->has_value()) {
      undetermined = true;
      continue;
    }
    if (**d && !first) first = k;
    if (first) {
      ASSERT_TRUE(**d) << "game " << g.number << ": ply " << k << " not dead after dead ply " << *first;
    }
  }
  if (undetermined) return;  // the bisection may then give a range; checked by its own test
  EXPECT_EQ(j.adj.dead_ply, first) << "game " << g.number;
  EXPECT_EQ(j.adj.final_dead, first.has_value()) << "game " << g.number;
}

TEST(AdjudicateOracle, FirstDeadPlyOfInsufficientMaterialDraws) {
  const auto games = read_file(kData + "/lichess-insufficient-material-draws.pgn", 25);
  ASSERT_EQ(games.size(), 25u);
  for (const PgnGame& g : games) {
    const Judged j = judge(g);
    ASSERT_TRUE(j.adj.dead_ply) << "game " << g.number;
    check_against_oracle(g, j);
  }
}

TEST(AdjudicateOracle, UndeterminedPliesGiveASoundRange) {
  // With a budget of 1 node per question only the tables and rules decide: the bisection then
  // brackets the first dead ply; the range must hold the exact answer of the default budget.
  AnalysisOptions tiny;
  tiny.budget.nodes = 1;
  int ranges = 0;
  for (const PgnGame& g : read_file(kData + "/lichess-insufficient-material-draws.pgn", 40)) {
    const Judged exact = judge(g);
    const Judged rough = judge(g, tiny);
    ASSERT_TRUE(exact.adj.dead_ply);
    ASSERT_EQ(rough.adj.final_dead, true) << "game " << g.number;
    ASSERT_TRUE(rough.adj.dead_ply_low && rough.adj.dead_ply_high);
    EXPECT_LE(*rough.adj.dead_ply_low, *exact.adj.dead_ply) << "game " << g.number;
    EXPECT_GE(*rough.adj.dead_ply_high, *exact.adj.dead_ply) << "game " << g.number;
    if (rough.adj.dead_ply) {
      EXPECT_EQ(rough.adj.dead_ply, exact.adj.dead_ply);
    } else {
      ++ranges;
    }
    EXPECT_EQ(rough.adj.result, "1/2-1/2");  // dead at the end: drawn, wherever it began
  }
  std::printf("%d of 40 games bracketed, the others exact\n", ranges);
}

TEST(AdjudicateOracle, GamesThatNeverDie) {
  // Decisive games and flag-falls with many men: no ply is dead.
  auto games = read_file(kData + "/lichess-2013-chessjs-benchmark.pgn", 12);
  for (const PgnGame& g : games) {
    const Judged j = judge(g);
    check_against_oracle(g, j);
  }
}

TEST(AdjudicateOracle, DeadOnePlyBeforeTheEndIsRight) {
  // lichess stops at insufficient material; where our first dead ply is one earlier, every legal
  // move of that position leaves insufficient material (so no sequence can mate: dead).
  int seen = 0;
  for (const PgnGame& g : read_file(kData + "/lichess-insufficient-material-draws.pgn")) {
    const Judged j = judge(g);
    const int n = j.replay.plies();
    ASSERT_TRUE(j.adj.dead_ply) << "game " << g.number;
    ASSERT_TRUE(insufficient(j.replay.positions.back())) << "game " << g.number;
    if (*j.adj.dead_ply == n) continue;
    ASSERT_EQ(*j.adj.dead_ply, n - 1) << "game " << g.number;
    const Position& p = j.replay.positions[static_cast<std::size_t>(n - 1)];
    ASSERT_FALSE(insufficient(p));
    const MoveList moves = p.legal_moves();
    ASSERT_FALSE(moves.empty());
    for (Move m : moves) {
      EXPECT_TRUE(insufficient(p.after(m))) << "game " << g.number << ": " << p.to_fen();
    }
    ++seen;
  }
  EXPECT_GE(seen, 20);  // 21 such games in the file
}

TEST(AdjudicateRules, CheckmateOnTheBoardOverridesTheRecord) {
  const Judged j = judge(parse_one("[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n"));
  EXPECT_EQ(j.adj.result, "0-1");
  EXPECT_TRUE(j.adj.changed);
  EXPECT_EQ(j.adj.rule, ResultRule::Checkmate);
  EXPECT_EQ(j.adj.final_dead, false);
}

TEST(AdjudicateRules, StalemateAtTheEnd) {
  // White Kc7 and Qb5 against Ka8: after 1. Qb6 Black has no move and is not in check.
  const Judged j = judge(parse_one("[FEN \"k7/2K5/8/1Q6/8/8/8/8 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Qb6 1-0\n"));
  EXPECT_EQ(j.adj.result, "1/2-1/2");
  EXPECT_EQ(j.adj.rule, ResultRule::Stalemate);
  EXPECT_EQ(j.adj.dead_ply, 1);
  EXPECT_TRUE(j.adj.changed);
}

TEST(AdjudicateRules, DeadPositionPlayedOn) {
  // 1... Kxb2 leaves K v K at ply 2 (dead); two more moves are played, then "White wins".
  const Judged j =
      judge(parse_one("[FEN \"8/8/8/8/8/k7/1R6/7K w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kg1 Kxb2 2. Kf1 Kc3 1-0\n"));
  ASSERT_EQ(j.replay.plies(), 4);
  EXPECT_EQ(j.adj.dead_ply, 2);
  EXPECT_EQ(j.adj.result, "1/2-1/2");
  EXPECT_EQ(j.adj.rule, ResultRule::DeadPosition);
  EXPECT_TRUE(j.adj.changed);
  // --pgn-out's text: the tag and the token corrected, the comment after the dead ply's move.
  const std::string out = corrected_pgn(
      parse_one("[FEN \"8/8/8/8/8/k7/1R6/7K w - - 0 1\"]\n[Result \"1-0\"]\n\n1. Kg1 Kxb2 2. Kf1 Kc3 1-0\n"), j.adj);
  EXPECT_NE(out.find("[Result \"1/2-1/2\"]"), std::string::npos) << out;
  EXPECT_NE(out.find("Kxb2 {deadpos: dead position from here"), std::string::npos) << out;
  EXPECT_TRUE(out.ends_with("} 1/2-1/2\n")) << out;
  // Two Result tags: both corrected.
  const std::string dup = corrected_pgn(parse_one("[FEN \"8/8/8/8/8/k7/1R6/7K w - - 0 1\"]\n[Result \"1-0\"]\n[Result "
                                                  "\"1-0\"]\n\n1. Kg1 Kxb2 2. Kf1 Kc3 1-0\n"),
                                        j.adj);
  EXPECT_TRUE(
      dup.starts_with("[FEN \"8/8/8/8/8/k7/1R6/7K w - - 0 1\"]\n[Result \"1/2-1/2\"]\n[Result \"1/2-1/2\"]\n\n"))
      << dup;
  const Judged again = judge(parse_one(out));
  EXPECT_FALSE(again.adj.changed);
  EXPECT_EQ(again.replay.moves, j.replay.moves);
}

TEST(AdjudicateRules, DeadAtTheStart) {
  const Judged j = judge(parse_one("[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/3K4/8/8 w - - 0 1\"]\n\n1. Kd4 Kd6 *\n"));
  EXPECT_EQ(j.adj.dead_ply, 0);
  EXPECT_EQ(j.adj.result, "1/2-1/2");
  EXPECT_TRUE(j.adj.changed);  // '*' recorded: the Laws say the game ended drawn
  // The comment on the start position goes before the move number (PGN standard 8.2.5): "1. {...}
  // Kd4" makes pgn-extract lose the FEN setup (adjudicate_cli_test.sh checks with pgn-extract).
  const std::string out =
      corrected_pgn(parse_one("[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/3K4/8/8 w - - 0 1\"]\n\n1. Kd4 Kd6 *\n"), j.adj);
  EXPECT_NE(out.find("\n\n{deadpos: dead position from here (FIDE 5.2.2): the game ended drawn} 1. Kd4 Kd6"),
            std::string::npos)
      << out;
  // A comment after a White move goes before Black's move (no number written there); after a
  // Black move, before the next number.
  const Judged w = judge(parse_one("[FEN \"8/8/8/8/8/k7/1R6/7K b - - 0 1\"]\n\n1... Kxb2 2. Kg1 Kc3 *\n"));
  ASSERT_EQ(w.adj.dead_ply, 1);
  EXPECT_NE(corrected_pgn(parse_one("[FEN \"8/8/8/8/8/k7/1R6/7K b - - 0 1\"]\n\n1... Kxb2 2. Kg1 Kc3 *\n"), w.adj)
                .find("1... Kxb2 {deadpos: dead position from here (FIDE 5.2.2): the game ended drawn} 2. Kg1"),
            std::string::npos);
}

TEST(AdjudicateRules, FlagFalls) {
  // White (K+R) flags: Black has a bare king and can never mate: 1/2-1/2 (FIDE 6.9), not 0-1.
  Judged j =
      judge(parse_one("[Termination \"Time forfeit\"]\n[Result \"0-1\"]\n[FEN \"8/8/8/4k3/8/8/1R6/K7 w - - 0 "
                      "1\"]\n\n1. Rb3 Kd4 0-1\n"));
  EXPECT_EQ(j.adj.flagged, Color::White);
  EXPECT_EQ(j.adj.result, "1/2-1/2");
  EXPECT_EQ(j.adj.rule, ResultRule::TimeForfeit);
  EXPECT_TRUE(j.adj.changed);
  // Black (bare king) flags: White mates with K+R: 1-0 stands.
  j = judge(
      parse_one("[Termination \"Time forfeit\"]\n[Result \"1-0\"]\n[FEN \"8/8/8/4k3/8/8/1R6/K7 w - - 0 1\"]\n\n1. "
                "Rb3 Kd4 1-0\n"));
  EXPECT_EQ(j.adj.flagged, Color::Black);
  EXPECT_EQ(j.adj.result, "1-0");
  EXPECT_FALSE(j.adj.changed);
  // Lost on time in a dead position (K v K): flagged is the record's, whatever the budget; the
  // dead position gives the result.
  for (const std::uint64_t nodes : {std::uint64_t{1}, std::uint64_t{2'000'000}}) {
    AnalysisOptions opt;
    opt.budget.nodes = nodes;
    const PgnGame g = parse_one(
        "[Termination \"Time forfeit\"]\n[Result \"1-0\"]\n[FEN \"8/8/8/4k3/8/8/1R6/K7 w - - 0 1\"]\n\n1. "
        "Rb5+ Kd4 2. Kb2 Kc4 3. Kc2 Kxb5 1-0\n");
    const ReplayedGame r = replay_game(g);
    const auto a = adjudicate_game(tables(), opt, g, r);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->flagged, Color::Black) << nodes;
    EXPECT_EQ(a->result, "1/2-1/2");
    EXPECT_EQ(a->rule, ResultRule::DeadPosition);
  }
  // chess.com names the winner: "Bob won on time" with Bob as Black, recorded as a draw.
  const PgnGame g = parse_one(
      "[White \"Al\"]\n[Black \"Bob\"]\n[Result \"1/2-1/2\"]\n[Termination \"Bob won on time\"]\n\n1. e4 e5 1/2-1/2\n");
  EXPECT_EQ(flagged_side(g, Color::White), Color::White);
  j = judge(g);
  EXPECT_EQ(j.adj.result, "0-1");
  EXPECT_TRUE(j.adj.changed);
}

TEST(AdjudicateRules, UndeterminedIsNeverAGuess) {
  // 20 men, a budget of 1 node per question: nothing beyond the rules can be decided.
  AnalysisOptions tiny;
  tiny.budget.nodes = 1;
  const std::string moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. d4 exd4 6. Qxd4 Qxd4 7. Nxd4 Bd6\n";
  Judged j = judge(parse_one("[Result \"1-0\"]\n\n" + moves + " 1-0\n"), tiny);
  EXPECT_FALSE(j.adj.final_dead.has_value());
  EXPECT_FALSE(j.adj.result.has_value());
  EXPECT_EQ(j.adj.rule, ResultRule::Undetermined);
  EXPECT_FALSE(j.adj.changed);
  // A recorded draw is a draw whether or not the position is dead.
  j = judge(parse_one("[Result \"1/2-1/2\"]\n\n" + moves + " 1/2-1/2\n"), tiny);
  EXPECT_EQ(j.adj.result, "1/2-1/2");
  // A flag-fall whose opponent's question is undetermined.
  j = judge(parse_one("[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n" + moves + " 1-0\n"), tiny);
  EXPECT_FALSE(j.adj.result.has_value());
  EXPECT_EQ(j.adj.rule, ResultRule::Undetermined);
  // With the default budget the same game is decided.
  j = judge(parse_one("[Result \"1-0\"]\n\n" + moves + " 1-0\n"));
  EXPECT_EQ(j.adj.final_dead, false);
  EXPECT_EQ(j.adj.result, "1-0");
}

TEST(AdjudicateReplay, UnreadableAndUnsupported) {
  auto r = replay_game(parse_one("[Variant \"Chess960\"]\n\n1. e4 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Unsupported);
  r = replay_game(parse_one("[Variant \"From Position\"]\n[FEN \"8/8/4k3/8/8/3K4/8/8 w - - 0 1\"]\n\n1. Kd4 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Ok);
  r = replay_game(parse_one("1. e4 e5 2. Ke3 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Unreadable);
  EXPECT_NE(r.problem.find("ply 3 (2. Ke3)"), std::string::npos) << r.problem;
  // Moves restarting at "1." without a result between (torture-chessops-leading-whitespace.pgn,
  // game 3): one game by the PGN standard (only a tag section or a result ends one); the label
  // gives the replay's number and the one written.
  r = replay_game(parse_one("1. e4 e5 2. Nf3 Nc6 3. Bb5\n\n1. e4 e5 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Unreadable);
  EXPECT_NE(r.problem.find("ply 6 (3... e4, written '1. e4'): "), std::string::npos) << r.problem;
  r = replay_game(parse_one("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Unreadable);
  EXPECT_NE(r.problem.find("FEN tag"), std::string::npos);
  // Ambiguous: both knights can go to d2.
  r = replay_game(parse_one("[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]\n\n1. Nd2 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Unreadable);
  EXPECT_NE(r.problem.find("ambiguous"), std::string::npos) << r.problem;
  // Lenient where servers are: castling with zeros, a missing check mark, UCI, "e.p.".
  r = replay_game(parse_one("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 d6 5. Bxf7 Kxf7 6. g1h1 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Ok) << r.problem;
  r = replay_game(parse_one("1. e4 d5 2. e5 f5 3. exf6e.p. *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Ok) << r.problem;
  // A castling right that can never be used (no rook on h1) is dropped, not fatal.
  r = replay_game(parse_one("[FEN \"4k3/8/8/8/8/8/8/4K3 w K - 0 1\"]\n\n1. Kd2 *\n"));
  EXPECT_EQ(r.status, ReplayedGame::Status::Ok) << r.problem;
}

}  // namespace
}  // namespace deadpos
