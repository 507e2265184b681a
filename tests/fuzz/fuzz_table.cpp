// libFuzzer target: the table reader on hostile bytes (TableFile::from_bytes, docs/format.md).
//
// Each input is tried twice: as it is, and "resealed" (its header, block and file checksums
// recomputed the way write_table computes them), because a mutation almost never keeps three
// XXH64 checksums right and would otherwise only ever test the checksum checks. When the reader
// accepts the bytes, its blocks are decompressed through the public API (read_block up to the first
// that fails, read_array of one array, locate). Properties, aborting on violation:
//   - every error is ErrorCode::CorruptTable, its message printable ASCII starting with the name;
//   - an accepted header agrees with the material's index (entries, blocks);
//   - locate() of every array's first and last entry names a block of that array;
//   - read_block gives the entry count of its block, read_array the whole array, and the two agree.
#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "deadpos/table.h"

namespace {

using deadpos::ErrorCode;
using deadpos::TableFile;

constexpr const char* kName = "fuzz.dpt";
// read_array allocates header.entries bytes: whole arrays are read only up to this size (a 4-man
// table with pawns has 6.3 M entries), larger ones block by block.
constexpr std::uint64_t kMaxArrayRead = std::uint64_t{1} << 23;

void require(bool ok, const char* what, std::string_view detail = {}) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_table: property violated: %s [%.*s]\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

void require_error(const deadpos::Error& e, const char* where) {
  require(e.code == ErrorCode::CorruptTable, where, e.message);
  require(e.message.rfind(std::string(kName) + ": ", 0) == 0, "message names the table", e.message);
  for (const char c : e.message) require(c >= ' ' && c <= '~', "message is printable ASCII", e.message);
}

std::uint64_t load_u64(const std::vector<std::byte>& b, std::size_t off) {
  std::uint64_t v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}
std::uint32_t load_u32(const std::vector<std::byte>& b, std::size_t off) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}
void store_u64(std::vector<std::byte>& b, std::size_t off, std::uint64_t v) {
  std::memcpy(b.data() + off, &v, sizeof v);
}

// Recomputes the checksums of docs/format.md sections 2 and 5 where the fields locate them.
void reseal(std::vector<std::byte>& b) {
  if (b.size() < deadpos::kHeaderBytes + 8) return;
  store_u64(b, 136, XXH64(b.data(), 136, 0));
  const std::uint64_t index_off = load_u64(b, 56);
  const std::uint64_t blocks = load_u32(b, 52);
  const std::uint64_t size = b.size();
  if (index_off <= size && blocks <= (size - index_off) / deadpos::kBlockIndexEntryBytes) {
    for (std::uint64_t k = 0; k < blocks; ++k) {
      const std::size_t e = static_cast<std::size_t>(index_off + k * deadpos::kBlockIndexEntryBytes);
      const std::uint64_t off = load_u64(b, e);
      const std::uint64_t csize = load_u32(b, e + 8);
      if (off <= size && csize <= size - off) {
        store_u64(b, e + 16, XXH64(b.data() + off, static_cast<std::size_t>(csize), 0));
      }
    }
  }
  store_u64(b, b.size() - 8, XXH64(b.data(), b.size() - 8, 0));
}

void read_everything(const TableFile& t) {
  const deadpos::TableHeader& h = t.header();
  require(h.entries == t.index().size(), "entries == index size");
  const std::uint64_t per_array = (h.entries + deadpos::kBlockEntries - 1) / deadpos::kBlockEntries;
  require(h.blocks == per_array * deadpos::kNumArrays, "blocks == 4 x blocks per array");
  for (int a = 0; a < deadpos::kNumArrays; ++a) {
    const auto first = t.locate(a, 0);
    const auto last = t.locate(a, h.entries - 1);
    const auto a64 = static_cast<std::uint64_t>(a);
    require(first.first == a64 * per_array && first.second == 0, "locate(a, 0)");
    require(last.first == (a64 + 1) * per_array - 1, "locate(a, last) is the array's last block");
  }
  // Every block in order, up to the first that fails (the rest would cost time, not coverage).
  std::vector<std::uint8_t> out;
  bool all_blocks_ok = true;
  for (std::uint32_t b = 0; b < h.blocks && all_blocks_ok; ++b) {
    const deadpos::Status s = t.read_block(b, out);
    if (!s) {
      require_error(s.error(), "read_block error is CorruptTable");
      all_blocks_ok = false;
      continue;
    }
    const std::uint64_t first = (b % per_array) * deadpos::kBlockEntries;
    require(out.size() == std::min<std::uint64_t>(deadpos::kBlockEntries, h.entries - first), "block entry count");
  }
  const deadpos::Status past = t.read_block(h.blocks, out);
  require(!past.ok(), "read_block past the last block fails");
  require_error(past.error(), "read_block past the end is CorruptTable");
  // One whole array (the last: it ends with the file's last block); the others differ only in the
  // block numbers read_block already took.
  if (h.entries > kMaxArrayRead) return;
  const int a = deadpos::kNumArrays - 1;
  auto arr = t.read_array(a);
  if (!arr) {
    require(!all_blocks_ok, "read_array fails only if a block does", arr.error().message);
    require_error(arr.error(), "read_array error is CorruptTable");
    return;
  }
  require(arr->size() == h.entries, "read_array size");
  const auto [block, off] = t.locate(a, h.entries - 1);
  require(t.read_block(block, out).ok() && out.size() == off + 1U && out[off] == (*arr)[h.entries - 1],
          "read_array and read_block agree on the last entry");
}

void try_bytes(std::vector<std::byte> bytes) {
  auto t = TableFile::from_bytes(std::move(bytes), kName);
  if (!t) {
    require_error(t.error(), "from_bytes error is CorruptTable");
    return;
  }
  require(t->name() == kName, "name()");
  read_everything(*t);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto* p = reinterpret_cast<const std::byte*>(data);
  const std::vector<std::byte> bytes(p, p + size);
  try_bytes(bytes);
  std::vector<std::byte> sealed = bytes;
  reseal(sealed);
  if (sealed != bytes) try_bytes(std::move(sealed));
  return 0;
}
