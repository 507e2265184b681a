// Missing, misnamed, damaged and truncated tables: the probe answers exactly or returns an error
// naming the table -- never a value from bad bytes, never a crash (style rule 18). Each test works
// on copies of the generated tables in its own temporary directory.
#include <gtest/gtest.h>
#include <xxhash.h>
#include <zstd.h>

#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/generate.h"
#include "deadpos/index.h"
#include "deadpos/stats.h"
#include "deadpos/table.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"
#include "test_probe_util.h"

namespace deadpos {
namespace {

namespace fs = std::filesystem;
using probe_test::position_from;

// A fresh directory under the system temporary directory, removed with its contents at the end.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "deadpos_probe_test_XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

fs::path table_path(const std::string& key) { return fs::path(probe_test::tables_dir()) / (key + ".dpt"); }

void copy_table(const std::string& key, const TempDir& dir, const std::string& as = "") {
  fs::copy_file(table_path(key), dir.path() / ((as.empty() ? key : as) + ".dpt"), fs::copy_options::overwrite_existing);
}

std::vector<std::byte> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> b(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) b[i] = static_cast<std::byte>(c[i]);
  return b;
}

void write_bytes(const fs::path& p, const std::vector<std::byte>& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::uint64_t load_u64(const std::vector<std::byte>& b, std::size_t off) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | std::to_integer<std::uint64_t>(b[off + static_cast<std::size_t>(i)]);
  return v;
}
std::uint32_t load_u32(const std::vector<std::byte>& b, std::size_t off) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::to_integer<std::uint32_t>(b[off + static_cast<std::size_t>(i)]);
  return v;
}

// Squares of pos in the slot order of `index` (docs/format.md, section 4). pos must be of the
// index's (canonical) material.
TableIndex::Squares slot_squares(const TableIndex& index, const Position& pos) {
  TableIndex::Squares sq{};
  int j = 0;
  while (j < index.men()) {
    const Piece pc = index.piece(j);
    Bitboard b = pos.pieces(color_of(pc), type_of(pc));
    while (j < index.men() && index.piece(j) == pc) sq[static_cast<std::size_t>(j++)] = pop_lsb(b);
  }
  return sq;
}

// A sample position with the blocks of the table file that its probe reads.
struct Sample {
  Position pos;
  std::set<std::uint32_t> blocks;
  ProbeResult expected;  // from the intact tables
};

// n random positions of the canonical material `key` (no colour swap, so the blocks are those of
// `key`'s file), with the blocks a probe reads: one per target array of the side to move.
std::vector<Sample> samples(const Tablebase& intact, const std::string& key, int n, std::uint64_t seed) {
  auto tf = TableFile::open(table_path(key).string(), FileCheck::HeaderOnly);
  if (!tf) throw std::runtime_error(tf.error().message);
  std::mt19937_64 rng(seed);
  std::vector<Sample> out;
  for (int i = 0; i < n; ++i) {
    Position p = probe_test::random_position(key, rng);
    const std::uint64_t idx = tf->index().encode(slot_squares(tf->index(), p));
    Sample s{p, {}, {}};
    for (Color x : {Color::White, Color::Black}) s.blocks.insert(tf->locate(array_of(p.side_to_move(), x), idx).first);
    auto r = intact.probe(p);
    if (!r) throw std::runtime_error(p.to_fen() + ": " + r.error().message);
    s.expected = *r;
    out.push_back(std::move(s));
  }
  return out;
}

bool same_answer(const ProbeResult& a, const ProbeResult& b) { return a.dthm == b.dthm && a.table == b.table; }

// ---------------------------------------------------------------------------------------------
// Missing tables and too many men

