// Brute-force oracle for the tables: forward breadth-first search over legal moves.
//
// The search is the tests' one forward-search oracle, test::ForwardSearch (tests/support/
// forward_search.h), with symmetry keys: it uses only core/ Position (legal_moves, make/undo,
// has_legal_move, in_check): no solver, no un-moves, no table index. From a start position it
// visits positions level by level (level d = reachable in d plies; each distinct position once,
// positions equal up to a board symmetry being one: see test::symmetry_key) and records, for each
// side X, the first level at which a checkmate of X appears: that is DTHM_X of the start
// (docs/design.md, "Definitions"). Positions without legal moves are not expanded (a mate or
// stalemate ends the game).
//
// Each search has a node budget per target side (distinct positions visited). For a target X with
// table value v:
//   * v finite, and the search reaches a mate of X: the first mate must be at exactly v ("exact");
//   * v finite, budget spent first: no mate of X was found at any level the search completed, and
//     v must be deeper than the last completed level ("lower bound only");
//   * v none: the search must find no mate of X within its budget; for the materials where no mate
//     is possible at all (KvK, KBvK, KNvK) it must exhaust the whole reachable set.
// Two sound shortcuts, both independent of the tables' code:
//   * a side with a bare king can never give check (see test::bare_king): a target whose mating side
//     is bare at the start is settled as none without a search ("none by bare king"), and
//     positions where this holds for every target still open are not expanded;
//   * the level at which the table expects the mate is examined through the moves that may give
//     check only (see ForwardSearch::run, horizon).
// For KvK, KBvK and KNvK the searches share what earlier ones proved: a set of positions closed
// under legal moves that holds no checkmate. A search does not enter a position of that set (its
// whole subtree lies in the set, mate-free), and a search that exhausts its reachable set without a
// mate adds what it visited to the set. So "exhausted" still means that every position reachable
// from the start was examined, by this search or an earlier one.
//
// Start positions: materials uniformly among the 36 canonical <=4-man materials, positions from
// test::random_position (each man on a random free square, side to move a coin, drawn again until
// legal: close to uniform over the legal placements; fixed seed), and
// positions reached by a double pawn push after which the opponent can capture en passant. Those
// carry the en passant right; their expected value follows docs/design.md, "En passant":
//   V(P') = min( V(P) if P (the same placement without the right) has a legal move,
//                1 + V(after each legal en passant capture) ),
// computed from the tables here, and the search starts from P' with its right.
//
// Table values come from deadpos::TableSet (value() ignores an en passant right).
// Environment: DEADPOS_ORACLE_POSITIONS overrides the number of random positions (the en passant
// positions are 1/20 of it, at least 500 in a full run), DEADPOS_ORACLE_BUDGET the node budget of
// finite targets. Debug and sanitizer builds, about 100 times slower per node (Position checks
// itself on every move there), run 100 random and 10 en passant positions with budgets divided by
// 20, and do not assert the share of exact checks (a log line says so).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "deadpos/bitboard.h"
#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/stats.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"
#include "support/forward_search.h"
#include "support/random_position.h"
#include "table_util.h"
#include "test_util.h"

