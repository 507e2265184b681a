// Vocabulary types of the chess model: colours, piece types, pieces, squares, bitboards, moves.
//
// Conventions (shared by every module, see docs/design.md):
//   * Square numbering is rank-major from White's side: A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63.
//   * Bitboard bit i is square i.
//   * Distances are counted in plies (half-moves) unless a name says "moves".
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// Always-on check for cheap boundary invariants (style rule 15): prints file:line and aborts.
// Used only for programmer errors, never for outside input (those return deadpos::Result).
#define DEADPOS_CHECK(cond)                                                                 \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "%s:%d: DEADPOS_CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (false)

namespace deadpos {

using Bitboard = std::uint64_t;

enum class Color : std::uint8_t { White, Black };
inline constexpr int kNumColors = 2;
constexpr Color operator~(Color c) { return static_cast<Color>(static_cast<std::uint8_t>(c) ^ 1U); }
constexpr int to_index(Color c) { return static_cast<int>(c); }

// Order K Q R B N P is the material-key order; the enum order is by value (pawn first), as in
// most engines. Use kMaterialOrder when printing material keys.
enum class PieceType : std::uint8_t { Pawn, Knight, Bishop, Rook, Queen, King };
inline constexpr int kNumPieceTypes = 6;
constexpr int to_index(PieceType pt) { return static_cast<int>(pt); }
inline constexpr std::array<PieceType, 6> kMaterialOrder = {PieceType::King,   PieceType::Queen,  PieceType::Rook,
                                                            PieceType::Bishop, PieceType::Knight, PieceType::Pawn};

// A piece: colour in bit 3, piece type in bits 0-2. kNoPiece marks an empty square.
//   bits 0-2: PieceType (0..5), bit 3: Color.  Value 15 = no piece.
enum class Piece : std::uint8_t {};
inline constexpr Piece kNoPiece = static_cast<Piece>(15);
constexpr Piece make_piece(Color c, PieceType pt) { return static_cast<Piece>((to_index(c) << 3) | to_index(pt)); }
constexpr Color color_of(Piece p) { return static_cast<Color>(static_cast<std::uint8_t>(p) >> 3); }
constexpr PieceType type_of(Piece p) { return static_cast<PieceType>(static_cast<std::uint8_t>(p) & 7U); }
// 'K','Q','R','B','N','P' for White, lower case for Black.
char piece_char(Piece p);
// Upper-case letter of a piece type ('K' ... 'P').
char piece_type_char(PieceType pt);

enum class File : std::uint8_t { A, B, C, D, E, F, G, H };
enum class Rank : std::uint8_t { R1, R2, R3, R4, R5, R6, R7, R8 };

enum class Square : std::uint8_t {
  // clang-format off
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  // clang-format on
};
inline constexpr int kNumSquares = 64;

constexpr int to_index(Square s) { return static_cast<int>(s); }
// Conversion from an integer index (0..63), checked by assert in builds with assertions.
constexpr Square square_at(int i) {
  assert(i >= 0 && i < 64);
  return static_cast<Square>(i);
}
constexpr Square make_square(File f, Rank r) {
  return static_cast<Square>(static_cast<int>(r) * 8 + static_cast<int>(f));
}
constexpr File file_of(Square s) { return static_cast<File>(to_index(s) & 7); }
constexpr Rank rank_of(Square s) { return static_cast<Rank>(to_index(s) >> 3); }
constexpr int file_index(Square s) { return to_index(s) & 7; }
constexpr int rank_index(Square s) { return to_index(s) >> 3; }
// Rank as seen by colour c (White's rank 1 is Black's rank 8).
constexpr int relative_rank(Color c, Square s) { return c == Color::White ? rank_index(s) : 7 - rank_index(s); }

// Symmetries of the board (style rule 7). Each is an involution.
// flip_vertical: mirror ranks (a1 <-> a8), used with colour swap.
constexpr Square flip_vertical(Square s) { return static_cast<Square>(to_index(s) ^ 56); }
// flip_horizontal: mirror files (a1 <-> h1).
constexpr Square flip_horizontal(Square s) { return static_cast<Square>(to_index(s) ^ 7); }
// flip_diagonal: mirror in the a1-h8 diagonal (b1 <-> a2).
constexpr Square flip_diagonal(Square s) { return static_cast<Square>(((to_index(s) >> 3) | (to_index(s) << 3)) & 63); }

constexpr Bitboard square_bb(Square s) { return Bitboard{1} << to_index(s); }

// "a1".."h8".
const char* square_name(Square s);

// Light squares are those like h1 and a8 (a1 is dark). Used to split bishop statistics.
constexpr bool is_light_square(Square s) { return ((file_index(s) + rank_index(s)) & 1) != 0; }

// A move, packed in 16 bits:
//   bits 0-5  : from square
//   bits 6-11 : to square
//   bits 12-13: promotion piece (0 = knight, 1 = bishop, 2 = rook, 3 = queen), valid if kind = Promotion
//   bits 14-15: kind (0 = normal, 1 = promotion, 2 = en passant, 3 = castling)
// Castling is encoded king-from -> king-to (e1g1, e1c1, ...), as in UCI.
class Move {
 public:
  enum class Kind : std::uint8_t { Normal, Promotion, EnPassant, Castling };

