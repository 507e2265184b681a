// The stored table's owners in core/tables (issue 29, item 0): the array order of Sides
// (docs/format.md section 3), the names of a table directory (sections 5 and 6), and the header
// layout as the writer leaves it (section 2).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "deadpos/sides.h"
#include "deadpos/table.h"
#include "deadpos/table_directory.h"
#include "deadpos/table_layout.h"

namespace deadpos {
namespace {

Material parsed(const std::string& key) { return Material::parse(key).value(); }

TEST(Sides, ArrayNumbersAreTheFormatsOrder) {
  // Section 3: 0 White to move / White mated, 1 White / Black, 2 Black / White, 3 Black / Black.
  EXPECT_EQ(array_of(Color::White, Color::White), 0);
  EXPECT_EQ(array_of(Color::White, Color::Black), 1);
  EXPECT_EQ(array_of(Color::Black, Color::White), 2);
  EXPECT_EQ(array_of(Color::Black, Color::Black), 3);
  for (int a = 0; a < kNumArrays; ++a) EXPECT_EQ(array_of(side_to_move_of_array(a), mated_of_array(a)), a);
}

TEST(Sides, ColoursAndNumbersNameTheSameElement) {
  Sides<int> s{};
  for (Color stm : {Color::White, Color::Black})
    for (Color x : {Color::White, Color::Black}) s(stm, x) = 10 * to_index(stm) + to_index(x);
  EXPECT_EQ(s[0], 0);
  EXPECT_EQ(s[1], 1);
  EXPECT_EQ(s[2], 10);
  EXPECT_EQ(s[3], 11);
  Sides<int> t = s;
  EXPECT_EQ(s, t);
  t(Color::Black, Color::White) = 7;
  EXPECT_NE(s, t);
  int sum = 0;
  for (int v : s) sum += v;
  EXPECT_EQ(sum, 22);
}

TEST(TableDirectory, NamesAndPaths) {
  const TableDirectory d("tables");
  const Material m = parsed("KRvK");
  EXPECT_EQ(TableDirectory::table_file_name(m), "KRvK.dpt");
  EXPECT_EQ(table_file_name(m), "KRvK.dpt");
  EXPECT_EQ(TableDirectory::stats_file_name(m), "KRvK.json");
  EXPECT_EQ(d.table_path(m), "tables/KRvK.dpt");
  EXPECT_EQ(d.stats_path(m), "tables/KRvK.json");
  EXPECT_EQ(TableDirectory::temporary_path("tables/KRvK.dpt", 42), "tables/KRvK.dpt.tmp.42");
}

TEST(TableDirectory, TableFileNames) {
  EXPECT_TRUE(TableDirectory::is_table_file_name("KRvK.dpt"));
  EXPECT_TRUE(TableDirectory::is_table_file_name("x.dpt"));
  EXPECT_FALSE(TableDirectory::is_table_file_name(".dpt"));
  EXPECT_FALSE(TableDirectory::is_table_file_name("KRvK.dpt.tmp.12"));
  EXPECT_FALSE(TableDirectory::is_table_file_name("KRvK.json"));
  ASSERT_TRUE(TableDirectory::material_of_table_file("KRvK.dpt"));
  EXPECT_EQ(TableDirectory::material_of_table_file("KRvK.dpt")->key(), "KRvK");
  EXPECT_EQ(TableDirectory::material_of_table_file("KQRBvKN.dpt")->key(), "KQRBvKN");  // any number of men
  for (const char* bad : {"KvKR.dpt", "KRK.dpt", "krvk.dpt", "KRvK.DPT", "KRvK", "x.dpt", ".dpt", "KRvK .dpt"})
    EXPECT_FALSE(TableDirectory::material_of_table_file(bad)) << bad;
}

TEST(TableDirectory, OwnTemporaries) {
  EXPECT_EQ(TableDirectory::own_temporary_pid("KRvK.dpt.tmp.123", 5), 123);
  EXPECT_EQ(TableDirectory::own_temporary_pid("KRvK.json.tmp.123", 5), 123);
  EXPECT_EQ(TableDirectory::own_temporary_pid("KRvK.dpt.tmp.999999999", 5), 999999999);
  for (const char* other : {"KRvK.dpt.tmp.0123", "KRvK.dpt.tmp.1234567890", "KRvK.dpt.tmp.", "KRvK.dpt.tmp.12a",
                            "KRvK.txt.tmp.1", "KvKR.dpt.tmp.1", "KRvK.tmp.1", "notes.tmp.1", "KRvK.dpt"})
    EXPECT_EQ(TableDirectory::own_temporary_pid(other, 5), 0) << other;
  EXPECT_EQ(TableDirectory::own_temporary_pid("KQRBvKN.dpt.tmp.7", 5), 0);  // 6 men: not ours
  EXPECT_EQ(TableDirectory::own_temporary_pid("KQRBvKN.dpt.tmp.7", 6), 7);
}

TEST(TableDirectory, ListsTheDptEntriesWithTheirMaterials) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("deadpos_table_directory_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "KQvK.dpt");  // a directory under a table's name is listed too
  for (const char* f : {"KRvK.dpt", "KvKR.dpt", "notes.txt", "KRvK.json", "KRvK.dpt.tmp.5"})
    std::ofstream(dir / f) << "x";
  auto listed = TableDirectory(dir.string()).list();
  ASSERT_TRUE(listed) << listed.error().message;
  std::vector<TableDirectory::Entry> e = *listed;
  std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  ASSERT_EQ(e.size(), 3U);
  EXPECT_EQ(e[0].name, "KQvK.dpt");
  EXPECT_EQ(e[1].name, "KRvK.dpt");
  EXPECT_EQ(e[1].path, (dir / "KRvK.dpt").string());
  ASSERT_TRUE(e[1].material);
  EXPECT_EQ(e[1].material->key(), "KRvK");
  EXPECT_EQ(e[2].name, "KvKR.dpt");
  EXPECT_FALSE(e[2].material);  // not canonical
  std::filesystem::remove_all(dir);
  auto gone = TableDirectory(dir.string()).list();
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().code, ErrorCode::Io);
  EXPECT_NE(gone.error().message.find(": cannot list the table directory: "), std::string::npos)
      << gone.error().message;
}

// The writer's header, read back field by field through the layout and against format.md
// section 2's literal offsets.
TEST(TableLayout, WrittenHeaderHasTheFieldsWhereTheFormatSays) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("deadpos_table_layout_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const Material m = parsed("KNvK");
  const TableIndex idx = TableIndex::make(m).value();
  Sides<std::vector<std::uint8_t>> arrays;
  for (std::size_t a = 0; a < arrays.size(); ++a) arrays[a].assign(idx.size(), DthmCode::kNone);
  arrays(Color::Black, Color::White)[0] = 3;
  const std::string path = (dir / "KNvK.dpt").string();
  ASSERT_TRUE(write_table(path, idx, arrays));
  std::ifstream in(path, std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(raw.size(), kHeaderBytes);
  const auto* p = reinterpret_cast<const std::byte*>(raw.data());
  using H = HeaderLayout;
  EXPECT_EQ(load_field(p, H::kVersion), kFormatVersion);
  EXPECT_EQ(H::kVersion.offset, 8U);
  EXPECT_EQ(load_field(p, H::kEntries), idx.size());
  EXPECT_EQ(H::kEntries.offset, 40U);
  EXPECT_EQ(load_field(p, H::kFileSize), raw.size());
  EXPECT_EQ(H::kFileSize.offset, 64U);
  EXPECT_EQ(std::string(raw.data() + 16), "KNvK");
  EXPECT_EQ(load_field(p, H::finite(array_of(Color::Black, Color::White))), 1U);
  EXPECT_EQ(H::finite(2).offset, 72U + 2 * 16);
  EXPECT_EQ(H::none(3).offset, 128U);
  const std::uint64_t bi = load_field(p, H::kBlockIndexOffset);
  ASSERT_LE(bi + kBlockIndexEntryBytes, raw.size());
  EXPECT_EQ(load_field(p + bi, BlockEntryLayout::kOffset), kHeaderBytes);  // the first frame follows the header
  EXPECT_EQ(load_field(p + bi, BlockEntryLayout::kEntries), std::min<std::uint64_t>(idx.size(), kBlockEntries));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace deadpos