TEST(MissingTable, NamesTheAbsentTable) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir dir;
  copy_table("KRvKN", dir);
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb) << tb.error().message;
  EXPECT_EQ(tb->max_men(), 4);
  EXPECT_EQ(tb->materials(), std::vector<std::string>{"KRvKN"});

  // The table's own positions, both orientations, need nothing else.
  for (const char* fen : {"8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1", "k1r5/8/1N6/8/3K4/8/8/8 b - - 0 1"}) {
    auto r = tb->probe(position_from(fen));
    auto e = full->probe(position_from(fen));
    ASSERT_TRUE(r) << fen << ": " << r.error().message;
    ASSERT_TRUE(e);
    EXPECT_EQ(r->dthm, e->dthm) << fen;
  }
  // Another material of at most 4 men: MissingTable naming it (canonical key).
  for (const auto& [fen, key] :
       {std::pair{"8/8/8/3k4/8/8/8/K1R5 w - - 0 1", "KRvK"}, std::pair{"8/8/8/3k4/8/2r5/8/K7 w - - 0 1", "KRvK"},
        std::pair{"8/8/8/3k4/8/1n6/8/K1Q5 w - - 0 1", "KQvKN"}}) {
    auto r = tb->probe(position_from(fen));
    ASSERT_FALSE(r) << fen << " answered without its table";
    EXPECT_EQ(r.error().code, ErrorCode::MissingTable) << r.error().message;
    EXPECT_NE(r.error().message.find(key), std::string::npos) << r.error().message;
  }
  // A castling search leaves the material through captures: 1...Nxh1 needs KNvK.
  auto c = tb->probe(position_from("4k3/8/8/8/8/8/5n2/4K2R b K - 0 1"));
  ASSERT_FALSE(c) << "castling search answered without KNvK";
  EXPECT_EQ(c.error().code, ErrorCode::MissingTable) << c.error().message;
  EXPECT_NE(c.error().message.find("KNvK"), std::string::npos) << c.error().message;
  // With White to move every White move gives up the right, and none captures: KRvKN suffices.
  EXPECT_TRUE(tb->probe(position_from("4k3/8/8/8/8/8/8/n3K2R w K - 0 1")));
}

TEST(MissingTable, EnPassantNeedsTheTableAfterTheCapture) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir dir;
  copy_table("KPvKP", dir);
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb);
  // Without the right: only KPvKP. With it: bxc3 e.p. leads to KvKP, read from KPvK.
  auto a = tb->probe(position_from("8/8/8/8/1pP5/k7/8/K7 b - - 0 1"));
  ASSERT_TRUE(a) << a.error().message;
  auto b = tb->probe(position_from("8/8/8/8/1pP5/k7/8/K7 b - c3 0 1"));
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().code, ErrorCode::MissingTable) << b.error().message;
  EXPECT_NE(b.error().message.find("KPvK"), std::string::npos) << b.error().message;
  // With the subtable added the answer is the full tables' one.
  copy_table("KPvK", dir);
  auto tb2 = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb2);
  auto c = tb2->probe(position_from("8/8/8/8/1pP5/k7/8/K7 b - c3 0 1"));
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->dthm[Color::White], 5);
}

TEST(TooManyMen, MoreMenThanTheLargestTable) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir dir;
  copy_table("KRvK", dir);
  copy_table("KvK", dir);
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb);
  EXPECT_EQ(tb->max_men(), 3);
  auto r = tb->probe(position_from("8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::TooManyMen) << r.error().message;
  EXPECT_NE(r.error().message.find('4'), std::string::npos) << r.error().message;

  // The full set, one man more than it covers.
  const Position five = position_from("3b4/8/8/6b1/8/8/R7/K1k5 w - - 0 1");  // PUB-024, 5 men
  if (full->max_men() < 5) {
    auto f = full->probe(five);
    ASSERT_FALSE(f);
    EXPECT_EQ(f.error().code, ErrorCode::TooManyMen) << f.error().message;
    auto l = full->helpmate_line(five, Color::Black);
    ASSERT_FALSE(l);
    EXPECT_EQ(l.error().code, ErrorCode::TooManyMen) << l.error().message;
    auto v = full->flag_verdict(five, Color::Black);
    ASSERT_FALSE(v);
    EXPECT_EQ(v.error().code, ErrorCode::TooManyMen) << v.error().message;
  }
}

TEST(MissingTable, EmptyAndAbsentDirectories) {
  TempDir dir;
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb) << tb.error().message;
  EXPECT_EQ(tb->max_men(), 0);
  EXPECT_TRUE(tb->materials().empty());
  auto r = tb->probe(position_from("8/8/8/3k4/8/8/8/K7 w - - 0 1"));
  EXPECT_FALSE(r) << "KvK answered with no table at all";

  auto absent = Tablebase::open({(dir.path() / "no-such-directory").string()});
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.error().code, ErrorCode::Io) << absent.error().message;
  EXPECT_NE(absent.error().message.find("no-such-directory"), std::string::npos) << absent.error().message;
}

