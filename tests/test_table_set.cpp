// The generator's promotion slices (deadpos/table_set.h: RankSlice, generation_needs, TableSet):
// which subtables are read on the promotion rank only, against move generation and the law of
// promotion (FIDE 3.7.5: a pawn reaching the rank furthest from its starting position is
// exchanged for a queen, rook, bishop or knight of the same colour on that square), and the
// values a slice holds against the whole table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/table_set.h"
#include "support/random_position.h"
#include "table_util.h"

namespace deadpos {
namespace {

std::set<std::string> sliced_needs(const std::string& key) {
  std::set<std::string> out;
  for (const SubtableNeed& n : generation_needs(test::material(key))) {
    if (!n.slice.active()) continue;
    out.insert(n.material.key() + " slot " + std::to_string(n.slice.slot) + " rank " +
               std::to_string(n.slice.rank + 1));
  }
  return out;
}

// Hand-derived from the law and the index's slot order (docs/format.md section 4: kings, then
// White's Q R B N P, then Black's): a White pawn promotes on rank 8, a Black one on rank 1; in a
// colour-swapped subtable the promoted piece changes colour and rank.
TEST(GenerationNeeds, HandListedSlices) {
  // KNPvKP: White's promotions enter KQNvKP, KRNvKP, KBNvKP (piece slot 2, rank 8) and KNNvKP (two
  // knights: not one piece alone of its kind, so whole); Black's enter KNPvKQ ... KNPvKN as they
  // are (the Black piece after White's N and P: slot 4, rank 1). The captures (4 men) are whole.
  EXPECT_EQ(sliced_needs("KNPvKP"),
            (std::set<std::string>{"KQNvKP slot 2 rank 8", "KRNvKP slot 2 rank 8", "KBNvKP slot 2 rank 8",
                                   "KNPvKQ slot 4 rank 1", "KNPvKR slot 4 rank 1", "KNPvKB slot 4 rank 1",
                                   "KNPvKN slot 4 rank 1"}));
  // KPvKP: both promotions enter KQvKP (Black's through the colour swap: its queen becomes
  // White's, on rank 8). Same slice.
  EXPECT_EQ(sliced_needs("KPvKP"), (std::set<std::string>{"KQvKP slot 2 rank 8", "KRvKP slot 2 rank 8",
                                                          "KBvKP slot 2 rank 8", "KNvKP slot 2 rank 8"}));
  // One pawn: the promotion subtables are pawnless (8 symmetries move the rank): nothing sliced.
  EXPECT_EQ(sliced_needs("KBPvKB"), std::set<std::string>{});
  EXPECT_EQ(sliced_needs("KPvK"), std::set<std::string>{});
  // KPPvK: KQPvK (slot 2, rank 8); KBPvK... each piece alone of its kind.
  EXPECT_EQ(sliced_needs("KPPvK"), (std::set<std::string>{"KQPvK slot 2 rank 8", "KRPvK slot 2 rank 8",
                                                          "KBPvK slot 2 rank 8", "KNPvK slot 2 rank 8"}));
}

// Every legal move of random positions of every material with pawns of at most 5 men that
// enters a sliced subtable lands in the slice, with a side to move the need lists (a move the rule
// missed, e.g. a capture into a sliced subtable, fails here).
TEST(GenerationNeeds, EveryMoveIntoASlicedSubtableLandsInTheSlice) {
  std::mt19937_64 rng(0x511ce);
  int checked = 0;
  for (const Material& m : all_materials(5)) {
    if (!m.has_pawns()) continue;
    const std::vector<SubtableNeed> needs = generation_needs(m);
    for (int k = 0; k < 3000; ++k) {
      const Position pos = test::random_position(m, rng);
      for (Move mv : pos.legal_moves()) {
        const Position after = pos.after(mv);
        const Material sub = Material::of(after);
        if (sub == m) continue;
        const Material canonical = sub.canonical();
        const auto it =
            std::find_if(needs.begin(), needs.end(), [&](const SubtableNeed& n) { return n.material == canonical; });
        ASSERT_NE(it, needs.end()) << m.key() << " -> " << canonical.key();
        if (!it->slice.active()) continue;
        const Position in = sub.is_canonical() ? after : after.color_swapped();
        ASSERT_TRUE(it->side_to_move[in.side_to_move()]) << m.key() << " -> " << canonical.key();
        const auto idx = TableIndex::make(canonical);
        ASSERT_TRUE(idx.ok());
        RankSlice sl = it->slice;
        sl.stride = idx->stride(sl.slot);
        ASSERT_TRUE(sl.contains(idx->encode(idx->squares_of(in))))
            << m.key() << " " << pos.to_fen() << " " << to_uci(mv) << " -> " << canonical.key();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 20000);  // this seed's sample reaches many promotions
}

// A slice loaded from the file holds the whole table's values at every entry of the slice, in an
// eighth of the memory; the whole arrays stay empty (a reader of whole arrays stops at has_side).
// retain_only cuts a table held whole to the slice, and a later whole need loads the side whole.
TEST(TableSetSlices, SliceHoldsTheWholeTablesValues) {
  const Material kqkp = test::material("KQvKP");
  const std::string path = test::tables_dir() + "/" + table_file_name(kqkp);
  auto whole = load_table(path, kqkp);
  ASSERT_TRUE(whole.ok());
  const LoadedTable& w = **whole;
  RankSlice need;
  need.slot = 2;  // the White queen
  need.rank = 7;  // rank 8
  const ByColor<bool> black{{false, true}};
  auto sliced = load_table(path, kqkp, black, need);
  ASSERT_TRUE(sliced.ok()) << sliced.error().message;
  const LoadedTable& s = **sliced;
  EXPECT_FALSE(s.has_side(Color::Black));
  EXPECT_TRUE(s.has_slice(Color::Black));
  EXPECT_FALSE(s.has_slice(Color::White));
  const std::uint64_t n = w.index.size();
  std::uint64_t in_slice = 0;
  for (Color x : {Color::White, Color::Black}) {
    EXPECT_EQ(s.slice_arrays[static_cast<std::size_t>(array_of(Color::Black, x))].size(), n / 8);
    const ArrayView v = s.view(Color::Black, x);
    const std::vector<std::uint8_t>& full = w.arrays[static_cast<std::size_t>(array_of(Color::Black, x))];
    for (std::uint64_t i = 0; i < n; ++i) {
      // The queen's square from the index arithmetic of docs/format.md section 4 (queen field
      // stride 48: one pawn after it).
      const bool on_rank8 = (i / 48) % 64 >= 56;
      ASSERT_EQ(s.slice.contains(i), on_rank8) << i;
      if (!on_rank8) continue;
      ++in_slice;
      ASSERT_EQ(v[i], full[i]) << "entry " << i;
    }
  }
  EXPECT_EQ(in_slice, 2 * n / 8);

  TableSet set(test::tables_dir());
  set.add(kqkp, std::move(*whole));
  set.retain_only({SubtableNeed(kqkp, black, need)});
  const LoadedTable* t = set.find(kqkp);
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->has_side(Color::Black));
  EXPECT_FALSE(t->has_side(Color::White));
  ASSERT_TRUE(t->has_slice(Color::Black));
  for (Color x : {Color::White, Color::Black})
    EXPECT_EQ(t->slice_arrays[static_cast<std::size_t>(array_of(Color::Black, x))],
              s.slice_arrays[static_cast<std::size_t>(array_of(Color::Black, x))]);
  EXPECT_FALSE(t->has_slice(Color::White));
  const std::uint8_t* held = t->slice_arrays[2].data();
  ASSERT_TRUE(set.require(SubtableNeed(kqkp, black, need)).ok());  // present: nothing loaded
  EXPECT_EQ(set.find(kqkp), t);
  EXPECT_EQ(t->slice_arrays[2].data(), held);
  EXPECT_FALSE(t->has_side(Color::Black));

  // White to move whole beside Black to move sliced: each read from its own arrays.
  ASSERT_TRUE(set.require(kqkp, ByColor<bool>{{true, false}}).ok());
  EXPECT_TRUE(t->has_side(Color::White));
  EXPECT_TRUE(t->has_slice(Color::Black));
  auto again = load_table(path, kqkp);
  ASSERT_TRUE(again.ok());
  const LoadedTable& w2 = **again;
  for (std::uint64_t i = 0; i < n; i += 7) {
    for (Color x : {Color::White, Color::Black}) {
      ASSERT_EQ(t->view(Color::White, x)[i], w2.arrays[static_cast<std::size_t>(array_of(Color::White, x))][i]);
      if (t->slice.contains(i)) {
        ASSERT_EQ(t->view(Color::Black, x)[i], w2.arrays[static_cast<std::size_t>(array_of(Color::Black, x))][i]);
      }
    }
  }

  ASSERT_TRUE(set.require(kqkp, black).ok());  // Black to move whole: the slice gives way
  EXPECT_TRUE(t->has_side(Color::Black));
  EXPECT_FALSE(t->has_slice(Color::Black));
  for (std::size_t a = 0; a < kNumArrays; ++a) EXPECT_EQ(t->arrays[a], w2.arrays[a]) << "array " << a;
}

// The slice arithmetic at the strides of 5-man promotion subtables, on arrays of three periods of
// the sliced field (synthetic bytes, not a table): the queen of KQNvKP (slot 2, stride 3072), its
// knight (slot 3, stride 48) and the Black queen of KNPvKQ (slot 4, the last man: stride 1). The
// offsets of the entries in the slice are each slot of the compact array once, and the cut of a
// whole side (retain_only) keeps every value there.
TEST(TableSetSlices, CutKeepsEveryValueAtEachStride) {
  struct Case {
    const char* key;
    int slot;
    int rank;
    std::uint64_t stride;
  };
  for (const Case& c : {Case{"KQNvKP", 2, 7, 3072}, Case{"KQNvKP", 3, 7, 48}, Case{"KNPvKQ", 4, 0, 1}}) {
    const Material m = test::material(c.key);
    auto idx = TableIndex::make(m);
    ASSERT_TRUE(idx.ok());
    ASSERT_EQ(idx->stride(c.slot), c.stride) << c.key;  // docs/format.md section 4
    const std::uint64_t size = 3 * 64 * c.stride;
    auto t = std::make_unique<LoadedTable>();
    t->index = *idx;
    for (Color x : {Color::White, Color::Black}) {
      std::vector<std::uint8_t>& a = t->arrays[static_cast<std::size_t>(array_of(Color::Black, x))];
      a.resize(size);
      for (std::uint64_t i = 0; i < size; ++i)
        a[i] = static_cast<std::uint8_t>((i * 0x9E3779B1ULL + (x == Color::White ? 0 : 77)) >> 11);
    }
    const LoadedTable copy = *t;
    TableSet set(test::tables_dir());
    set.add(m, std::move(t));
    RankSlice need;
    need.slot = c.slot;
    need.rank = c.rank;
    set.retain_only({SubtableNeed(m, ByColor<bool>{{false, true}}, need)});
    const LoadedTable* cut = set.find(m);
    ASSERT_NE(cut, nullptr);
    ASSERT_TRUE(cut->has_slice(Color::Black)) << c.key;
    EXPECT_FALSE(cut->has_side(Color::Black));
    std::vector<int> hits(size / 8, 0);
    std::uint64_t in = 0;
    for (std::uint64_t i = 0; i < size; ++i) {
      const bool on_rank = (i / c.stride) % 64 / 8 == static_cast<std::uint64_t>(c.rank);
      ASSERT_EQ(cut->slice.contains(i), on_rank) << c.key << " " << i;
      if (!on_rank) continue;
      ++in;
      const std::uint64_t o = cut->slice.offset(i);
      ASSERT_LT(o, size / 8) << c.key << " " << i;
      ++hits[o];
      for (Color x : {Color::White, Color::Black})
        ASSERT_EQ(cut->view(Color::Black, x)[i], copy.arrays[static_cast<std::size_t>(array_of(Color::Black, x))][i])
            << c.key << " " << i;
    }
    EXPECT_EQ(in, size / 8);
    EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; })) << c.key;
  }
}

}  // namespace
}  // namespace deadpos
