#include "support/random_position.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace deadpos::test {

Position random_position(const Material& m, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> sq(0, 63);
  for (;;) {
    Placement pl;
    bool ok = true;
    for (Color c : {Color::White, Color::Black}) {
      for (PieceType pt : kMaterialOrder) {
        for (int k = 0; k < m.count[c][pt] && ok; ++k) {
          // A square for this man; a placement that finds none in 1000 tries (more men than
          // squares allow) is drawn again.
          int tries = 0;
          for (;;) {
            const Square s = square_at(sq(rng));
            const bool back_rank = rank_of(s) == Rank::R1 || rank_of(s) == Rank::R8;
            if (pl[s] == kNoPiece && !(pt == PieceType::Pawn && back_rank)) {
              pl[s] = make_piece(c, pt);
              break;
            }
            if (++tries > 1000) {
              ok = false;
              break;
            }
          }
        }
      }
    }
    pl.side_to_move = (rng() & 1) ? Color::White : Color::Black;
    if (!ok || Position::check_placement(pl)) continue;
    if (Result<Position> p = Position::from_placement(pl)) return std::move(*p);
  }
}

Position random_position(std::string_view key, std::mt19937_64& rng) {
  Result<Material> m = Material::parse(key);
  if (!m) throw std::runtime_error("test material rejected: " + std::string(key) + ": " + m.error().message);
  return random_position(*m, rng);
}

}  // namespace deadpos::test
