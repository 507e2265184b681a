// Robustness of generate and verify on directories that hold more than intact tables (issue 13):
// files that only look like our temporaries, FIFOs and directories under table names, tables whose
// checksums pass but whose header counts or values are wrong, unwritable output directories, and
// directories where one table is damaged. Each test works in its own temporary directory on
// copies of the fixture's tables (DEADPOS_TABLES).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/stats.h"
#include "deadpos/table.h"
#include "deadpos/table_set.h"
#include "deadpos/tablebase.h"
#include "deadpos/verify.h"
#include "table_util.h"

namespace deadpos {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    static int n = 0;
    path = fs::temp_directory_path() /
           ("deadpos_robust_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string str() const { return path.string(); }
};

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

void copy_tables(const TempDir& dir, const std::vector<std::string>& keys) {
  for (const std::string& k : keys) {
    const std::string name = table_file_name(test::material(k));
    fs::copy_file(fs::path(test::tables_dir()) / name, dir.path / name, fs::copy_options::overwrite_existing);
  }
}

std::uint64_t get_u64(const std::string& b, std::size_t off) {
  std::uint64_t v = 0;
  std::memcpy(&v, b.data() + off, 8);
  return v;
}

// Sets a header u64 field and recomputes the header checksum (offset 136) and the whole-file
// checksum (the last 8 bytes), docs/format.md sections 2 and 5: only the field is wrong.
void set_header_u64(std::string& b, std::size_t off, std::uint64_t v) {
  std::memcpy(b.data() + off, &v, 8);
  const std::uint64_t h = XXH64(b.data(), 136, 0);
  std::memcpy(b.data() + 136, &h, 8);
  const std::uint64_t f = XXH64(b.data(), b.size() - 8, 0);
  std::memcpy(b.data() + b.size() - 8, &f, 8);
}

// Runs fn, which may open the FIFO at fifo: if it has not returned after 10 s it is blocked in
// open(), and opening the FIFO's write end releases it (the test then fails instead of hanging).
template <typename F>
auto without_hanging_on(const fs::path& fifo, F fn) -> decltype(fn()) {
  auto fut = std::async(std::launch::async, fn);
  if (fut.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
    ADD_FAILURE() << "blocked for 10 s on the FIFO " << fifo;
    const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (w >= 0) ::close(w);
  }
  return fut.get();
}

// ---------------------------------------------------------------------------------------------
// Item 2: only our own stale temporaries are removed.

TEST(GenerateTemporaries, RemovesOnlyOurOwnStaleTemporaries) {
  TempDir dir("tmp");
  // 999999999 is above Linux's largest pid (pid_max <= 2^22): no process has it.
  const std::vector<std::string> ours = {"KvK.dpt.tmp.999999999", "KvK.json.tmp.999999999", "KBvKN.dpt.tmp.999999999"};
  // Any file of that shape, the other orientation (we never write it), other case, another
  // extension, a leading zero, no key, a 6-man key.
  const std::vector<std::string> not_ours = {
      "thesis.tmp.999999999", "KNvKB.dpt.tmp.999999999", "kvk.dpt.tmp.999999999", "KvK.txt.tmp.999999999",
      "KvK.dpt.tmp.0999999",  "KvK.tmp.999999999",       ".dpt.tmp.999999999",    "KQRBNvK.dpt.tmp.999999999"};
  for (const auto& n : ours) write_file(dir.path / n, "partial");
  for (const auto& n : not_ours) write_file(dir.path / n, "precious");
  // Our naming, but a link and a directory: not files we wrote.
  write_file(dir.path / "target", "precious");
  fs::create_symlink(dir.path / "target", dir.path / "KQvK.dpt.tmp.999999999");
  fs::create_directory(dir.path / "KRvK.dpt.tmp.999999999");

  GenerateOptions opt;
  opt.out_dir = dir.str();
  const Result<GenerateResult> r = generate({test::material("KvK")}, opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->removed_temporaries.size(), ours.size());
  for (const auto& n : ours) EXPECT_FALSE(fs::exists(dir.path / n)) << n << " was left";
  for (const auto& n : not_ours) EXPECT_TRUE(fs::exists(dir.path / n)) << n << " was removed";
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir.path / "KQvK.dpt.tmp.999999999")));
  EXPECT_TRUE(fs::is_directory(dir.path / "KRvK.dpt.tmp.999999999"));
  EXPECT_TRUE(fs::exists(dir.path / "KvK.dpt"));
}