namespace deadpos {
namespace {

using test::SearchResult;
using Search = test::ForwardSearch<test::SymmetryKeys>;

// Options of a search: node budget per target side, pruning by bare king (test::bare_king), the
// level at which the table expects each mate (-1: unknown), the shared mate-free closed set.
Search::Options options(ByColor<std::uint64_t> budget, bool prune, ByColor<int> horizon = ByColor<int>{{-1, -1}},
                        const std::unordered_set<std::uint64_t>* closed = nullptr) {
  Search::Options o;
  o.budget = budget;
  o.prune = prune;
  o.horizon = horizon;
  o.closed = closed;
  return o;
}

// ---------------------------------------------------------------------------------------------
// Sampling.

// Debug and sanitizer builds sample less (test::slow_build; see the file comment).

// Node budgets per target side: kBudgetFinite when the table gives a finite value (the search
// stops as soon as it finds the first mate), kBudgetNone when it says none (the search can only
// fail to find a mate), kBudgetExhaust for the materials without any possible mate, where the
// search must exhaust. The finite budget sets the share of exact checks and the run time: the
// levels of a helpmate search grow about 2.2 times per ply, so the exact share rises slowly with
// it (measured on 1,000 random positions and 500 en passant positions: 100,000 nodes give about
// 44% exact, 400,000 about 60% at four times the run time). DEADPOS_ORACLE_BUDGET overrides it.
constexpr std::uint64_t kBudgetFinite = 100'000;
std::uint64_t budget_finite() {
  if (const char* e = std::getenv("DEADPOS_ORACLE_BUDGET"))
    return std::max<std::uint64_t>(1000, std::strtoull(e, nullptr, 10));
  return test::slow_build() ? kBudgetFinite / 20 : kBudgetFinite;
}
constexpr std::uint64_t kBudgetNone = 20'000;
std::uint64_t budget_none() { return test::slow_build() ? kBudgetNone / 20 : kBudgetNone; }
constexpr std::uint64_t kBudgetExhaust = 900'000;
// Floor on the share of finite-value checks that are exact (see the report of the test).
constexpr double kExactShareFloor = 0.40;

bool is_dead_material(const Material& m) {
  const std::string k = m.key();
  return k == "KvK" || k == "KBvK" || k == "KNvK";
}

struct Sample {
  Position pos;
  bool en_passant = false;
  bool dead_material = false;
  ByColor<int> expected{};  // byte code: 0..250 or DthmCode::kNone
  SearchResult got;
};

// The position after a double push of pos from which the opponent can capture en passant, if any.
std::optional<Position> double_push_with_en_passant(const Position& pos) {
  for (Move m : pos.legal_moves()) {
    if (type_of(pos.piece_on(m.from())) != PieceType::Pawn || (to_index(m.from()) ^ to_index(m.to())) != 16) continue;
    const Position after = pos.after(m);
    if (!after.en_passant()) continue;
    for (Move r : after.legal_moves())
      if (r.kind() == Move::Kind::EnPassant) return after;
  }
  return std::nullopt;
}

int min_code(int a, int b) { return std::min(a, b); }  // kNone (253) is above every finite value

// docs/design.md, "En passant": value of P' (with its right) from the tables.
int en_passant_value(const TableSet& set, const Position& p_ep, Color x) {
  int best = DthmCode::kNone;
  bool other_move = false;
  for (Move m : p_ep.legal_moves()) {
    if (m.kind() != Move::Kind::EnPassant) {
      other_move = true;
      continue;
    }
    const std::uint8_t v = set.value(p_ep.after(m), x);
    if (v <= DthmCode::kMaxDthm) best = min_code(best, v + 1);
  }
  if (other_move) {
    const std::uint8_t v = set.value(p_ep, x);  // the table entry of P: same placement, no right
    if (v <= DthmCode::kMaxDthm) best = min_code(best, v);
  }
  return best;
}

// 5,000 random positions: about 135 s on 2 cores. 10,000 took 272 s of a CI run kept under 20
// minutes; the <=4-man tables are also proved exact by tables.verify_4men and pinned by
// tests/data/tables4.xxh64 on every run. DEADPOS_ORACLE_POSITIONS=10000 (or more) for a wider check.
constexpr int kOraclePositions = 5'000;

int positions_to_check() {
  int n = test::sample_size(kOraclePositions, 50);
  if (const char* e = std::getenv("DEADPOS_ORACLE_POSITIONS")) n = std::max(1, std::atoi(e));
  return n;
}

// ---------------------------------------------------------------------------------------------
// Checking.

struct Tally {
  std::uint64_t exact = 0;           // finite value, mate found at exactly that level
  std::uint64_t lower_bound = 0;     // finite value deeper than the completed levels
  std::uint64_t none_in_budget = 0;  // none, no mate within the budget
  std::uint64_t none_exhausted = 0;  // none, reachable set exhausted without a mate
  std::uint64_t none_bare_king = 0;  // none, X's opponent has a bare king (no search needed)
  std::uint64_t failures = 0;
  std::uint64_t nodes = 0;
  std::vector<std::uint64_t> nodes_exact;  // nodes visited when an exact check's mate was found
  std::vector<std::string> report;

