// Exhaustive oracle for the table index (style rule 31; docs/format.md, section 4).
//
// For each material below, every raw legal placement is enumerated here with plain nested loops
// (kings not adjacent, no pawn on rank 1 or 8, men of one kind as a set), independently of the
// index code. For each placement p with i = encode(p):
//   * decode(i) succeeds and yields one of the board symmetries of p (all 8 without pawns, only the
//     left-right mirror with pawns; identical men compared as sets), and encode(decode(i)) == i;
//   * encode does not depend on the order in which identical men are given.
// Then, over the whole index range: the number of raw placements that encode to a valid i equals
// TableIndex::multiplicity(decode(i)), broken entries are never reached, and no valid entry is
// unreached.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "deadpos/bitboard.h"
#include "deadpos/index.h"
#include "deadpos/material.h"
#include "test_util.h"

namespace deadpos {
namespace {

TableIndex index_of(const char* key) {
  const Result<Material> m = Material::parse(key);
  if (!m) throw std::runtime_error(std::string("bad key ") + key);
  Result<TableIndex> idx = TableIndex::make(*m);
  if (!idx) throw std::runtime_error(std::string("TableIndex::make(") + key + "): " + idx.error().message);
  return *idx;
}

std::string describe(const TableIndex& idx, const TableIndex::Squares& sq) {
  std::string out;
  for (int j = 0; j < idx.men(); ++j) {
    if (j) out += ' ';
    out += piece_char(idx.piece(j));
    out += square_name(sq[static_cast<std::size_t>(j)]);
  }
  return out;
}

// Slot ranges [a, b) of identical men, found from the slot pieces.
std::vector<std::pair<int, int>> identical_groups(const TableIndex& idx) {
  std::vector<std::pair<int, int>> out;
  for (int j = 2; j < idx.men();) {
    int k = j + 1;
    while (k < idx.men() && idx.piece(k) == idx.piece(j)) ++k;
    if (k - j > 1) out.emplace_back(j, k);
    j = k;
  }
  return out;
}

// p with identical men sorted by square: the form in which placements are compared as sets.
TableIndex::Squares normalised(const TableIndex::Squares& p, const std::vector<std::pair<int, int>>& groups) {
  TableIndex::Squares q = p;
  for (const auto& [a, b] : groups) {
    // Insertion sort by hand: groups have 2 or 3 men (std::sort on a sub-range of the array trips
    // GCC 12's -Warray-bounds).
    for (int j = a + 1; j < b; ++j)
      for (int k = j; k > a && to_index(q[static_cast<std::size_t>(k - 1)]) > to_index(q[static_cast<std::size_t>(k)]);
           --k)
        std::swap(q[static_cast<std::size_t>(k - 1)], q[static_cast<std::size_t>(k)]);
  }
  return q;
}

bool same_men(const TableIndex& idx, const TableIndex::Squares& a, const TableIndex::Squares& b) {
  return std::equal(a.begin(), a.begin() + idx.men(), b.begin());
}

// Calls f(p) for every raw legal placement of idx's material: slot j loops over the squares, with
// the constraints written out (free square, kings apart, pawns on ranks 2-7, identical men in
// increasing order so that each set is visited once).
template <typename F>
void for_each_placement(const TableIndex& idx, F&& f) {
  TableIndex::Squares p{};
  Bitboard occ = 0;
  auto rec = [&](auto&& self, int j) -> void {
    if (j == idx.men()) {
      f(p);
      return;
    }
    const Piece pc = idx.piece(j);
    const bool pawn = type_of(pc) == PieceType::Pawn;
    const int first = (j >= 3 && idx.piece(j - 1) == pc) ? to_index(p[static_cast<std::size_t>(j - 1)]) + 1 : 0;
    for (int s = first; s < 64; ++s) {
      const Square sq = square_at(s);
      if (occ & square_bb(sq)) continue;
      if (pawn && (rank_index(sq) == 0 || rank_index(sq) == 7)) continue;
      if (j == 1) {
        const Square wk = p[0];
        const int df = file_index(wk) - file_index(sq), dr = rank_index(wk) - rank_index(sq);
        if (df >= -1 && df <= 1 && dr >= -1 && dr <= 1) continue;  // kings touch
      }
      p[static_cast<std::size_t>(j)] = sq;
      occ |= square_bb(sq);
      self(self, j + 1);
      occ &= ~square_bb(sq);
    }
  };
  rec(rec, 0);
}

class IndexExhaustive : public testing::TestWithParam<const char*> {};

// Debug and sanitizer builds are 10-15 times slower here (about 3 minutes for the whole list):
// they enumerate only the 4-man materials with pawns, which still have identical men (KPPvK);
// the pawnless 4-man ones (KBvKN, KNNvK, KRvKB: diagonal duplicates) run in Release.
bool slow_build() { return test::slow_build(); }

TEST_P(IndexExhaustive, EveryPlacementRoundTripsAndMultiplicitiesMatch) {
  const TableIndex idx = index_of(GetParam());
  if (slow_build() && idx.men() == 4 && !idx.has_pawns()) {
    std::printf("IndexExhaustive: %s left to the Release build (Debug or sanitizer build)\n", GetParam());
    return;
  }
  const auto groups = identical_groups(idx);
  // Symmetries of the scheme: all 8 without pawns, identity and flip_horizontal (g = 2) with pawns.
  std::vector<int> syms;
  if (idx.has_pawns()) {
    syms = {0, 2};
  } else {
    for (int g = 0; g < 8; ++g) syms.push_back(g);
  }
  std::vector<std::uint8_t> reached(idx.size(), 0);
  std::uint64_t placements = 0;
  std::uint64_t failures = 0;
  std::vector<std::string> report;
  auto fail = [&](const std::string& msg) {
    if (++failures <= 10) report.push_back(msg);
  };

  for_each_placement(idx, [&](const TableIndex::Squares& p) {
    ++placements;
    const std::uint64_t i = idx.encode(p);
    if (i >= idx.size()) {
      fail(describe(idx, p) + ": index " + std::to_string(i) + " out of range");
      return;
    }
    if (reached[i] < 255) ++reached[i];
    TableIndex::Squares q;
    if (!idx.decode(i, q)) {
      fail(describe(idx, p) + ": encodes to " + std::to_string(i) + ", which decode() calls broken");
      return;
    }
    bool is_image = false;
    for (int g : syms) {
      TableIndex::Squares t = p;
      for (int j = 0; j < idx.men(); ++j)
        t[static_cast<std::size_t>(j)] = apply_symmetry(g, p[static_cast<std::size_t>(j)]);
      if (same_men(idx, normalised(t, groups), normalised(q, groups))) {
        is_image = true;
        break;
      }
    }
    if (!is_image)
      fail(describe(idx, p) + ": decode(" + std::to_string(i) + ") = " + describe(idx, q) + " is no symmetry of it");
    if (idx.encode(q) != i)
      fail(describe(idx, q) + ": encode(decode(" + std::to_string(i) + ")) = " + std::to_string(idx.encode(q)));
    // Identical men in another order encode to the same value.
    if (!groups.empty()) {
      TableIndex::Squares r = p;
      for (const auto& [a, b] : groups)
        for (int j = a, k = b - 1; j < k; ++j, --k)
          std::swap(r[static_cast<std::size_t>(j)], r[static_cast<std::size_t>(k)]);
      if (idx.encode(r) != i)
        fail(describe(idx, r) + ": identical men reversed encode to " + std::to_string(idx.encode(r)));
    }
  });

  std::uint64_t valid = 0;
  std::uint64_t weighted = 0;
  for (std::uint64_t i = 0; i < idx.size(); ++i) {
    TableIndex::Squares q;
    if (!idx.decode(i, q)) {
      if (reached[i])
        fail("broken entry " + std::to_string(i) + " reached by " + std::to_string(reached[i]) + " placements");
      continue;
    }
    ++valid;
    const int mult = idx.multiplicity(q);
    weighted += static_cast<std::uint64_t>(mult);
    if (reached[i] == 0)
      fail("valid entry " + std::to_string(i) + " (" + describe(idx, q) + ") is reached by no placement");
    else if (reached[i] != mult)
      fail("entry " + std::to_string(i) + " (" + describe(idx, q) + "): " + std::to_string(reached[i]) +
           " placements, multiplicity() = " + std::to_string(mult));
  }
  std::ostringstream msg;
  for (const std::string& s : report) msg << "\n  " << s;
  EXPECT_EQ(failures, 0U) << GetParam() << ": first failures:" << msg.str();
  EXPECT_EQ(weighted, placements) << GetParam();
  RecordProperty("placements", std::to_string(placements));
  RecordProperty("valid_entries", std::to_string(valid));
}

INSTANTIATE_TEST_SUITE_P(Materials, IndexExhaustive,
                         testing::Values("KvK", "KQvK", "KPvK", "KBvKN", "KNNvK", "KPvKP", "KPPvK", "KRvKB"),
                         [](const testing::TestParamInfo<const char*>& param_info) {
                           return std::string(param_info.param);
                         });

// Raw placement counts by formula: 3612 non-adjacent king pairs (64 * 63 less 420 ordered
// adjacent pairs: 2 * (2 * 7 * 8 + 2 * 7 * 7)), times 62 squares for one more man.
TEST(Index, RawPlacementCountsByFormula) {
  std::uint64_t n = 0;
  for_each_placement(index_of("KvK"), [&](const TableIndex::Squares&) { ++n; });
  EXPECT_EQ(n, 3612U);
  n = 0;
  for_each_placement(index_of("KQvK"), [&](const TableIndex::Squares&) { ++n; });
  EXPECT_EQ(n, 3612U * 62U);
}

TEST(Index, Sizes) {
  EXPECT_EQ(index_of("KvK").size(), 462U);
  EXPECT_EQ(index_of("KRvK").size(), 462U * 64U);
  EXPECT_EQ(index_of("KPvK").size(), 2048U * 48U);
  EXPECT_EQ(index_of("KPvKP").size(), 2048U * 48U * 48U);
  EXPECT_EQ(index_of("KRBvKR").size(), 462U * 64U * 64U * 64U);
  const TableIndex krbkr = index_of("KRBvKR");
  EXPECT_EQ(krbkr.stride(0), 64U * 64U * 64U);
  EXPECT_EQ(krbkr.stride(4), 1U);
  EXPECT_FALSE(TableIndex::make(*Material::parse("KNvKB")).ok()) << "non-canonical material accepted";
}

// docs/format.md, section 4, worked example: KRvK, White Kb1, White Rc3, Black Kd5.
// kk = 33 (White king a1) + 29 (White king b1, Black king a1..c5 less b1 and its 5 neighbours)
// = 62; index = 62 * 64 + c3 (18) = 3986.
TEST(Index, FormatWorkedExampleKRvK) {
  const TableIndex idx = index_of("KRvK");
  TableIndex::Squares sq{};
  sq[0] = Square::B1;
  sq[1] = Square::D5;
  sq[2] = Square::C3;
  EXPECT_EQ(idx.encode(sq), 3986U);
  TableIndex::Squares back{};
  ASSERT_TRUE(idx.decode(3986, back));
  EXPECT_EQ(back[0], Square::B1);
  EXPECT_EQ(back[1], Square::D5);
  EXPECT_EQ(back[2], Square::C3);
  EXPECT_EQ(idx.multiplicity(back), 8);
}

// With pawns: White Kb2, Black Kh8, White pawn c4. kk = (rank 1 * 4 + file 1) * 64 + h8 (63) = 383;
// the pawn field is c4 - 8 = 18; S0 = 48: index = 383 * 48 + 18 = 18402. The mirrored placement
// (Kg2, Ka8, f4) has its White king on the right half and encodes to the same value.
TEST(Index, PawnSchemeHandExample) {
  const TableIndex idx = index_of("KPvK");
  TableIndex::Squares sq{};
  sq[0] = Square::B2;
  sq[1] = Square::H8;
  sq[2] = Square::C4;
  EXPECT_EQ(idx.encode(sq), 18402U);
  sq[0] = Square::G2;
  sq[1] = Square::A8;
  sq[2] = Square::F4;
  EXPECT_EQ(idx.encode(sq), 18402U);
  TableIndex::Squares back{};
  ASSERT_TRUE(idx.decode(18402, back));
  EXPECT_EQ(back[0], Square::B2);
  EXPECT_EQ(back[1], Square::H8);
  EXPECT_EQ(back[2], Square::C4);
  EXPECT_EQ(idx.multiplicity(back), 2);
  // Kings touching in a pawn-scheme slot: a broken entry (White Kb2, Black Kc3).
  EXPECT_FALSE(idx.decode((5U * 64U + 18U) * 48U + 18U, back));
}

// Both kings on the a1-h8 diagonal: the placement and its flip_diagonal image share the king slot;
// the encoder keeps the smaller index, and the larger one is a broken entry.
TEST(Index, DiagonalKingsKeepTheSmallerOfTwoImages) {
  const TableIndex idx = index_of("KRvK");
  TableIndex::Squares sq{};
  sq[0] = Square::B2;
  sq[1] = Square::F6;
  sq[2] = Square::A3;  // flip_diagonal: c1
  TableIndex::Squares fl = sq;
  for (int j = 0; j < 3; ++j) fl[static_cast<std::size_t>(j)] = flip_diagonal(sq[static_cast<std::size_t>(j)]);
  EXPECT_EQ(fl[2], Square::C1);
  const std::uint64_t a = idx.encode(sq);
  EXPECT_EQ(a, idx.encode(fl));
  const std::uint64_t kk = a / 64;
  EXPECT_EQ(a % 64, static_cast<std::uint64_t>(to_index(Square::C1))) << "c1 (2) < a3 (16)";
  TableIndex::Squares back{};
  EXPECT_FALSE(idx.decode(kk * 64 + static_cast<std::uint64_t>(to_index(Square::A3)), back));
  ASSERT_TRUE(idx.decode(a, back));
  EXPECT_EQ(idx.multiplicity(back), 8);
  // A rook on the diagonal too: the placement is its own flip, orbit of 4.
  sq[2] = Square::H8;
  ASSERT_TRUE(idx.decode(idx.encode(sq), back));
  EXPECT_EQ(idx.multiplicity(back), 4);
}

// TableIndex::row_positions (the format v2 reader's restoration of kInvalid, docs/format.md
// section 5) against a per-entry oracle written here: decode() (whose broken entries the
// exhaustive test above checks), then the side not to move in check, by the ray-walking reference
// sliding_attack() and the leaper tables, attacker by attacker. Every material of at most 5 men:
// all rows of the 3-man ones, 1,500 rows of each other drawn with a fixed seed (about 5% of a
// pawnless table's rows have both kings on the diagonal, the per-entry encode() path), both sides
// to move. (tables.verify_4men checks the same on every entry of the <=4-man tables, through the
// verifier's own legality masks.)
bool oracle_position(const TableIndex& idx, std::uint64_t i, Color stm) {
  TableIndex::Squares sq{};
  if (!idx.decode(i, sq)) return false;
  Bitboard occ = 0;
  for (int j = 0; j < idx.men(); ++j) occ |= square_bb(sq[static_cast<std::size_t>(j)]);
  const Square k = sq[stm == Color::White ? 1 : 0];
  for (int j = 2; j < idx.men(); ++j) {
    const Piece pc = idx.piece(j);
    if (color_of(pc) != stm) continue;
    const Square a = sq[static_cast<std::size_t>(j)];
    Bitboard att = 0;
    switch (type_of(pc)) {
      case PieceType::Pawn: att = pawn_attacks(stm, a); break;
      case PieceType::Knight: att = knight_attacks(a); break;
      case PieceType::King: break;
      default: att = sliding_attack(type_of(pc), a, occ); break;
    }
    if (att & square_bb(k)) return false;
  }
  return true;
}

TEST(Index, RowPositionsMatchDecodeAndCheckPerEntry) {
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;  // splitmix64, fixed seed
  auto next = [&state] {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  std::uint64_t rows_checked = 0, positions = 0;
  for (const Material& m : all_materials(5)) {
    const TableIndex idx = index_of(m.key().c_str());
    const auto range = static_cast<std::uint64_t>(idx.last_range());
    const std::uint64_t rows = idx.size() / range;
    ASSERT_EQ(rows * range, idx.size()) << m.key();
    const bool all = idx.men() <= 3;
    const std::uint64_t n = all ? rows : 1500;
    for (std::uint64_t t = 0; t < n; ++t) {
      const std::uint64_t row = all ? t : next() % rows;
      for (Color stm : {Color::White, Color::Black}) {
        const std::uint64_t got = idx.row_positions(row, stm);
        if (range < 64) {
          ASSERT_EQ(got >> range, 0U) << m.key() << " row " << row << ": bits past the row";
        }
        for (std::uint64_t f = 0; f < range; ++f) {
          const bool want = oracle_position(idx, row * range + f, stm);
          positions += want ? 1 : 0;
          ASSERT_EQ(((got >> f) & 1U) != 0, want)
              << m.key() << " entry " << row * range + f << (stm == Color::White ? " White" : " Black") << " to move";
        }
      }
      ++rows_checked;
    }
  }
  EXPECT_GT(positions, rows_checked);  // the oracle is not vacuous
}

}  // namespace
}  // namespace deadpos