// Files that are not canonical table names are ignored; the first directory holding a material
// wins ("later directories do not override earlier ones").
TEST(MissingTable, DirectoriesAndFileNames) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir good;
  TempDir bad;
  copy_table("KRvKN", good);
  std::vector<std::byte> d = read_bytes(table_path("KRvKN"));
  d[40] ^= std::byte{0x01};  // entry count: the header checksum fails
  write_bytes(bad.path() / "KRvKN.dpt", d);
  write_bytes(bad.path() / "notes.dpt", {std::byte{'x'}});
  write_bytes(bad.path() / "KNvKR.dpt", {std::byte{'x'}});  // not the canonical orientation
  write_bytes(bad.path() / "KRvKN.json", {std::byte{'x'}});
  const Position p = position_from("8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1");
  auto expected = full->probe(p);
  ASSERT_TRUE(expected);

  auto good_first = Tablebase::open({good.str(), bad.str()});
  ASSERT_TRUE(good_first) << good_first.error().message;
  EXPECT_EQ(good_first->materials(), std::vector<std::string>{"KRvKN"});
  auto a = good_first->probe(p);
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->dthm, expected->dthm);

  auto bad_first = Tablebase::open({bad.str(), good.str()});
  ASSERT_TRUE(bad_first) << bad_first.error().message;
  EXPECT_EQ(bad_first->materials(), std::vector<std::string>{"KRvKN"});
  for (int i = 0; i < 2; ++i) {  // the error is sticky: the same on every probe
    auto b = bad_first->probe(p);
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().code, ErrorCode::CorruptTable) << b.error().message;
    EXPECT_NE(b.error().message.find(bad.str()), std::string::npos) << b.error().message;
  }
}

// A file's header material must match the material its name promises: a KRvKN table saved as
// KQvKN.dpt would otherwise be read with the KRvKN index for KQvKN positions (found by this test:
// it returned W 10 B 9 for 8/8/8/3k4/8/1n6/8/K1Q5 w - - 0 1, whose true values are W none B 9).
TEST(CorruptTable, FileNamedForAnotherMaterial) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir dir;
  copy_table("KRvKN", dir, "KQvKN");
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb);
  auto r = tb->probe(position_from("8/8/8/3k4/8/1n6/8/K1Q5 w - - 0 1"));
  ASSERT_FALSE(r) << "answered from the wrong table: W " << probe_test::dthm_text(r->dthm[Color::White]) << " B "
                  << probe_test::dthm_text(r->dthm[Color::Black]);
  EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << r.error().message;
  EXPECT_NE(r.error().message.find("KQvKN.dpt"), std::string::npos) << r.error().message;
}

// ---------------------------------------------------------------------------------------------
// Damaged bytes

constexpr const char* kKey = "KRvKN";  // pawnless, 1.9 M entries per array: 8 blocks per array

ProbeResult swapped_answer(const ProbeResult& r) {
  ProbeResult s = r;
  s.dthm[Color::White] = r.dthm[Color::Black];
  s.dthm[Color::Black] = r.dthm[Color::White];
  return s;
}

