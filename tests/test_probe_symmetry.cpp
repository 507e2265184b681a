// Colour symmetry of the probe: a table holds one orientation of a material, the other is answered
// by mirroring the board and swapping colours (docs/format.md, section 1). probe(p) and
// probe(p.color_swapped()) must agree with the sides exchanged, and name the same canonical table.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "test_probe_util.h"

namespace deadpos {
namespace {

// Compares the probe of p and of its colour swap; "" when they agree.
std::string swap_mismatch(const Tablebase& tb, const Position& p) {
  const Position q = p.color_swapped();
  auto a = tb.probe(p);
  auto b = tb.probe(q);
  if (!a) return p.to_fen() + ": " + a.error().message;
  if (!b) return q.to_fen() + ": " + b.error().message;
  std::string why;
  if (a->dthm[Color::White] != b->dthm[Color::Black] || a->dthm[Color::Black] != b->dthm[Color::White]) {
    why += " dthm (W " + probe_test::dthm_text(a->dthm[Color::White]) + ", B " +
           probe_test::dthm_text(a->dthm[Color::Black]) + ") vs swapped (W " +
           probe_test::dthm_text(b->dthm[Color::White]) + ", B " + probe_test::dthm_text(b->dthm[Color::Black]) + ");";
  }
  if (a->table != b->table) why += " table " + a->table + " vs " + b->table + ";";
  if (a->table != Material::of(p).canonical().key()) why += " table " + a->table + " is not the canonical key;";
  if (a->checkmate != b->checkmate || a->stalemate != b->stalemate) why += " terminal flags differ;";
  if (a->en_passant != b->en_passant || a->castling_search != b->castling_search) why += " rule flags differ;";
  return why.empty() ? "" : p.to_fen() + " vs " + q.to_fen() + ":" + why;
}

class ColourSwap : public testing::TestWithParam<const char*> {};

TEST_P(ColourSwap, RandomPositionsAgreeWithSidesExchanged) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  const Material m = *Material::parse(GetParam());
  ASSERT_LE(m.men(), tb->max_men()) << GetParam() << " needs a " << m.men() << "-man table";
  // Both orientations of the material: one of them is read through the swap.
  ASSERT_NE(m.is_canonical(), m.swapped().is_canonical()) << GetParam() << " is meant to be asymmetric";
  std::mt19937_64 rng(0x5eed0000U + static_cast<unsigned>(m.men()));
  int failures = 0;
  int finite = 0;
  for (int i = 0; i < 1500 && failures < 5; ++i) {
    const Position p = probe_test::random_position(i % 2 ? m : m.swapped(), rng);
    const std::string why = swap_mismatch(*tb, p);
    if (!why.empty()) {
      ADD_FAILURE() << why;
      ++failures;
    }
    if (auto r = tb->probe(p); r && !r->dead()) ++finite;
  }
  // The sample must exercise real values, not only dead positions.
  EXPECT_GT(finite, 0) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Materials, ColourSwap,
                         testing::Values("KRvKN", "KPvKN", "KBvKP", "KQvKR", "KRvKP", "KNPvK", "KBNvK", "KPvK"),
                         [](const testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// Every KPvKP position in which the side to move can capture en passant (both sides to move, every
// king placement): the en passant rule must be colour-symmetric too. About 5,000 positions.
TEST(ColourSwapEnPassant, EveryKPvKPPositionWithACapture) {
  const Tablebase* tb = nullptr;
  ASSERT_TABLES(tb);
  int checked = 0;
  int failures = 0;
  for (int wk = 0; wk < 64 && failures < 5; ++wk) {
    for (int bk = 0; bk < 64; ++bk) {
      for (int f = 0; f < 8; ++f) {
        for (int df : {-1, 1}) {
          if (f + df < 0 || f + df > 7) continue;
          // White pawn just played f2-f4; a black pawn beside it on rank 4 may take it on f3.
          const Square pushed = make_square(static_cast<File>(f), Rank::R4);
          const Square taker = make_square(static_cast<File>(f + df), Rank::R4);
          Placement pl;
          if (wk == bk || wk == to_index(pushed) || wk == to_index(taker) || bk == to_index(pushed) ||
              bk == to_index(taker))
            continue;
          pl[square_at(wk)] = make_piece(Color::White, PieceType::King);
          pl[square_at(bk)] = make_piece(Color::Black, PieceType::King);
          pl[pushed] = make_piece(Color::White, PieceType::Pawn);
          pl[taker] = make_piece(Color::Black, PieceType::Pawn);
          pl.side_to_move = Color::Black;
          pl.en_passant = make_square(static_cast<File>(f), Rank::R3);
          auto p = Position::from_placement(pl);
          if (!p) continue;
          ++checked;
          const std::string why = swap_mismatch(*tb, *p);
          if (!why.empty()) {
            ADD_FAILURE() << why;
            ++failures;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 4000);
}

}  // namespace
}  // namespace deadpos
