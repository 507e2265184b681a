#include "deadpos/index.h"

#include <algorithm>

#include "deadpos/bitboard.h"

namespace deadpos {

namespace {

// King-pair tables of the pawnless scheme.
//   slot_of[wk][bk]: slot 0..461 if (wk, bk) is canonical, else -1.
//   syms[wk][bk]: bit g set if symmetry g maps (wk, bk) onto a canonical pair.
// Worked example: wk = g7, bk = a1. Symmetry 6 (flip_horizontal then flip_vertical = rotation by
// 180 degrees) maps them to b2, h8: b2 is on the diagonal and h8 has file >= rank, so canonical.
struct KkTables {
  std::array<std::array<std::int16_t, 64>, 64> slot_of{};
  std::array<std::array<std::uint8_t, 64>, 64> syms{};
  std::array<std::pair<Square, Square>, 462> pair{};
  KkTables() {
    int n = 0;
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) slot_of[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)] = -1;
    for (int w = 0; w < 64; ++w) {
      const Square ws = square_at(w);
      const int wf = file_index(ws), wr = rank_index(ws);
      if (wf > 3 || wr > wf) continue;  // triangle a1-d1-d4
      for (int b = 0; b < 64; ++b) {
        const Square bs = square_at(b);
        if (square_distance(ws, bs) <= 1) continue;
        if (wf == wr && file_index(bs) < rank_index(bs)) continue;
        slot_of[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)] = static_cast<std::int16_t>(n);
        pair[static_cast<std::size_t>(n)] = {ws, bs};
        ++n;
      }
    }
    DEADPOS_CHECK(n == 462);
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) {
        std::uint8_t mask = 0;
        for (int g = 0; g < 8; ++g) {
          const Square tw = apply_symmetry(g, square_at(w));
          const Square tb = apply_symmetry(g, square_at(b));
          if (slot_of[static_cast<std::size_t>(to_index(tw))][static_cast<std::size_t>(to_index(tb))] >= 0)
            mask = static_cast<std::uint8_t>(mask | (1U << g));
        }
        syms[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)] = mask;
      }
  }
};

const KkTables& kk_tables_init() {
  static const KkTables t;
  return t;
}
// Resolved once at static initialisation: the function-local static's guard check cost 4% of
// the solver when called per encode.
const KkTables& g_kk = kk_tables_init();
inline const KkTables& kk_tables() { return g_kk; }

// Pawn scheme: White king on files a-d -> 32 squares, slot = (rank * 4 + file) * 64 + bk.
constexpr int half_board_index(Square s) { return rank_index(s) * 4 + file_index(s); }

}  // namespace

Result<TableIndex> TableIndex::make(const Material& m) {
  if (!m.is_canonical()) {
    return make_error(ErrorCode::InvalidArgument, "material " + m.key() + " is not in canonical orientation");
  }
  if (m.men() > kMaxTableMen) {
    return make_error(ErrorCode::InvalidArgument,
                      "material " + m.key() + " has more than " + std::to_string(kMaxTableMen) + " men");
  }
  TableIndex t;
  t.material_ = m;
  t.pawns_ = m.has_pawns();
  t.pieces_[0] = make_piece(Color::White, PieceType::King);
  t.pieces_[1] = make_piece(Color::Black, PieceType::King);
  const std::vector<Piece> men = m.non_king_men();
  t.men_ = 2 + static_cast<int>(men.size());
  for (std::size_t j = 0; j < men.size(); ++j) t.pieces_[j + 2] = men[j];
  // Strides: the last man varies fastest.
  std::uint64_t stride = 1;
  for (int j = t.men_ - 1; j >= 2; --j) {
    t.strides_[static_cast<std::size_t>(j)] = stride;
    stride *= type_of(t.pieces_[static_cast<std::size_t>(j)]) == PieceType::Pawn ? 48 : 64;
  }
  t.strides_[0] = stride;
  t.size_ = stride * static_cast<std::uint64_t>(t.kk_slots());
  for (int j = 2; j < t.men_;) {
    int k = j;
    while (k < t.men_ && t.pieces_[static_cast<std::size_t>(k)] == t.pieces_[static_cast<std::size_t>(j)]) ++k;
    if (k - j > 1) t.groups_.emplace_back(j, k);
    j = k;
  }
  return t;
}