// Probes every sample (and its colour swap, read through the same file) in a directory holding
// the damaged table. Each probe must give an error naming the file (CorruptTable) or, when it reads
// no damaged byte, the intact answer; the samples for which must_fail holds must all fail.
// Returns the number of failed probes.
int expect_error_or_intact(const std::string& dir, const std::vector<Sample>& all, const std::string& what,
                           const std::function<bool(const Sample&)>& must_fail) {
  auto tb = Tablebase::open({dir});
  EXPECT_TRUE(tb) << what << ": " << tb.error().message;
  if (!tb) return 0;
  int failed = 0;
  for (const Sample& s : all) {
    for (bool swap : {false, true}) {
      const Position p = swap ? s.pos.color_swapped() : s.pos;
      auto r = tb->probe(p);
      if (r) {
        EXPECT_FALSE(must_fail(s)) << what << ": " << p.to_fen() << " was answered from damaged bytes";
        EXPECT_TRUE(same_answer(*r, swap ? swapped_answer(s.expected) : s.expected))
            << what << ": " << p.to_fen() << " answered W " << probe_test::dthm_text(r->dthm[Color::White]) << " B "
            << probe_test::dthm_text(r->dthm[Color::Black]);
      } else {
        ++failed;
        EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << what << ": " << r.error().message;
        EXPECT_NE(r.error().message.find(std::string(kKey) + ".dpt"), std::string::npos)
            << what << ": " << r.error().message;
      }
    }
  }
  return failed;
}

// The checks of TableFile::from_bytes (always Full) reject the bytes, naming them.
void expect_from_bytes_rejects(const std::vector<std::byte>& bytes, const std::string& what) {
  auto t = TableFile::from_bytes(bytes, "damaged-" + std::string(kKey));
  ASSERT_FALSE(t) << what << ": from_bytes accepted damaged bytes";
  EXPECT_EQ(t.error().code, ErrorCode::CorruptTable) << what << ": " << t.error().message;
  EXPECT_NE(t.error().message.find("damaged-" + std::string(kKey)), std::string::npos) << t.error().message;
}

struct Layout {
  std::uint32_t blocks = 0;
  std::uint64_t block_index = 0;  // offset of the block index (docs/format.md, section 5)
  std::uint64_t block_offset(const std::vector<std::byte>& b, std::uint32_t k) const {
    return load_u64(b, block_index + std::uint64_t{24} * k);
  }
  std::uint32_t block_size(const std::vector<std::byte>& b, std::uint32_t k) const {
    return load_u32(b, block_index + std::uint64_t{24} * k + 8);
  }
};

class DamagedTable : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TABLES(intact_);
    bytes_ = read_bytes(table_path(kKey));
    ASSERT_GT(bytes_.size(), kHeaderBytes + 8);
    layout_.blocks = load_u32(bytes_, 52);
    layout_.block_index = load_u64(bytes_, 56);
    ASSERT_EQ(layout_.block_index + std::uint64_t{24} * layout_.blocks + 8, bytes_.size());
    all_ = samples(*intact_, kKey, 600, 0xdead);
  }
  fs::path target() const { return dir_.path() / (std::string(kKey) + ".dpt"); }

  const Tablebase* intact_ = nullptr;
  TempDir dir_;
  std::vector<std::byte> bytes_;
  Layout layout_;
  std::vector<Sample> all_;
};

// (a) One byte flipped in the middle of each compressed block: the block checksum fails when the
// block is read, so exactly the probes that read the block fail.
TEST_F(DamagedTable, FlippedByteInEachBlock) {
  ASSERT_EQ(layout_.blocks, 32U);
  for (std::uint32_t b = 0; b < layout_.blocks; ++b) {
    std::vector<std::byte> d = bytes_;
    const std::uint64_t at = layout_.block_offset(d, b) + layout_.block_size(d, b) / 2;
    d[at] ^= std::byte{0x20};
    write_bytes(target(), d);
    const std::string what = "block " + std::to_string(b) + " byte " + std::to_string(at) + " flipped";
    const auto hits = [b](const Sample& s) { return s.blocks.count(b) > 0; };
    int hit = 0;
    for (const Sample& s : all_) hit += hits(s) ? 2 : 0;
    EXPECT_GT(hit, 0) << what << ": no sample reads this block";
    EXPECT_EQ(expect_error_or_intact(dir_.str(), all_, what, hits), hit) << what;

    auto tf = TableFile::open(target().string(), FileCheck::HeaderOnly);
    ASSERT_TRUE(tf) << what << ": the header and block index are intact: " << tf.error().message;
    std::vector<std::uint8_t> out;
    Status s = tf->read_block(b, out);
    ASSERT_FALSE(s) << what;
    EXPECT_EQ(s.error().code, ErrorCode::CorruptTable);
    EXPECT_TRUE(tf->read_block((b + 1) % layout_.blocks, out)) << what;
    auto arr = tf->read_array(static_cast<int>(b / (layout_.blocks / kNumArrays)));
    EXPECT_FALSE(arr) << what;
    expect_from_bytes_rejects(d, what);
    auto full = TableFile::open(target().string(), FileCheck::Full);
    EXPECT_FALSE(full) << what << ": the whole-file checksum must fail";
  }
}