  void fail(std::string msg) {
    if (++failures <= 20) report.push_back(std::move(msg));
  }
  std::uint64_t total() const {
    return exact + lower_bound + none_in_budget + none_exhausted + none_bare_king + failures;
  }
  std::string summary() const {
    std::vector<std::uint64_t> q = nodes_exact;
    std::sort(q.begin(), q.end());
    auto pct = [&](std::size_t p) {
      return q.empty() ? std::string("-") : std::to_string(q[(q.size() - 1) * p / 100]);
    };
    return "exact " + std::to_string(exact) + ", lower bound only " + std::to_string(lower_bound) +
           ", none within budget " + std::to_string(none_in_budget) + ", none exhaustive " +
           std::to_string(none_exhausted) + ", none by bare king " + std::to_string(none_bare_king) + ", failures " +
           std::to_string(failures) + "; nodes " + std::to_string(nodes) + ", nodes to an exact mate: median " +
           pct(50) + ", 90% " + pct(90);
  }
};

std::string code_name(int v) { return v == DthmCode::kNone ? std::string("none") : std::to_string(v); }

void check(const Sample& s, Tally& t) {
  t.nodes += s.got.nodes;
  for (Color x : {Color::White, Color::Black}) {
    const int v = s.expected[x];
    const int f = s.got.first_mate[x];
    const std::string what = s.pos.to_fen() + " (" + (s.en_passant ? "en passant, " : "") + "DTHM of " +
                             (x == Color::White ? "White" : "Black") + "): table " + code_name(v) + ", search ";
    const std::string found =
        f >= 0 ? "first mate at " + std::to_string(f)
               : std::string("no mate, ") +
                     (s.got.exhausted ? "exhausted" : "completed level " + std::to_string(s.got.completed)) + ", " +
                     std::to_string(s.got.nodes) + " nodes";
    if (v == DthmCode::kNone) {
      if (f >= 0) {
        t.fail(what + found);
      } else if (s.got.impossible[x]) {
        ++t.none_bare_king;
      } else if (s.dead_material && !s.got.exhausted) {
        t.fail(what + found + ": a dead material must exhaust");
      } else {
        ++(s.got.exhausted ? t.none_exhausted : t.none_in_budget);
      }
    } else if (v > DthmCode::kMaxDthm) {
      t.fail(what + "(bad code)");
    } else if (s.got.impossible[x]) {
      t.fail(what + "the mating side has a bare king");
    } else if (f >= 0) {
      if (f == v) {
        ++t.exact;
        t.nodes_exact.push_back(s.got.nodes_at_find[x]);
      } else {
        t.fail(what + found);
      }
    } else if (s.got.exhausted || s.got.completed >= v) {
      t.fail(what + found);
    } else {
      ++t.lower_bound;
    }
  }
}

// ---------------------------------------------------------------------------------------------

TEST(Oracle, SearchFindsKnownDistances) {
  Search bfs;
  const ByColor<std::uint64_t> budget{{100'000, 100'000}};
  // Qb8 mates at once: Black mated in 1 ply; Black, with a bare king, can never mate.
  SearchResult r = bfs.run(test::position_from("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"), options(budget, true));
  EXPECT_EQ(r.first_mate[Color::Black], 1);
  EXPECT_EQ(r.first_mate[Color::White], -1);
  EXPECT_TRUE(r.impossible[Color::White]);
  EXPECT_FALSE(r.impossible[Color::Black]);
  // Without pruning the search keeps looking for a mate of White until its budget is spent.
  r = bfs.run(test::position_from("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"), options({{5'000, 5'000}}, false));
  EXPECT_EQ(r.first_mate[Color::Black], 1);
  EXPECT_EQ(r.first_mate[Color::White], -1);
  EXPECT_FALSE(r.exhausted);
  EXPECT_GE(r.nodes, 5'000U);
  // A checkmate is level 0.
  r = bfs.run(test::position_from("Q6k/8/6K1/8/8/8/8/8 b - - 0 1"), options(budget, true));
  EXPECT_EQ(r.first_mate[Color::Black], 0);
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.nodes, 1U);
  // KvK: the search sees all of the 2 x 462 positions up to symmetry (3,612 king placements in
  // 462 orbits) and no mate.
  r = bfs.run(test::position_from("8/8/3k4/8/8/8/3K4/8 w - - 0 1"), options(budget, false));
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.nodes, 2U * 462U);
  EXPECT_EQ(r.first_mate[Color::White], -1);
  EXPECT_EQ(r.first_mate[Color::Black], -1);
  // Pawnless positions equal up to one of the 8 symmetries share a key and their distances.
  const Position a = test::position_from("8/8/8/8/8/2k5/8/K2q4 w - - 0 1");
  const SearchResult ra = bfs.run(a, options(budget, true));
  EXPECT_GE(ra.first_mate[Color::White], 1);
  for (int g = 1; g < 8; ++g) {
    Placement pl;
    pl.side_to_move = a.side_to_move();
    for (int i = 0; i < 64; ++i)
      if (a.piece_on(square_at(i)) != kNoPiece) pl[test::transformed(g, square_at(i))] = a.piece_on(square_at(i));
    const Result<Position> b = Position::from_placement(pl);
    ASSERT_TRUE(b.ok()) << g;
    EXPECT_EQ(test::symmetry_key(*b), test::symmetry_key(a)) << g;
    EXPECT_EQ(bfs.run(*b, options(budget, true)).first_mate[Color::White], ra.first_mate[Color::White]) << g;
  }
  // With pawns only the left-right mirror keeps the key.
  const Position p = test::position_from("8/8/8/3k4/8/8/2P5/K7 w - - 0 1");
  EXPECT_EQ(test::symmetry_key(p), test::symmetry_key(test::position_from("8/8/8/4k3/8/8/5P2/7K w - - 0 1")));
  EXPECT_NE(test::symmetry_key(p), test::symmetry_key(test::position_from("K7/2P5/8/8/3k4/8/8/8 w - - 0 1")));
  // With an en passant right, ...exd3 e.p. is one more legal move, and the key tells the
  // positions with and without the right apart.
  const Position ep = test::position_from("8/8/8/8/3Pp3/8/8/K6k b - d3 0 1");
  const Position no_ep = test::position_from("8/8/8/8/3Pp3/8/8/K6k b - - 0 1");
  EXPECT_NE(test::symmetry_key(ep), test::symmetry_key(no_ep));
  EXPECT_EQ(ep.legal_moves().size(), no_ep.legal_moves().size() + 1);
}

// Searches from samples[i] for every i in `which`, in parallel, finite targets with budget `finite`.
void search(std::vector<Sample>& samples, const std::vector<std::size_t>& which, std::uint64_t finite) {
  const auto n = static_cast<std::int64_t>(which.size());
#pragma omp parallel
  {
    Search bfs(finite);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t k = 0; k < n; ++k) {
      Sample& s = samples[which[static_cast<std::size_t>(k)]];
      ByColor<std::uint64_t> budget{};
      ByColor<int> horizon{{-1, -1}};
      for (Color x : {Color::White, Color::Black}) {
        const int v = s.expected[x];
        budget[x] = v == DthmCode::kNone ? budget_none() : finite;
        if (v <= DthmCode::kMaxDthm) horizon[x] = v;
      }
      s.got = bfs.run(s.pos, options(budget, true, horizon));
    }
  }
}

