// Checks shared by the readers of table files (table.cpp) and verdict files (verdict_file.cpp):
// internal to the tables room.
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "deadpos/result.h"
#include "deadpos/table.h"
#include "deadpos/table_layout.h"

namespace deadpos::internal {

inline std::uint64_t xxh64(const void* data, std::size_t n) { return XXH64(data, n, 0); }

inline Error corrupt(const std::string& name, const std::string& why) {
  return make_error(ErrorCode::CorruptTable, name + ": " + why);
}

// Whether the trailer (TrailerLayout: the file's last 8 bytes) holds the XXH64 of every byte
// before it, streamed in 1 MiB pieces. Errors: Io (a read fails), CorruptTable "file checksum
// mismatch". Requires src.size() >= TrailerLayout::kBytes.
inline Status check_file_checksum(const ByteSource& src, const std::string& name) {
  const std::uint64_t size = src.size();
  XXH64_state_t* st = XXH64_createState();
  XXH64_reset(st, 0);
  std::vector<std::byte> buf(1U << 20);
  std::uint64_t off = 0;
  Status rs = Ok{};
  while (off < size - TrailerLayout::kBytes && rs.ok()) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), size - TrailerLayout::kBytes - off));
    rs = src.read_at(off, n, buf.data());
    if (rs.ok()) XXH64_update(st, buf.data(), n);
    off += n;
  }
  const std::uint64_t digest = XXH64_digest(st);
  XXH64_freeState(st);
  if (!rs) return rs.error();
  std::array<std::byte, TrailerLayout::kBytes> tr{};
  if (Status s = src.read_at(size - TrailerLayout::kBytes, TrailerLayout::kBytes, tr.data()); !s) return s.error();
  if (load_field(tr.data(), TrailerLayout::kChecksum) != digest) return corrupt(name, "file checksum mismatch");
  return Ok{};
}

// Compresses `blocks` independent zstd frames on the calling thread's OpenMP team (the bytes do
// not depend on the thread count): raw(b, buffer) writes block b's raw bytes (at most raw_bytes)
// into buffer and returns their count; each frame uses zstd level `level`, with minMatch and
// searchLog too when they are not 0. Errors: OutOfMemory (zstd could not allocate), Io
// (compression failed), both naming path.
Result<std::vector<std::vector<std::byte>>> compress_blocks(
    const std::string& path, std::uint32_t blocks, std::size_t raw_bytes, int level, int min_match, int search_log,
    const std::function<std::size_t(std::uint32_t, std::uint8_t*)>& raw);

// The block index (BlockEntryLayout entries) of zstd frames stored back to back from byte
// `first_offset`, block b holding entries_of(b) index entries; `end` receives the offset after
// the last frame (where the block index goes).
std::vector<std::byte> block_index_bytes(const std::vector<std::vector<std::byte>>& frames, std::uint64_t first_offset,
                                         const std::function<std::uint32_t(std::uint32_t)>& entries_of,
                                         std::uint64_t& end);
// Writes header, frames, block index and the trailer (XXH64 of every byte before it) to `path`
// atomically (write_file_atomic). Errors: Io naming the file.
Status write_blocked_file(const std::string& path, std::span<const std::byte> header,
                          const std::vector<std::vector<std::byte>>& frames, const std::vector<std::byte>& index);

}  // namespace deadpos::internal
