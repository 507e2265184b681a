// Row view of a table index (docs/format.md, section 4), internal to generator/.
//
// The last man's field varies fastest, so the entries that differ only in the last man's square
// are `row_len` consecutive bytes: 64, or 48 when the last man is a pawn. The solver and the
// statistics pass work on whole rows: the rest of the men (kings and every man but the last) is
// decoded once per row, and per-row facts are 64-bit masks whose bit sq stands for the entry with
// the last man on square sq (a pawn row uses bits 8..55: field + 8).
//
// Example (KRBvKR, pawnless): fields [kk, R, B, r], strides [262144, 4096, 64, 1]; row
// 1000 = kk slot 0 (rows_per_slot 4096), R field 15 (h2), B field 40 (a6): the 64 entries
// 64000..64063, entry 64000 + sq with the Black rook on sq.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "deadpos/bitboard.h"
#include "deadpos/index.h"

namespace deadpos::internal {

// Bitboard images of the board symmetries by delta swaps (core's flip_horizontal and
// flip_diagonal loop over the set squares; these are branch-free, about 10 instructions).
constexpr Bitboard mirror_files(Bitboard b) {
  b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
  b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
  b = ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
  return b;
}
constexpr Bitboard mirror_diagonal(Bitboard b) {
  Bitboard t = 0x0F0F0F0F00000000ULL & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = 0x3333000033330000ULL & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = 0x5500550055005500ULL & (b ^ (b << 7));
  b ^= t ^ (t >> 7);
  return b;
}
// {apply_symmetry(g, s) : s in b}.
constexpr Bitboard symmetry_image(int g, Bitboard b) {
  if (g & 1) b = mirror_diagonal(b);
  if (g & 2) b = mirror_files(b);
  if (g & 4) b = __builtin_bswap64(b);
  return b;
}
// {s : apply_symmetry(g, s) in b} (the verbs are involutions, applied in reverse order).
constexpr Bitboard symmetry_preimage(int g, Bitboard b) {
  if (g & 4) b = __builtin_bswap64(b);
  if (g & 2) b = mirror_files(b);
  if (g & 1) b = mirror_diagonal(b);
  return b;
}
static_assert([] {
  for (int g = 0; g < 8; ++g)
    for (int s = 0; s < 64; ++s) {
      const Square sq = square_at(s);
      if (symmetry_image(g, square_bb(sq)) != square_bb(apply_symmetry(g, sq))) return false;
      if (symmetry_preimage(g, square_bb(apply_symmetry(g, sq))) != square_bb(sq)) return false;
    }
  return true;
}());

// Attacks of a non-pawn piece type: piece_attacks() inlined (the out-of-line call with its switch
// was 6% of generation time on KRBvKR).
inline Bitboard attacks_of(PieceType pt, Square s, Bitboard occ) {
  switch (pt) {
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occ);
    case PieceType::Rook: return rook_attacks(s, occ);
    case PieceType::Queen: return queen_attacks(s, occ);
    case PieceType::King: return king_attacks(s);
    case PieceType::Pawn: break;
  }
  assert(false && "attacks_of: pawns need a colour");
  return 0;
}

// between_bb() as an inline table lookup (the call was 3.5% of generation time on KRBvKR).
inline const std::array<std::array<Bitboard, 64>, 64> kBetweenTable = [] {
  std::array<std::array<Bitboard, 64>, 64> t{};
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b)
      t[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = between_bb(square_at(a), square_at(b));
  return t;
}();
inline Bitboard between(Square a, Square b) {
  return kBetweenTable[static_cast<std::size_t>(to_index(a))][static_cast<std::size_t>(to_index(b))];
}

// Where a king pair goes in the index: slot (-1 if the kings touch or coincide), the symmetry g
// that brings the pair to its canonical form, and whether both kings then stand on the a1-h8
// diagonal (pawnless only: two symmetries keep the pair, and the canonical index of a placement
// depends on the other men).
struct KingPair {
  std::int16_t slot = -1;
  std::uint8_t g = 0;
  bool diag = false;
};

class RowGeometry {
 public:
  // Builds the tables from the spec of format.md section 4 and checks them against idx.encode()
  // for every king pair (DEADPOS_CHECK: about 4,000 encodes).
  explicit RowGeometry(const TableIndex& idx);

