// Random legal positions of a material, for the tests and the benches (the one generator).
#pragma once

#include <random>
#include <string_view>

#include "deadpos/material.h"
#include "deadpos/position.h"

namespace deadpos::test {

// A random legal position of material m (any orientation, e.g. KRvKN or KNvKR) without castling
// rights or en passant right. The men are placed colour by colour in kMaterialOrder, each on a
// uniformly random square that is empty (and, for a pawn, off ranks 1 and 8); the side to move is
// a fair coin; the whole placement is drawn again until Position::from_placement accepts it.
// Close to uniform over the legal placements (a pawn's square is drawn among those the earlier men
// left free). The draws depend only on rng's state: a fixed seed gives the same positions.
Position random_position(const Material& m, std::mt19937_64& rng);

// The same for a material key such as "KRvKN"; throws std::runtime_error on a bad key.
Position random_position(std::string_view key, std::mt19937_64& rng);

}  // namespace deadpos::test