// ---------------------------------------------------------------------------------------------
// Item 3: a FIFO, directory or other non-regular file under a table's name is refused at once.

TEST(NonRegularTableFiles, OpenRefusesFifoAndDirectoryWithoutBlocking) {
  TempDir dir("fifo");
  const fs::path fifo = dir.path / "KRvK.dpt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  fs::create_directory(dir.path / "KQvK.dpt");
  for (FileCheck check : {FileCheck::Full, FileCheck::HeaderOnly}) {
    const auto r = without_hanging_on(fifo, [&] { return TableFile::open(fifo.string(), check); });
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Io) << r.error().message;
    EXPECT_NE(r.error().message.find(fifo.string() + ": is a FIFO, not a regular file"), std::string::npos)
        << r.error().message;
  }
  const auto d = TableFile::open((dir.path / "KQvK.dpt").string());
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, ErrorCode::Io) << d.error().message;
  EXPECT_NE(d.error().message.find("KQvK.dpt: is a directory, not a regular file"), std::string::npos)
      << d.error().message;
  // Item 8: absent is MissingTable, unreadable is Io, in the reader and in the generator's loader.
  const auto absent = TableFile::open((dir.path / "KBvK.dpt").string());
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.error().code, ErrorCode::MissingTable) << absent.error().message;
  TableSet set(dir.str());
  const Status s = without_hanging_on(fifo, [&] { return set.require(test::material("KRvK")); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::Io) << s.error().message;
  EXPECT_EQ(set.require(test::material("KBvK")).error().code, ErrorCode::MissingTable);
}

TEST(NonRegularTableFiles, ProbeReportsTheFifo) {
  TempDir dir("fifo_probe");
  const fs::path fifo = dir.path / "KRvK.dpt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  auto tb = Tablebase::open({dir.str()});
  ASSERT_TRUE(tb.ok()) << tb.error().message;
  const auto pos = Position::from_fen("8/8/8/3k4/8/2R5/8/1K6 w - - 0 1");
  ASSERT_TRUE(pos.ok());
  const auto r = without_hanging_on(fifo, [&] { return tb->probe(*pos); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Io) << r.error().message;
  EXPECT_NE(r.error().message.find("KRvK.dpt: is a FIFO"), std::string::npos) << r.error().message;
}

TEST(NonRegularTableFiles, GenerateRefusesAndKeepsThem) {
  TempDir dir("fifo_gen");
  const fs::path fifo = dir.path / "KvK.dpt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  GenerateOptions opt;
  opt.out_dir = dir.str();
  bool solved = false;
  opt.progress = [&](const Progress& p) { solved = solved || p.phase == Phase::Solve; };
  const auto r = without_hanging_on(fifo, [&] { return generate({test::material("KRvK")}, opt); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Io) << r.error().message;
  EXPECT_NE(r.error().message.find("KvK.dpt: is a FIFO"), std::string::npos) << r.error().message;
  EXPECT_FALSE(solved) << "refused only after solving";
  EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo) << "the FIFO was replaced";
  // The statistics file's name too.
  fs::remove(fifo);
  fs::create_directory(dir.path / "KvK.json");
  const auto j = generate({test::material("KvK")}, opt);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.error().message.find("KvK.json: is a directory"), std::string::npos) << j.error().message;
  EXPECT_FALSE(solved);
}

