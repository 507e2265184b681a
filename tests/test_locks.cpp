// The locked-structure rule (docs/design.md, "Locked structures") against an oracle that knows
// nothing of it:
//   - the brute-force forward search of tests/support (every position reachable by legal moves,
//     breadth first, exact keys): on random positions built around pawn walls, wherever the rule
//     says "X can never be mated" the search must find no checkmate of X, and where the search
//     examines the whole reachable set the analyzer (rule, search and tables together) must give
//     the search's answer;
// Then the classes of docs/design.md "Locked structures", each from a hand-made position (the
// reasoning that fixes its answer next to it) varied by a script: mirrored left-right, colours
// swapped, bishops moved along their diagonals, walls shifted.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>

#include "test_probe_util.h"

namespace deadpos::probe_test {
namespace {

using test::ExactKeys;
using test::ForwardSearch;

// What the brute force knows of "can `mated` be checkmated from pos": yes (a mate was found), no
// (the whole reachable set was examined without one), or nothing (the cap was reached first).
enum class Truth { Mate, NoMate, Unknown };

ByColor<Truth> brute_force(const Position& pos, std::uint64_t cap) {
  ForwardSearch<ExactKeys> search(cap);
  ForwardSearch<ExactKeys>::Options o;
  o.budget = ByColor<std::uint64_t>{{cap, cap}};
  const test::SearchResult r = search.run(pos, o);
  ByColor<Truth> t{{Truth::Unknown, Truth::Unknown}};
  for (Color mated : {Color::White, Color::Black})
    t[mated] = r.first_mate[mated] >= 0 ? Truth::Mate : r.exhausted ? Truth::NoMate : Truth::Unknown;
  return t;
}

// A random position around a pawn wall. The wall: on every file a White pawn with a Black pawn on
// the square in front of it, the ranks of neighbouring files one apart (so no pawn can take another
// and no king can pass), White's pawns on ranks 2..6. Then, one time in three, one disturbance: a
// file left out (the kings may pass), a Black pawn moved one square further up (it may still move,
// and lock or lever), or a pawn pair moved to the rank of its neighbour (a lever). The White king
// and White's other men (0 to 3 men in all, mostly bishops, whose colour decides most walls) below
// the wall, Black's above, except that one man in eight may stand anywhere. nullopt when the draw
// is not a legal position (the caller draws again).
std::optional<Position> random_wall(std::mt19937_64& rng) {
  auto sq = [](int f, int r) { return square_at(r * 8 + f); };
  auto uni = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  std::array<int, 8> rank{};  // White pawn's rank index (1..5) per file
  rank[0] = 1 + uni(5);
  for (int f = 1; f < 8; ++f) {
    const int up = rank[static_cast<std::size_t>(f - 1)] + 1, down = rank[static_cast<std::size_t>(f - 1)] - 1;
    rank[static_cast<std::size_t>(f)] = up > 5 ? down : down < 1 ? up : (uni(2) ? up : down);
  }
  std::array<int, 8> black{};  // Black pawn's rank index per file (-1: none)
  for (int f = 0; f < 8; ++f) black[static_cast<std::size_t>(f)] = rank[static_cast<std::size_t>(f)] + 1;
  std::array<bool, 8> present{};
  present.fill(true);
  if (uni(3) == 0) {
    const auto f = static_cast<std::size_t>(uni(8));
    switch (uni(3)) {
      case 0: present[f] = false; break;
      case 1:
        if (black[f] < 6) ++black[f];
        break;
      default: {
        const std::size_t g = f == 0 ? 1 : f - 1;
        rank[f] = rank[g];
        black[f] = rank[f] + 1;
      }
    }
  }
  Placement pl;
  for (std::size_t f = 0; f < 8; ++f) {
    if (!present[f]) continue;
    pl[sq(static_cast<int>(f), rank[f])] = make_piece(Color::White, PieceType::Pawn);
    pl[sq(static_cast<int>(f), black[f])] = make_piece(Color::Black, PieceType::Pawn);
  }
  static constexpr PieceType kExtras[] = {PieceType::Bishop, PieceType::Bishop, PieceType::Bishop,
                                          PieceType::Knight, PieceType::Rook,   PieceType::Queen};
  std::vector<Piece> men{make_piece(Color::White, PieceType::King), make_piece(Color::Black, PieceType::King)};
  for (int k = uni(4); k > 0; --k)
    men.push_back(
        make_piece(uni(2) == 0 ? Color::White : Color::Black, kExtras[uni(static_cast<int>(std::size(kExtras)))]));
  for (Piece p : men) {
    const bool anywhere = uni(8) == 0;
    for (int tries = 0;; ++tries) {
      if (tries == 200) return std::nullopt;
      const int f = uni(8), r = uni(8);
      const bool below = r<rank[static_cast<std::size_t>(f)], above = r> black[static_cast<std::size_t>(f)];
      if (!anywhere && !(color_of(p) == Color::White ? below : above)) continue;
      if (pl[sq(f, r)] == kNoPiece) {
        pl[sq(f, r)] = p;
        break;
      }
    }
  }
  pl.side_to_move = uni(2) == 0 ? Color::White : Color::Black;
  auto pos = Position::from_placement(pl);
  if (!pos || pos->is_checkmate() || pos->is_stalemate()) return std::nullopt;
  return *pos;
}

std::vector<Position> random_walls(int count, std::uint64_t seed) {
  std::vector<Position> out;
  std::mt19937_64 rng(seed);
  while (static_cast<int>(out.size()) < count)
    if (auto p = random_wall(rng)) out.push_back(*p);
  return out;
}

// The rule alone at the root: no table, no search (a budget of one position).
AnalysisOptions rule_only() {
  AnalysisOptions o;
  o.table_men = 0;
  o.leaf_table_men = 0;
  o.budget.nodes = 1;
  return o;
}

bool locked_rule(const MateAnswer& a) { return a.method == Method::Rule && a.rule == AnalysisRule::LockedStructure; }

std::string side_text(Color mated) { return mated == Color::White ? " (White mated)" : " (Black mated)"; }

// The failures of a parallel loop over questions, collected under a lock and reported at the end
// (the first 20 each as a failure, then their number).
class Failures {
 public:
  void add(const Position& pos, Color mated, const std::string& why) {
    std::lock_guard lock(mu_);
    list_.push_back(pos.to_fen() + side_text(mated) + ": " + why);
  }
  void report() const {
    for (std::size_t k = 0; k < std::min<std::size_t>(list_.size(), 20); ++k) ADD_FAILURE() << list_[k];
    EXPECT_TRUE(list_.empty()) << list_.size() << " failures";
  }

