// Bitboard layer: the magic slider tables against the slow ray walker (style rule 31, every
// occupancy subset of every relevant mask), leaper tables against delta loops, the symmetry verbs
// (style rule 7) and between_bb/line_bb. Failures print bitboards with to_diagram (style rule 12).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "deadpos/bitboard.h"

namespace deadpos {
namespace {

// splitmix64: a fixed-seed generator so every run samples the same occupancies.
class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t s_;
};

std::string show(const char* label, Bitboard b) { return std::string(label) + ":\n" + to_diagram(b); }

// The squares whose occupancy can change a slider's attack set from s: its empty-board rays
// without the last square of each ray (a piece on the edge square blocks nothing behind it).
Bitboard relevant_mask(PieceType pt, Square s) {
  const Bitboard edges =
      ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_index(s))) | ((file_bb(0) | file_bb(7)) & ~file_bb(file_index(s)));
  return sliding_attack(pt, s, 0) & ~edges;
}

// Compares the magic lookup with the ray walker for every subset of the relevant mask of every
// square (Carry-Rippler enumeration), and again with random noise outside the mask, which the
// lookup must ignore. Rook: 102,400 subsets; bishop: 5,248.
void check_all_subsets(PieceType pt) {
  TestRng rng(pt == PieceType::Rook ? 1 : 2);
  int failures = 0;
  std::uint64_t subsets = 0;
  for (int i = 0; i < kNumSquares; ++i) {
    const Square s = square_at(i);
    const Bitboard mask = relevant_mask(pt, s);
    subsets += std::uint64_t{1} << popcount(mask);
    Bitboard subset = 0;
    do {
      const Bitboard noise = rng.next() & ~mask;
      for (const Bitboard occ : {subset, subset | noise}) {
        const Bitboard want = sliding_attack(pt, s, occ);
        const Bitboard got = pt == PieceType::Rook ? rook_attacks(s, occ) : bishop_attacks(s, occ);
        if (got != want) {
          ADD_FAILURE() << (pt == PieceType::Rook ? "rook" : "bishop") << " on " << square_name(s) << "\n"
                        << show("occupancy", occ) << show("expected (sliding_attack)", want)
                        << show("got (magic)", got);
          if (++failures >= 5) return;
        }
      }
      subset = (subset - mask) & mask;
    } while (subset != 0);
  }
  EXPECT_EQ(subsets, pt == PieceType::Rook ? 102400U : 5248U);
}

TEST(SliderAttacks, RookEqualsSlidingAttackForEveryBlockerSubset) { check_all_subsets(PieceType::Rook); }

TEST(SliderAttacks, BishopEqualsSlidingAttackForEveryBlockerSubset) { check_all_subsets(PieceType::Bishop); }

// The queen has up to 2^(12+9) relevant subsets on a central square, too many to enumerate, so it
// is sampled: 64 squares x 4 densities x 1,000 occupancies.
TEST(SliderAttacks, QueenEqualsSlidingAttackOnRandomOccupancies) {
  TestRng rng(3);
  int failures = 0;
  for (int i = 0; i < kNumSquares; ++i) {
    const Square s = square_at(i);
    for (int density = 0; density < 4; ++density) {
      for (int k = 0; k < 1000; ++k) {
        // density 0: ~1/2 of the squares occupied, 1: ~1/4, 2: ~1/8, 3: ~1/16.
        Bitboard occ = rng.next();
        for (int d = 0; d < density; ++d) occ &= rng.next();
        const Bitboard want = sliding_attack(PieceType::Queen, s, occ);
        const Bitboard got = queen_attacks(s, occ);
        const Bitboard via_piece = piece_attacks(PieceType::Queen, s, occ);
        if (got != want || via_piece != want) {
          ADD_FAILURE() << "queen on " << square_name(s) << "\n"
                        << show("occupancy", occ) << show("expected (sliding_attack)", want)
                        << show("got (queen_attacks)", got) << show("got (piece_attacks)", via_piece);
          if (++failures >= 5) return;
        }
      }
    }
  }
}

TEST(SliderAttacks, EmptyBoardCounts) {
  // A rook always sees 14 squares on an empty board; a bishop sees 7 from a corner, 13 from d4.
  for (int i = 0; i < kNumSquares; ++i)
    EXPECT_EQ(popcount(rook_attacks(square_at(i), 0)), 14) << square_name(square_at(i));
  EXPECT_EQ(popcount(bishop_attacks(Square::A1, 0)), 7);
  EXPECT_EQ(popcount(bishop_attacks(Square::D4, 0)), 13);
  EXPECT_EQ(popcount(queen_attacks(Square::D4, 0)), 27);
}

