// Facts about the generated <=4-man tables (DEADPOS_TABLES, the ctest fixture "tables4").
//
// Counts are raw positions (docs/design.md, "Statistics"): every placement counts once, no
// symmetry reduction, identical men unordered. They come from compute_stats() over the table
// bytes; StatisticsFileMatchesTable checks the <KEY>.json written beside each table against it.
//
// Published facts (docs/design.md, "Statistics"): KQvK has 144,508 positions with White to move
// and 223,944 with Black to move; with Black to move White cannot mate in 3,292 of them (872
// stalemates, 2,420 where Black's only move captures the queen); KRvK has 480 such positions; the
// longest shortest helpmate in KQvK and KRvK is 13 plies with White to move and 14 with Black to
// move. Dead materials: KvK, KBvK, KNvK and KBvKB with bishops on squares of one colour (FIDE
// 5.2.2 and the usual examples of it).
//
// Also here: byte-identical output for 1 and 2 threads (style rule 33) and the committed checksum
// list tests/data/tables4.xxh64 (see its header and tests/data/make_checksums.sh).
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deadpos/bitboard.h"
#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/stats.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"
#include "table_util.h"
#include "test_util.h"
#include "xxh64_file.h"

namespace deadpos {
namespace {

using test::table_stats;

const SideStats& white_to_move(const TableStats& s) { return s.side[0]; }
const SideStats& black_to_move(const TableStats& s) { return s.side[1]; }

const BishopClassStats& bishop_class(const TableStats& s, const std::string& colours) {
  for (const BishopClassStats& c : s.bishop_classes)
    if (c.colours == colours) return c;
  throw std::runtime_error(s.material + ": no bishop colour class " + colours);
}

TEST(TableFacts, KQvKPositionCounts) {
  const TableStats& s = table_stats("KQvK");
  EXPECT_EQ(white_to_move(s).positions, 144'508U);
  EXPECT_EQ(black_to_move(s).positions, 223'944U);
  // White to move, White always can mate; Black never can (a bare king).
  EXPECT_EQ(white_to_move(s).white_can_mate, 144'508U);
  EXPECT_EQ(white_to_move(s).black_can_mate, 0U);
  EXPECT_EQ(black_to_move(s).black_can_mate, 0U);
}

TEST(TableFacts, KQvKWhiteCannotMateIn3292BlackToMovePositions) {
  const SideStats& b = black_to_move(table_stats("KQvK"));
  EXPECT_EQ(b.positions - b.white_can_mate, 3'292U);
  EXPECT_EQ(b.dead, 3'292U);
  EXPECT_EQ(b.stalemates, 872U);
  EXPECT_EQ(b.dead - b.stalemates, 2'420U);
}

TEST(TableFacts, KRvKWhiteCannotMateIn480BlackToMovePositions) {
  const TableStats& s = table_stats("KRvK");
  const SideStats& b = black_to_move(s);
  EXPECT_EQ(b.positions, 223'944U);
  EXPECT_EQ(b.positions - b.white_can_mate, 480U);
  EXPECT_EQ(white_to_move(s).white_can_mate, white_to_move(s).positions);
}

TEST(TableFacts, LongestHelpmatesKQvKAndKRvK) {
  for (const char* key : {"KQvK", "KRvK"}) {
    const TableStats& s = table_stats(key);
    EXPECT_EQ(white_to_move(s).max_dthm[Color::Black], 13) << key;
    EXPECT_EQ(black_to_move(s).max_dthm[Color::Black], 14) << key;
    EXPECT_EQ(white_to_move(s).max_dthm[Color::White], -1) << key << ": Black cannot mate";
    EXPECT_EQ(black_to_move(s).max_dthm[Color::White], -1) << key;
    // The histogram ends at the maximum and counts every position White can mate.
    for (const SideStats* side : {&white_to_move(s), &black_to_move(s)}) {
      const auto& h = side->histogram[Color::Black];
      ASSERT_EQ(static_cast<int>(h.size()), side->max_dthm[Color::Black] + 1) << key;
      EXPECT_GT(h.back(), 0U) << key;
      std::uint64_t sum = 0;
      for (std::uint64_t x : h) sum += x;
      EXPECT_EQ(sum, side->white_can_mate) << key;
    }
  }
}

// Independent check of the 3,292 (KQvK) and 480 (KRvK): enumerate every Black-to-move position
// with the move generator and confirm that White cannot mate exactly in the stalemates and the
// positions where Black's only legal move captures the white piece.
struct CannotMateSplit {
  std::uint64_t positions = 0, checkmates = 0, stalemates = 0, forced_capture = 0, mismatches = 0;
  std::string first_mismatch;
};

CannotMateSplit split_cannot_mate(const std::string& key) {
  const Material m = test::material(key);
  TableSet set(test::tables_dir());
  if (Status st = set.require(m); !st) throw std::runtime_error(st.error().message);
  const Piece pcs[3] = {make_piece(Color::White, PieceType::King), make_piece(Color::Black, PieceType::King),
                        m.non_king_men().at(0)};
  CannotMateSplit out;
  for (int wk = 0; wk < 64; ++wk)
    for (int bk = 0; bk < 64; ++bk) {
      if (square_distance(square_at(wk), square_at(bk)) <= 1) continue;
      for (int x = 0; x < 64; ++x) {
        if (x == wk || x == bk) continue;
        const Square sqs[3] = {square_at(wk), square_at(bk), square_at(x)};
        const Position pos = Position::from_men(pcs, sqs, 3, Color::Black);
        ++out.positions;  // Black to move: White's king is never in check from a bare king
        const MoveList moves = pos.legal_moves();
        const bool stalemate = moves.empty() && !pos.in_check();
        const bool forced_capture = moves.size() == 1 && moves[0].to() == square_at(x);
        out.checkmates += moves.empty() && pos.in_check();
        out.stalemates += stalemate;
        out.forced_capture += forced_capture;
        const bool none = set.value(pos, Color::Black) == DthmCode::kNone;
        if (none != (stalemate || forced_capture)) {
          if (out.mismatches++ == 0)
            out.first_mismatch = pos.to_fen() + ": table says White " + (none ? "cannot" : "can") + " mate";
        }
      }
    }
  return out;
}

TEST(TableFacts, KQvKCannotMateExactlyInStalematesAndForcedQueenCaptures) {
  const CannotMateSplit s = split_cannot_mate("KQvK");
  EXPECT_EQ(s.positions, 223'944U);
  EXPECT_EQ(s.stalemates, 872U);
  EXPECT_EQ(s.forced_capture, 2'420U);
  EXPECT_EQ(s.checkmates, black_to_move(table_stats("KQvK")).checkmates);
  EXPECT_EQ(s.mismatches, 0U) << "first: " << s.first_mismatch;
}

TEST(TableFacts, KRvKCannotMateExactlyInStalematesAndForcedRookCaptures) {
  const CannotMateSplit s = split_cannot_mate("KRvK");
  EXPECT_EQ(s.positions, 223'944U);
  EXPECT_EQ(s.stalemates + s.forced_capture, 480U);
  EXPECT_EQ(s.stalemates, black_to_move(table_stats("KRvK")).stalemates);
  EXPECT_EQ(s.checkmates, black_to_move(table_stats("KRvK")).checkmates);
  EXPECT_EQ(s.mismatches, 0U) << "first: " << s.first_mismatch;
  RecordProperty("stalemates", std::to_string(s.stalemates));
  RecordProperty("forced_rook_captures", std::to_string(s.forced_capture));
}

void expect_all_dead(const std::string& what, const std::array<SideStats, 2>& side) {
  for (int stm = 0; stm < 2; ++stm) {
    const SideStats& x = side[static_cast<std::size_t>(stm)];
    const char* who = stm == 0 ? " White to move" : " Black to move";
    EXPECT_GT(x.positions, 0U) << what << who;
    EXPECT_EQ(x.dead, x.positions) << what << who;
    EXPECT_EQ(x.white_can_mate, 0U) << what << who;
    EXPECT_EQ(x.black_can_mate, 0U) << what << who;
    EXPECT_EQ(x.checkmates, 0U) << what << who;
  }
}

TEST(TableFacts, BareKingsAndLoneMinorPiecesAreDead) {
  for (const char* key : {"KvK", "KBvK", "KNvK"}) expect_all_dead(key, table_stats(key).side);
  EXPECT_EQ(white_to_move(table_stats("KvK")).positions, 3'612U);
  for (const char* colours : {"L", "D"})
    expect_all_dead(std::string("KBvK ") + colours, bishop_class(table_stats("KBvK"), colours).side);
}

TEST(TableFacts, KBvKBWithSameColouredBishopsIsDead) {
  const TableStats& s = table_stats("KBvKB");
  ASSERT_EQ(s.bishop_classes.size(), 4U);
  for (const char* colours : {"LL", "DD"})
    expect_all_dead(std::string("KBvKB ") + colours, bishop_class(s, colours).side);
  // The classes split every position (each orbit is half in one class, half in its complement).
  for (int stm = 0; stm < 2; ++stm) {
    std::uint64_t sum = 0;
    for (const BishopClassStats& c : s.bishop_classes) sum += c.side[static_cast<std::size_t>(stm)].positions;
    EXPECT_EQ(sum, s.side[static_cast<std::size_t>(stm)].positions);
  }
}

// "Most positions allow a mate" for a side: more than half of the positions, for both sides to move.
void expect_majority(const std::string& what, const std::array<SideStats, 2>& side, bool white, bool black) {
  for (int stm = 0; stm < 2; ++stm) {
    const SideStats& x = side[static_cast<std::size_t>(stm)];
    const char* who = stm == 0 ? " White to move" : " Black to move";
    EXPECT_LT(x.dead, x.positions) << what << who << ": not dead as a material";
    if (white) {
      EXPECT_GT(2 * x.white_can_mate, x.positions) << what << who << ": White can mate in most positions";
    } else {
      EXPECT_EQ(x.white_can_mate, 0U) << what << who;
    }
    if (black) {
      EXPECT_GT(2 * x.black_can_mate, x.positions) << what << who << ": Black can mate in most positions";
    } else {
      EXPECT_EQ(x.black_can_mate, 0U) << what << who;
    }
  }
}

TEST(TableFacts, MaterialsThatAreNotDead) {
  expect_majority("KBvKN", table_stats("KBvKN").side, true, true);
  expect_majority("KNvKN", table_stats("KNvKN").side, true, true);
  expect_majority("KNNvK", table_stats("KNNvK").side, true, false);
  expect_majority("KPvK", table_stats("KPvK").side, true, false);
  for (const char* colours : {"LD", "DL"})
    expect_majority(std::string("KBvKB ") + colours, bishop_class(table_stats("KBvKB"), colours).side, true, true);
}

// The statistics file beside each table agrees with compute_stats() over the table bytes.
TEST(TableFacts, StatisticsFileMatchesTable) {
  for (const char* key : {"KvK", "KQvK", "KRvK", "KBvKB", "KBvKN", "KNNvK", "KPvK", "KPvKP"}) {
    const std::string path = test::tables_dir() + "/" + key + ".json";
    std::ifstream in(path);
    ASSERT_TRUE(in) << "cannot read " << path;
    const nlohmann::json j = nlohmann::json::parse(in);
    const TableStats& s = table_stats(key);
    EXPECT_EQ(j.at("material").get<std::string>(), key);
    for (int stm = 0; stm < 2; ++stm) {
      const nlohmann::json& js = j.at(stm == 0 ? "white_to_move" : "black_to_move");
      const SideStats& x = s.side[static_cast<std::size_t>(stm)];
      EXPECT_EQ(js.at("positions").get<std::uint64_t>(), x.positions) << key;
      EXPECT_EQ(js.at("checkmates").get<std::uint64_t>(), x.checkmates) << key;
      EXPECT_EQ(js.at("stalemates").get<std::uint64_t>(), x.stalemates) << key;
      EXPECT_EQ(js.at("white_can_mate").get<std::uint64_t>(), x.white_can_mate) << key;
      EXPECT_EQ(js.at("black_can_mate").get<std::uint64_t>(), x.black_can_mate) << key;
      EXPECT_EQ(js.at("dead").get<std::uint64_t>(), x.dead) << key;
      EXPECT_EQ(js.at("max_dthm_white_mated_plies").get<int>(), x.max_dthm[Color::White]) << key;
      EXPECT_EQ(js.at("max_dthm_black_mated_plies").get<int>(), x.max_dthm[Color::Black]) << key;
    }
    EXPECT_GE(j.at("seconds").get<double>(), 0.0);
  }
}

// ---------------------------------------------------------------------------------------------
// Reproducibility (style rule 33).

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A directory under the system temp directory, removed with its contents at scope exit.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    static int n = 0;
    path = std::filesystem::temp_directory_path() /
           ("deadpos_test_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    std::filesystem::remove_all(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// Debug and sanitizer builds solve about 300 times slower (the solver checks every predecessor
// index there): they build KPvK and its 3-man subtables only, not KBvKN.
bool slow_build() { return test::slow_build(); }

TEST(TableDeterminism, OneAndTwoThreadsWriteIdenticalFiles) {
  std::vector<Material> targets = {test::material("KBvKN"), test::material("KPvK")};
  if (slow_build()) {
    std::printf("TableDeterminism: Debug or sanitizer build: KPvK and its subtables only\n");
    targets.erase(targets.begin());
  }
  TempDir one("t1"), two("t2");
  const int saved = omp_get_max_threads();
  for (auto [threads, dir] : {std::pair{1, &one}, std::pair{2, &two}}) {
    omp_set_num_threads(threads);
    GenerateOptions opt;
    opt.out_dir = dir->path.string();
    const Result<GenerateResult> r = generate(targets, opt);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r->skipped.empty());
  }
  omp_set_num_threads(saved);
  // KBvKN, KPvK and their subtables: KvK, KBvK, KNvK, KQvK, KRvK.
  const std::vector<Material> order = build_order(targets);
  EXPECT_EQ(order.size(), slow_build() ? 6U : 7U);
  for (const Material& m : order) {
    const std::string name = table_file_name(m);
    const std::string a = file_bytes((one.path / name).string());
    const std::string b = file_bytes((two.path / name).string());
    EXPECT_GT(a.size(), 144U) << name;
    EXPECT_TRUE(a == b) << name << " differs between 1 and 2 threads";
    // And equal to the fixture's table, built with the default thread count.
    EXPECT_TRUE(a == file_bytes(test::tables_dir() + "/" + name)) << name << " differs from the fixture's";
  }
}

// The verifier must catch a wrong entry of every kind: a finite value off by one, a finite value
// replaced by "none", "none" replaced by a finite value, an invalid entry marked valid, and a valid
// entry marked invalid. KPvK has an en passant-free pawn and both target sides; KQvK is pawnless.
TEST(TableVerify, FindsEveryKindOfWrongEntry) {
  for (const char* key : {"KQvK", "KPvK"}) {
    const Material m = test::material(key);
    auto t = load_table(test::tables_dir() + "/" + table_file_name(m), m);
    ASSERT_TRUE(t.ok()) << t.error().message;
    TableSet subs(test::tables_dir());
    for (const Material& s : m.successors()) ASSERT_TRUE(subs.require(s).ok()) << s.key();
    const VerifyResult clean = verify(**t, subs, nullptr);
    EXPECT_EQ(clean.mismatches, 0U) << key;
    EXPECT_EQ(clean.checked, 2 * (*t)->index.size()) << key;

    // One entry of each kind (first found, per array; an array where the target side cannot be
    // mated has no finite entries).
    std::size_t kinds = 0;
    for (std::size_t a = 0; a < kNumArrays; ++a) {
      std::vector<std::uint8_t>& arr = (*t)->arrays[a];
      auto first = [&](auto pred) {
        for (std::size_t i = 0; i < arr.size(); ++i)
          if (pred(arr[i])) return i;
        return arr.size();
      };
      const std::size_t finite = first([](std::uint8_t v) { return v > 0 && v <= DthmCode::kMaxDthm; });
      const std::size_t none = first([](std::uint8_t v) { return v == DthmCode::kNone; });
      const std::size_t invalid = first([](std::uint8_t v) { return v == DthmCode::kInvalid; });
      struct Edit {
        std::size_t i;
        std::uint8_t v;
      };
      std::vector<Edit> edits;
      if (finite < arr.size()) {
        edits.push_back({finite, static_cast<std::uint8_t>(arr[finite] + 1)});
        edits.push_back({finite, DthmCode::kNone});
        edits.push_back({finite, DthmCode::kInvalid});
      }
      if (none < arr.size()) edits.push_back({none, 3});
      if (invalid < arr.size()) edits.push_back({invalid, DthmCode::kNone});
      kinds += edits.size();
      for (const Edit& e : edits) {
        const std::uint8_t saved = arr[e.i];
        arr[e.i] = e.v;
        const VerifyResult r = verify(**t, subs, nullptr);
        arr[e.i] = saved;
        // The edited entry itself, and possibly its predecessors, now disagree.
        EXPECT_GE(r.mismatches, 1U) << key << " array " << a << " index " << e.i << " set to " << int(e.v);
        ASSERT_FALSE(r.report.empty());
        EXPECT_NE(r.report[0].find(key), std::string::npos) << r.report[0];
      }
    }
    EXPECT_GE(kinds, 10U) << key;  // every kind occurs in some array of both tables
  }
}

// A table file under another material's name is refused by the loader (it would be read with the
// wrong index) and rebuilt by generate, not skipped as "already present".
TEST(TableGenerate, MisnamedTableIsRefusedAndRebuilt) {
  TempDir dir("misnamed");
  std::filesystem::create_directories(dir.path);
  for (const char* key : {"KvK", "KQvK", "KRvK"}) {
    const std::string name = table_file_name(test::material(key));
    std::filesystem::copy_file(test::tables_dir() + "/" + name, dir.path / name);
  }
  // KRvK's bytes under the name KQvK.
  std::filesystem::copy_file(dir.path / "KRvK.dpt", dir.path / "KQvK.dpt",
                             std::filesystem::copy_options::overwrite_existing);
  const auto t = load_table((dir.path / "KQvK.dpt").string(), test::material("KQvK"));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::CorruptTable);
  EXPECT_NE(t.error().message.find("holds the table KRvK, not KQvK"), std::string::npos) << t.error().message;
  GenerateOptions opt;
  opt.out_dir = dir.path.string();
  const Result<GenerateResult> r = generate({test::material("KQvK")}, opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->built.size(), 1U);
  EXPECT_EQ(r->built[0].material, "KQvK");
  EXPECT_TRUE(file_bytes((dir.path / "KQvK.dpt").string()) == file_bytes(test::tables_dir() + "/KQvK.dpt"));
}

// A killed run leaves <name>.tmp.<pid>; the next generate removes those whose process is gone and
// nothing else. 999999999 is above Linux's largest pid (pid_max <= 2^22), so no process has it.
TEST(TableGenerate, RemovesStaleTemporariesOnly) {
  TempDir dir("stale");
  std::filesystem::create_directories(dir.path);
  auto touch = [&](const std::string& name) { std::ofstream((dir.path / name).string()) << "partial"; };
  const std::string stale_table = "KvK.dpt.tmp.999999999";
  const std::string stale_json = "KvK.json.tmp.999999999";
  const std::string live = "KBvK.dpt.tmp." + std::to_string(::getpid());
  const std::string other = "notes.tmp.txt";
  for (const auto& n : {stale_table, stale_json, live, other}) touch(n);
  GenerateOptions opt;
  opt.out_dir = dir.path.string();
  const Result<GenerateResult> r = generate({test::material("KvK")}, opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->removed_temporaries.size(), 2U);
  EXPECT_FALSE(std::filesystem::exists(dir.path / stale_table));
  EXPECT_FALSE(std::filesystem::exists(dir.path / stale_json));
  EXPECT_TRUE(std::filesystem::exists(dir.path / live));
  EXPECT_TRUE(std::filesystem::exists(dir.path / other));
  EXPECT_TRUE(std::filesystem::exists(dir.path / "KvK.dpt"));
  EXPECT_TRUE(std::filesystem::exists(dir.path / "KvK.json"));
}

// tests/data/tables4.xxh64: "<KEY> <16 hex digits>" per line, '#' lines are comments.
std::map<std::string, std::string> read_checksum_list() {
  const std::string path = std::string(DEADPOS_TEST_DATA) + "/tables4.xxh64";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    std::string key, hex, extra;
    if (!(s >> key >> hex) || (s >> extra) || hex.size() != 16 || !out.emplace(key, hex).second)
      throw std::runtime_error(path + ": bad line '" + line + "'");
  }
  return out;
}

TEST(TableChecksums, EveryTableMatchesTheCommittedList) {
  const std::map<std::string, std::string> list = read_checksum_list();
  std::set<std::string> expected_keys;
  for (const Material& m : all_materials(4)) expected_keys.insert(m.key());
  std::set<std::string> listed;
  for (const auto& [k, h] : list) listed.insert(k);
  EXPECT_EQ(listed, expected_keys) << "the list must name every <=4-man material once";
  for (const auto& e : std::filesystem::directory_iterator(test::tables_dir())) {
    if (e.path().extension() == ".dpt") {
      EXPECT_TRUE(list.count(e.path().stem().string())) << e.path() << " is not in the list";
    }
  }
  for (const auto& [key, hex] : list) {
    const std::string path = test::tables_dir() + "/" + key + ".dpt";
    const auto h = test::xxh64_of_file(path);
    ASSERT_TRUE(h.has_value()) << "table missing: " << path;
    EXPECT_EQ(test::hex16(*h), hex)
        << key << ".dpt changed. If intended, regenerate tests/data/tables4.xxh64 with "
        << "tests/data/make_checksums.sh and name the changed tables in the commit message (style rule 33).";
  }
}

}  // namespace
}  // namespace deadpos