 private:
  std::mutex mu_;
  std::vector<std::string> list_;
};

// The analyzer (rule, search, tables; 200,000 positions) against the brute force's exhaustive
// answer t for one question: "" when they agree (a "can" answer's line is replayed), else why not.
// Counts the decided answers in *decided.
std::string analyzer_disagrees(const Tablebase& tb, const Position& pos, Color mated, Truth t, long* decided) {
  AnalysisOptions opt;
  opt.budget.nodes = 200'000;
  auto a = deadpos::analyze_side(tb, pos, mated, opt, true);
  if (!a) return "analyzer error: " + a.error().message;
  const auto c = a->can_mate();
  if (!c) return "";
  ++*decided;
  if (*c != (t == Truth::Mate)) {
    return std::string("analyzer says ") + (*c ? "can" : "cannot") + " (" + method_name(a->method) + " " + a->reason +
           "), the brute force " + (t == Truth::Mate ? "finds a mate" : "exhausts without one");
  }
  return *c && a->method == Method::Search ? check_helpmate_line(pos, mated, a->line, a->plies) : "";
}

TEST(LockedStructure, NeverClosesAPositionWhereTheBruteForceFindsAMate) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  const int count = static_cast<int>(test::sample_size(6'000, 10));
  const std::vector<Position> positions = random_walls(count, 0x10C4ED);
  long fired = 0, confirmed = 0;
  Failures failures;
#pragma omp parallel for schedule(dynamic, 8) reduction(+ : fired, confirmed)
  for (int i = 0; i < count; ++i) {
    const Position& pos = positions[static_cast<std::size_t>(i)];
    for (Color mated : {Color::White, Color::Black}) {
      auto a = deadpos::analyze_side(*tb, pos, mated, rule_only(), false);
      if (!a || !locked_rule(*a)) continue;
      ++fired;
      const Truth t = brute_force(pos, 200'000)[mated];
      if (t == Truth::NoMate) ++confirmed;
      if (t == Truth::Mate || a->reason.empty()) {
        failures.add(pos, mated,
                     (t == Truth::Mate ? "the brute force finds a mate; rule said: " : "no reason: ") + a->reason);
      }
    }
  }
  failures.report();
  // A rule that never fires would make this test pass vacuously.
  EXPECT_GE(fired, count / 20) << "the rule fired on " << fired << " questions of " << 2 * count;
  EXPECT_GE(confirmed, fired / 2) << confirmed << " of " << fired << " confirmed by an exhausted brute force";
  std::printf("[ locks ] rule fired on %ld of %d questions, %ld confirmed by exhausting the reachable set\n", fired,
              2 * count, confirmed);
}

TEST(LockedStructure, AnalyzerGivesTheBruteForceAnswerWhereTheReachableSetIsSmall) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  const int count = static_cast<int>(test::sample_size(800, 10));
  const std::vector<Position> positions = random_walls(count, 0xB10C);
  long compared = 0, decided = 0, dead = 0;
  Failures failures;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : compared, decided, dead)
  for (int i = 0; i < count; ++i) {
    const Position& pos = positions[static_cast<std::size_t>(i)];
    const ByColor<Truth> truth = brute_force(pos, 50'000);
    for (Color mated : {Color::White, Color::Black}) {
      const Truth t = truth[mated];
      if (t == Truth::Unknown) continue;
      ++compared;
      if (t == Truth::NoMate) ++dead;
      long d = 0;
      const std::string why = analyzer_disagrees(*tb, pos, mated, t, &d);
      decided += d;
      if (!why.empty()) failures.add(pos, mated, why);
    }
  }
  failures.report();
  EXPECT_GE(dead, compared / 20) << "only " << dead << " of " << compared << " compared questions are 'cannot'";
  EXPECT_EQ(decided, compared) << decided << " of " << compared << " decided";
  std::printf("[ locks ] %ld questions with a small reachable set (%ld of them 'cannot'), %ld decided\n", compared,
              dead, decided);
}

// The classes of docs/design.md "Locked structures". Walls used below (White's pawns first):
//   HIGH  a3 b4 c5 d4 e5 f4 g5 h4 against a4 b5 c6 d5 e6 f5 g6 h5: no pawn can take another
//         (every pawn's capture squares are empty or hold its own men), and no king can pass:
//         every square between the two kings' sides is a pawn or attacked by an enemy pawn. Black's
//         pawns take only on b3, c4, e4, g4 (light squares), White's only on a5, c5... b6, d6, f6,
//         h6 (dark squares): a White man can open the wall only by standing on a light square next
//         to it, a Black man only on a dark one.
//   LOW   a2 b3 c2 d3 e2 f3 g2 h3 against a3 b4 c3 d4 e3 f4 g3 h4: the same, lower; White's king
//         can only ever stand on rank 1 (b2, d2, f2, h2 are attacked by Black's pawns), and only a
//         White man standing on b2, d2, f2 or h2 (to be taken there) can open it.
enum class Expect { Dead, CanMate };
struct ClassCase {
  char cls;
  const char* fen;
  Expect expect;
  const char* why;
};
const ClassCase kClassCases[] = {
    // (a) walls with bishops and kings behind them, no lever: dead.
    {'a', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - - 0 1", Expect::Dead,
     "HIGH; White's dark bishop can never stand on a light square, Black's light bishop never on a "
     "dark one: nothing can ever be taken, no king can ever be checked"},
    {'a', "8/8/1k1p1p2/3PpP2/3pKp2/b2P1P2/8/3B1B2 b - - 0 1", Expect::Dead,
     "a public dispute position: locked chains, both sides' bishops can never reach a pawn they "
     "could take or a square where they could be taken"},
    // (b) the same with one lever or one man that can open the wall: a helpmate exists; the line
    // the analyzer returns is replayed move by move.
    {'b', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/2B1KB2 w - - 0 1", Expect::CanMate,
     "HIGH with a light White bishop: it can stand on c4, e4 or g4 and be taken there"},
    {'b', "2b1k3/8/2p1p1pp/1pPpPpPP/pP1P1P2/P7/7B/4K3 w - - 0 1", Expect::CanMate,
     "HIGH with the h-pawns one rank higher: g5xh6 and h5xg6 are possible"},
    {'b', "2b1k3/8/2p1pbp1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - - 0 1", Expect::CanMate,
     "HIGH with a dark Black bishop: it can stand on b6, d6, f6 or h6 and be taken there"},
    {'b', "2b1k3/8/2p1p1p1/1pPpPpPp/1P1P1P1P/p7/7B/4K3 w - - 0 1", Expect::CanMate,
     "HIGH with the a-pawns gone past each other: the a-pawn can be taken by the king"},
    {'b', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/1N2K3 w - - 0 1", Expect::CanMate,
     "HIGH with a White knight: it reaches every square, c4 among them"},
    {'b', "6bk/1p3p1p/pP3P1P/Kp6/1p6/1P6/8/8 w - - 0 1", Expect::CanMate,
     "found by a fresh tester against the stalemating-capture rule: Kxb4 is White's only move and "
     "leaves Black's king no square, but the a6 pawn was blocked only by White's king: 1.Kxb4 a5+ "
     "and both sides can still be mated (e.g. 2.Kc3 a4 3.Kd3 a3 4.Kd4 a2 5.Kc5 a1=Q 6.b4 Qe5#)"},
    {'b', "kb6/p1p3p1/P1P3Pp/6pK/6p1/6P1/8/8 w - - 0 1", Expect::CanMate, "the same, mirrored by hand"},
    // (c) a lock that only the capture of a man could open, where that capture is impossible.
    {'c', "4k3/8/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/NB2KB1B w - - 0 1", Expect::Dead,
     "LOW; the knight on a1 (its squares b3 and c2 hold its own frozen pawns) and the light bishops "
     "on b1, f1, h1 (diagonals closed by a2, c2, e2, g2) can never move, so no White man can ever "
     "stand on b2, d2, f2 or h2 to be taken"},
    {'c', "4k3/8/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/N3K3 w - - 0 1", Expect::Dead,
     "LOW; only the knight on a1, which can never move, could be taken on a square that opens it"},
    // (d) kings shut in by their own pawns, with pieces that can never reach them.
    {'d', "4k3/8/8/2b1b3/1p1p1p1p/pPpPpPpP/P1P1P1P1/4K3 w - - 0 1", Expect::Dead,
     "LOW; White's king is shut in on rank 1; Black's bishops are dark and the only squares where "
     "White's pawns could take them (a4, c4, e4, g4) are light, and no line reaches rank 1"},
    {'d', "4k3/5q2/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/3K4 b - - 0 1", Expect::CanMate,
     "LOW with a Black queen: she can stand on c4 and be taken there (not dead: the same king shut "
     "in, but a piece that can reach a square that opens the wall)"},
    // (e) five or more bishops of one side behind a wall (no game reaches it with eight pawns; the
    // answer stands, with the impossible-material warning).
    {'e', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P1B5/1B1B1B1B/6K1 w - - 0 1", Expect::Dead,
     "HIGH; five dark White bishops can never stand on a light square: as (a)"},
    {'e', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P1B5/1B1B1B1B/6K1 b - - 0 1", Expect::Dead, "the same with Black to move"},
    {'e', "3k1b2/2p1pBp1/KpP1P1P1/1P3B2/4B1B1/5B2/8/8 w - - 3 57", Expect::Dead,
     "a public dispute position: five light White bishops; the kings share the corridor a8-e8 (and "
     "a6, a7, b7 for White's king) and can never pass each other; Kxc7 is possible only with "
     "Black's king on e8 and is stalemate (Black can only move its king); a mate needs a light "
     "square: a8 and c8 keep a dark flight only White's king could cover, and on e8 the flight d8 "
     "needs White's king on c8, which it cannot already hold when Black's king steps to e8 from "
     "d8, nor reach with a discovered check (it has no rook or queen)"},
    {'e', "1K2kbB1/2p1p1p1/1pP1P1P1/1P3B2/4B1B1/5B2/8/8 w - - 0 1", Expect::Dead,
     "the same corridor, Black's king already on e8 with White to move but White's king on b8: "
     "Kc8 is stalemate, any other move lets Black's king step to d8"},
    {'e', "2K1kbB1/2p1p1p1/1pP1P1P1/1P3B2/4B1B1/5B2/8/8 w - - 0 1", Expect::CanMate,
     "White's king already on c8 with Black's on e8 and White to move: Bf7 is mate"},
    // (f) locked only after a forced move.
    {'f', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/6bB/6BK w - - 0 1", Expect::Dead,
     "HIGH; White is in check from the bishop on g2 and Kxg2 is the only legal move (g1 and h2 "
     "hold its bishops); then as (a)"},
    // (g) an en passant right that opens the wall: the same positions without it are dead (a).
    {'g', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - d6 0 1", Expect::CanMate,
     "HIGH after d7-d5: c5xd6 or e5xd6 en passant opens the wall"},
    {'g', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - f6 0 1", Expect::CanMate,
     "HIGH after f7-f5: e5xf6 or g5xf6 en passant"},
    {'g', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - b6 0 1", Expect::CanMate,
     "HIGH after b7-b5: c5xb6 en passant"},
    {'g', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - h6 0 1", Expect::CanMate,
     "HIGH after h7-h5: g5xh6 en passant"},
    {'g', "2b1k3/8/2p1p1p1/1pPpPpPp/pP1P1P1P/P7/7B/4K3 w - - 0 1", Expect::Dead,
     "the same without the en passant right: (a)"},
};

// The position mirrored left-right (a <-> h): the Laws are symmetric under it without castling.
Position mirrored(const Position& p) {
  const Placement src = p.placement();
  Placement pl = src;
  for (int i = 0; i < 64; ++i) pl[flip_horizontal(square_at(i))] = src[square_at(i)];
  if (src.en_passant) pl.en_passant = flip_horizontal(*src.en_passant);
  return *Position::from_placement(pl);
}

// Variants of a class position whose answers the Laws fix: the position, mirrored, colours swapped
// (the answers swap sides), both; and, for a dead position, positions reached from each of those by
// random legal moves (every position reachable from a dead one is dead, FIDE 5.2.2).
std::vector<Position> variants(const Position& base, Expect e, std::mt19937_64& rng) {
  std::vector<Position> out;
  for (const Position& s : {base, mirrored(base), base.color_swapped(), mirrored(base).color_swapped()}) {
    out.push_back(s);
    if (e != Expect::Dead) continue;
    for (int w = 0; w < 4; ++w) {
      Position p = s;
      for (int k = 1 + static_cast<int>(rng() % 10); k > 0; --k) {
        const MoveList moves = p.legal_moves();
        if (moves.size() == 0) break;
        p = p.after(moves[static_cast<int>(rng() % moves.size())]);
      }
      out.push_back(p);
    }
  }
  return out;
}

// Random positions around the corridor of a public dispute position,
// 3k1b2/2p1pBp1/KpP1P1P1/1P3B2/4B1B1/5B2/8/8 w - - 3 57: White's pawns b5 c6 e6 g6 against b6 c7
// e7 g7, usually with Black's bishop boxed in on f8. Both kings behind the pawns share a corridor
// along the back rank that they can never pass each other in; the pawn on c7 can be taken only by
// White's king when Black's king stands on e8 or a8, which is stalemate when Black can only move
// its king; and a mate on e8 needs White's king on c8 first, which the order of moves forbids.
// Varied: the bishop left out (the corridor opens to f8-h8), the kings anywhere one time in six,
// zero to two more men of White (mostly light bishops, sometimes a dark bishop, a knight or a
// rook, which can build mates), sometimes a knight or bishop of Black, either side to move,
// mirrored and colours swapped.
std::optional<Position> random_corridor(std::mt19937_64& rng) {
  auto uni = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  auto at = [](const char* name) { return square_at((name[1] - '1') * 8 + (name[0] - 'a')); };
  auto random_square = [&](const std::vector<const char*>& names) {
    return at(names[static_cast<std::size_t>(uni(static_cast<int>(names.size())))]);
  };
  Placement pl;
  for (const char* s : {"b5", "c6", "e6", "g6"}) pl[at(s)] = make_piece(Color::White, PieceType::Pawn);
  for (const char* s : {"b6", "c7", "e7", "g7"}) pl[at(s)] = make_piece(Color::Black, PieceType::Pawn);
  const bool bishop = uni(4) != 0;
  if (bishop) pl[at("f8")] = make_piece(Color::Black, PieceType::Bishop);
  auto empty_square = [&](bool light_only, bool dark_only) {
    for (;;) {
      const Square s = square_at(uni(64));
      const bool light = (static_cast<int>(file_of(s)) + static_cast<int>(rank_of(s))) % 2 == 1;
      if (pl[s] == kNoPiece && (!light_only || light) && (!dark_only || !light)) return s;
    }
  };
  const Square bk = uni(6) == 0 ? empty_square(false, false)
                    : bishop    ? random_square({"a8", "b8", "c8", "d8", "e8"})
                                : random_square({"a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"});
  pl[bk] = make_piece(Color::Black, PieceType::King);
  const Square wk = uni(6) == 0
                        ? empty_square(false, false)
                        : random_square({"a6", "a7", "b7", "a8", "b8", "c8", "d7", "d8", "e8", "f7", "g8", "h8"});
  if (pl[wk] != kNoPiece) return std::nullopt;
  pl[wk] = make_piece(Color::White, PieceType::King);
  for (int n = uni(3); n > 0; --n) {
    const int kind = uni(20);
    if (kind < 12) {
      pl[empty_square(true, false)] = make_piece(Color::White, PieceType::Bishop);
    } else if (kind < 15) {
      pl[empty_square(false, true)] = make_piece(Color::White, PieceType::Bishop);
    } else if (kind < 18) {
      pl[empty_square(false, false)] = make_piece(Color::White, PieceType::Knight);
    } else {
      pl[empty_square(false, false)] = make_piece(Color::White, PieceType::Rook);
    }
  }
  if (uni(6) == 0)
    pl[empty_square(false, false)] = make_piece(Color::Black, uni(2) ? PieceType::Knight : PieceType::Bishop);
  pl.side_to_move = uni(2) == 0 ? Color::White : Color::Black;
  auto pos = Position::from_placement(pl);
  if (!pos || pos->is_checkmate() || pos->is_stalemate()) return std::nullopt;
  Position out = uni(2) ? mirrored(*pos) : *pos;
  return uni(2) ? out.color_swapped() : out;
}

// The locked-structure rule's precise path (the kings' pairs, the stalemating capture, the last
// move) against the brute force, on corridor positions: where the rule says "cannot", the brute
// force must find no mate; where the brute force exhausts the reachable set, the analyzer (rule,
// search, tables) must give its answer. The two new arguments must each close some questions.
TEST(LockedStructure, CorridorPositionsAgreeWithTheBruteForce) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  const int count = static_cast<int>(test::sample_size(1'000, 10));
  std::vector<Position> positions;
  std::mt19937_64 rng(0xC0881D0);
  while (static_cast<int>(positions.size()) < count)
    if (auto p = random_corridor(rng)) positions.push_back(*p);
  long fired = 0, by_stalemate = 0, by_last_move = 0, compared = 0, decided = 0, cannot = 0;
  Failures failures;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : fired, by_stalemate, by_last_move, compared, decided, cannot)
  for (int i = 0; i < count; ++i) {
    const Position& pos = positions[static_cast<std::size_t>(i)];
    const ByColor<Truth> truth = brute_force(pos, 80'000);
    for (Color mated : {Color::White, Color::Black}) {
      const Truth t = truth[mated];
      std::string why;
      auto rule = deadpos::analyze_side(*tb, pos, mated, rule_only(), false);
      if (rule && locked_rule(*rule)) {
        ++fired;
        by_stalemate += rule->reason.find("capture is stalemate") != std::string::npos;
        by_last_move += rule->reason.find("last flight square") != std::string::npos;
        if (t == Truth::Mate) why = "the brute force finds a mate; rule said: " + rule->reason;
      }
      if (t != Truth::Unknown && why.empty()) {
        ++compared;
        cannot += t == Truth::NoMate;
        long d = 0;
        why = analyzer_disagrees(*tb, pos, mated, t, &d);
        decided += d;
      }
      if (!why.empty()) failures.add(pos, mated, why);
    }
  }
  failures.report();
  EXPECT_GE(by_stalemate, count / 50) << "the stalemating capture closed " << by_stalemate << " questions";
  EXPECT_GE(by_last_move, 5) << "the last-move test closed " << by_last_move << " questions";
  EXPECT_GE(cannot, compared / 20) << "only " << cannot << " of " << compared << " compared questions are 'cannot'";
  EXPECT_EQ(decided, compared) << decided << " of " << compared << " decided";
  std::printf(
      "[ locks ] corridor: rule fired on %ld of %d questions (stalemating capture %ld, last move %ld); %ld "
      "with a small reachable set (%ld 'cannot'), %ld decided\n",
      fired, 2 * count, by_stalemate, by_last_move, compared, cannot, decided);
}

TEST(LockedStructure, ClassesAreDecided) {
  const Tablebase* tb;
  ASSERT_TABLES(tb);
  std::mt19937_64 rng(2026);
  std::map<char, int> per_class;
  int brute_confirmed = 0;
  for (const ClassCase& c : kClassCases) {
    const Position base = position_from(c.fen);
    if (c.expect == Expect::Dead) {
      // Where the reachable set is small enough the brute force confirms it; it must never
      // contradict it.
      const ByColor<Truth> t = brute_force(base, 300'000);
      for (Color mated : {Color::White, Color::Black}) {
        EXPECT_NE(t[mated], Truth::Mate) << c.fen << side_text(mated) << ": the brute force finds a mate";
        brute_confirmed += t[mated] == Truth::NoMate;
      }
    }
    for (const Position& pos : variants(base, c.expect, rng)) {
      ++per_class[c.cls];
      SCOPED_TRACE(std::string("(") + c.cls + ") " + pos.to_fen() + " from " + c.fen + ": " + c.why);
      auto a = deadpos::analyze(*tb, pos, AnalysisOptions{}, true);
      ASSERT_TRUE(a) << a.error().message;
      bool any_can = false;
      for (Color mated : {Color::White, Color::Black}) {
        const MateAnswer& m = a->mate[mated];
        const auto can = m.can_mate();
        ASSERT_TRUE(can.has_value()) << "undetermined" << side_text(mated);
        if (c.expect == Expect::Dead) {
          EXPECT_FALSE(*can) << side_text(mated) << " said can mate";
        }
        if (*can) {
          any_can = true;
          if (m.method == Method::Search) {
            EXPECT_EQ(check_helpmate_line(pos, mated, m.line, m.plies), "");
          }
        } else {
          EXPECT_FALSE(cannot_mate_reason(m).empty());
        }
      }
      if (c.expect == Expect::CanMate) {
        EXPECT_TRUE(any_can) << "said dead";
      }
    }
  }
  for (const auto& [cls, n] : per_class) EXPECT_GE(n, 20) << "class (" << cls << ") has " << n << " positions";
  std::printf("[ locks ] class bases: %d 'cannot' answers confirmed by exhausting the reachable set\n",
              brute_confirmed);
}

}  // namespace
}  // namespace deadpos::probe_test
