// Table files, format v2 (docs/format.md is the specification; section numbers below refer to it).
//
// A table holds, for one canonical material, four arrays of one byte per index value
// (TableIndex::size() entries each), one per (side to move, side to be mated) in the order of
// sides.h (section 3), where "DTHM of X" is the distance to helpmate of X (plies until X is
// checkmated along the shortest legal sequence), with the byte codes of DthmCode. The header's and
// block index's bytes are laid out in table_layout.h.
//
// Table bytes are hostile (style rule 18): every header field, offset and size is range-checked,
// every block and the whole file carry XXH64 checksums, and any failure is ErrorCode::CorruptTable
// naming the file. Writing is atomic: temporary file in the same directory, fsync, rename.
//
// Thread-safety: a TableFile is immutable after open(); its const methods may be called from any
// thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "deadpos/dthm.h"
#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/result.h"
#include "deadpos/sides.h"
#include "deadpos/table_directory.h"
#include "deadpos/table_layout.h"

namespace deadpos {

// Written: 2. Read: 1 and 2. They differ only in the bytes stored at invalid entries: v1 stores
// kInvalid there, v2 the value before (section 5: it compresses better) and its reader restores
// kInvalid from the index (TableIndex::row_positions).
inline constexpr std::uint32_t kFormatVersion = 2;
inline constexpr std::uint32_t kOldestReadableVersion = 1;
// zstd setting of the blocks (section 5): level 5 with minMatch 6 and searchLog 6. On filled v2
// blocks of 5-man tables (every 8th-24th block, one thread, measured with bench/zstd_setting.cpp
// on 2026-12-02) it is smaller than level 9 and 2-3 times faster: bits per entry, v1 / level 9 / this,
// KRBvKR 0.428 / 0.256 / 0.244 (314 MB/s), KBPvKB 0.578 / 0.478 / 0.448 (244 MB/s), KBNvKP 0.529 /
// 0.335 / 0.330 (250-290 MB/s); v1 wrote level 9 unfilled at about 45 MB/s.
inline constexpr int kZstdLevel = 5;
inline constexpr int kZstdMinMatch = 6;
inline constexpr int kZstdSearchLog = 6;
inline constexpr std::uint32_t kMetricDthm = 1;
inline constexpr std::uint32_t kBlockEntries = 1U << 18;  // entries per compressed block (256 KiB raw)

// Per-array summary kept in the header (section 2): index entries, not raw positions.
struct ArraySummary {
  std::uint64_t finite = 0;  // entries with a DTHM value
  std::uint64_t none = 0;    // entries with kNone
};

struct TableHeader {
  std::uint32_t version = kFormatVersion;
  std::uint32_t metric = kMetricDthm;
  std::string material;            // key, e.g. "KRBvKR"
  std::uint32_t index_scheme = 0;  // 1: pawnless 462 slots, 2: pawns 2048 slots
  std::uint32_t arrays = kNumArrays;
  std::uint64_t entries = 0;  // per array
  std::uint32_t block_entries = kBlockEntries;
  std::uint32_t blocks = 0;  // total over all arrays
  std::uint64_t block_index_offset = 0;
  std::uint64_t file_size = 0;
  Sides<ArraySummary> summary{};
};

// Writes a table atomically to `path` (write_file_atomic). arrays: the four arrays of
// index.size() bytes each, codes of section 3 of docs/format.md (aborts through DEADPOS_CHECK on a
// wrong size or a kUnknown byte: a caller's defect). zstd_level: 1..22, with kZstdMinMatch and
// kZstdSearchLog on top (format.md section 5: kZstdLevel).
// Compression runs on the calling thread's OpenMP team (output bytes independent of thread count).
// Errors: ErrorCode::Io naming the path.
Status write_table(const std::string& path, const TableIndex& index, const Sides<std::vector<std::uint8_t>>& arrays,
                   int zstd_level = kZstdLevel);

// Writes the concatenation of `parts` to `path` atomically: to `<path>.tmp.<pid>`
// (TableDirectory::temporary_path), fsync, rename,
// fsync of the directory (docs/format.md section 5). A reader never sees a partial file under
// `path`; on failure the temporary is removed. Errors: ErrorCode::Io naming the file.
Status write_file_atomic(const std::string& path, const std::vector<std::span<const std::byte>>& parts);

// Random-access bytes of a table (style rule 28): a file read with pread, or memory (tests,
// fuzzing). Implementations are thread-safe.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::uint64_t size() const = 0;
  // Reads n bytes at offset off into out. Errors: Io (short read, read error).
  virtual Status read_at(std::uint64_t off, std::size_t n, std::byte* out) const = 0;
};

