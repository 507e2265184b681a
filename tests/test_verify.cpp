// The fast verifier (generator/src/verify.cpp) against the per-entry reference verifier
// (verify_reference.cpp, the first verifier, through core/ Position) and against single damaged
// entries whose right value the test knows: the damaged entry is reported with exactly the stored
// (wrong) and the right value, and both verifiers count the same mismatches.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/position.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"
#include "table_util.h"

namespace deadpos {
namespace {

struct Loaded {
  std::unique_ptr<LoadedTable> t;
  std::unique_ptr<TableSet> subs;
};

Loaded load(const std::string& key) {
  const Material m = test::material(key);
  auto t = load_table(test::tables_dir() + "/" + table_file_name(m), m);
  EXPECT_TRUE(t.ok()) << key;
  Loaded l{std::move(*t), std::make_unique<TableSet>(test::tables_dir())};
  // Only the sides to move the table's moves enter, as `deadpos verify` loads them: a read of
  // another side by either verifier stops the test (DEADPOS_CHECK).
  for (const SuccessorSides& s : m.successor_sides())
    EXPECT_TRUE(l.subs->require(s.material, s.side_to_move).ok()) << s.material.key();
  return l;
}

// TableSet with one side to move: the other side's arrays stay empty until a require() asks for
// it (then it is loaded into the table present), and retain_only() frees the sides no longer named.
TEST(TableSetSides, LoadsOnlyTheSidesAsked) {
  const Material kpk = test::material("KPvK");
  TableSet set(test::tables_dir());
  ASSERT_TRUE(set.require(kpk, ByColor<bool>{{false, true}}).ok());
  const LoadedTable* t = set.find(kpk);
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->has_side(Color::White));
  EXPECT_TRUE(t->has_side(Color::Black));
  EXPECT_TRUE(t->arrays[0].empty() && t->arrays[1].empty());
  EXPECT_EQ(t->arrays[2].size(), t->index.size());
  EXPECT_EQ(t->arrays[3].size(), t->index.size());
  const std::vector<std::uint8_t> black_w = t->arrays[2];

  ASSERT_TRUE(set.require(kpk, ByColor<bool>{{true, false}}).ok());
  t = set.find(kpk);
  EXPECT_TRUE(t->has_side(Color::White));
  EXPECT_TRUE(t->has_side(Color::Black));  // the side already present is kept
  EXPECT_EQ(t->arrays[2], black_w);
  auto whole = load_table(test::tables_dir() + "/" + table_file_name(kpk), kpk);
  ASSERT_TRUE(whole.ok());
  for (std::size_t a = 0; a < kNumArrays; ++a) EXPECT_EQ(t->arrays[a], (*whole)->arrays[a]) << "array " << a;

  set.retain_only(std::vector<SubtableNeed>{{kpk, ByColor<bool>{{true, false}}}});
  t = set.find(kpk);
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->has_side(Color::White));
  EXPECT_FALSE(t->has_side(Color::Black));
  set.retain_only(std::vector<SubtableNeed>{});
  EXPECT_EQ(set.find(kpk), nullptr);
}

// The reference on one thread (its reports are then in index order).
VerifyResult reference(const Loaded& l, std::size_t max_report) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  VerifyResult r = verify_reference(*l.t, *l.subs, nullptr, max_report);
  omp_set_num_threads(saved);
  return r;
}

// The position of entry i with side to move stm, if it is a legal table position.
std::optional<Position> position_at(const TableIndex& idx, std::uint64_t i, Color stm) {
  TableIndex::Squares sq;
  if (!idx.decode(i, sq)) return std::nullopt;
  std::array<Piece, kMaxTableMen> pcs{};
  for (int j = 0; j < idx.men(); ++j) pcs[static_cast<std::size_t>(j)] = idx.piece(j);
  const Position p = Position::from_men(pcs.data(), sq.data(), idx.men(), stm);
  if (Position::check_placement(p.placement())) return std::nullopt;
  return p;
}