  int men() const { return men_; }
  int last() const { return men_ - 1; }
  // True when the table has a last man (3 or more men); KvK has no rows.
  bool has_rows() const { return men_ >= 3; }
  Piece piece(int j) const { return pieces_[static_cast<std::size_t>(j)]; }
  int row_len() const { return row_len_; }
  // Square of the last man in the first entry of a row (8 for a pawn).
  int row_base() const { return row_base_; }
  // Every square a last man can stand on.
  Bitboard row_squares() const { return row_squares_; }
  std::uint64_t rows() const { return rows_; }
  std::uint64_t rows_per_slot() const { return rows_per_slot_; }
  int slots() const { return slots_; }
  // Row-number stride of man j (2 <= j < last()).
  std::uint64_t row_stride(int j) const { return row_stride_[static_cast<std::size_t>(j)]; }
  // Square of field 0 of man j (8 for pawns, 0 for pieces).
  int field_base(int j) const { return field_base_[static_cast<std::size_t>(j)]; }
  // The last man shares its kind with the man before it (fields in increasing square order).
  bool last_grouped() const { return last_grouped_; }
  // The last man has exactly one twin (slot last() - 1).
  bool last_pair() const {
    return last_grouped_ &&
           (last() < 4 || pieces_[static_cast<std::size_t>(last() - 2)] != pieces_[static_cast<std::size_t>(last())]);
  }
  // Groups of identical men among slots 2..last()-1 that do not contain the last man.
  const std::vector<std::pair<int, int>>& rest_groups() const { return rest_groups_; }
  // All groups of identical men, [first, end) slot ranges.
  const std::vector<std::pair<int, int>>& groups() const { return groups_; }
  // Whether man j shares its kind with another man.
  bool grouped(int j) const { return grouped_[static_cast<std::size_t>(j)]; }
  // Whether man j (2 <= j < last()) is in one of rest_groups().
  bool in_rest_group(int j) const { return in_rest_group_[static_cast<std::size_t>(j)]; }

  const KingPair& king_pair(Square wk, Square bk) const {
    return pairs_[static_cast<std::size_t>(to_index(wk))][static_cast<std::size_t>(to_index(bk))];
  }
  Square slot_king(int slot, Color c) const {
    return kings_[static_cast<std::size_t>(slot)][static_cast<std::size_t>(to_index(c))];
  }
  // Slot kinds: pawn-scheme slots with touching or equal kings are broken; pawnless slots with
  // both kings on the a1-h8 diagonal are "diagonal" (see KingPair::diag).
  bool slot_broken(int slot) const { return slot_kind_[static_cast<std::size_t>(slot)] == 2; }
  bool slot_diag(int slot) const { return slot_kind_[static_cast<std::size_t>(slot)] == 1; }

  // Squares of slots 0..last()-1 of a row (the last man's square is left alone). Returns false
  // when every entry of the row is broken (kings touch, two men share a square, identical men
  // out of order); occ_rest gets the occupancy of those men.
  bool decode_row(std::uint64_t row, TableIndex::Squares& sq, Bitboard& occ_rest) const;

  // decode_row() for squares already decoded (slot not broken).
  bool check_row(const TableIndex::Squares& sq, Bitboard& occ_rest) const;
  int field_range(int j) const { return field_range_[static_cast<std::size_t>(j)]; }