std::uint64_t TableIndex::raw_index(const Squares& in, int g) const {
  Squares sq;
  for (int j = 0; j < men_; ++j) sq[static_cast<std::size_t>(j)] = apply_symmetry(g, in[static_cast<std::size_t>(j)]);
  // Identical men in increasing square order (insertion sort: groups have 2-4 men).
  for (const auto& [a, b] : groups_) {
    for (int j = a + 1; j < b; ++j) {
      const Square v = sq[static_cast<std::size_t>(j)];
      int k = j;
      while (k > a && sq[static_cast<std::size_t>(k - 1)] > v) {
        sq[static_cast<std::size_t>(k)] = sq[static_cast<std::size_t>(k - 1)];
        --k;
      }
      sq[static_cast<std::size_t>(k)] = v;
    }
  }
  std::uint64_t kk;
  if (pawns_) {
    kk = static_cast<std::uint64_t>(half_board_index(sq[0]) * 64 + to_index(sq[1]));
  } else {
    const int slot =
        kk_tables().slot_of[static_cast<std::size_t>(to_index(sq[0]))][static_cast<std::size_t>(to_index(sq[1]))];
    assert(slot >= 0);
    kk = static_cast<std::uint64_t>(slot);
  }
  std::uint64_t idx = kk * strides_[0];
  for (int j = 2; j < men_; ++j) {
    const int f = to_index(sq[static_cast<std::size_t>(j)]) -
                  (type_of(pieces_[static_cast<std::size_t>(j)]) == PieceType::Pawn ? 8 : 0);
    idx += static_cast<std::uint64_t>(f) * strides_[static_cast<std::size_t>(j)];
  }
  return idx;
}

std::uint64_t TableIndex::encode(const Squares& sq) const {
  if (pawns_) return raw_index(sq, file_index(sq[0]) >= 4 ? 2 : 0);
  unsigned mask =
      kk_tables().syms[static_cast<std::size_t>(to_index(sq[0]))][static_cast<std::size_t>(to_index(sq[1]))];
  assert(mask != 0);
  std::uint64_t best = ~std::uint64_t{0};
  while (mask) {
    const int g = std::countr_zero(mask);
    mask &= mask - 1;
    best = std::min(best, raw_index(sq, g));
  }
  return best;
}

bool TableIndex::fill_squares(std::uint64_t i, Squares& sq) const {
  // Peel fields off from the last (fastest) one; ranges are the constants 64 and 48, so the
  // divisions compile to shifts and multiplications (hot in the solver: about 2x faster than
  // dividing by the stored strides).
  std::uint64_t rest = i;
  for (int j = men_ - 1; j >= 2; --j) {
    int f;
    if (type_of(pieces_[static_cast<std::size_t>(j)]) == PieceType::Pawn) {
      f = static_cast<int>(rest % 48) + 8;
      rest /= 48;
    } else {
      f = static_cast<int>(rest & 63);
      rest >>= 6;
    }
    sq[static_cast<std::size_t>(j)] = square_at(f);
  }
  const std::uint64_t kk = rest;
  if (pawns_) {
    const int half = static_cast<int>(kk / 64);
    sq[0] = make_square(static_cast<File>(half % 4), static_cast<Rank>(half / 4));
    sq[1] = square_at(static_cast<int>(kk % 64));
    return square_distance(sq[0], sq[1]) > 1;
  }
  const auto& p = kk_tables().pair[static_cast<std::size_t>(kk)];
  sq[0] = p.first;
  sq[1] = p.second;
  return true;
}

bool TableIndex::decode(std::uint64_t i, Squares& sq) const {
  if (i >= size_) return false;
  if (!fill_squares(i, sq)) return false;
  Bitboard occ = square_bb(sq[0]) | square_bb(sq[1]);
  for (int j = 2; j < men_; ++j) {
    const Bitboard b = square_bb(sq[static_cast<std::size_t>(j)]);
    if (occ & b) return false;
    occ |= b;
  }
  for (const auto& [a, b] : groups_)
    for (int j = a + 1; j < b; ++j)
      if (sq[static_cast<std::size_t>(j - 1)] > sq[static_cast<std::size_t>(j)]) return false;
  // Both kings on the a1-h8 diagonal: two symmetries reach the slot; keep the smaller index.
  if (!pawns_ &&
      std::popcount(static_cast<unsigned>(
          kk_tables().syms[static_cast<std::size_t>(to_index(sq[0]))][static_cast<std::size_t>(to_index(sq[1]))])) >
          1) {
    if (encode(sq) != i) return false;
  }
  return true;
}

int TableIndex::multiplicity(const Squares& sq) const {
  if (pawns_) return 2;
  // Only symmetries fixing both kings can fix the placement; in canonical form that is the
  // diagonal flip with both kings on a1-h8.
  if (file_index(sq[0]) != rank_index(sq[0]) || file_index(sq[1]) != rank_index(sq[1])) return 8;
  if (raw_index(sq, 1) == raw_index(sq, 0)) return 4;
  return 8;
}

