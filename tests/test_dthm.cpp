// Dthm (core/tables/include/deadpos/dthm.h) against the byte codes of docs/format.md section 3: a byte
// 0..250 is that many plies, 253 is "none"; 254 (solver only) and 255 (invalid entry) read as none.
#include <gtest/gtest.h>

#include "deadpos/dthm.h"

namespace deadpos {
namespace {

TEST(Dthm, CodesOfTheFormat) {
  for (int c = 0; c <= 250; ++c) {
    const Dthm d = Dthm::from_code(static_cast<std::uint8_t>(c));
    EXPECT_TRUE(d.is_finite());
    EXPECT_EQ(d.plies(), c);
    EXPECT_EQ(d.code(), c);
  }
  for (int c : {251, 252, 253, 254, 255}) {
    const Dthm d = Dthm::from_code(static_cast<std::uint8_t>(c));
    EXPECT_TRUE(d.is_none()) << c;
    EXPECT_EQ(d.plies(), -1);
    EXPECT_EQ(d.code(), 253);
  }
  EXPECT_EQ(Dthm().code(), 253);
  EXPECT_TRUE(Dthm::none().is_none());
}

TEST(Dthm, OrderAndExtension) {
  static_assert(Dthm::in_plies(3) < Dthm::in_plies(4));
  static_assert(Dthm::in_plies(250) < Dthm::none());
  static_assert(min(Dthm::none(), Dthm::in_plies(7)) == Dthm::in_plies(7));
  static_assert(Dthm::in_plies(5).before(2) == Dthm::in_plies(7));
  static_assert(Dthm::none().before(1).is_none());
  static_assert(Dthm::in_plies(250).before(1).is_none());  // past the format's limit
  static_assert(Dthm::in_plies(249).fits_before(1) && !Dthm::in_plies(250).fits_before(1));
  static_assert(Dthm::in_plies(-1).is_none() && Dthm::in_plies(251).is_none());
  EXPECT_EQ(Dthm::in_plies(0).plies(), 0);
}

}  // namespace
}  // namespace deadpos