// ---------------------------------------------------------------------------------------------
// Item 13a: header counts (docs/format.md section 2, offset 72: per array, finite and none
// entries) are checked against the layout on open and against the arrays on load.

TEST(TableHeaderCounts, TamperedCountsAreCorrupt) {
  const std::string intact = file_bytes(fs::path(test::tables_dir()) / "KRvK.dpt");
  const std::uint64_t entries = get_u64(intact, 40);
  struct Case {
    std::vector<std::pair<std::size_t, std::uint64_t>> fields;  // offset, new value
    bool open_fails;                                            // else only the load fails
    std::string message;
  };
  const std::vector<Case> cases = {
      // Array 1's finite count one higher: arrays 0 and 1 disagree on their valid entries.
      {{{88, get_u64(intact, 88) + 1}}, true, "finite/none entries of arrays 0 and 1' disagree"},
      // More entries than the array has.
      {{{104, entries}, {120, entries}}, true, "finite/none entries of array 2'"},
      // Consistent with the layout (arrays 2 and 3 both one more finite, one fewer none), wrong
      // against the arrays: only a load sees it.
      {{{104, get_u64(intact, 104) + 1},
        {112, get_u64(intact, 112) - 1},
        {120, get_u64(intact, 120) + 1},
        {128, get_u64(intact, 128) - 1}},
       false,
       "header field 'finite entries of array 2' (offset 104) says"},
  };
  for (const Case& c : cases) {
    TempDir dir("counts");
    copy_tables(dir, {"KvK"});
    std::string b = intact;
    for (const auto& [off, v] : c.fields) set_header_u64(b, off, v);
    const fs::path path = dir.path / "KRvK.dpt";
    write_file(path, b);
    for (FileCheck check : {FileCheck::Full, FileCheck::HeaderOnly}) {
      const auto f = TableFile::open(path.string(), check);
      if (c.open_fails) {
        ASSERT_FALSE(f.ok()) << c.message;
        EXPECT_EQ(f.error().code, ErrorCode::CorruptTable);
        EXPECT_NE(f.error().message.find(c.message), std::string::npos) << f.error().message;
      } else {
        EXPECT_TRUE(f.ok()) << f.error().message;
      }
    }
    const auto t = load_table(path.string(), test::material("KRvK"));
    ASSERT_FALSE(t.ok()) << c.message;
    EXPECT_EQ(t.error().code, ErrorCode::CorruptTable);
    EXPECT_NE(t.error().message.find(c.message), std::string::npos) << t.error().message;
    EXPECT_NE(t.error().message.find("KRvK.dpt"), std::string::npos) << t.error().message;
    if (c.open_fails) {  // what probe sees
      auto tb = Tablebase::open({dir.str()});
      ASSERT_TRUE(tb.ok());
      const auto r = tb->probe(*Position::from_fen("8/8/8/3k4/8/2R5/8/1K6 w - - 0 1"));
      ASSERT_FALSE(r.ok()) << c.message;
      EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << r.error().message;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Item 7: --force, and an unwritable directory found before solving.

// KRvK with one wrong value whose checksums and counts are right: what only verify (or a probe
// that reads it) notices.
void write_wrong_krvk(const fs::path& path) {
  auto t = load_table((fs::path(test::tables_dir()) / "KRvK.dpt").string(), test::material("KRvK"));
  if (!t) throw std::runtime_error(t.error().message);
  std::vector<std::uint8_t>& a = (*t)->arrays[1];
  std::size_t i = 0;
  while (i < a.size() && !(a[i] >= 2 && a[i] <= 100)) ++i;
  if (i == a.size()) throw std::runtime_error("no finite entry in KRvK array 1");
  a[i] = static_cast<std::uint8_t>(a[i] + 2);
  const Status s = write_table(path.string(), (*t)->index, (*t)->arrays);
  if (!s) throw std::runtime_error(s.error().message);
}

TEST(GenerateForce, RebuildsTargetsWhoseChecksumsPass) {
  TempDir dir("force");
  copy_tables(dir, {"KvK", "KQvK"});
  write_wrong_krvk(dir.path / "KRvK.dpt");
  const std::string wrong = file_bytes(dir.path / "KRvK.dpt");
  const std::string right = file_bytes(fs::path(test::tables_dir()) / "KRvK.dpt");
  ASSERT_NE(wrong, right);
  GenerateOptions opt;
  opt.out_dir = dir.str();
  const auto kept = generate({test::material("KRvK")}, opt);
  ASSERT_TRUE(kept.ok()) << kept.error().message;
  EXPECT_EQ(kept->built.size(), 0U);
  EXPECT_EQ(file_bytes(dir.path / "KRvK.dpt"), wrong);
  opt.force = true;
  const auto forced = generate({test::material("KRvK")}, opt);
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  ASSERT_EQ(forced->built.size(), 1U) << "only the target is rebuilt, not its intact subtables";
  EXPECT_EQ(forced->built[0].material, "KRvK");
  EXPECT_EQ(forced->skipped, std::vector<std::string>{"KvK"});
  EXPECT_TRUE(file_bytes(dir.path / "KRvK.dpt") == right);
}

// A subtable generate keeps (its checksums pass) but cannot load: the error says how to rebuild it.
TEST(GenerateForce, UnloadableSubtableNamesTheRepair) {
  TempDir dir("hint");
  copy_tables(dir, {"KvK"});
  std::string b = file_bytes(fs::path(test::tables_dir()) / "KQvK.dpt");
  // Array 0 one more finite and one fewer none, array 1 the reverse (its none count may be 0):
  // the valid entries of both stay equal, so the file passes the checks of open.
  set_header_u64(b, 72, get_u64(b, 72) + 1);
  set_header_u64(b, 80, get_u64(b, 80) - 1);
  set_header_u64(b, 88, get_u64(b, 88) - 1);
  set_header_u64(b, 96, get_u64(b, 96) + 1);
  write_file(dir.path / "KQvK.dpt", b);
  GenerateOptions opt;
  opt.out_dir = dir.str();
  const auto r = generate({test::material("KQvKQ")}, opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::CorruptTable) << r.error().message;
  EXPECT_NE(r.error().message.find("rebuild with: deadpos generate --force KQvK --out " + dir.str()), std::string::npos)
      << r.error().message;
}

TEST(GenerateWritable, FailsBeforeSolving) {
  // /proc/self is a directory in which nobody, root included, can create a file.
  GenerateOptions opt;
  opt.out_dir = "/proc/self";
  bool solved = false;
  opt.progress = [&](const Progress& p) { solved = solved || p.phase == Phase::Solve; };
  const auto r = generate({test::material("KvK")}, opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::Io) << r.error().message;
  EXPECT_NE(r.error().message.find("/proc/self: cannot write tables in this directory"), std::string::npos)
      << r.error().message;
  EXPECT_FALSE(solved) << "the directory was found unwritable only after solving";
}

// ---------------------------------------------------------------------------------------------
// Item 12: each table's statistics as soon as it is written, also when a later table fails.

TEST(GenerateStats, ReportedWhenEachTableIsWritten) {
  TempDir dir("stats");
  GenerateOptions opt;
  opt.out_dir = dir.str();
  std::vector<std::string> written;
  opt.on_table_written = [&](const TableStats& s) {
    written.push_back(s.material);
    EXPECT_TRUE(fs::exists(dir.path / (s.material + ".dpt"))) << s.material << " reported before it was written";
    EXPECT_GT(s.side[0].positions, 0U);
    // Make the next table's write fail: a directory under its statistics file's name.
    if (s.material == "KvK") fs::create_directory(dir.path / "KQvK.json");
  };
  const auto r = generate({test::material("KQvK")}, opt);
  ASSERT_FALSE(r.ok()) << "KQvK.json is a directory: the write must fail";
  EXPECT_EQ(written, std::vector<std::string>{"KvK"});
}

// ---------------------------------------------------------------------------------------------
// Item 6: verify every table, each with its own state; item 8: the reader's categories.

std::map<std::string, TableVerdict> verdicts(const std::vector<TableVerdict>& v) {
  std::map<std::string, TableVerdict> m;
  for (const auto& x : v) m[x.name] = x;
  return m;
}

TEST(VerifyTables, EmptyDirectoryIsMissingTables) {
  TempDir dir("verify_empty");
  VerifyTablesOptions opt;
  opt.dir = dir.str();
  const auto r = verify_tables(opt);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::MissingTable) << r.error().message;
  EXPECT_NE(r.error().message.find("no tables (*.dpt) in " + dir.str()), std::string::npos) << r.error().message;
}

TEST(VerifyTables, WrongValuesBlameTheTableNotItsDependents) {
  TempDir dir("verify_wrong");
  copy_tables(dir, {"KvK", "KQvK", "KRvKR"});
  write_wrong_krvk(dir.path / "KRvK.dpt");
  VerifyTablesOptions opt;
  opt.dir = dir.str();
  std::vector<std::string> order;
  opt.on_table = [&](const TableVerdict& v) { order.push_back(v.name); };
  const auto r = verify_tables(opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(order.size(), 4U);
  EXPECT_EQ(order.back(), "KRvKR") << "subtables come first";
  auto v = verdicts(*r);
  EXPECT_EQ(v["KvK"].state, TableVerdict::State::Ok);
  EXPECT_EQ(v["KQvK"].state, TableVerdict::State::Ok);
  EXPECT_EQ(v["KRvK"].state, TableVerdict::State::Failed);
  ASSERT_TRUE(v["KRvK"].error);
  EXPECT_EQ(v["KRvK"].error->code, ErrorCode::VerificationFailed);
  EXPECT_GE(v["KRvK"].result.mismatches, 1U);
  EXPECT_EQ(v["KRvKR"].state, TableVerdict::State::NotChecked);
  EXPECT_EQ(v["KRvKR"].damaged, "KRvK");
  ASSERT_TRUE(v["KRvKR"].error);
  EXPECT_EQ(v["KRvKR"].error->message, "subtable KRvK is damaged");
}

TEST(VerifyTables, GoesOnAfterCorruptAndUnreadableTables) {
  TempDir dir("verify_corrupt");
  copy_tables(dir, {"KvK", "KQvK", "KRvK", "KRvKR", "KBvK", "KRvKB"});
  std::string b = file_bytes(dir.path / "KvK.dpt");
  b[200] = static_cast<char>(b[200] ^ 0x55);  // inside block data: checksums fail
  write_file(dir.path / "KvK.dpt", b);
  fs::remove(dir.path / "KBvK.dpt");
  fs::create_directory(dir.path / "KBvK.dpt");  // unreadable: Io, not MissingTable
  write_file(dir.path / "notes.dpt", "x");
  VerifyTablesOptions opt;
  opt.dir = dir.str();
  const auto r = verify_tables(opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto v = verdicts(*r);
  ASSERT_EQ(v.size(), 7U);
  EXPECT_EQ(v["KvK"].state, TableVerdict::State::Failed);
  EXPECT_EQ(v["KvK"].error->code, ErrorCode::CorruptTable) << v["KvK"].error->message;
  EXPECT_EQ(v["KBvK"].state, TableVerdict::State::Failed);
  EXPECT_EQ(v["KBvK"].error->code, ErrorCode::Io) << v["KBvK"].error->message;
  for (const char* k : {"KQvK", "KRvK"}) {
    EXPECT_EQ(v[k].state, TableVerdict::State::NotChecked) << k;
    EXPECT_EQ(v[k].damaged, "KvK") << k;
    EXPECT_EQ(v[k].error->message, "subtable KvK is damaged") << k;
    EXPECT_EQ(v[k].error->code, ErrorCode::CorruptTable) << k;
  }
  EXPECT_EQ(v["KRvKR"].state, TableVerdict::State::NotChecked);
  EXPECT_EQ(v["KRvKR"].error->message, "subtable KRvK was not checked (KvK is damaged)");
  // KRvKB's first subtable (a capture of the rook: KvKB, read as KBvK) is the directory: its bytes
  // were never read, so it is not called damaged.
  EXPECT_EQ(v["KRvKB"].state, TableVerdict::State::NotChecked);
  EXPECT_EQ(v["KRvKB"].damaged, "KBvK");
  EXPECT_EQ(v["KRvKB"].error->message, "subtable KBvK is unreadable");
  EXPECT_EQ(v["KRvKB"].error->code, ErrorCode::Io);
  EXPECT_EQ(v["notes.dpt"].state, TableVerdict::State::Failed);
  EXPECT_EQ(v["notes.dpt"].error->code, ErrorCode::CorruptTable);
  EXPECT_EQ(r->back().name, "notes.dpt");
}

TEST(VerifyTables, NamedTablesAbsentOrWithAbsentSubtables) {
  TempDir dir("verify_named");
  copy_tables(dir, {"KQvK"});
  VerifyTablesOptions opt;
  opt.dir = dir.str();
  opt.materials = {test::material("KRvK"), test::material("KQvK")};
  const auto r = verify_tables(opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto v = verdicts(*r);
  EXPECT_EQ(v["KRvK"].state, TableVerdict::State::Failed);
  EXPECT_EQ(v["KRvK"].error->code, ErrorCode::MissingTable) << v["KRvK"].error->message;
  EXPECT_EQ(v["KQvK"].state, TableVerdict::State::NotChecked);
  EXPECT_EQ(v["KQvK"].error->code, ErrorCode::MissingTable) << v["KQvK"].error->message;
  EXPECT_EQ(v["KQvK"].error->message.rfind("subtable KvK is missing (", 0), 0U) << v["KQvK"].error->message;
}

// A table whose subtables are absent names all of them in one run: the first with the reader's
// message, the others after "also missing". KRvKP's successors: Rxp (KRvK), ...xR (KvKP = KPvK),
// the pawn's promotions (KRvKQ = KQvKR, KRvKR, KRvKB, KRvKN) and its promotions capturing the rook
// (KvKQ = KQvK, KvKR = KRvK, KvKB = KBvK, KvKN = KNvK); KRvKR and KRvKB are present here.
TEST(VerifyTables, NamesEveryAbsentSubtable) {
  TempDir dir("verify_absent_subs");
  copy_tables(dir, {"KRvKP", "KRvKR", "KRvKB"});
  VerifyTablesOptions opt;
  opt.dir = dir.str();
  opt.materials = {test::material("KRvKP")};
  const auto r = verify_tables(opt);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto v = verdicts(*r);
  ASSERT_EQ(v["KRvKP"].state, TableVerdict::State::NotChecked);
  const std::string& msg = v["KRvKP"].error->message;
  EXPECT_EQ(v["KRvKP"].error->code, ErrorCode::MissingTable) << msg;
  const std::string first = msg.substr(0, msg.find(" is missing"));
  std::set<std::string> named{first.substr(std::string("subtable ").size())};
  const auto also = msg.find("; also missing: ");
  ASSERT_NE(also, std::string::npos) << msg;
  std::string rest = msg.substr(also + std::string("; also missing: ").size());
  for (std::size_t p; (p = rest.find(", ")) != std::string::npos; rest.erase(0, p + 2)) named.insert(rest.substr(0, p));
  named.insert(rest);
  EXPECT_EQ(named, (std::set<std::string>{"KRvK", "KPvK", "KQvKR", "KRvKN", "KQvK", "KBvK", "KNvK"})) << msg;
}

}  // namespace
}  // namespace deadpos