// The checks themselves: right values pass, wrong ones fail.
TEST(Oracle, CheckRejectsWrongValues) {
  Search bfs;
  Sample s;
  s.pos = test::position_from("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1");  // Qb8 mate: DTHM of Black = 1
  auto outcome = [&](int v_white, int v_black) {
    s.expected = ByColor<int>{{v_white, v_black}};
    ByColor<int> horizon{{-1, -1}};
    for (Color x : {Color::White, Color::Black})
      if (s.expected[x] <= DthmCode::kMaxDthm) horizon[x] = s.expected[x];
    s.got = bfs.run(s.pos, options({{50'000, 50'000}}, true, horizon));
    Tally t;
    check(s, t);
    return t;
  };
  Tally t = outcome(DthmCode::kNone, 1);
  EXPECT_EQ(t.failures, 0U);
  EXPECT_EQ(t.exact, 1U);
  EXPECT_EQ(t.none_bare_king, 1U);
  EXPECT_EQ(outcome(DthmCode::kNone, 3).failures, 1U) << "the first mate is at 1, not 3";
  EXPECT_EQ(outcome(DthmCode::kNone, DthmCode::kNone).failures, 1U) << "a mate exists";
  EXPECT_EQ(outcome(2, 1).failures, 1U) << "Black has a bare king";
  // KvK: exhausted without a mate; any finite value fails.
  s.pos = test::position_from("8/8/3k4/8/8/8/3K4/8 w - - 0 1");
  s.dead_material = true;
  s.expected = ByColor<int>{{DthmCode::kNone, DthmCode::kNone}};
  s.got = bfs.run(s.pos, options({{100'000, 100'000}}, false));
  Tally k;
  check(s, k);
  EXPECT_EQ(k.none_exhausted, 2U);
  s.expected = ByColor<int>{{DthmCode::kNone, 6}};
  Tally k2;
  check(s, k2);
  EXPECT_EQ(k2.failures, 1U);
  // A lower bound only check passes only when the value is deeper than the completed levels.
  s.pos = test::position_from("8/8/8/4k3/8/8/2N5/K1N5 w - - 0 1");
  s.dead_material = false;
  s.got = bfs.run(s.pos, options({{2'000, 2'000}}, true));
  ASSERT_LT(s.got.first_mate[Color::Black], 0);
  ASSERT_FALSE(s.got.exhausted);
  s.expected = ByColor<int>{{DthmCode::kNone, s.got.completed + 1}};
  Tally lb;
  check(s, lb);
  EXPECT_EQ(lb.lower_bound, 1U);
  s.expected = ByColor<int>{{DthmCode::kNone, s.got.completed}};
  Tally bad;
  check(s, bad);
  EXPECT_EQ(bad.failures, 1U);
}