// Leaper oracle: the attack set of a leaper from (f, r) is every on-board (f + df, r + dr).
Bitboard leaper_oracle(Square s, std::initializer_list<std::pair<int, int>> deltas) {
  Bitboard b = 0;
  for (const auto& [df, dr] : deltas) {
    const int f = file_index(s) + df;
    const int r = rank_index(s) + dr;
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= square_bb(make_square(static_cast<File>(f), static_cast<Rank>(r)));
  }
  return b;
}

TEST(LeaperAttacks, MatchDeltaLoops) {
  for (int i = 0; i < kNumSquares; ++i) {
    const Square s = square_at(i);
    EXPECT_EQ(knight_attacks(s),
              leaper_oracle(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}))
        << square_name(s) << "\n"
        << to_diagram(knight_attacks(s));
    EXPECT_EQ(king_attacks(s), leaper_oracle(s, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}))
        << square_name(s) << "\n"
        << to_diagram(king_attacks(s));
    EXPECT_EQ(pawn_attacks(Color::White, s), leaper_oracle(s, {{-1, 1}, {1, 1}}))
        << square_name(s) << "\n"
        << to_diagram(pawn_attacks(Color::White, s));
    EXPECT_EQ(pawn_attacks(Color::Black, s), leaper_oracle(s, {{-1, -1}, {1, -1}}))
        << square_name(s) << "\n"
        << to_diagram(pawn_attacks(Color::Black, s));
    EXPECT_EQ(piece_attacks(PieceType::Knight, s, ~Bitboard{0}), knight_attacks(s));
    EXPECT_EQ(piece_attacks(PieceType::King, s, ~Bitboard{0}), king_attacks(s));
  }
  EXPECT_EQ(knight_attacks(Square::A1), square_bb(Square::B3) | square_bb(Square::C2));
  EXPECT_EQ(pawn_attacks(Color::White, Square::A2), square_bb(Square::B3));
  EXPECT_EQ(pawn_attacks(Color::Black, Square::H7), square_bb(Square::G6));
}

// ---- Symmetry verbs -------------------------------------------------------------------------

TEST(Symmetry, SquareVerbsKnownValues) {
  EXPECT_EQ(flip_vertical(Square::A1), Square::A8);
  EXPECT_EQ(flip_vertical(Square::E2), Square::E7);
  EXPECT_EQ(flip_vertical(Square::H5), Square::H4);
  EXPECT_EQ(flip_horizontal(Square::A1), Square::H1);
  EXPECT_EQ(flip_horizontal(Square::C5), Square::F5);
  EXPECT_EQ(flip_horizontal(Square::D8), Square::E8);
  EXPECT_EQ(flip_diagonal(Square::B1), Square::A2);
  EXPECT_EQ(flip_diagonal(Square::A2), Square::B1);
  EXPECT_EQ(flip_diagonal(Square::H1), Square::A8);
  EXPECT_EQ(flip_diagonal(Square::C2), Square::B3);
  EXPECT_EQ(flip_diagonal(Square::G4), Square::D7);
  // The a1-h8 diagonal is fixed.
  EXPECT_EQ(flip_diagonal(Square::A1), Square::A1);
  EXPECT_EQ(flip_diagonal(Square::E5), Square::E5);
  EXPECT_EQ(flip_diagonal(Square::H8), Square::H8);
  static_assert(flip_diagonal(Square::B1) == Square::A2, "the verbs are constexpr");
}

TEST(Symmetry, SquareVerbsAreInvolutionsWithTheRightGeometry) {
  for (int i = 0; i < kNumSquares; ++i) {
    const Square s = square_at(i);
    EXPECT_EQ(flip_vertical(flip_vertical(s)), s);
    EXPECT_EQ(flip_horizontal(flip_horizontal(s)), s);
    EXPECT_EQ(flip_diagonal(flip_diagonal(s)), s);
    // vertical: same file, rank r -> 7 - r; horizontal: file f -> 7 - f; diagonal: swap f and r.
    EXPECT_EQ(file_index(flip_vertical(s)), file_index(s));
    EXPECT_EQ(rank_index(flip_vertical(s)), 7 - rank_index(s));
    EXPECT_EQ(file_index(flip_horizontal(s)), 7 - file_index(s));
    EXPECT_EQ(rank_index(flip_horizontal(s)), rank_index(s));
    EXPECT_EQ(file_index(flip_diagonal(s)), rank_index(s));
    EXPECT_EQ(rank_index(flip_diagonal(s)), file_index(s));
    // The verbs commute in the way the 8-element symmetry group needs: vertical and horizontal
    // commute; conjugating one by the diagonal gives the other.
    EXPECT_EQ(flip_vertical(flip_horizontal(s)), flip_horizontal(flip_vertical(s)));
    EXPECT_EQ(flip_diagonal(flip_vertical(flip_diagonal(s))), flip_horizontal(s));
  }
}