  constexpr Move() = default;
  static constexpr Move make(Square from, Square to, Kind kind = Kind::Normal, PieceType promo = PieceType::Knight) {
    const int promo_bits = kind == Kind::Promotion ? to_index(promo) - to_index(PieceType::Knight) : 0;
    return Move(static_cast<std::uint16_t>(to_index(from) | (to_index(to) << 6) | (promo_bits << 12) |
                                           (static_cast<int>(kind) << 14)));
  }
  static constexpr Move none() { return Move(); }
  static constexpr Move from_raw(std::uint16_t raw) { return Move(raw); }

  constexpr Square from() const { return static_cast<Square>(data_ & 63U); }
  constexpr Square to() const { return static_cast<Square>((data_ >> 6) & 63U); }
  constexpr Kind kind() const { return static_cast<Kind>(data_ >> 14); }
  constexpr PieceType promotion() const {
    return static_cast<PieceType>(((data_ >> 12) & 3U) + to_index(PieceType::Knight));
  }
  constexpr std::uint16_t raw() const { return data_; }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr bool operator==(const Move&) const = default;

 private:
  constexpr explicit Move(std::uint16_t d) : data_(d) {}
  std::uint16_t data_ = 0;
};
static_assert(sizeof(Move) == 2);

// Fixed-capacity array indexed by an enum (style rule 4).
template <typename T>
struct ByColor {
  std::array<T, 2> v{};
  constexpr T& operator[](Color c) { return v[static_cast<std::size_t>(c)]; }
  constexpr const T& operator[](Color c) const { return v[static_cast<std::size_t>(c)]; }
  constexpr bool operator==(const ByColor&) const = default;
};
template <typename T>
struct ByPieceType {
  std::array<T, 6> v{};
  constexpr T& operator[](PieceType p) { return v[static_cast<std::size_t>(p)]; }
  constexpr const T& operator[](PieceType p) const { return v[static_cast<std::size_t>(p)]; }
  constexpr bool operator==(const ByPieceType&) const = default;
};

// Move list of fixed capacity: 218 is the known maximum number of legal moves in a position.
// The storage is deliberately left uninitialised (only [0, size) is ever read): zeroing 512 bytes
// per list cost about a quarter of the solver's init phase.
class MoveList {
 public:
  static constexpr int kCapacity = 256;
  MoveList() {}  // NOLINT: no member initialisers on purpose
  MoveList(const MoveList& o) : size_(o.size_) { std::copy(o.moves_, o.moves_ + o.size_, moves_); }
  MoveList& operator=(const MoveList& o) {
    size_ = o.size_;
    std::copy(o.moves_, o.moves_ + o.size_, moves_);
    return *this;
  }
  void push(Move m) {
    assert(size_ < kCapacity);
    moves_[size_++] = m;
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
  void clear() { size_ = 0; }

 private:
  union {
    Move moves_[kCapacity];  // union member: no default construction of the elements
  };
  int size_ = 0;
};

}  // namespace deadpos