  // Row number of the placement sq (slots 0..last()-1 only, already canonical and sorted).
  std::uint64_t row_of(int slot, const TableIndex::Squares& sq) const {
    std::uint64_t r = static_cast<std::uint64_t>(slot) * rows_per_slot_;
    for (int j = 2; j < last(); ++j)
      r += static_cast<std::uint64_t>(to_index(sq[static_cast<std::size_t>(j)]) - field_base(j)) * row_stride(j);
    return r;
  }
  // Sorts the men of each rest group into increasing square order (insertion sort: 2-3 men).
  void sort_rest_groups(TableIndex::Squares& sq) const {
    for (const auto& [a, b] : rest_groups_)
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

 private:
  int men_ = 0;
  bool pawns_ = false;
  std::array<Piece, kMaxTableMen> pieces_{};
  int row_len_ = 1;
  int row_base_ = 0;
  Bitboard row_squares_ = 0;
  int slots_ = 0;
  std::uint64_t rows_ = 0;
  std::uint64_t rows_per_slot_ = 0;
  std::array<std::uint64_t, kMaxTableMen> row_stride_{};
  std::array<int, kMaxTableMen> field_base_{};
  std::array<int, kMaxTableMen> field_range_{};
  bool last_grouped_ = false;
  std::vector<std::pair<int, int>> rest_groups_;
  std::array<bool, kMaxTableMen> in_rest_group_{};
  std::array<bool, kMaxTableMen> grouped_{};
  std::vector<std::pair<int, int>> order_groups_;  // all groups, clipped to slots < last()
  std::vector<std::pair<int, int>> groups_;
  std::array<std::array<KingPair, 64>, 64> pairs_{};
  std::vector<std::array<Square, 2>> kings_;
  std::vector<std::uint8_t> slot_kind_;
};

// Walks the rows of one kk slot in index order, stepping the squares of the men of slots
// 2..last()-1 like an odometer (decode_row's divisions were 8% of the solver on KRBvKR).
class RowCursor {
 public:
  RowCursor(const RowGeometry& geo, int slot)
      : geo_(geo), row_(static_cast<std::uint64_t>(slot) * geo.rows_per_slot()), broken_(geo.slot_broken(slot)) {
    sq_[0] = geo.slot_king(slot, Color::White);
    sq_[1] = geo.slot_king(slot, Color::Black);
    for (int j = 2; j < geo.last(); ++j) sq_[static_cast<std::size_t>(j)] = square_at(geo.field_base(j));
  }
  std::uint64_t row() const { return row_; }
  // Squares of slots 0..last()-1 of the current row (slot last() is the caller's).
  TableIndex::Squares& squares() { return sq_; }
  // As RowGeometry::decode_row: false when every entry of the row is broken.
  bool valid(Bitboard& occ_rest) const { return !broken_ && geo_.check_row(sq_, occ_rest); }
  void next() {
    ++row_;
    for (int j = geo_.last() - 1; j >= 2; --j) {
      auto& s = sq_[static_cast<std::size_t>(j)];
      const int v = to_index(s) + 1;
      if (v < geo_.field_base(j) + geo_.field_range(j)) {
        s = square_at(v);
        return;
      }
      s = square_at(geo_.field_base(j));
    }
  }