// Image of b under a square verb, computed square by square (the oracle for the bitboard verbs).
template <typename F>
Bitboard map_squares(Bitboard b, F f) {
  Bitboard r = 0;
  while (b) r |= square_bb(f(pop_lsb(b)));
  return r;
}

TEST(Symmetry, BitboardVerbsKnownValues) {
  const Bitboard l_shape =
      square_bb(Square::A1) | square_bb(Square::B1) | square_bb(Square::C1) | square_bb(Square::A2);
  const Bitboard l_diag = square_bb(Square::A1) | square_bb(Square::A2) | square_bb(Square::A3) | square_bb(Square::B1);
  EXPECT_EQ(flip_diagonal(l_shape), l_diag) << show("input", l_shape) << show("got", flip_diagonal(l_shape));
  EXPECT_EQ(flip_diagonal(square_bb(Square::B1)), square_bb(Square::A2));
  EXPECT_EQ(flip_vertical(rank_bb(0)), rank_bb(7));
  EXPECT_EQ(flip_vertical(rank_bb(2)), rank_bb(5));
  EXPECT_EQ(flip_horizontal(file_bb(0)), file_bb(7));
  EXPECT_EQ(flip_horizontal(file_bb(3)), file_bb(4));
  EXPECT_EQ(flip_diagonal(rank_bb(0)), file_bb(0));
  EXPECT_EQ(flip_diagonal(file_bb(6)), rank_bb(6));
  const Bitboard a1h8 = 0x8040201008040201ULL;
  EXPECT_EQ(flip_diagonal(a1h8), a1h8);
  EXPECT_EQ(flip_horizontal(a1h8), 0x0102040810204080ULL);  // the a8-h1 diagonal
  // Square colour: the diagonal mirror keeps f + r, the file and rank mirrors change its parity.
  EXPECT_EQ(flip_diagonal(kLightSquares), kLightSquares);
  EXPECT_EQ(flip_vertical(kLightSquares), kDarkSquares);
  EXPECT_EQ(flip_horizontal(kLightSquares), kDarkSquares);
  EXPECT_EQ(flip_vertical(Bitboard{0}), Bitboard{0});
  EXPECT_EQ(flip_diagonal(~Bitboard{0}), ~Bitboard{0});
}

TEST(Symmetry, BitboardVerbsMatchSquareVerbsAndAreInvolutions) {
  TestRng rng(4);
  for (int k = 0; k < 2000; ++k) {
    Bitboard b = rng.next();
    if (k % 2) b &= rng.next() & rng.next();  // sparse half
    const Bitboard v = flip_vertical(b);
    const Bitboard h = flip_horizontal(b);
    const Bitboard d = flip_diagonal(b);
    ASSERT_EQ(v, map_squares(b, [](Square s) { return flip_vertical(s); })) << show("input", b) << show("got", v);
    ASSERT_EQ(h, map_squares(b, [](Square s) { return flip_horizontal(s); })) << show("input", b) << show("got", h);
    ASSERT_EQ(d, map_squares(b, [](Square s) { return flip_diagonal(s); })) << show("input", b) << show("got", d);
    ASSERT_EQ(flip_vertical(v), b);
    ASSERT_EQ(flip_horizontal(h), b);
    ASSERT_EQ(flip_diagonal(d), b);
  }
}

// Slider attacks are equivariant under all three mirrors: attacks(f(s), f(occ)) = f(attacks(s, occ)).
TEST(Symmetry, SliderAttacksCommuteWithMirrors) {
  TestRng rng(5);
  for (int k = 0; k < 5000; ++k) {
    const Square s = square_at(static_cast<int>(rng.next() & 63));
    const Bitboard occ = rng.next() & rng.next();
    const Bitboard r = rook_attacks(s, occ);
    const Bitboard b = bishop_attacks(s, occ);
    ASSERT_EQ(rook_attacks(flip_vertical(s), flip_vertical(occ)), flip_vertical(r)) << show("occ", occ);
    ASSERT_EQ(rook_attacks(flip_horizontal(s), flip_horizontal(occ)), flip_horizontal(r)) << show("occ", occ);
    ASSERT_EQ(rook_attacks(flip_diagonal(s), flip_diagonal(occ)), flip_diagonal(r)) << show("occ", occ);
    ASSERT_EQ(bishop_attacks(flip_vertical(s), flip_vertical(occ)), flip_vertical(b)) << show("occ", occ);
    ASSERT_EQ(bishop_attacks(flip_horizontal(s), flip_horizontal(occ)), flip_horizontal(b)) << show("occ", occ);
    ASSERT_EQ(bishop_attacks(flip_diagonal(s), flip_diagonal(occ)), flip_diagonal(b)) << show("occ", occ);
  }
}

