// deadpos/atlas.h over the <=4-man tables (fixture tables4):
//  * every count equals run_query's for the same filter (run_query is itself checked against an
//    independent forward enumeration in test_query.cpp), histogram bins included;
//  * the published deepest helpmates (see FactsFromLiterature) come out of the atlas;
//  * every example line replays with the move generator (SAN parsed against the legal moves) to a
//    checkmate of the mated side, in exactly DTHM plies, and no position of the table is deeper;
//  * the result is the same for 1 and 2 threads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "deadpos/atlas.h"
#include "deadpos/notation.h"
#include "deadpos/query.h"
#include "support/tables_dir.h"

namespace deadpos {
namespace {

struct Loaded {
  Tablebase tb;
  std::vector<TableFile> tables;
};

Loaded& loaded() {
  static Loaded* l = [] {
    auto tb = Tablebase::open({test::tables_dir()});
    EXPECT_TRUE(tb.ok());
    auto* r = new Loaded{std::move(*tb), {}};
    for (const auto& key : r->tb.materials()) {
      const Material m = *Material::parse(key);
      auto t = TableFile::open(test::tables_dir() + "/" + table_file_name(m), m, FileCheck::HeaderOnly);
      EXPECT_TRUE(t.ok()) << key;
      r->tables.push_back(std::move(*t));
    }
    return r;
  }();
  return *l;
}

const TableFile& table(const std::string& key) {
  for (const auto& t : loaded().tables)
    if (t.material().key() == key) return t;
  ADD_FAILURE() << "no table " << key;
  std::abort();
}

std::uint64_t count(const TableFile& t, QueryFilter f, Color stm) {
  f.side_to_move = stm;
  auto r = run_query(t, t.material(), f, 1);
  EXPECT_TRUE(r.ok());
  return r ? r->positions[stm] : 0;
}

TEST(Atlas, CountsEqualQueryForEveryTable) {
  ASSERT_GE(loaded().tables.size(), 30U);
  for (const auto& t : loaded().tables) {
    SCOPED_TRACE(t.material().key());
    auto a = atlas_material(t, loaded().tb, 2);
    ASSERT_TRUE(a.ok()) << a.error().message;
    for (Color stm : {Color::White, Color::Black}) {
      const AtlasSide& s = a->by_stm[stm];
      EXPECT_EQ(s.positions, count(t, {}, stm));
      QueryFilter dead;
      dead.dead = true;
      EXPECT_EQ(s.dead, count(t, dead, stm));
      QueryFilter dnm;
      dnm.dead_not_by_material = true;
      EXPECT_EQ(s.dead_not_by_material, count(t, dnm, stm));
      QueryFilter cm;
      cm.checkmate = true;
      EXPECT_EQ(s.checkmates, count(t, cm, stm));
      for (Color x : {Color::White, Color::Black}) {
        QueryFilter can;
        can.can_mate[x] = true;
        EXPECT_EQ(s.can_mate[x], count(t, can, stm));
        const auto& h = s.dthm_histogram[x];
        const int deepest = s.deepest[x].plies;
        EXPECT_EQ(static_cast<int>(h.size()), deepest + 1);
        if (deepest >= 0) {
          // Nothing deeper, something at the deepest.
          QueryFilter deeper, at;
          if (deepest < DthmCode::kMaxDthm) {
            deeper.dthm_mated[x] = PlyRange{deepest + 1, DthmCode::kMaxDthm};
            EXPECT_EQ(count(t, deeper, stm), 0U);
          }
          at.dthm_mated[x] = PlyRange{deepest, deepest};
          EXPECT_EQ(h[static_cast<std::size_t>(deepest)], count(t, at, stm));
          EXPECT_GT(h[static_cast<std::size_t>(deepest)], 0U);
        }
      }
    }
  }
}

TEST(Atlas, HistogramBinsEqualQuery) {
  for (const char* key : {"KBvKN", "KPvK", "KBBvK", "KRvKP"}) {
    SCOPED_TRACE(key);
    const TableFile& t = table(key);
    auto a = atlas_material(t, loaded().tb, 1);
    ASSERT_TRUE(a.ok());
    for (Color stm : {Color::White, Color::Black})
      for (Color x : {Color::White, Color::Black}) {
        const auto& h = a->by_stm[stm].dthm_histogram[x];
        std::uint64_t sum = 0;
        for (std::size_t p = 0; p < h.size(); ++p) {
          QueryFilter f;
          f.dthm_mated[x] = PlyRange{static_cast<int>(p), static_cast<int>(p)};
          EXPECT_EQ(h[p], count(t, f, stm)) << p;
          sum += h[p];
        }
        EXPECT_EQ(sum, a->by_stm[stm].can_mate[~x]);
      }
  }
}

// The longest shortest helpmates of the helpmate-tablebase literature (issue 11): KQvK and KRvK
// 14 plies with Black to move (13 with White to move); KBBvK, KBNvK, KNNvK 16; KPvK 17 with White
// to move; KBvKN 24 with Black to move, White mating.
TEST(Atlas, FactsFromLiterature) {
  auto deepest = [](const char* key, Color stm, Color mated) {
    auto a = atlas_material(table(key), loaded().tb, 2);
    EXPECT_TRUE(a.ok()) << key;
    return a ? a->by_stm[stm].deepest[mated].plies : -2;
  };
  for (const char* key : {"KQvK", "KRvK"}) {
    EXPECT_EQ(deepest(key, Color::Black, Color::Black), 14) << key;
    EXPECT_EQ(deepest(key, Color::White, Color::Black), 13) << key;
    EXPECT_EQ(deepest(key, Color::White, Color::White), -1) << key;
  }
  for (const char* key : {"KBBvK", "KBNvK", "KNNvK"}) {
    const int d = std::max(deepest(key, Color::White, Color::Black), deepest(key, Color::Black, Color::Black));
    EXPECT_EQ(d, 16) << key;
  }
  EXPECT_EQ(deepest("KPvK", Color::White, Color::Black), 17);
  EXPECT_EQ(deepest("KBvKN", Color::Black, Color::Black), 24);
}

TEST(Atlas, ExampleLinesReplayToMate) {
  int lines = 0;
  for (const auto& t : loaded().tables) {
    SCOPED_TRACE(t.material().key());
    auto a = atlas_material(t, loaded().tb, 2);
    ASSERT_TRUE(a.ok());
    for (Color stm : {Color::White, Color::Black})
      for (Color x : {Color::White, Color::Black}) {
        const AtlasDeepest& d = a->by_stm[stm].deepest[x];
        if (d.plies < 0) continue;
        // The FEN as printed, parsed back; the SAN as printed, parsed against the legal moves.
        auto pos = Position::from_fen(d.position.to_fen());
        ASSERT_TRUE(pos.ok());
        EXPECT_EQ(pos->side_to_move(), stm);
        ASSERT_EQ(static_cast<int>(d.san.size()), d.plies);
        Position p = *pos;
        for (const auto& san : d.san) {
          auto m = parse_san(p, san);
          ASSERT_TRUE(m.ok()) << san << " in " << p.to_fen();
          bool legal = false;
          for (Move l : p.legal_moves()) legal = legal || l == *m;
          ASSERT_TRUE(legal) << san;
          p.make_move(*m);
        }
        EXPECT_TRUE(p.is_checkmate()) << p.to_fen();
        EXPECT_EQ(p.side_to_move(), x);
        ++lines;
      }
  }
  EXPECT_GT(lines, 60);
}

TEST(Atlas, SameForAnyThreadCount) {
  for (const char* key : {"KBvKN", "KQvKP", "KBBvK"}) {
    auto one = atlas_material(table(key), loaded().tb, 1);
    auto two = atlas_material(table(key), loaded().tb, 2);
    ASSERT_TRUE(one.ok() && two.ok());
    EXPECT_TRUE(*one == *two) << key;
  }
}

TEST(Atlas, MissingSubtableIsAnErrorNotAWrongLine) {
  // A tablebase holding only KPvK: its deepest line with White to move (17 plies) must promote (a
  // pawn alone never mates), which needs the tables after the promotion.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("deadpos_atlas_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(test::tables_dir() + "/KPvK.dpt", dir / "KPvK.dpt", fs::copy_options::overwrite_existing);
  auto only = Tablebase::open({dir.string()});
  ASSERT_TRUE(only.ok());
  auto a = atlas_material(table("KPvK"), *only, 1);
  fs::remove_all(dir);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, ErrorCode::MissingTable) << a.error().message;
}

}  // namespace
}  // namespace deadpos