// (b) One byte of the 144-byte header flipped: the header checksum (or an earlier check) fails at
// open, and every probe that needs the table returns that error, every time.
TEST_F(DamagedTable, FlippedHeaderByte) {
  const std::vector<Sample> few(all_.begin(), all_.begin() + 3);
  for (std::size_t at = 0; at < kHeaderBytes; ++at) {
    for (std::byte mask : {std::byte{0x01}, std::byte{0x80}}) {
      std::vector<std::byte> d = bytes_;
      d[at] ^= mask;
      write_bytes(target(), d);
      const std::string what = "header byte " + std::to_string(at) + " ^ " + std::to_string(std::to_integer<int>(mask));
      EXPECT_EQ(expect_error_or_intact(dir_.str(), few, what, [](const Sample&) { return true; }), 6) << what;
      expect_from_bytes_rejects(d, what);
      if (HasFailure()) return;
    }
  }
}

// One byte of the block index flipped. Offsets, sizes and entry counts are checked at open (every
// probe fails); a flipped block checksum fails exactly the probes that read that block.
TEST_F(DamagedTable, FlippedBlockIndexByte) {
  for (std::uint32_t k : {0U, 1U, layout_.blocks / 2, layout_.blocks - 1}) {
    for (std::uint64_t i = 0; i < 24; ++i) {
      std::vector<std::byte> d = bytes_;
      const std::uint64_t at = layout_.block_index + std::uint64_t{24} * k + i;
      d[at] ^= std::byte{0x04};
      write_bytes(target(), d);
      const std::string what = "block index entry " + std::to_string(k) + " byte " + std::to_string(i);
      expect_error_or_intact(dir_.str(), all_, what, [k](const Sample& s) { return s.blocks.count(k) > 0; });
      expect_from_bytes_rejects(d, what);
      if (HasFailure()) return;
    }
  }
}

// The last 8 bytes (whole-file XXH64) flipped: the data is intact, so lazy probing (header and
// block checks only, FileCheck::HeaderOnly) still answers exactly; the full check rejects the file.
TEST_F(DamagedTable, FlippedFileChecksum) {
  std::vector<std::byte> d = bytes_;
  d[d.size() - 3] ^= std::byte{0x10};
  write_bytes(target(), d);
  EXPECT_EQ(expect_error_or_intact(dir_.str(), all_, "file checksum flipped", [](const Sample&) { return false; }), 0);
  expect_from_bytes_rejects(d, "file checksum flipped");
  auto full = TableFile::open(target().string(), FileCheck::Full);
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().code, ErrorCode::CorruptTable) << full.error().message;
}

// (c) Truncated (and extended) files: every length fails at open, whatever part it cuts.
TEST_F(DamagedTable, TruncatedFile) {
  const std::uint64_t size = bytes_.size();
  const std::uint64_t bi = layout_.block_index;
  const std::vector<std::uint64_t> lengths = {
      0,
      1,
      8,
      100,
      kHeaderBytes - 1,
      kHeaderBytes,
      kHeaderBytes + 7,
      kHeaderBytes + 8,
      kHeaderBytes + layout_.block_size(bytes_, 0) / 2,  // inside the first block
      bi / 2,                                            // inside the data section
      bi - 1,
      bi,
      bi + 10,  // at and inside the block index
      bi + 24 * (layout_.blocks / 2) + 12,
      size - 9,
      size - 8,
      size - 1};
  const std::vector<Sample> few(all_.begin(), all_.begin() + 5);
  for (std::uint64_t n : lengths) {
    std::vector<std::byte> d(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(n));
    write_bytes(target(), d);
    const std::string what = "truncated to " + std::to_string(n) + " of " + std::to_string(size) + " bytes";
    EXPECT_EQ(expect_error_or_intact(dir_.str(), few, what, [](const Sample&) { return true; }), 10) << what;
    expect_from_bytes_rejects(d, what);
  }
  std::vector<std::byte> longer = bytes_;
  longer.push_back(std::byte{0});
  write_bytes(target(), longer);
  EXPECT_EQ(expect_error_or_intact(dir_.str(), few, "extended by one byte", [](const Sample&) { return true; }), 10);
  expect_from_bytes_rejects(longer, "extended by one byte");
}

