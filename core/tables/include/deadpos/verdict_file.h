// Verdict files (docs/format.md section 7 is the specification): for one canonical material, per
// side to move and index value, two bits, "White can be checkmated" and "Black can be
// checkmated" (the DTHM of that side is finite). They answer every question that needs no
// distance: dead position (FIDE 5.2.2: neither bit), the flag-fall rule (6.9: can the opponent
// mate), and the search beyond the tables, which needs a table child's verdict only. Blocks are
// small (kVerdictBlockEntries entries, 16 KiB decompressed), so that a probe that misses every
// cache decompresses microseconds' worth of bytes instead of a 256 KiB block of the table file.
// A verdict file sits beside its table as <KEY>.dpv (TableDirectory::verdict_path) and can be
// used without the table file.
//
// Verdict file bytes are hostile (style rule 18) like table files: every header field, offset
// and size is range-checked, every block and the whole file carry XXH64 checksums, and a failure
// is ErrorCode::CorruptTable naming the file. Writing is atomic (write_file_atomic).
//
// Thread-safety: a VerdictFile is immutable after open(); its const methods may be called from
// any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/result.h"
#include "deadpos/sides.h"
#include "deadpos/table.h"

namespace deadpos {

inline constexpr std::uint32_t kVerdictFormatVersion = 1;
// Index entries per block: 4 to a byte, 16 KiB decompressed. docs/design.md, "Table size" (the
// block-size table) has the measurements behind the figure.
inline constexpr std::uint32_t kVerdictBlockEntries = 1U << 16;
inline constexpr int kVerdictZstdLevel = 19;

// The two bits of one entry: bit to_index(X) is set when X can be checkmated from the position.
struct Verdict {
  std::uint8_t bits = 0;
  bool can_be_mated(Color x) const { return ((bits >> to_index(x)) & 1U) != 0; }
};

struct VerdictHeader {
  std::uint32_t version = kVerdictFormatVersion;
  std::string material;            // key, e.g. "KRBvKR"
  std::uint32_t index_scheme = 0;  // as the table file's (format.md section 2)
  std::uint64_t entries = 0;       // per side to move: TableIndex::size()
  std::uint32_t block_entries = kVerdictBlockEntries;
  std::uint32_t blocks = 0;  // both sides to move
  std::uint64_t block_index_offset = 0;
  std::uint64_t file_size = 0;
  Sides<std::uint64_t> mateable{};     // per (side to move, side mated): positions with that bit set
  ByColor<std::uint64_t> positions{};  // per side to move: entries that are positions
};

// Writes the verdict file of a table atomically to `path`: arrays are the table's four DTHM
// arrays (TableFile::read_array or the solver's: codes of format.md section 3, kInvalid at the
// entries that are not positions; a wrong size or a kUnknown byte aborts through DEADPOS_CHECK, a
// caller's defect). Compression runs on the calling thread's OpenMP team; the bytes do not depend
// on the thread count. Errors: Io naming the path, OutOfMemory.
Status write_verdicts(const std::string& path, const TableIndex& index, const Sides<std::vector<std::uint8_t>>& arrays,
                      int zstd_level = kVerdictZstdLevel);

class VerdictFile {
 public:
  // Opens and checks a verdict file (FileCheck as for TableFile), whose header must name
  // `expected`. Errors: MissingTable (no such file), Io (cannot open or read, not a regular file),
  // CorruptTable (any check fails, or the file holds another material), all naming the path.
  static Result<VerdictFile> open(const std::string& path, const Material& expected, FileCheck check = FileCheck::Full);
  // Same checks (always Full) on bytes in memory; `name` is used in messages.
  static Result<VerdictFile> from_bytes(std::vector<std::byte> bytes, const std::string& name);

  const VerdictHeader& header() const { return header_; }
  const std::string& name() const { return name_; }
  Material material() const { return material_; }
  const TableIndex& index() const { return index_; }

  // Block number (0-based over both sides) and entry inside it of index entry idx with stm to move.
  std::pair<std::uint32_t, std::uint32_t> locate(Color stm, std::uint64_t idx) const {
    return {static_cast<std::uint32_t>(static_cast<std::uint64_t>(to_index(stm)) * blocks_per_side_ +
                                       idx / kVerdictBlockEntries),
            static_cast<std::uint32_t>(idx % kVerdictBlockEntries)};
  }
  // Decompresses block b into out: ceil(entries / 4) bytes, entry e at bits 2 (e mod 4) and
  // 2 (e mod 4) + 1 of byte e / 4 (docs/format.md section 7). Entries that are not positions hold
  // whatever the writer filled in. Errors: CorruptTable (checksum, size), OutOfMemory.
  Status read_block(std::uint32_t b, std::vector<std::uint8_t>& out) const;
  // Entry e of a block read by read_block.
  static Verdict at(const std::vector<std::uint8_t>& block, std::uint32_t e) {
    return Verdict{static_cast<std::uint8_t>((block[e >> 2] >> (2 * (e & 3U))) & 3U)};
  }
  // The verdicts of one side to move, one byte (0..3) per index entry; entries that are not
  // positions (TableIndex::row_positions) hold kInvalid. Errors: those of read_block.
  Result<std::vector<std::uint8_t>> read_side(Color stm) const;

 private:
  static Result<VerdictFile> from_source(std::shared_ptr<const ByteSource> src, const std::string& name,
                                         const Material* expected, FileCheck check);

  std::string name_;
  std::shared_ptr<const ByteSource> src_;
  std::vector<std::byte> block_index_;
  VerdictHeader header_;
  Material material_;
  TableIndex index_;
  std::uint32_t blocks_per_side_ = 0;
};

// Whether the verdict file checked by open() agrees with its table's header: the same material,
// and per array as many positions with the bit set as the table has finite entries, and per side
// to move as many positions as the table has finite + none entries. A cheap test of which table a
// verdict file was written from (the entries themselves are compared by deadpos verify).
bool verdicts_match_header(const VerdictHeader& v, const TableHeader& t);

}  // namespace deadpos
