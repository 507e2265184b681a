// Bitboard helpers and attack tables.
//
// Leaper attacks (king, knight, pawn) are constexpr tables built at compile time. Slider attacks
// use "fancy" magic bitboards whose tables are filled once, at static-initialisation time, by a
// deterministic magic search (fixed PRNG seed). sliding_attack() is the slow ray-walking reference
// kept as the test oracle (style rule 22). All functions are pure and thread-safe after static
// initialisation.
#pragma once

#include <bit>
#include <string>

#include "deadpos/types.h"

namespace deadpos {

inline constexpr Bitboard kFileABB = 0x0101010101010101ULL;
inline constexpr Bitboard kRank1BB = 0xFFULL;
constexpr Bitboard file_bb(int f) { return kFileABB << f; }
constexpr Bitboard rank_bb(int r) { return kRank1BB << (8 * r); }
inline constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAULL;
inline constexpr Bitboard kDarkSquares = ~kLightSquares;

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) {
  assert(b != 0);
  return static_cast<Square>(std::countr_zero(b));
}
// Returns the lowest square of b and clears it. Precondition: b != 0.
constexpr Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Bitboard symmetries, matching the square verbs in types.h.
constexpr Bitboard flip_vertical(Bitboard b) { return __builtin_bswap64(b); }
Bitboard flip_horizontal(Bitboard b);
Bitboard flip_diagonal(Bitboard b);

// An 8x8 diagram of b, rank 8 first, 'X' for set squares and '.' for empty ones.
std::string to_diagram(Bitboard b);

namespace detail {
constexpr Bitboard leaper_attacks(int sq, const int (*deltas)[2], int n) {
  Bitboard b = 0;
  const int f = sq & 7;
  const int r = sq >> 3;
  for (int i = 0; i < n; ++i) {
    const int nf = f + deltas[i][0];
    const int nr = r + deltas[i][1];
    if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) b |= Bitboard{1} << (nr * 8 + nf);
  }
  return b;
}
inline constexpr int kKnightDeltas[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
inline constexpr int kKingDeltas[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
inline constexpr int kWhitePawnDeltas[2][2] = {{-1, 1}, {1, 1}};
inline constexpr int kBlackPawnDeltas[2][2] = {{-1, -1}, {1, -1}};

inline constexpr std::array<Bitboard, 64> kKnightAttacks = [] {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[static_cast<std::size_t>(s)] = leaper_attacks(s, kKnightDeltas, 8);
  return t;
}();
inline constexpr std::array<Bitboard, 64> kKingAttacks = [] {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s) t[static_cast<std::size_t>(s)] = leaper_attacks(s, kKingDeltas, 8);
  return t;
}();
inline constexpr std::array<std::array<Bitboard, 64>, 2> kPawnAttacks = [] {
  std::array<std::array<Bitboard, 64>, 2> t{};
  for (int s = 0; s < 64; ++s) {
    t[0][static_cast<std::size_t>(s)] = leaper_attacks(s, kWhitePawnDeltas, 2);
    t[1][static_cast<std::size_t>(s)] = leaper_attacks(s, kBlackPawnDeltas, 2);
  }
  return t;
}();

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  std::size_t index(Bitboard occ) const { return static_cast<std::size_t>(((occ & mask) * magic) >> shift); }
};
extern Magic g_rook_magics[64];
extern Magic g_bishop_magics[64];
}  // namespace detail

constexpr Bitboard knight_attacks(Square s) { return detail::kKnightAttacks[static_cast<std::size_t>(to_index(s))]; }
constexpr Bitboard king_attacks(Square s) { return detail::kKingAttacks[static_cast<std::size_t>(to_index(s))]; }
// Squares a pawn of colour c on s attacks (captures towards).
constexpr Bitboard pawn_attacks(Color c, Square s) {
  return detail::kPawnAttacks[static_cast<std::size_t>(to_index(c))][static_cast<std::size_t>(to_index(s))];
}
// Squares some pawn of colour c on the squares of b attacks: the union of pawn_attacks over b.
constexpr Bitboard pawn_attacks_bb(Color c, Bitboard b) {
  constexpr Bitboard not_a = ~file_bb(0), not_h = ~file_bb(7);
  return c == Color::White ? ((b << 7) & not_h) | ((b << 9) & not_a) : ((b >> 9) & not_h) | ((b >> 7) & not_a);
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::g_rook_magics[to_index(s)];
  return m.attacks[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::g_bishop_magics[to_index(s)];
  return m.attacks[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
// Attacks of a non-pawn piece type from s with the given occupancy.
Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied);

// Slow reference: walks rays square by square. pt must be Bishop, Rook or Queen.
Bitboard sliding_attack(PieceType pt, Square s, Bitboard occupied);

// The moves a flood follows (flood()): any union of them.
enum FloodMoves : unsigned { kFloodRook = 1, kFloodBishop = 2, kFloodKnight = 4 };
struct Flood {
  Bitboard region = 0;   // every square the piece can ever stand on, its start squares included
  Bitboard attacks = 0;  // every square it attacks from some square of the region, walls included
};
// Where a piece starting on the squares of `start` (not walls) can ever stand by any number of
// moves of the kinds in `moves` (kFloodRook | kFloodBishop: a queen) when the squares of `walls`
// can be neither entered nor passed, and what it attacks from there. Equal to flooding square by
// square with piece_attacks(pt, s, walls) (the test's reference), computed instead by shifts of
// the whole region: a slider's region is the component of ~walls connected by one-square steps
// along its lines, and its attack set is the region's neighbours along them (docs/design.md,
// "Locked structures"). Pure and thread-safe.
Flood flood(Bitboard start, Bitboard walls, unsigned moves);

// Squares strictly between a and b if they share a rank, file or diagonal; 0 otherwise.
Bitboard between_bb(Square a, Square b);
// The whole line (edge to edge) through a and b if aligned, including both; 0 otherwise.
Bitboard line_bb(Square a, Square b);

// Chebyshev (king-move) distance between two squares.
int square_distance(Square a, Square b);

}  // namespace deadpos
