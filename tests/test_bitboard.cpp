#include <gtest/gtest.h>

#include "deadpos/bitboard.h"

using namespace deadpos;

TEST(Bitboard, PlaceholderKnight) { EXPECT_EQ(popcount(knight_attacks(Square::A1)), 2); }