// Block b of a table file replaced by `raw` compressed, with the block index, sizes, offsets and
// every checksum made right again (docs/format.md sections 2 and 5): a well-formed file whose block
// holds what no writer of ours writes.
std::vector<std::byte> with_block(const std::vector<std::byte>& file, const Layout& l, std::uint32_t b,
                                  const std::vector<std::uint8_t>& raw) {
  std::vector<std::byte> frame(ZSTD_compressBound(raw.size()));
  const std::size_t n = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 1);
  EXPECT_FALSE(ZSTD_isError(n));
  frame.resize(n);
  std::vector<std::byte> out(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(l.block_offset(file, b)));
  out.insert(out.end(), frame.begin(), frame.end());
  const std::uint64_t old_end = l.block_offset(file, b) + l.block_size(file, b);
  out.insert(out.end(), file.begin() + static_cast<std::ptrdiff_t>(old_end),
             file.begin() + static_cast<std::ptrdiff_t>(l.block_index));
  std::vector<std::byte> index(file.begin() + static_cast<std::ptrdiff_t>(l.block_index), file.end() - 8);
  const std::int64_t shift = static_cast<std::int64_t>(n) - static_cast<std::int64_t>(l.block_size(file, b));
  auto put = [](std::byte* p, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<std::byte>((v >> (8 * i)) & 0xFF);
  };
  for (std::uint32_t k = b + 1; k < l.blocks; ++k)
    put(index.data() + 24 * k, static_cast<std::uint64_t>(static_cast<std::int64_t>(l.block_offset(file, k)) + shift),
        8);
  put(index.data() + 24 * b + 8, n, 4);
  put(index.data() + 24 * b + 16, XXH64(frame.data(), n, 0), 8);
  const std::uint64_t new_index = static_cast<std::uint64_t>(static_cast<std::int64_t>(l.block_index) + shift);
  out.insert(out.end(), index.begin(), index.end());
  put(out.data() + 56, new_index, 8);
  put(out.data() + 64, out.size() + 8, 8);
  put(out.data() + 136, XXH64(out.data(), 136, 0), 8);
  std::array<std::byte, 8> trailer{};
  put(trailer.data(), XXH64(out.data(), out.size(), 0), 8);
  out.insert(out.end(), trailer.begin(), trailer.end());
  return out;
}