// Sets array a, entry i to v, runs both verifiers, restores; expects the entry's own line with
// "is v, successors give right", and the same mismatch count and report lines from both.
// The reference (about 10x slower) runs only on tables of at most 256 K entries, to keep this test
// to seconds.
void expect_caught(Loaded& l, std::size_t a, std::uint64_t i, std::uint8_t v, const std::string& why) {
  const std::string key = l.t->index.material().key();
  std::uint8_t& e = l.t->arrays[a][i];
  const std::uint8_t right = e;
  ASSERT_NE(v, right) << why;
  e = v;
  const VerifyResult fast = verify(*l.t, *l.subs, nullptr, 100000);
  if (l.t->index.size() <= (256U << 10)) {
    const VerifyResult ref = reference(l, 100000);
    EXPECT_EQ(fast.mismatches, ref.mismatches) << why;
    EXPECT_EQ(fast.report, ref.report) << why;
  }
  e = right;
  EXPECT_GE(fast.mismatches, 1U) << why;
  const Color x = (a & 1U) ? Color::Black : Color::White;
  const std::string head = key + " index " + std::to_string(i) + " ";
  const std::string tail = std::string(": DTHM of ") + (x == Color::White ? "White" : "Black") + " is " +
                           std::to_string(v) + ", successors give " + std::to_string(right);
  const bool found = std::any_of(fast.report.begin(), fast.report.end(), [&](const std::string& s) {
    return s.rfind(head, 0) == 0 && s.size() >= tail.size() &&
           s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  });
  EXPECT_TRUE(found) << why << ": no line '" << head << "... " << tail << "'";
}

TEST(VerifyFast, IntactTablesPassLikeTheReference) {
  for (const char* key : {"KvK", "KQvK", "KPvK", "KNNvK", "KBvKN", "KPvKP"}) {
    Loaded l = load(key);
    const VerifyResult fast = verify(*l.t, *l.subs, nullptr);
    EXPECT_EQ(fast.mismatches, 0U) << key;
    EXPECT_EQ(fast.checked, 2 * l.t->index.size()) << key;
    EXPECT_TRUE(fast.report.empty()) << key << ": " << fast.report.front();
  }
}

// Values, 255s and terminals, damaged one at a time, in a pawnless table with identical men and
// diagonal king slots (KNNvK), a small pawnless one (KNvK) and a pawn table (KPvK).
TEST(VerifyFast, CatchesWrongValuesWrong255sAndWrongTerminals) {
  for (const char* key : {"KPvK", "KNvK", "KNNvK"}) {
    Loaded l = load(key);
    const TableIndex& idx = l.t->index;
    std::size_t cases = 0;
    for (std::size_t a = 0; a < kNumArrays; ++a) {
      const Color stm = a < 2 ? Color::White : Color::Black;
      const Color x = (a & 1U) ? Color::Black : Color::White;
      const std::vector<std::uint8_t>& arr = l.t->arrays[a];
      std::uint64_t finite = arr.size(), none = arr.size(), invalid = arr.size(), mate = arr.size(),
                    stalemate = arr.size(), broken = arr.size();
      TableIndex::Squares sq;
      for (std::uint64_t i = 0; i < arr.size(); ++i) {
        const std::uint8_t v = arr[i];
        if (v > 1 && v <= DthmCode::kMaxDthm && finite == arr.size()) finite = i;
        if (v == DthmCode::kNone && none == arr.size()) none = i;
        if (v == DthmCode::kInvalid && !idx.decode(i, sq) && broken == arr.size()) broken = i;
        if (v == DthmCode::kInvalid && idx.decode(i, sq) && invalid == arr.size()) invalid = i;
        if (v == 0 && mate == arr.size()) mate = i;
        if (v == DthmCode::kNone && stalemate == arr.size() && arr.size() <= (256U << 10)) {
          const auto p = position_at(idx, i, stm);
          if (p && p->is_stalemate()) stalemate = i;
        }
      }
      // The law, not the table, names the terminals: a mate of the target side is 0.
      if (mate < arr.size()) {
        const auto p = position_at(idx, mate, stm);
        ASSERT_TRUE(p && p->is_checkmate() && x == stm) << key << " " << mate;
        expect_caught(l, a, mate, 1, std::string(key) + " mate marked 1");
        expect_caught(l, a, mate, DthmCode::kNone, std::string(key) + " mate marked none");
        cases += 2;
      }
      if (stalemate < arr.size()) {
        expect_caught(l, a, stalemate, 0, std::string(key) + " stalemate marked 0");
        ++cases;
      }
      if (finite < arr.size()) {
        expect_caught(l, a, finite, static_cast<std::uint8_t>(arr[finite] + 1), std::string(key) + " value + 1");
        expect_caught(l, a, finite, static_cast<std::uint8_t>(arr[finite] - 1), std::string(key) + " value - 1");
        expect_caught(l, a, finite, DthmCode::kInvalid, std::string(key) + " value marked 255");
        cases += 3;
      }
      if (none < arr.size()) {
        expect_caught(l, a, none, 5, std::string(key) + " none marked 5");
        ++cases;
      }
      if (invalid < arr.size()) {  // a placement with the side not to move in check
        expect_caught(l, a, invalid, DthmCode::kNone, std::string(key) + " illegal position marked none");
        ++cases;
      }
      if (broken < arr.size()) {  // not a placement at all
        expect_caught(l, a, broken, 3, std::string(key) + " broken entry marked 3");
        ++cases;
      }
    }
    EXPECT_GE(cases, 12U) << key;
  }
}