// The bytes of the regular file `path`, read with pread (shared by the table and verdict files).
// Errors: MissingTable (no such file), Io (cannot open, or not a regular file: a FIFO, a
// directory, a device; never blocks), OutOfMemory, all naming the path.
Result<std::shared_ptr<const ByteSource>> open_file_source(const std::string& path);
// Bytes already in memory (tests, fuzzing).
std::shared_ptr<const ByteSource> memory_source(std::vector<std::byte> bytes);

// What a decompressed block holds at entries that are not positions (section 4, "Broken entries").
enum class InvalidEntries {
  Marked,  // kInvalid, exactly there (v2: restored from the index per row; a 5-man block then
           // takes 0.49 ms instead of 0.32 for KBNvKP, 0.58 instead of 0.32 for KRBvKR)
  Any      // whatever the file stores (v2: a copy of a valid code, never kInvalid): for readers
           // that only read entries of legal positions, such as the probe
};

// How much of a file TableFile::open checks up front.
enum class FileCheck {
  Full,       // header, block index and the whole-file checksum (reads the whole file)
  HeaderOnly  // header and block index; each block is still checksummed when it is read
};

class TableFile {
 public:
  // Opens and checks a table file (see FileCheck). Blocks are read on demand with pread.
  // Errors: MissingTable (no such file), Io (cannot open/read, or not a regular file: a FIFO, a
  // directory, a device; never blocks), CorruptTable (any check fails), all naming the path.
  static Result<TableFile> open(const std::string& path, FileCheck check = FileCheck::Full);
  // The same, and the header must name `expected` (a renamed or misplaced file would otherwise be
  // read with another material's index). Errors: as open(), and CorruptTable "file holds the
  // table X, not Y".
  static Result<TableFile> open(const std::string& path, const Material& expected, FileCheck check = FileCheck::Full);
  // Same checks (always Full) on bytes already in memory (fuzzing, tests); `name` is used in messages.
  static Result<TableFile> from_bytes(std::vector<std::byte> bytes, const std::string& name);

  const TableHeader& header() const { return header_; }
  const std::string& name() const { return name_; }
  Material material() const { return material_; }
  const TableIndex& index() const { return index_; }

  // Decompresses one whole array (block checksums verified; invalid entries Marked). Errors:
  // CorruptTable.
  Result<std::vector<std::uint8_t>> read_array(int array) const;
  // Decompresses block b (0-based over all arrays) into out (block_entries bytes or fewer for the
  // last block of an array), invalid entries as `invalid` says. Errors: CorruptTable (checksum,
  // size, or a code section 3 does not allow: in v2 kInvalid is one), OutOfMemory.
  Status read_block(std::uint32_t block, std::vector<std::uint8_t>& out,
                    InvalidEntries invalid = InvalidEntries::Marked) const;
  // Block number and offset inside it of entry idx of array a (file order, sides.h).
  std::pair<std::uint32_t, std::uint32_t> locate(int array, std::uint64_t idx) const;
  // The same for the array of (side to move, side to be mated).
  std::pair<std::uint32_t, std::uint32_t> locate(Color stm, Color mated, std::uint64_t idx) const {
    return locate(array_of(stm, mated), idx);
  }

 private:
  static Result<TableFile> from_source(std::shared_ptr<const ByteSource> src, const std::string& name, FileCheck check);
  // v2: writes kInvalid at the entries of a decompressed block that are not positions.
  void mark_invalid(std::uint32_t block, std::vector<std::uint8_t>& out) const;

  std::string name_;
  std::shared_ptr<const ByteSource> src_;
  std::vector<std::byte> block_index_;  // the block index, read and checked at open
  TableHeader header_;
  Material material_;
  TableIndex index_;
  std::uint32_t blocks_per_array_ = 0;
};

// Whether `path` (symbolic links followed) is a regular file: true, false when absent (ENOENT).
// Errors: Io naming the path when it is something else (a FIFO, whose open() would block for
// ever, a directory, a device, a socket) or cannot be examined.
Result<bool> regular_file_exists(const std::string& path);

}  // namespace deadpos
