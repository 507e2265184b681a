// Verdict files (docs/format.md section 7): the worked example, every entry against the verified
// tables' DTHM arrays, the reader's checks on damaged bytes, and the probe's verdict path against
// its DTHM path. The oracle is the ≤4-man tables of DEADPOS_TABLES (verified by tables.verify_4men).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/probe_door.h"
#include "deadpos/table.h"
#include "deadpos/table_directory.h"
#include "deadpos/table_layout.h"
#include "deadpos/tablebase.h"
#include "deadpos/verdict_file.h"
#include "deadpos/verify.h"
#include "support/random_position.h"
#include "support/tables_dir.h"

namespace deadpos {
namespace {

Material mat(const char* key) { return *Material::parse(key); }

std::vector<std::byte> bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> b(c.size());
  std::memcpy(b.data(), c.data(), c.size());
  return b;
}

std::string fresh_dir(const std::string& name) {
  const std::string d = testing::TempDir() + "/" + name + "_" + std::to_string(::getpid());
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// Section 7's worked example: KRvK, White Kb1 Rc3, Black Kd5, White to move is index 3986
// (section 4). White to move is side 0, so block 0, entry 3986: byte 996, bits 4-5. Black (bare
// king against king and rook) can be mated, White cannot: the code is 2.
TEST(VerdictFile, WorkedExampleOfTheSpecification) {
  const TableDirectory dir(test::tables_dir());
  auto f = VerdictFile::open(dir.verdict_path(mat("KRvK")), mat("KRvK"));
  ASSERT_TRUE(f) << f.error().message;
  const Position p = *Position::from_fen("8/8/8/3k4/8/2R5/8/1K6 w - - 0 1");
  const std::uint64_t idx = f->index().encode(f->index().squares_of(p));
  ASSERT_EQ(idx, 3986U);
  const auto [b, e] = f->locate(Color::White, idx);
  EXPECT_EQ(b, 0U);
  EXPECT_EQ(e, 3986U);
  std::vector<std::uint8_t> block;
  ASSERT_TRUE(f->read_block(b, block).ok());
  EXPECT_EQ((block[996] >> 4) & 3U, 2U);
  EXPECT_FALSE(VerdictFile::at(block, e).can_be_mated(Color::White));
  EXPECT_TRUE(VerdictFile::at(block, e).can_be_mated(Color::Black));
}

// Every entry of every ≤4-man verdict file is the finiteness of the table's two DTHMs, and the
// header's counts are the table's.
TEST(VerdictFile, EveryEntryIsTheTablesVerdict) {
  const TableDirectory dir(test::tables_dir());
  auto listed = dir.list();
  ASSERT_TRUE(listed);
  int tables = 0;
  for (const auto& entry : *listed) {
    if (!entry.material) continue;
    const Material m = *entry.material;
    auto t = TableFile::open(entry.path, m);
    ASSERT_TRUE(t) << t.error().message;
    auto v = VerdictFile::open(dir.verdict_path(m), m);
    ASSERT_TRUE(v) << v.error().message;
    EXPECT_TRUE(verdicts_match_header(v->header(), t->header())) << m.key();
    for (Color stm : {Color::White, Color::Black}) {
      auto side = v->read_side(stm);
      ASSERT_TRUE(side) << side.error().message;
      auto w = t->read_array(array_of(stm, Color::White));
      auto b = t->read_array(array_of(stm, Color::Black));
      ASSERT_TRUE(w && b);
      std::uint64_t bad = 0;
      for (std::size_t i = 0; i < side->size(); ++i) {
        const std::uint8_t want = (*w)[i] == DthmCode::kInvalid
                                      ? DthmCode::kInvalid
                                      : static_cast<std::uint8_t>(((*w)[i] <= DthmCode::kMaxDthm ? 1 : 0) |
                                                                  ((*b)[i] <= DthmCode::kMaxDthm ? 2 : 0));
        bad += (*side)[i] != want ? 1 : 0;
      }
      EXPECT_EQ(bad, 0U) << m.key() << " side to move " << to_index(stm);
    }
    ++tables;
  }
  EXPECT_EQ(tables, 36);  // every material of at most 4 men: all_materials(4)
}

// The probe's verdict path (verdict files, small blocks) and its DTHM path give the same verdicts
// on random positions of every ≤4-man material, with castling rights and en passant rights
// included where the position allows them; and a directory without verdict files answers the same.
TEST(VerdictFile, ProbeVerdictsEqualTheDthmPath) {
  const std::string with = test::tables_dir();
  const std::string without = fresh_dir("dthm_only");
  for (const auto& e : std::filesystem::directory_iterator(with))
    if (e.path().extension() == ".dpt")
      std::filesystem::copy_file(e.path(), without + "/" + e.path().filename().string());
  auto tb = Tablebase::open({with});
  auto tb2 = Tablebase::open({without});
  ASSERT_TRUE(tb && tb2);
  std::mt19937_64 rng(29);
  std::uint64_t compared = 0, mateable = 0;
  for (const std::string& key : tb->materials()) {
    for (int i = 0; i < 400; ++i) {
      // Every other position colour-swapped: the lookup of a material that is not canonical.
      const Position r = test::random_position(key, rng);
      const Position p = i % 2 ? r.color_swapped() : r;
      internal::CastlingLimits l1, l2, l3;
      auto full = internal::ProbeDoor::probe(*tb, p, l1);
      auto v = internal::ProbeDoor::verdict(*tb, p, l2);
      auto v2 = internal::ProbeDoor::verdict(*tb2, p, l3);
      ASSERT_TRUE(full && v && v2) << p.to_fen();
      for (Color x : {Color::White, Color::Black}) {
        EXPECT_EQ(v->can_be_mated(x), full->dthm[x].has_value()) << p.to_fen();
        EXPECT_EQ(v2->can_be_mated(x), full->dthm[x].has_value()) << p.to_fen();
        mateable += full->dthm[x] ? 1 : 0;
      }
      ++compared;
    }
  }
  EXPECT_EQ(compared, 36U * 400U);
  EXPECT_GT(mateable, compared / 4);  // both answers occur: the comparison can fail either way
  // Positions with an en passant right: the verdict path plays the capture like the DTHM path.
  for (const char* fen :
       {"8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/3Pp3/8/8/k3K3 b - d3 0 1", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"}) {
    const Position p = *Position::from_fen(fen);
    internal::CastlingLimits l1, l2;
    auto full = internal::ProbeDoor::probe(*tb, p, l1);
    auto v = internal::ProbeDoor::verdict(*tb, p, l2);
    ASSERT_TRUE(full && v) << fen;
    for (Color x : {Color::White, Color::Black}) EXPECT_EQ(v->can_be_mated(x), full->dthm[x].has_value()) << fen;
  }
  std::filesystem::remove_all(without);
}

// A directory of verdict files alone (issue 29 item 2): Tablebase::verdict answers from them what
// probe() answers from the verified tables (the oracle), probe() names the absent table file, and
// the analysis and the probe treat such a table as missing (a directory holding only orphan
// verdict files answers as an empty one).
TEST(VerdictFile, VerdictOnlyDirectoryAnswersVerdicts) {
  const std::string with = test::tables_dir();
  const std::string only = fresh_dir("verdicts_only");
  // KRvK keeps its table file too: a directory may mix both kinds.
  for (const auto& e : std::filesystem::directory_iterator(with))
    if (e.path().extension() == ".dpv" || e.path().filename() == "KRvK.dpt")
      std::filesystem::copy_file(e.path(), only + "/" + e.path().filename().string());
  auto tb = Tablebase::open({with});
  auto vo = Tablebase::open({only});
  ASSERT_TRUE(tb && vo);
  EXPECT_EQ(vo->materials(), std::vector<std::string>{"KRvK"});
  const std::vector<std::string> keys = vo->verdict_only_materials();
  EXPECT_EQ(keys.size(), tb->materials().size() - 1);
  EXPECT_TRUE(std::find(keys.begin(), keys.end(), "KRvK") == keys.end());
  EXPECT_EQ(vo->max_men(), 3);
  EXPECT_EQ(vo->max_verdict_men(), 4);
  std::mt19937_64 rng(291);
  std::uint64_t compared = 0, mateable = 0;
  for (const std::string& key : tb->materials()) {
    for (int i = 0; i < 100; ++i) {
      const Position r = test::random_position(key, rng);
      const Position p = i % 2 ? r.color_swapped() : r;
      auto full = tb->probe(p);
      auto v = vo->verdict(p);
      ASSERT_TRUE(full) << p.to_fen();
      ASSERT_TRUE(v) << p.to_fen() << ": " << v.error().message;
      for (Color x : {Color::White, Color::Black}) {
        EXPECT_EQ(v->can_be_mated[x], full->dthm[x].has_value()) << p.to_fen();
        mateable += v->can_be_mated[x] ? 1 : 0;
      }
      EXPECT_EQ(v->dead(), full->dead()) << p.to_fen();
      EXPECT_EQ(v->checkmate, full->checkmate);
      EXPECT_EQ(v->table, full->table);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 36U * 100U);
  EXPECT_GT(mateable, compared / 4);
  // En passant: the capture is played into another verdict-only table (KPvK -> KvK is the board).
  for (const char* fen : {"8/8/8/k2pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/3Pp3/8/8/k3K3 b - d3 0 1"}) {
    const Position p = *Position::from_fen(fen);
    auto full = tb->probe(p);
    auto v = vo->verdict(p);
    ASSERT_TRUE(full && v) << fen;
    EXPECT_TRUE(v->en_passant);
    for (Color x : {Color::White, Color::Black}) EXPECT_EQ(v->can_be_mated[x], full->dthm[x].has_value()) << fen;
  }
  // A distance needs the table file: MissingTable naming both files.
  auto missing = vo->probe(*Position::from_fen("8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::MissingTable);
  EXPECT_NE(missing.error().message.find("KRvKN.dpt"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find("KRvKN.dpv"), std::string::npos) << missing.error().message;
  // So is castling (the castling search values exactly, with the table files).
  auto castling = vo->verdict(*Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"));
  ASSERT_FALSE(castling);
  EXPECT_EQ(castling.error().code, ErrorCode::MissingTable);
  // The search's table leaves (ProbeDoor::verdict) read only tables with a table file.
  internal::CastlingLimits limits;
  auto leaf = internal::ProbeDoor::verdict(*vo, *Position::from_fen("8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1"), limits);
  ASSERT_FALSE(leaf);
  EXPECT_EQ(leaf.error().code, ErrorCode::MissingTable);
  // More men than any verdict file: TooManyMen.
  auto many = vo->verdict(*Position::from_fen("8/8/8/3k4/8/1n6/8/KRR3B1 w - - 0 1"));
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error().code, ErrorCode::TooManyMen);
  std::filesystem::remove_all(only);
}

// A copy of KRvK.dpv with `edit` applied to its bytes, in a directory of its own.
std::string edited_copy(const std::function<void(std::vector<std::byte>&)>& edit, const std::string& name) {
  std::vector<std::byte> b = bytes_of(TableDirectory(test::tables_dir()).verdict_path(mat("KRvK")));
  edit(b);
  const std::string d = fresh_dir(name);
  const std::string path = d + "/KRvK.dpv";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return path;
}

TEST(VerdictFile, DamagedBytesAreCorruptNamingWhat) {
  using V = VerdictHeaderLayout;
  struct Case {
    const char* name;
    std::function<void(std::vector<std::byte>&)> edit;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"truncated", [](auto& b) { b.resize(b.size() - 1); }, "truncated"},
      {"magic", [](auto& b) { b[0] = std::byte{'X'}; }, "bad magic"},
      {"header", [](auto& b) { b[V::kEntries.offset] ^= std::byte{1}; }, "header checksum mismatch"},
      {"data", [](auto& b) { b[V::kBytes + 3] ^= std::byte{1}; }, "file checksum mismatch"},
      {"tiny", [](auto& b) { b.resize(128); }, "shorter than a verdict file's header and trailer (136 bytes)"},
  };
  for (const Case& c : cases) {
    const std::string path = edited_copy(c.edit, c.name);
    auto f = VerdictFile::open(path, mat("KRvK"));
    ASSERT_FALSE(f) << c.name;
    EXPECT_EQ(f.error().code, ErrorCode::CorruptTable) << c.name;
    EXPECT_NE(f.error().message.find(c.says), std::string::npos) << c.name << ": " << f.error().message;
    EXPECT_NE(f.error().message.find(path), std::string::npos) << c.name << ": " << f.error().message;
  }
  // Another material's verdicts under KRvK's name.
  auto wrong = VerdictFile::open(TableDirectory(test::tables_dir()).verdict_path(mat("KQvK")), mat("KRvK"));
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().message.find("holds the verdicts of KQvK, not KRvK"), std::string::npos)
      << wrong.error().message;
}

// A probe through a damaged verdict file is an error naming it, never an answer.
TEST(VerdictFile, ProbeThroughADamagedVerdictFileIsAnError) {
  const std::string d = fresh_dir("bad_dpv");
  const TableDirectory src(test::tables_dir());
  std::filesystem::copy_file(src.table_path(mat("KRvK")), d + "/KRvK.dpt");
  std::vector<std::byte> b = bytes_of(src.verdict_path(mat("KRvK")));
  b[VerdictHeaderLayout::kBytes + 2] ^= std::byte{0x40};  // a compressed byte: the block checksum fails
  std::ofstream(d + "/KRvK.dpv", std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  auto tb = Tablebase::open({d});
  ASSERT_TRUE(tb);
  internal::CastlingLimits l;
  auto v = internal::ProbeDoor::verdict(*tb, *Position::from_fen("8/8/8/3k4/8/2R5/8/1K6 w - - 0 1"), l);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, ErrorCode::CorruptTable);
  EXPECT_NE(v.error().message.find("KRvK.dpv"), std::string::npos) << v.error().message;
}

// generate writes a missing or damaged verdict file again from the kept table; verify fails a
// table whose verdict file disagrees with it, and still checks the tables that read that table;
// an absent verdict file fails nothing.
TEST(VerdictFile, GenerateRestoresAndVerifyChecksThem) {
  const std::string d = fresh_dir("restore_dpv");
  GenerateOptions opt;
  opt.out_dir = d;
  auto r = generate({mat("KRvK"), mat("KRPvK")}, opt);
  ASSERT_TRUE(r) << r.error().message;
  const TableDirectory dir(d);
  ASSERT_TRUE(std::filesystem::exists(dir.verdict_path(mat("KRvK"))));
  // Restored when absent, byte for byte.
  const std::vector<std::byte> before = bytes_of(dir.verdict_path(mat("KRvK")));
  std::filesystem::remove(dir.verdict_path(mat("KRvK")));
  r = generate({mat("KRvK")}, opt);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->restored_verdicts, std::vector<std::string>{"KRvK"});
  EXPECT_EQ(bytes_of(dir.verdict_path(mat("KRvK"))), before);
  // A well-formed verdict file of other verdicts: KRvK's written from arrays with one finite entry
  // set to none. Its header no longer matches the table, so generate replaces it...
  auto lt = load_table(dir.table_path(mat("KRvK")), mat("KRvK"));
  ASSERT_TRUE(lt);
  auto arrays = (*lt)->arrays;
  std::size_t flipped = 0;
  while (arrays(Color::White, Color::Black)[flipped] > DthmCode::kMaxDthm) ++flipped;
  arrays(Color::White, Color::Black)[flipped] = DthmCode::kNone;
  ASSERT_TRUE(write_verdicts(dir.verdict_path(mat("KRvK")), (*lt)->index, arrays).ok());
  VerifyTablesOptions vo;
  vo.dir = d;
  auto v = verify_tables(vo);
  ASSERT_TRUE(v);
  ASSERT_GE(v->size(), 2U);  // KRPvK, KRvK and KRPvK's other subtables
  for (const TableVerdict& t : *v) {
    if (t.name == "KRvK") {
      EXPECT_EQ(t.state, TableVerdict::State::Failed);
      ASSERT_TRUE(t.error);
      EXPECT_EQ(t.error->code, ErrorCode::VerificationFailed);
      EXPECT_NE(t.error->message.find("1 of"), std::string::npos) << t.error->message;
      EXPECT_NE(t.error->message.find("KRvK.dpv"), std::string::npos) << t.error->message;
    } else {
      EXPECT_EQ(t.state, TableVerdict::State::Ok) << t.name << ": the table that reads KRvK is still checked";
    }
  }
  r = generate({mat("KRvK")}, opt);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->restored_verdicts, std::vector<std::string>{"KRvK"});
  EXPECT_EQ(bytes_of(dir.verdict_path(mat("KRvK"))), before);
  // An absent verdict file fails nothing (it is optional beside its table).
  std::filesystem::remove(dir.verdict_path(mat("KRPvK")));
  v = verify_tables(vo);
  ASSERT_TRUE(v);
  for (const TableVerdict& t : *v) EXPECT_EQ(t.state, TableVerdict::State::Ok) << t.name;
  std::filesystem::remove_all(d);
}

}  // namespace
}  // namespace deadpos