// En passant: the value after a capture en passant is read only through the en passant rule.
// Entry p of KPvKP with side to move s has a double push after which the other side x captures en
// passant, reaching r (KvKP or KPvK, both stored in KPvK); with r's DTHM of x damaged to 0, p's
// DTHM of x must become 2 (push, capture, mate) wherever it was more: the fast verifier must name
// p with exactly that value (a verifier ignoring en passant would not see r from p). White's
// double push is a move of the first man (folded by rows), Black's one of the last man.
TEST(VerifyFast, ReadsTheValueAfterEnPassant) {
  for (const Color stm : {Color::White, Color::Black}) {
    const Color x = ~stm;
    Loaded l = load("KPvKP");
    const TableIndex& idx = l.t->index;
    const Material kpk = test::material("KPvK");
    auto sub = load_table(test::tables_dir() + "/" + table_file_name(kpk), kpk);
    ASSERT_TRUE(sub.ok());
    LoadedTable* kpk_table = sub->get();
    TableSet subs(test::tables_dir());
    subs.add(kpk, std::move(*sub));
    for (const Material& s : idx.material().successors()) ASSERT_TRUE(subs.require(s).ok()) << s.key();
    const std::size_t a = static_cast<std::size_t>(array_of(stm, x));
    int found = 0;
    for (std::uint64_t i = 0; i < idx.size() && found < 2; ++i) {
      const std::uint8_t stored = l.t->arrays[a][i];
      if (stored <= 2 || stored == DthmCode::kInvalid) continue;
      const auto p = position_at(idx, i, stm);
      if (!p) continue;
      for (Move m : p->legal_moves()) {
        const Position q = p->after(m);
        if (!q.en_passant()) continue;
        Move ep = Move::none();
        for (Move e : q.legal_moves())
          if (e.kind() == Move::Kind::EnPassant) ep = e;
        if (ep.is_none()) continue;
        // After White's capture the position is KPvK itself; after Black's, KvKP seen as KPvK
        // (colours swapped: the side to move and the target swap too).
        const bool swap = x == Color::Black;
        const Position r = swap ? q.after(ep).color_swapped() : q.after(ep);
        const std::uint64_t ri = kpk_table->index.encode(kpk_table->index.squares_of(r));
        std::uint8_t& e = kpk_table->arrays[static_cast<std::size_t>(array_of(r.side_to_move(), swap ? ~x : x))][ri];
        const std::uint8_t saved = e;
        e = 0;
        const VerifyResult fast = verify(*l.t, subs, nullptr, 100000);
        e = saved;
        const std::string head = "KPvKP index " + std::to_string(i) + " ";
        const std::string tail = std::string(": DTHM of ") + (x == Color::White ? "White" : "Black") + " is " +
                                 std::to_string(stored) + ", successors give 2";
        const bool hit = std::any_of(fast.report.begin(), fast.report.end(), [&](const std::string& s) {
          return s.rfind(head, 0) == 0 && s.size() >= tail.size() &&
                 s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
        });
        EXPECT_TRUE(hit) << p->to_fen() << ": no line '" << head << "... " << tail << "'";
        ++found;
        break;
      }
    }
    EXPECT_EQ(found, 2) << "no double push allowing en passant in KPvKP, " << (stm == Color::White ? "White" : "Black")
                        << " to move";
  }
}

// The row-at-a-time paths of the fast verifier (moves folded for every square of the last man at
// once, successors read as shifted or symmetric rows) against the per-entry reference, on damaged
// 4-man tables that exercise each path: the last man theirs and captured (KRvKN, White to move),
// ours with its quiet moves and captures folded by rows (KRvKN, Black to move), a pawn as the last
// man with promotions and captures of it (KRvKP), identical men (KBBvK), a promotion capturing the
// last man's neighbour (KQvKP). Damage: a spread of entries in all four arrays, each given
// another byte (a value +1, none, 0 or 255 in turn).
TEST(VerifyFast, DamagedTablesReportLikeTheReference) {
  for (const char* key : {"KRvKN", "KRvKP", "KBBvK", "KQvKP"}) {
    Loaded l = load(key);
    std::uint64_t damaged = 0;
    for (std::uint64_t i = 977; i < l.t->index.size(); i += 7919) {
      std::uint8_t& e = l.t->arrays[i % kNumArrays][i];
      const std::uint8_t kinds[4] = {static_cast<std::uint8_t>(e <= DthmCode::kMaxDthm ? e + 1 : 3), DthmCode::kNone, 0,
                                     DthmCode::kInvalid};
      const std::uint8_t v = kinds[(i / 7919) % 4];
      if (v == e) continue;
      e = v;
      ++damaged;
    }
    const VerifyResult fast = verify(*l.t, *l.subs, nullptr, 1000000);
    const VerifyResult ref = reference(l, 1000000);
    EXPECT_GT(damaged, 100U) << key;
    EXPECT_GE(fast.mismatches, damaged / 2) << key;  // most damaged entries disagree with their successors
    EXPECT_EQ(fast.mismatches, ref.mismatches) << key;
    EXPECT_EQ(fast.report, ref.report) << key;
  }
}