// Runs the searches: samples of dead materials one after the other (they share the closed set),
// the others in parallel.
void run_searches(std::vector<Sample>& samples) {
  std::unordered_set<std::uint64_t> closed;
  Search serial(kBudgetExhaust);
  std::uint64_t fresh = 0;
  std::vector<std::size_t> rest;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    Sample& s = samples[i];
    if (!s.dead_material) {
      rest.push_back(i);
      continue;
    }
    s.got = serial.run(s.pos, options({{kBudgetExhaust, kBudgetExhaust}}, false, ByColor<int>{{-1, -1}}, &closed));
    if (s.got.exhausted && s.got.first_mate[Color::White] < 0 && s.got.first_mate[Color::Black] < 0) {
      if (s.got.nodes > 1) ++fresh;
      serial.seen().for_each([&](std::uint64_t k) { closed.insert(k); });
    }
  }
  std::printf("oracle: dead materials: %llu searches explored new positions, closed mate-free set of %zu positions\n",
              static_cast<unsigned long long>(fresh), closed.size());

  search(samples, rest, budget_finite());
}

TEST(Oracle, RandomAndEnPassantPositionsAgreeWithForwardSearch) {
  const auto t0 = std::chrono::steady_clock::now();
  const int n_random = positions_to_check();
  const int n_ep = std::max(test::slow_build() ? 10 : 500, n_random / 20);
  if (test::slow_build())
    std::printf(
        "oracle: Debug or sanitizer build: %d random and %d en passant positions instead of 5000 and 500, "
        "budgets / 20, no floor on the exact share\n",
        n_random, n_ep);
  const std::vector<Material> materials = all_materials(4);
  ASSERT_EQ(materials.size(), 36U);
  const std::string dir = test::tables_dir();

  // Samples, drawn serially from one seeded generator: the same positions on every run.
  std::mt19937_64 rng(20240607);
  std::vector<std::vector<Sample>> by_material(materials.size());
  for (int k = 0; k < n_random; ++k) {
    const std::size_t mi = static_cast<std::size_t>(rng() % materials.size());
    Sample s;
    s.pos = test::random_position(materials[mi], rng);
    s.dead_material = is_dead_material(materials[mi]);
    by_material[mi].push_back(s);
  }
  // En passant positions: random KPvKP positions (the only <=4-man material with a pawn on each
  // side) that have a double push allowing an en passant capture, after that push.
  const Material kpkp = test::material("KPvKP");
  const std::size_t kpkp_i =
      static_cast<std::size_t>(std::find(materials.begin(), materials.end(), kpkp) - materials.begin());
  ASSERT_LT(kpkp_i, materials.size());
  std::uint64_t ep_draws = 0;
  for (int found = 0; found < n_ep;) {
    const Position q = test::random_position(kpkp, rng);
    ++ep_draws;
    if (auto p = double_push_with_en_passant(q)) {
      Sample s;
      s.pos = *p;
      s.en_passant = true;
      by_material[kpkp_i].push_back(s);
      ++found;
    }
  }

  // Expected values, material by material (only a table and what en passant captures need).
  for (std::size_t mi = 0; mi < materials.size(); ++mi) {
    if (by_material[mi].empty()) continue;
    TableSet set(dir);
    ASSERT_TRUE(set.require(materials[mi]).ok()) << "table " << materials[mi].key() << " missing in " << dir;
    for (const Material& sub : materials[mi].successors())
      ASSERT_TRUE(set.require(sub).ok()) << "table " << sub.key() << " missing in " << dir;
    for (Sample& s : by_material[mi])
      for (Color x : {Color::White, Color::Black})
        s.expected[x] = s.en_passant ? en_passant_value(set, s.pos, x) : set.value(s.pos, x);
  }
  std::vector<Sample> samples;
  for (auto& v : by_material) samples.insert(samples.end(), v.begin(), v.end());

  run_searches(samples);

  Tally random, ep;
  std::uint64_t dead_samples = 0;
  for (const Sample& s : samples) {
    check(s, s.en_passant ? ep : random);
    dead_samples += s.dead_material;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "oracle: %d random positions (%llu of KvK, KBvK, KNvK), %d en passant positions (%llu KPvKP draws), "
      "%d threads, %.1f s\n",
      n_random, static_cast<unsigned long long>(dead_samples), n_ep, static_cast<unsigned long long>(ep_draws),
      omp_get_max_threads(), secs);
  std::printf("oracle: random positions: %s\n", random.summary().c_str());
  std::printf("oracle: en passant positions: %s\n", ep.summary().c_str());
  RecordProperty("random", random.summary());
  RecordProperty("en_passant", ep.summary());

  std::string msg;
  for (const auto& r : random.report) msg += "\n  " + r;
  for (const auto& r : ep.report) msg += "\n  " + r;
  EXPECT_EQ(random.failures + ep.failures, 0U) << "disagreements (first 20 of each kind):" << msg;
  EXPECT_EQ(random.total(), 2U * static_cast<std::uint64_t>(n_random));
  EXPECT_EQ(ep.total(), 2U * static_cast<std::uint64_t>(n_ep));
  const std::uint64_t exact = random.exact + ep.exact;
  const std::uint64_t finite = exact + random.lower_bound + ep.lower_bound;
  if (!test::slow_build()) {
    EXPECT_GE(static_cast<double>(exact), kExactShareFloor * static_cast<double>(finite))
        << "too few exact checks: " << exact << " of " << finite << " finite-value checks";
    EXPECT_GT(ep.exact, 0U);
  }
  if (!test::slow_build() && !std::getenv("DEADPOS_ORACLE_POSITIONS")) {
    EXPECT_GE(n_random, kOraclePositions);
    EXPECT_GE(n_ep, 500);
    EXPECT_GT(random.none_exhausted, 0U);
  }
}

}  // namespace
}  // namespace deadpos