int TableIndex::last_range() const {
  if (men_ < 3) return 1;
  return type_of(pieces_[static_cast<std::size_t>(men_ - 1)]) == PieceType::Pawn ? 48 : 64;
}

std::uint64_t TableIndex::row_positions(std::uint64_t row, Color stm) const {
  assert(row < size_ / static_cast<std::uint64_t>(last_range()));
  if (men_ < 3) {
    // KvK: an entry is a king slot; two kings alone never give check.
    Squares sq;
    return decode(row, sq) ? 1 : 0;
  }
  const int last = men_ - 1;
  const std::uint64_t first = row * static_cast<std::uint64_t>(last_range());
  // The fixed men of the row (the last man's square is overwritten below).
  Squares sq{};
  if (!fill_squares(first, sq)) return 0;
  Bitboard occ = square_bb(sq[0]) | square_bb(sq[1]);
  for (int j = 2; j < last; ++j) {
    const Bitboard b = square_bb(sq[static_cast<std::size_t>(j)]);
    if (occ & b) return 0;
    occ |= b;
  }
  for (const auto& [a, b] : groups_)
    for (int j = a + 1; j < std::min(b, last); ++j)
      if (sq[static_cast<std::size_t>(j - 1)] > sq[static_cast<std::size_t>(j)]) return 0;
  const Piece lp = pieces_[static_cast<std::size_t>(last)];
  const bool pawn_last = type_of(lp) == PieceType::Pawn;
  // Candidate squares of the last man (bit = square): free, on its ranks, after its twin.
  Bitboard cand = (pawn_last ? 0x00FFFFFFFFFFFF00ULL : ~Bitboard{0}) & ~occ;
  if (last - 1 >= 2 && pieces_[static_cast<std::size_t>(last - 1)] == lp) {
    const int t = to_index(sq[static_cast<std::size_t>(last - 1)]);
    cand &= t == 63 ? 0 : ~Bitboard{0} << (t + 1);
  }
  // The side not to move (king k) must not be in check. The last man cannot open a line (the
  // other men are fixed), only block one of the fixed men's or give check itself.
  const Square k = sq[stm == Color::White ? 1 : 0];
  const Bitboard kb = square_bb(k);
  for (int j = 2; j < last; ++j) {
    const Piece pc = pieces_[static_cast<std::size_t>(j)];
    if (color_of(pc) != stm) continue;
    const Square a = sq[static_cast<std::size_t>(j)];
    const PieceType pt = type_of(pc);
    if (pt == PieceType::Pawn) {
      if (pawn_attacks(stm, a) & kb) return 0;
    } else if (pt == PieceType::Knight) {
      if (knight_attacks(a) & kb) return 0;
    } else if (piece_attacks(pt, a, occ) & kb) {
      cand &= between_bb(a, k);  // a slider's check unless the last man stands between
    }
  }
  if (color_of(lp) == stm) {
    // Squares from which the last man attacks k: its attack pattern read back from k.
    const PieceType pt = type_of(lp);
    cand &= ~(pt == PieceType::Pawn ? pawn_attacks(~stm, k) : piece_attacks(pt, k, occ));
  }
  // Both kings on the a1-h8 diagonal: the larger of two mirror-image indices is broken.
  if (!pawns_ &&
      std::popcount(static_cast<unsigned>(
          kk_tables().syms[static_cast<std::size_t>(to_index(sq[0]))][static_cast<std::size_t>(to_index(sq[1]))])) >
          1) {
    for (Bitboard c = cand; c;) {
      const Square q = pop_lsb(c);
      sq[static_cast<std::size_t>(last)] = q;
      if (encode(sq) != first + static_cast<std::uint64_t>(to_index(q))) cand &= ~square_bb(q);
    }
  }
  return pawn_last ? cand >> 8 : cand;
}

TableIndex::Squares TableIndex::squares_of(const Position& pos) const {
  Squares sq{};
  int j = 0;
  while (j < men_) {
    const Piece p = pieces_[static_cast<std::size_t>(j)];
    Bitboard b = pos.pieces(color_of(p), type_of(p));
    while (j < men_ && pieces_[static_cast<std::size_t>(j)] == p) {
      DEADPOS_CHECK(b != 0);
      sq[static_cast<std::size_t>(j++)] = pop_lsb(b);
    }
  }
  return sq;
}

}  // namespace deadpos