// ---- between_bb / line_bb -------------------------------------------------------------------

Bitboard squares(std::initializer_list<Square> list) {
  Bitboard b = 0;
  for (Square s : list) b |= square_bb(s);
  return b;
}

TEST(Lines, BetweenSpotValues) {
  using S = Square;
  const struct {
    Square a, b;
    Bitboard want;
  } cases[] = {
      {S::A1, S::H8, squares({S::B2, S::C3, S::D4, S::E5, S::F6, S::G7})},
      {S::H8, S::A1, squares({S::B2, S::C3, S::D4, S::E5, S::F6, S::G7})},
      {S::A1, S::A8, squares({S::A2, S::A3, S::A4, S::A5, S::A6, S::A7})},
      {S::H1, S::A8, squares({S::G2, S::F3, S::E4, S::D5, S::C6, S::B7})},
      {S::C1, S::F4, squares({S::D2, S::E3})},
      {S::B4, S::G4, squares({S::C4, S::D4, S::E4, S::F4})},
      {S::E4, S::E5, 0},  // adjacent
      {S::E4, S::F5, 0},  // adjacent diagonally
      {S::A1, S::B3, 0},  // a knight's jump is not a line
      {S::A1, S::C2, 0},
      {S::D4, S::D4, 0},  // same square
  };
  for (const auto& c : cases) {
    EXPECT_EQ(between_bb(c.a, c.b), c.want) << square_name(c.a) << "-" << square_name(c.b) << "\n"
                                            << show("expected", c.want) << show("got", between_bb(c.a, c.b));
  }
}

TEST(Lines, LineSpotValues) {
  using S = Square;
  const struct {
    Square a, b;
    Bitboard want;
  } cases[] = {
      {S::A1, S::C3, 0x8040201008040201ULL},  // the whole a1-h8 diagonal
      {S::B1, S::B5, file_bb(1)},
      {S::A4, S::H4, rank_bb(3)},
      {S::D1, S::H5, squares({S::D1, S::E2, S::F3, S::G4, S::H5})},
      {S::C1, S::A3, squares({S::C1, S::B2, S::A3})},
      {S::E4, S::F5, squares({S::B1, S::C2, S::D3, S::E4, S::F5, S::G6, S::H7})},
      {S::A1, S::B3, 0},
      {S::D4, S::D4, 0},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(line_bb(c.a, c.b), c.want) << square_name(c.a) << "-" << square_name(c.b) << "\n"
                                         << show("expected", c.want) << show("got", line_bb(c.a, c.b));
  }
}

// Every pair of squares against a stepping oracle: aligned pairs (same rank, file or diagonal) get
// the squares strictly between (between_bb) and the whole edge-to-edge line (line_bb).
TEST(Lines, AllPairsMatchSteppingOracle) {
  for (int i = 0; i < kNumSquares; ++i) {
    for (int j = 0; j < kNumSquares; ++j) {
      const Square a = square_at(i);
      const Square b = square_at(j);
      const int df = file_index(b) - file_index(a);
      const int dr = rank_index(b) - rank_index(a);
      const bool aligned = i != j && (df == 0 || dr == 0 || df == dr || df == -dr);
      Bitboard want_between = 0;
      Bitboard want_line = 0;
      if (aligned) {
        const int sf = (df > 0) - (df < 0);
        const int sr = (dr > 0) - (dr < 0);
        for (int f = file_index(a) + sf, r = rank_index(a) + sr; f != file_index(b) || r != rank_index(b);
             f += sf, r += sr)
          want_between |= square_bb(make_square(static_cast<File>(f), static_cast<Rank>(r)));
        // Walk from a to the edge in both directions.
        for (int dir : {1, -1}) {
          for (int f = file_index(a), r = rank_index(a); f >= 0 && f < 8 && r >= 0 && r < 8;
               f += dir * sf, r += dir * sr)
            want_line |= square_bb(make_square(static_cast<File>(f), static_cast<Rank>(r)));
        }
      }
      ASSERT_EQ(between_bb(a, b), want_between) << square_name(a) << "-" << square_name(b) << "\n"
                                                << show("expected", want_between) << show("got", between_bb(a, b));
      ASSERT_EQ(line_bb(a, b), want_line) << square_name(a) << "-" << square_name(b) << "\n"
                                          << show("expected", want_line) << show("got", line_bb(a, b));
    }
  }
}

