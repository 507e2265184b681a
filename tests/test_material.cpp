// Material keys (docs/format.md, section 1): parsing and printing, rejections, canonical
// orientation, successors (captures and promotions) and the build order of all_materials().
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "support/random_position.h"
#include "test_util.h"

namespace deadpos {
namespace {

Material parsed(const std::string& key) {
  Result<Material> m = Material::parse(key);
  if (!m) throw std::runtime_error("material key rejected: '" + key + "': " + m.error().message);
  return *m;
}

std::set<std::string> keys_of(const std::vector<Material>& ms) {
  std::set<std::string> out;
  for (const Material& m : ms) out.insert(m.key());
  return out;
}

TEST(Material, ParseKeyRoundTrip) {
  for (const char* key :
       {"KvK", "KQvK", "KRBvKR", "KBvKN", "KNNvK", "KPvKP", "KQRBNPvK", "KvKQ", "KNvKB", "KPPPPPPPPvK", "KQQvKRR"}) {
    const Material m = parsed(key);
    EXPECT_EQ(m.key(), key);
    EXPECT_EQ(parsed(m.key()), m) << key;
  }
}

TEST(Material, ParseCountsMen) {
  const Material m = parsed("KRBvKRP");
  EXPECT_EQ(m.count[Color::White][PieceType::King], 1);
  EXPECT_EQ(m.count[Color::White][PieceType::Rook], 1);
  EXPECT_EQ(m.count[Color::White][PieceType::Bishop], 1);
  EXPECT_EQ(m.count[Color::White][PieceType::Pawn], 0);
  EXPECT_EQ(m.count[Color::Black][PieceType::King], 1);
  EXPECT_EQ(m.count[Color::Black][PieceType::Rook], 1);
  EXPECT_EQ(m.count[Color::Black][PieceType::Pawn], 1);
  EXPECT_EQ(m.men(), 6);
  EXPECT_EQ(m.men(Color::White), 3);
  EXPECT_EQ(m.men(Color::Black), 3);
  EXPECT_TRUE(m.has_pawns());
  EXPECT_FALSE(parsed("KRBvKR").has_pawns());
  // Table slot order after the kings: White Q R B N P, then Black Q R B N P.
  const std::vector<Piece> men = m.non_king_men();
  const std::vector<Piece> expect = {
      make_piece(Color::White, PieceType::Rook), make_piece(Color::White, PieceType::Bishop),
      make_piece(Color::Black, PieceType::Rook), make_piece(Color::Black, PieceType::Pawn)};
  EXPECT_EQ(men, expect);
}

TEST(Material, RejectsMalformedKeys) {
  struct Case {
    const char* key;
    const char* why;
  };
  const Case cases[] = {
      {"", "empty"},
      {"KQK", "no 'v'"},
      {"KQvKvK", "two 'v'"},
      {"QvK", "White king missing"},
      {"KQvQ", "Black king missing"},
      {"KQv", "Black side empty"},
      {"vK", "White side empty"},
      {"KKvK", "two White kings"},
      {"KNBvK", "wrong order: B must come before N"},
      {"KPQvK", "wrong order: Q must come before P"},
      {"KvKNR", "wrong order on Black's side"},
      {"KXvK", "unknown letter"},
      {"KqvK", "lower-case piece letter"},
      {"kvk", "lower-case kings"},
      {"K vK", "space"},
      {"KPPPPPPPPPvK", "9 pawns"},
  };
  for (const Case& c : cases) {
    const Result<Material> m = Material::parse(c.key);
    ASSERT_FALSE(m.ok()) << "'" << c.key << "' (" << c.why << ") was accepted as " << m->key();
    EXPECT_EQ(m.error().code, ErrorCode::InvalidArgument) << c.key;
    EXPECT_NE(m.error().message.find(c.key), std::string::npos) << "message should name the key: " << m.error().message;
  }
}

TEST(Material, CanonicalOrientationAndSwap) {
  // KNvKB: both sides have 2 men and no Q or R; White's bishop count 0 < Black's 1, so the
  // canonical table is KBvKN.
  const Material nb = parsed("KNvKB");
  EXPECT_FALSE(nb.is_canonical());
  EXPECT_FALSE(nb.is_symmetric());
  EXPECT_EQ(nb.swapped().key(), "KBvKN");
  EXPECT_EQ(nb.canonical().key(), "KBvKN");
  EXPECT_TRUE(parsed("KBvKN").is_canonical());
  EXPECT_EQ(nb.swapped().swapped(), nb);

  const Material nn = parsed("KNvKN");
  EXPECT_TRUE(nn.is_symmetric());
  EXPECT_TRUE(nn.is_canonical());
  EXPECT_EQ(nn.swapped(), nn);
  EXPECT_EQ(nn.canonical(), nn);

  // More men wins over stronger men: KNNvKQ is canonical, KQvKNN is not.
  EXPECT_TRUE(parsed("KNNvKQ").is_canonical());
  EXPECT_EQ(parsed("KQvKNN").canonical().key(), "KNNvKQ");
  // Then Q > R > B > N > P, compared piece type by piece type.
  EXPECT_EQ(parsed("KvKQ").canonical().key(), "KQvK");
  EXPECT_EQ(parsed("KRvKQ").canonical().key(), "KQvKR");
  EXPECT_EQ(parsed("KPvKN").canonical().key(), "KNvKP");
  EXPECT_EQ(parsed("KBNvKRB").canonical().key(), "KRBvKBN");
  EXPECT_EQ(parsed("KvK").canonical().key(), "KvK");
  EXPECT_TRUE(parsed("KvK").is_symmetric());
}

TEST(Material, OfPosition) {
  const Position pos = test::position_from("8/8/3k4/8/8/2N5/1K1B4/7n w - - 0 1");
  EXPECT_EQ(Material::of(pos).key(), "KBNvKN");
  EXPECT_EQ(Material::of(Position::startpos()).key(), "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP");
}

// successor_sides(): the same materials as successors(), and every capture or promotion played in
// random legal positions of every <=5-man material enters a listed subtable with a listed side to
// move, read in the subtable's canonical orientation (colour-swapped: the side to move swaps). The
// generator and the verifier load only the listed sides, so a side missing here would be read
// unloaded.
TEST(Material, SuccessorSidesCoverEveryCaptureAndPromotion) {
  std::mt19937_64 rng(0x5dde5);
  int exits = 0;
  int promotions = 0;
  for (const Material& m : all_materials(5)) {
    const std::vector<SuccessorSides> sides = m.successor_sides();
    std::vector<Material> mats;
    for (const SuccessorSides& s : sides) mats.push_back(s.material);
    ASSERT_EQ(mats, m.successors()) << m.key();
    for (int i = 0; i < 1000; ++i) {
      const Position pos = test::random_position(m, rng);
      for (Move mv : pos.legal_moves()) {
        const Position after = pos.after(mv);
        const Material sub = Material::of(after);
        if (sub == m) continue;
        ++exits;
        if (mv.kind() == Move::Kind::Promotion) ++promotions;
        const Material canonical = sub.is_canonical() ? sub : sub.swapped();
        const Color stm = sub.is_canonical() ? after.side_to_move() : ~after.side_to_move();
        const auto it =
            std::find_if(sides.begin(), sides.end(), [&](const SuccessorSides& s) { return s.material == canonical; });
        ASSERT_NE(it, sides.end()) << m.key() << " -> " << canonical.key();
        ASSERT_TRUE(it->side_to_move[stm]) << m.key() << " -> " << canonical.key() << " with "
                                           << (stm == Color::White ? "White" : "Black") << " to move";
      }
    }
  }
  // The sample exercises both kinds of exit (counts of this seed: well above these floors).
  EXPECT_GT(exits, 50000);
  EXPECT_GT(promotions, 2000);
}

// Hand-derived sides: a capture of a man of colour c leaves c to move; a promotion of c leaves ~c
// to move; a colour-swapped subtable swaps the side to move.
TEST(Material, SuccessorSidesHandListed) {
  auto sides_of = [](const std::string& key) {
    std::set<std::string> out;
    for (const SuccessorSides& s : parsed(key).successor_sides()) {
      out.insert(s.material.key() + (s.side_to_move[Color::White] ? " w" : "") +
                 (s.side_to_move[Color::Black] ? " b" : ""));
    }
    return out;
  };
  // KPvKP: White takes the pawn (KPvK, Black to move) or Black does (KvKP = KPvK swapped: White to
  // move becomes Black); White promotes (KQvKP, Black to move) or Black does (KPvKQ = KQvKP swapped).
  EXPECT_EQ(sides_of("KPvKP"), (std::set<std::string>{"KPvK b", "KQvKP b", "KRvKP b", "KBvKP b", "KNvKP b"}));
  // KNvKP: Black promoting to a knight enters the symmetric KNvKN (no swap) with White to move.
  EXPECT_EQ(sides_of("KNvKP"), (std::set<std::string>{"KNvK b", "KPvK b", "KQvKN b", "KRvKN b", "KBvKN b", "KNvKN w",
                                                      "KQvK b", "KRvK b", "KBvK b"}));
  // KNNvKN: Black takes a knight (KNvKN, White to move); White takes the knight (KNNvK, Black).
  EXPECT_EQ(sides_of("KNNvKN"), (std::set<std::string>{"KNvKN w", "KNNvK b"}));
  // KQNvKP enters KQvKN on both sides: ...bxa1=Q taking the queen (KNvKQ, colour-swapped: Black to
  // move) and ...bxa1=N taking the knight (KQvKN as it is: White to move).
  bool both = false;
  for (const SuccessorSides& s : parsed("KQNvKP").successor_sides())
    if (s.material.key() == "KQvKN") both = s.side_to_move[Color::White] && s.side_to_move[Color::Black];
  EXPECT_TRUE(both);
}

// Hand-listed successors: every capture of one man (by the other side) and every promotion, in
// canonical orientation, without duplicates.
TEST(Material, SuccessorsHandListed) {
  // KRPvK: Black captures the rook (KPvK) or the pawn (KRvK); the pawn promotes to Q, R, B or N
  // (KQRvK, KRRvK, KRBvK, KRNvK). Black has no men to capture and no pawn to promote.
  EXPECT_EQ(keys_of(parsed("KRPvK").successors()),
            (std::set<std::string>{"KPvK", "KRvK", "KQRvK", "KRRvK", "KRBvK", "KRNvK"}));
  // KPvKP: either pawn is captured (KPvK both times); either pawn promotes: KQvKP ... KNvKP, the
  // Black promotions giving the same canonical materials (KPvKQ -> KQvKP).
  EXPECT_EQ(keys_of(parsed("KPvKP").successors()), (std::set<std::string>{"KPvK", "KQvKP", "KRvKP", "KBvKP", "KNvKP"}));
  // KRvKB: a capture of either piece.
  EXPECT_EQ(keys_of(parsed("KRvKB").successors()), (std::set<std::string>{"KRvK", "KBvK"}));
  // KQvK: only the capture of the queen.
  EXPECT_EQ(keys_of(parsed("KQvK").successors()), (std::set<std::string>{"KvK"}));
  EXPECT_TRUE(parsed("KvK").successors().empty());
  // KNvKP: captures give KNvK and KvKP (canonical KPvK); the Black pawn promotes (KNvKQ -> KQvKN,
  // KNvKR -> KRvKN, KNvKB -> KBvKN, KNvKN), also while capturing the knight (KvKQ -> KQvK,
  // KvKR -> KRvK, KvKB -> KBvK, KvKN -> KNvK).
  EXPECT_EQ(keys_of(parsed("KNvKP").successors()),
            (std::set<std::string>{"KNvK", "KPvK", "KQvKN", "KRvKN", "KBvKN", "KNvKN", "KQvK", "KRvK", "KBvK"}));
  // Every successor is canonical and has one man fewer, or the same number of men (promotion).
  for (const char* key : {"KRPvK", "KPvKP", "KNvKP", "KRBvKR", "KQPvKRP"}) {
    const Material m = parsed(key);
    for (const Material& s : m.successors()) {
      EXPECT_TRUE(s.is_canonical()) << key << " -> " << s.key();
      EXPECT_TRUE(s.men() == m.men() - 1 || (s.men() == m.men() && m.has_pawns())) << key << " -> " << s.key();
    }
  }
}

// Counting the canonical materials with at most 4 men by hand (pieces Q R B N P):
//   2 men: KvK                                                             1
//   3 men: one man, on the stronger (White) side: KQvK KRvK KBvK KNvK KPvK   5
//   4 men: two men for White and none for Black: multisets of size 2 from
//          5 kinds = C(5+1, 2) =                                            15
//          one man each: unordered pairs {a, b} from 5 kinds, a = b allowed,
//          = C(5, 2) + 5 = 15; exactly one orientation of each is canonical
//          (the symmetric ones KQvKQ ... KPvKP are their own swap)           15
//   total                                                                   36
// With 5 men: 3 vs 0: C(5+2, 3) = 35; 2 vs 1: 15 * 5 = 75 (the side with two men is White).
// Total with at most 5 men: 36 + 110 = 146.
TEST(Material, AllMaterialsCountAndBuildOrder) {
  EXPECT_EQ(all_materials(2).size(), 1U);
  EXPECT_EQ(all_materials(3).size(), 6U);
  EXPECT_EQ(all_materials(5).size(), 146U);
  const std::vector<Material> all = all_materials(4);
  ASSERT_EQ(all.size(), 36U);
  std::set<std::string> seen;
  int by_men[5] = {0, 0, 0, 0, 0};
  for (const Material& m : all) {
    EXPECT_TRUE(m.is_canonical()) << m.key();
    EXPECT_TRUE(seen.insert(m.key()).second) << "duplicate " << m.key();
    ASSERT_GE(m.men(), 2);
    ASSERT_LE(m.men(), 4);
    ++by_men[m.men()];
    for (const Material& s : m.successors())
      EXPECT_TRUE(seen.count(s.key())) << "successor " << s.key() << " of " << m.key() << " comes after it";
  }
  EXPECT_EQ(by_men[2], 1);
  EXPECT_EQ(by_men[3], 5);
  EXPECT_EQ(by_men[4], 30);
  for (const char* key : {"KvK", "KQvK", "KPvK", "KBvKN", "KNNvK", "KPPvK", "KPvKP", "KQvKQ", "KNvKP"})
    EXPECT_TRUE(seen.count(key)) << key;
  EXPECT_FALSE(seen.count("KNvKB"));
  EXPECT_FALSE(seen.count("KPvKN"));
  EXPECT_EQ(all, all_materials(4)) << "deterministic";
}

TEST(Material, BuildOrderOfOneTargetHasItsSubtablesFirst) {
  const std::vector<Material> order = build_order({parsed("KRBvKR")});
  ASSERT_FALSE(order.empty());
  EXPECT_EQ(order.back().key(), "KRBvKR");
  std::set<std::string> seen;
  for (const Material& m : order) {
    for (const Material& s : m.successors()) EXPECT_TRUE(seen.count(s.key())) << s.key() << " before " << m.key();
    EXPECT_TRUE(seen.insert(m.key()).second) << "duplicate " << m.key();
  }
  // KRBvKR -> KRBvK, KRvKR, KRvKB (canonical of KBvKR) -> KRvK, KBvK -> KvK: 7 materials.
  EXPECT_EQ(seen, (std::set<std::string>{"KRBvKR", "KRBvK", "KRvKR", "KRvKB", "KRvK", "KBvK", "KvK"}));
  // A non-canonical target is built as its canonical table.
  EXPECT_EQ(build_order({parsed("KNvKB")}).back().key(), "KBvKN");
}

}  // namespace
}  // namespace deadpos