 private:
  const RowGeometry& geo_;
  std::uint64_t row_;
  bool broken_;
  TableIndex::Squares sq_{};
};

inline RowGeometry::RowGeometry(const TableIndex& idx) : men_(idx.men()), pawns_(idx.has_pawns()) {
  for (int j = 0; j < men_; ++j) pieces_[static_cast<std::size_t>(j)] = idx.piece(j);
  for (int j = 2; j < men_; ++j) {
    const bool pawn = type_of(pieces_[static_cast<std::size_t>(j)]) == PieceType::Pawn;
    field_base_[static_cast<std::size_t>(j)] = pawn ? 8 : 0;
    field_range_[static_cast<std::size_t>(j)] = pawn ? 48 : 64;
  }
  if (has_rows()) {
    row_len_ = field_range_[static_cast<std::size_t>(last())];
    row_base_ = field_base_[static_cast<std::size_t>(last())];
  }
  row_squares_ = row_len_ == 48 ? 0x00FFFFFFFFFFFF00ULL : ~Bitboard{0};
  slots_ = idx.kk_slots();
  rows_per_slot_ = idx.stride(0) / static_cast<std::uint64_t>(row_len_);
  rows_ = static_cast<std::uint64_t>(slots_) * rows_per_slot_;
  for (int j = 2; j < last(); ++j)
    row_stride_[static_cast<std::size_t>(j)] = idx.stride(j) / static_cast<std::uint64_t>(row_len_);
  last_grouped_ =
      men_ >= 4 && pieces_[static_cast<std::size_t>(last())] == pieces_[static_cast<std::size_t>(last() - 1)];
  for (int j = 2; j < last();) {
    int k = j;
    while (k < men_ && pieces_[static_cast<std::size_t>(k)] == pieces_[static_cast<std::size_t>(j)]) ++k;
    if (k - j > 1) {
      groups_.emplace_back(j, k);
      for (int m = j; m < k; ++m) grouped_[static_cast<std::size_t>(m)] = true;
      order_groups_.emplace_back(j, std::min(k, last()));
      if (k < men_) {
        rest_groups_.emplace_back(j, k);
        for (int m = j; m < k; ++m) in_rest_group_[static_cast<std::size_t>(m)] = true;
      }
    }
    j = k;
  }

  // King pairs (format.md section 4).
  if (pawns_) {
    kings_.resize(2048);
    slot_kind_.assign(2048, 0);
    for (int s = 0; s < 2048; ++s) {
      const Square w = make_square(static_cast<File>((s / 64) % 4), static_cast<Rank>(s / 256));
      const Square b = square_at(s % 64);
      kings_[static_cast<std::size_t>(s)] = {w, b};
      if (square_distance(w, b) <= 1) slot_kind_[static_cast<std::size_t>(s)] = 2;
    }
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) {
        if (square_distance(square_at(w), square_at(b)) <= 1) continue;
        const int g = file_index(square_at(w)) >= 4 ? 2 : 0;
        const Square tw = apply_symmetry(g, square_at(w));
        const Square tb = apply_symmetry(g, square_at(b));
        KingPair& p = pairs_[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)];
        p.slot = static_cast<std::int16_t>((rank_index(tw) * 4 + file_index(tw)) * 64 + to_index(tb));
        p.g = static_cast<std::uint8_t>(g);
      }
  } else {
    auto in_region = [](Square w, Square b) {
      const int fw = file_index(w), rw = rank_index(w);
      if (fw > 3 || rw > fw || square_distance(w, b) <= 1) return false;
      return fw != rw || file_index(b) >= rank_index(b);
    };
    std::array<std::array<std::int16_t, 64>, 64> slot_of{};
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) {
        slot_of[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)] = -1;
        if (!in_region(square_at(w), square_at(b))) continue;
        slot_of[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)] = static_cast<std::int16_t>(kings_.size());
        kings_.push_back({square_at(w), square_at(b)});
        const bool diag = file_index(square_at(w)) == rank_index(square_at(w)) &&
                          file_index(square_at(b)) == rank_index(square_at(b));
        slot_kind_.push_back(diag ? 1 : 0);
      }
    DEADPOS_CHECK(kings_.size() == 462);
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) {
        KingPair& p = pairs_[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)];
        for (int g = 7; g >= 0; --g) {
          const Square tw = apply_symmetry(g, square_at(w));
          const Square tb = apply_symmetry(g, square_at(b));
          if (!in_region(tw, tb)) continue;
          p.slot = slot_of[static_cast<std::size_t>(to_index(tw))][static_cast<std::size_t>(to_index(tb))];
          p.g = static_cast<std::uint8_t>(g);  // the lowest such g, as the loop runs downwards
        }
        if (p.slot >= 0) p.diag = slot_kind_[static_cast<std::size_t>(p.slot)] == 1;
      }
  }
  // Cross-check with the encoder: the other men on free squares (pawns on ranks 2-7).
  if (men_ >= 2) {
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) {
        const KingPair& p = pairs_[static_cast<std::size_t>(w)][static_cast<std::size_t>(b)];
        if (p.slot < 0) {
          DEADPOS_CHECK(square_distance(square_at(w), square_at(b)) <= 1);
          continue;
        }
        TableIndex::Squares sq{};
        sq[0] = square_at(w);
        sq[1] = square_at(b);
        int next = 8;
        for (int j = 2; j < men_; ++j) {
          while (next == w || next == b) ++next;
          sq[static_cast<std::size_t>(j)] = square_at(next++);
        }
        DEADPOS_CHECK(idx.encode(sq) / idx.stride(0) == static_cast<std::uint64_t>(p.slot));
        const auto& k = kings_[static_cast<std::size_t>(p.slot)];
        DEADPOS_CHECK(k[0] == apply_symmetry(p.g, square_at(w)) && k[1] == apply_symmetry(p.g, square_at(b)));
      }
  }
}

inline bool RowGeometry::decode_row(std::uint64_t row, TableIndex::Squares& sq, Bitboard& occ_rest) const {
  const auto slot = static_cast<int>(row / rows_per_slot_);
  std::uint64_t r = row % rows_per_slot_;
  for (int j = last() - 1; j >= 2; --j) {
    const auto range = static_cast<std::uint64_t>(field_range_[static_cast<std::size_t>(j)]);
    sq[static_cast<std::size_t>(j)] = square_at(static_cast<int>(r % range) + field_base(j));
    r /= range;
  }
  sq[0] = kings_[static_cast<std::size_t>(slot)][0];
  sq[1] = kings_[static_cast<std::size_t>(slot)][1];
  if (slot_broken(slot)) return false;
  return check_row(sq, occ_rest);
}

inline bool RowGeometry::check_row(const TableIndex::Squares& sq, Bitboard& occ_rest) const {
  Bitboard occ = square_bb(sq[0]) | square_bb(sq[1]);
  for (int j = 2; j < last(); ++j) {
    const Bitboard bb = square_bb(sq[static_cast<std::size_t>(j)]);
    if (occ & bb) return false;
    occ |= bb;
  }
  occ_rest = occ;
  for (const auto& [a, b] : order_groups_)
    for (int j = a + 1; j < b; ++j)
      if (sq[static_cast<std::size_t>(j - 1)] > sq[static_cast<std::size_t>(j)]) return false;
  return true;
}

}  // namespace deadpos::internal