// Well-formed files (checksums right) holding codes that must not be answered: an undefined code
// (251, 252; write_table refuses 254) and, since format v2 stores no code 255 (docs/format.md
// section 3), 255 too, at the entry of a legal position: each spoils its whole block (the block
// is refused when read, so exactly the probes that read it fail).
TEST_F(DamagedTable, WellFormedFileWithBadCodes) {
  auto tf = TableFile::open(table_path(kKey).string(), FileCheck::Full);
  ASSERT_TRUE(tf) << tf.error().message;
  ASSERT_EQ(tf->header().version, 2U);
  const Sample& s = all_[0];
  const int a = array_of(s.pos.side_to_move(), Color::White);
  const std::uint64_t idx = tf->index().encode(slot_squares(tf->index(), s.pos));
  const auto [block, off] = tf->locate(a, idx);
  std::vector<std::uint8_t> raw;
  ASSERT_TRUE(tf->read_block(block, raw, InvalidEntries::Any));
  for (std::uint8_t code : {std::uint8_t{251}, std::uint8_t{252}, DthmCode::kInvalid}) {
    std::vector<std::uint8_t> changed = raw;
    changed[off] = code;
    const std::vector<std::byte> d = with_block(bytes_, layout_, block, changed);
    write_bytes(target(), d);
    const std::string what =
        "code " + std::to_string(code) + " at entry " + std::to_string(idx) + " of array " + std::to_string(a);
    ASSERT_TRUE(TableFile::from_bytes(d, "resealed")) << what << ": the file is well formed";
    auto tb = Tablebase::open({dir_.str()});
    ASSERT_TRUE(tb);
    auto r = tb->probe(s.pos);
    ASSERT_FALSE(r) << what << ": answered W " << probe_test::dthm_text(r->dthm[Color::White]);
    EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << what << ": " << r.error().message;
    EXPECT_NE(r.error().message.find(std::string(kKey) + ".dpt"), std::string::npos)
        << what << ": " << r.error().message;
    EXPECT_NE(r.error().message.find("undefined code " + std::to_string(code)), std::string::npos)
        << what << ": " << r.error().message;
    const auto hits = [block = block](const Sample& x) { return x.blocks.count(block) > 0; };
    int hit = 0;
    for (const Sample& x : all_) hit += hits(x) ? 2 : 0;
    EXPECT_EQ(expect_error_or_intact(dir_.str(), all_, what, hits), hit) << what;
  }
  // The unchanged block, resealed the same way, is answered: the helper itself spoils nothing.
  write_bytes(target(), with_block(bytes_, layout_, block, raw));
  EXPECT_EQ(
      expect_error_or_intact(dir_.str(), all_, "block recompressed unchanged", [](const Sample&) { return false; }), 0);
}

// A damaged subtable reached through an en passant capture: the error names the subtable.
TEST(CorruptTable, SubtableReachedByEnPassant) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir dir;
  copy_table("KPvKP", dir);
  std::vector<std::byte> d = read_bytes(table_path("KPvK"));
  d[20] ^= std::byte{0x01};  // inside the material key of the header
  write_bytes(dir.path() / "KPvK.dpt", d);
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb);
  auto r = tb->probe(position_from("8/8/8/8/1pP5/k7/8/K7 b - c3 0 1"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << r.error().message;
  EXPECT_NE(r.error().message.find("KPvK.dpt"), std::string::npos) << r.error().message;
  // The same placement without the right needs only KPvKP.
  EXPECT_TRUE(tb->probe(position_from("8/8/8/8/1pP5/k7/8/K7 b - - 0 1")));
}

// A well-formed subtable whose values sit at the format's 250-ply limit (a crafted file: real
// values stay under 60): extending them by the en passant capture's ply must give an error, not
// abort and not answer; the generator's loader refuses such a subtable too.
TEST(CorruptTable, ValuesAtTheFormatLimitAreNotExtended) {
  const Tablebase* full = nullptr;
  ASSERT_TABLES(full);
  TempDir dir;
  copy_table("KPvKP", dir);
  auto tf = TableFile::open(table_path("KPvK").string(), FileCheck::Full);
  ASSERT_TRUE(tf) << tf.error().message;
  Sides<std::vector<std::uint8_t>> arrays;
  for (int a = 0; a < kNumArrays; ++a) {
    auto arr = tf->read_array(a);
    ASSERT_TRUE(arr) << arr.error().message;
    for (std::uint8_t& v : *arr)
      if (v <= DthmCode::kMaxDthm) v = DthmCode::kMaxDthm;
    arrays[static_cast<std::size_t>(a)] = std::move(*arr);
  }
  const std::string path = (dir.path() / "KPvK.dpt").string();
  ASSERT_TRUE(write_table(path, tf->index(), arrays, 1));
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb);
  auto r = tb->probe(position_from("8/8/8/8/1pP5/k7/8/K7 b - c3 0 1"));
  ASSERT_FALSE(r) << "answered a position whose DTHM would be 251 plies";
  EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << r.error().message;
  auto lt = load_table(path, *Material::parse("KPvK"));
  ASSERT_FALSE(lt);
  EXPECT_EQ(lt.error().code, ErrorCode::CorruptTable) << lt.error().message;
}

}  // namespace
}  // namespace deadpos
