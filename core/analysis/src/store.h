// The search's position store (internal to the analysis room): the exact identity of a position
// (Key), the board symmetries under which positions without pawns and castling rights share an
// entry, and the per-thread store that search.cpp fills. Used by search.cpp alone; inline so
// that the hot loops compile as one unit.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "deadpos/position.h"

namespace deadpos::internal {

// The identity of a position for the rules of play (placement, side to move, castling rights,
// and the en passant square when a pawn of the side to move attacks it; FIDE 9.2.3), as 8 words.
struct Key {
  std::array<Bitboard, 7> bb;  // White, Black, Pawn, Knight, Bishop, Rook, Queen (kings: the rest)
  std::uint64_t state;
  bool operator==(const Key&) const = default;
};

inline Key key_of(const Position& p) {
  Key k{};
  k.bb[0] = p.pieces(Color::White);
  k.bb[1] = p.pieces(Color::Black);
  for (int t = 0; t < 5; ++t) k.bb[static_cast<std::size_t>(2 + t)] = p.pieces(static_cast<PieceType>(t));
  std::uint64_t ep = 0;
  if (const auto e = p.en_passant();
      e && (pawn_attacks(~p.side_to_move(), *e) & p.pieces(p.side_to_move(), PieceType::Pawn))) {
    ep = static_cast<std::uint64_t>(to_index(*e)) + 1;
  }
  k.state = static_cast<std::uint64_t>(p.side_to_move() == Color::White ? 0 : 1) |
            static_cast<std::uint64_t>(p.castling_rights()) << 1 | ep << 8;
  return k;
}

// The 8 symmetries of the board: t = diagonal flip (bit 2), then horizontal (bit 0), then
// vertical (bit 1). Without pawns and castling rights they map positions to positions with the
// same answers (the rules have no preferred side, file or rank then).
inline Square sym_square(int t, Square s) {
  if (t & 4) s = flip_diagonal(s);
  if (t & 1) s = flip_horizontal(s);
  if (t & 2) s = flip_vertical(s);
  return s;
}
inline Bitboard sym_bb(int t, Bitboard b) {
  if (t & 4) b = flip_diagonal(b);
  if (t & 1) b = flip_horizontal(b);
  if (t & 2) b = flip_vertical(b);
  return b;
}
inline bool key_less(const Key& a, const Key& b) {
  return std::lexicographical_compare(a.bb.begin(), a.bb.end(), b.bb.begin(), b.bb.end());
}

// The key under which p is stored, and in *sym the symmetry that maps p to it: for a position
// without pawns and castling rights, the least key among the symmetries that put White's king in
// the a1-d1-d4 triangle (the store then holds one position per orbit: up to 8 times fewer);
// otherwise p's own key and 0.
inline Key stored_key(const Position& p, int* sym) {
  Key k = key_of(p);
  *sym = 0;
  if (p.pieces(PieceType::Pawn) || p.castling_rights()) return k;
  const Square wk = p.king_square(Color::White);
  Key best{};
  bool any = false;
  for (int t = 0; t < 8; ++t) {
    const Square s = sym_square(t, wk);
    const int f = static_cast<int>(file_of(s)), r = static_cast<int>(rank_of(s));
    if (f > 3 || r > f) continue;
    Key c = k;
    for (Bitboard& b : c.bb) b = sym_bb(t, b);
    if (!any || key_less(c, best)) {
      best = c;
      *sym = t;
      any = true;
    }
  }
  return best;
}

// The position of a key (counters 0 and 1; they do not change which moves are legal).
inline Position position_of(const Key& k) {
  std::array<Piece, 32> pieces{};
  std::array<Square, 32> squares{};
  int n = 0;
  const Bitboard kings = (k.bb[0] | k.bb[1]) & ~(k.bb[2] | k.bb[3] | k.bb[4] | k.bb[5] | k.bb[6]);
  for (int t = 0; t < 6; ++t) {
    Bitboard b = t < 5 ? k.bb[static_cast<std::size_t>(2 + t)] : kings;
    while (b) {
      const Square s = pop_lsb(b);
      const Color c = (k.bb[0] & square_bb(s)) ? Color::White : Color::Black;
      pieces[static_cast<std::size_t>(n)] = make_piece(c, static_cast<PieceType>(t));
      squares[static_cast<std::size_t>(n++)] = s;
    }
  }
  const std::uint64_t ep = (k.state >> 8) & 127;
  return Position::from_men(pieces.data(), squares.data(), n, (k.state & 1) ? Color::Black : Color::White,
                            ep ? std::optional<Square>(square_at(static_cast<int>(ep - 1))) : std::nullopt,
                            static_cast<std::uint8_t>((k.state >> 1) & 15));
}

inline std::uint64_t hash_of(const Key& k) {
  std::uint64_t h = k.state * 0x9E3779B97F4A7C15ULL;
  for (Bitboard b : k.bb) {
    h ^= b + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  return h;
}

// Whether a man of the side to move attacks a man of the other side (pseudo-legal: a pinned
// attacker counts; en passant does not). A cheap filter before generating the captures.
inline bool can_capture(const Position& p) {
  const Color us = p.side_to_move();
  Bitboard them = p.pieces(~us) & ~p.pieces(~us, PieceType::King);
  while (them) {
    if (p.attackers_to(pop_lsb(them), p.pieces()) & p.pieces(us)) return true;
  }
  return false;
}

// A stored position: its key (the position is rebuilt from it when expanded), 72 bytes.
struct Node {
  Key key;
  std::uint32_t parent;
  Move move;            // the move from the parent, in the parent's stored frame
  std::uint16_t g_sym;  // plies from the root << 3 | the symmetry from the parent's child to this key
  int g() const { return g_sym >> 3; }
  int sym() const { return g_sym & 7; }
};

// The position store of one thread's searches, reused: a small search then allocates nothing
// (page faults, zeroing and malloc were about 15% of the time on the lichess positions). After a
// search that grew it past kKeepBytes it is released, so no thread keeps a big search's memory.
struct Scratch {
  std::vector<Node> nodes;
  std::vector<std::uint64_t> slots;  // a search uses the first Search::slot_count_ of them
  std::vector<std::uint64_t> spare;  // the old slots while the table doubles
  std::vector<std::vector<std::uint32_t>> buckets;
};
inline constexpr std::size_t kKeepBytes = std::size_t{8} << 20;
inline Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace deadpos::internal