TEST(Bitboard, DiagramAndHelpers) {
  EXPECT_EQ(to_diagram(square_bb(Square::A8) | square_bb(Square::H1)),
            "X . . . . . . .\n"
            ". . . . . . . .\n"
            ". . . . . . . .\n"
            ". . . . . . . .\n"
            ". . . . . . . .\n"
            ". . . . . . . .\n"
            ". . . . . . . .\n"
            ". . . . . . . X\n");
  Bitboard b = squares({Square::C3, Square::A1, Square::H8});
  EXPECT_EQ(pop_lsb(b), Square::A1);
  EXPECT_EQ(pop_lsb(b), Square::C3);
  EXPECT_TRUE(!more_than_one(b));
  EXPECT_EQ(pop_lsb(b), Square::H8);
  EXPECT_EQ(b, 0U);
  EXPECT_EQ(square_distance(Square::A1, Square::H8), 7);
  EXPECT_EQ(square_distance(Square::E4, Square::F6), 2);
  EXPECT_STREQ(square_name(Square::E4), "e4");
  EXPECT_EQ(popcount(kLightSquares), 32);
  EXPECT_FALSE(is_light_square(Square::A1));
  EXPECT_TRUE(is_light_square(Square::H1));
  EXPECT_TRUE((kLightSquares & square_bb(Square::H1)) != 0);
}

// pawn_attacks_bb, the shifts of a whole set, against the union of the per-square table.
TEST(PawnAttacks, SetEqualsTheUnionOfTheTable) {
  TestRng rng(7);
  for (int trial = 0; trial < 10000; ++trial) {
    const Bitboard b = rng.next() & rng.next();
    for (Color c : {Color::White, Color::Black}) {
      Bitboard want = 0;
      for (Bitboard x = b; x;) want |= pawn_attacks(c, pop_lsb(x));
      ASSERT_EQ(pawn_attacks_bb(c, b), want) << show("pawns", b);
    }
  }
}

// flood() against the square-by-square flood it replaces: from each square of the region, every
// square the piece attacks with the walls as the only blockers (sliding_attack, the ray walker, and
// the knight table), the open ones joining the region. Random walls of every density, one or a few
// start squares, every kind of move set the analysis uses.
TEST(Flood, EqualsTheSquareBySquareFlood) {
  TestRng rng(20261207);
  const unsigned kinds[] = {kFloodRook, kFloodBishop, kFloodKnight, kFloodRook | kFloodBishop,
                            kFloodRook | kFloodBishop | kFloodKnight};
  for (int trial = 0; trial < 20000; ++trial) {
    // Densities from none to most of the board: AND of k random words keeps 1/2^k of the squares.
    Bitboard walls = ~Bitboard{0};
    for (int k = static_cast<int>(rng.next() % 6); k >= 0; --k) walls &= rng.next();
    if (trial % 7 == 0) walls = 0;
    Bitboard start = 0;
    for (int k = 1 + static_cast<int>(rng.next() % 3); k > 0; --k) start |= Bitboard{1} << (rng.next() % 64);
    start &= ~walls;
    if (!start) continue;
    for (unsigned moves : kinds) {
      Bitboard region = start, attacks = 0, todo = start;
      while (todo) {
        const Square s = pop_lsb(todo);
        Bitboard a = 0;
        if (moves & kFloodRook) a |= sliding_attack(PieceType::Rook, s, walls);
        if (moves & kFloodBishop) a |= sliding_attack(PieceType::Bishop, s, walls);
        if (moves & kFloodKnight) a |= knight_attacks(s);
        attacks |= a;
        const Bitboard n = a & ~walls & ~region;
        region |= n;
        todo |= n;
      }
      const Flood f = flood(start, walls, moves);
      ASSERT_EQ(f.region, region) << "moves " << moves << "\n"
                                  << show("walls", walls) << show("start", start) << show("expected region", region)
                                  << show("flood region", f.region);
      ASSERT_EQ(f.attacks, attacks) << "moves " << moves << "\n"
                                    << show("walls", walls) << show("start", start) << show("expected attacks", attacks)
                                    << show("flood attacks", f.attacks);
    }
  }
}

}  // namespace
}  // namespace deadpos