// Counts and report lines do not depend on the thread count (reports in index order).
TEST(VerifyFast, SameReportsForAnyThreadCount) {
  Loaded l = load("KPvKP");
  // Damage a spread of entries.
  for (std::uint64_t i = 1000; i < l.t->index.size(); i += 99991) l.t->arrays[i % 4][i] ^= 1;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const VerifyResult one = verify(*l.t, *l.subs, nullptr, 50);
  omp_set_num_threads(3);
  const VerifyResult three = verify(*l.t, *l.subs, nullptr, 50);
  omp_set_num_threads(saved);
  EXPECT_GT(one.mismatches, 10U);
  EXPECT_EQ(one.mismatches, three.mismatches);
  EXPECT_EQ(one.report, three.report);
  EXPECT_EQ(one.report.size(), 50U);
  EXPECT_EQ(one.mismatches, reference(l, 0).mismatches);  // the reference, once
}

}  // namespace
}  // namespace deadpos

namespace deadpos {
namespace {

// derive_side (one-sided storage's building block) rebuilds a side to move from the other side
// and the subtables. The oracle is the generated table itself (verified by VerifyFast above and by
// `deadpos verify` in ctest): every side of every table of at most 4 men comes back byte for byte,
// kInvalid marks included.
TEST(DeriveSide, RebuildsEverySideOfEveryTableUpTo4Men) {
  for (const Material& m : all_materials(4)) {
    for (Color side : {Color::White, Color::Black}) {
      Loaded l = load(m.key());
      ByColor<std::vector<std::uint8_t>> want;
      for (Color x : {Color::White, Color::Black}) {
        auto& a = l.t->arrays[static_cast<std::size_t>(array_of(side, x))];
        want[x] = a;
        std::fill(a.begin(), a.end(), DthmCode::kUnknown);
      }
      ASSERT_TRUE(derive_side(*l.t, *l.subs, side).ok()) << m.key();
      for (Color x : {Color::White, Color::Black}) {
        const auto& got = l.t->arrays[static_cast<std::size_t>(array_of(side, x))];
        ASSERT_EQ(got.size(), want[x].size()) << m.key();
        const auto diff = std::mismatch(got.begin(), got.end(), want[x].begin());
        EXPECT_TRUE(diff.first == got.end())
            << m.key() << " side to move " << (side == Color::White ? "White" : "Black") << ", target "
            << (x == Color::White ? "White" : "Black") << ": index " << (diff.first - got.begin()) << " derived "
            << int{*diff.first} << ", stored " << int{*diff.second};
      }
    }
  }
}

// The derived side is computed from the other side, not copied. With every finite DTHM of KQvK's
// White-to-move arrays replaced by kNone, Black to move keeps its checkmates (DTHM 0 needs no
// move), its kNone and kInvalid entries, and every other finite DTHM becomes kNone: it needed a
// White-to-move successor with a helpmate (Black's only capture, Kxq, reaches KvK, which has none).
TEST(DeriveSide, ReadsTheOtherSide) {
  Loaded l = load("KQvK");
  for (Color x : {Color::White, Color::Black}) {
    for (std::uint8_t& v : l.t->arrays[static_cast<std::size_t>(array_of(Color::White, x))])
      if (v <= DthmCode::kMaxDthm) v = DthmCode::kNone;
  }
  ByColor<std::vector<std::uint8_t>> stored;
  for (Color x : {Color::White, Color::Black})
    stored[x] = l.t->arrays[static_cast<std::size_t>(array_of(Color::Black, x))];
  ASSERT_TRUE(derive_side(*l.t, *l.subs, Color::Black).ok());
  std::uint64_t mates = 0, lost = 0;
  for (Color x : {Color::White, Color::Black}) {
    const auto& got = l.t->arrays[static_cast<std::size_t>(array_of(Color::Black, x))];
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::uint8_t v = stored[x][i];
      const bool needs_white = v > 0 && v <= DthmCode::kMaxDthm;
      EXPECT_EQ(int{got[i]}, int{needs_white ? DthmCode::kNone : v}) << "index " << i;
      mates += v == 0 ? 1 : 0;
      lost += needs_white ? 1 : 0;
    }
  }
  EXPECT_GT(mates, 0U);
  EXPECT_GT(lost, 0U);
}

}  // namespace
}  // namespace deadpos
