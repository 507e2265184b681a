// Byte layout of a table file's header (docs/format.md section 2) and of one block index entry
// (section 5): the one offset table that the writer and the reader of table.cpp both use. Every
// multi-byte field is little-endian; a field is read and written only through load_field /
// store_field (memcpy: style rule 20), whose type is the field's.
//
// Header, 144 bytes:
//   0 magic[8] | 8 u32 version | 12 u32 metric | 16 char material[16] | 32 u32 index scheme
//   36 u32 arrays | 40 u64 entries | 48 u32 block entries | 52 u32 blocks | 56 u64 block index offset
//   64 u64 file size | 72 4 x (u64 finite, u64 none) | 136 u64 XXH64 of bytes [0, 136)
// Block index entry, 24 bytes:
//   0 u64 file offset of the frame | 8 u32 compressed size | 12 u32 entries | 16 u64 XXH64 of the frame
// Trailer, the file's last 8 bytes: u64 XXH64 of every byte before it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "deadpos/sides.h"

namespace deadpos {

// The build targets little-endian hosts: a big-endian port fails here instead of misreading tables.
static_assert(std::endian::native == std::endian::little, "table I/O assumes a little-endian host");

// A little-endian field of type T at a byte offset.
template <typename T>
struct LeField {
  std::size_t offset;
  static constexpr std::size_t size = sizeof(T);
  constexpr std::size_t end() const { return offset + size; }
};
// A field of raw bytes (magic, material key).
struct BytesField {
  std::size_t offset;
  std::size_t size;
  constexpr std::size_t end() const { return offset + size; }
};

template <typename T>
T load_field(const std::byte* record, LeField<T> f) {
  T v;
  std::memcpy(&v, record + f.offset, sizeof v);
  return v;
}
template <typename T>
void store_field(std::byte* record, LeField<T> f, T v) {
  std::memcpy(record + f.offset, &v, sizeof v);
}

// Header fields (section 2).
struct HeaderLayout {
  static constexpr BytesField kMagic{0, 8};
  static constexpr LeField<std::uint32_t> kVersion{8};
  static constexpr LeField<std::uint32_t> kMetric{12};
  static constexpr BytesField kMaterial{16, 16};  // NUL-padded, last byte always NUL
  static constexpr LeField<std::uint32_t> kIndexScheme{32};
  static constexpr LeField<std::uint32_t> kArrays{36};
  static constexpr LeField<std::uint64_t> kEntries{40};
  static constexpr LeField<std::uint32_t> kBlockEntries{48};
  static constexpr LeField<std::uint32_t> kBlocks{52};
  static constexpr LeField<std::uint64_t> kBlockIndexOffset{56};
  static constexpr LeField<std::uint64_t> kFileSize{64};
  // Per array a (file order, sides.h): entries with a finite DTHM, entries with kNone.
  static constexpr std::size_t kSummaries = 72;
  static constexpr std::size_t kSummaryBytes = 16;
  static constexpr LeField<std::uint64_t> finite(int a) {
    return {kSummaries + kSummaryBytes * static_cast<std::size_t>(a)};
  }
  static constexpr LeField<std::uint64_t> none(int a) {
    return {kSummaries + kSummaryBytes * static_cast<std::size_t>(a) + 8};
  }
  static constexpr LeField<std::uint64_t> kChecksum{136};  // XXH64 (seed 0) of bytes [0, kChecksum.offset)
  static constexpr std::size_t kBytes = 144;
};

// The fields tile the header in order, without gaps or overlaps.
static_assert(HeaderLayout::kMagic.offset == 0 && HeaderLayout::kMagic.end() == HeaderLayout::kVersion.offset);
static_assert(HeaderLayout::kVersion.end() == HeaderLayout::kMetric.offset);
static_assert(HeaderLayout::kMetric.end() == HeaderLayout::kMaterial.offset);
static_assert(HeaderLayout::kMaterial.end() == HeaderLayout::kIndexScheme.offset);
static_assert(HeaderLayout::kIndexScheme.end() == HeaderLayout::kArrays.offset);
static_assert(HeaderLayout::kArrays.end() == HeaderLayout::kEntries.offset);
static_assert(HeaderLayout::kEntries.end() == HeaderLayout::kBlockEntries.offset);
static_assert(HeaderLayout::kBlockEntries.end() == HeaderLayout::kBlocks.offset);
static_assert(HeaderLayout::kBlocks.end() == HeaderLayout::kBlockIndexOffset.offset);
static_assert(HeaderLayout::kBlockIndexOffset.end() == HeaderLayout::kFileSize.offset);
static_assert(HeaderLayout::kFileSize.end() == HeaderLayout::kSummaries);
static_assert(HeaderLayout::finite(0).offset == HeaderLayout::kSummaries &&
              HeaderLayout::none(0).offset == HeaderLayout::finite(0).end() &&
              HeaderLayout::none(0).end() == HeaderLayout::finite(1).offset);
static_assert(HeaderLayout::none(kNumArrays - 1).end() == HeaderLayout::kChecksum.offset);
static_assert(HeaderLayout::kChecksum.end() == HeaderLayout::kBytes && HeaderLayout::kBytes == 144);

// One block index entry (section 5).
struct BlockEntryLayout {
  static constexpr LeField<std::uint64_t> kOffset{0};          // file offset of the zstd frame
  static constexpr LeField<std::uint32_t> kCompressedSize{8};  // bytes of the frame
  static constexpr LeField<std::uint32_t> kEntries{12};        // entries it decompresses to
  static constexpr LeField<std::uint64_t> kChecksum{16};       // XXH64 (seed 0) of the frame
  static constexpr std::size_t kBytes = 24;
};
static_assert(BlockEntryLayout::kOffset.end() == BlockEntryLayout::kCompressedSize.offset);
static_assert(BlockEntryLayout::kCompressedSize.end() == BlockEntryLayout::kEntries.offset);
static_assert(BlockEntryLayout::kEntries.end() == BlockEntryLayout::kChecksum.offset);
static_assert(BlockEntryLayout::kChecksum.end() == BlockEntryLayout::kBytes && BlockEntryLayout::kBytes == 24);

// The file's last 8 bytes (section 5).
struct TrailerLayout {
  static constexpr LeField<std::uint64_t> kChecksum{0};  // XXH64 (seed 0) of every byte before the trailer
  static constexpr std::size_t kBytes = 8;
};
static_assert(TrailerLayout::kChecksum.end() == TrailerLayout::kBytes);

// Header of a verdict file (docs/format.md section 7), 128 bytes:
//   0 magic[8] | 8 u32 version | 12 u32 bits per entry | 16 char material[16] | 32 u32 index scheme
//   36 u32 sides to move | 40 u64 entries per side | 48 u32 block entries | 52 u32 blocks
//   56 u64 block index offset | 64 u64 file size | 72 4 x u64 positions where the target can be
//   mated (per array, sides.h order) | 104 2 x u64 positions per side to move | 120 u64 XXH64 of [0, 120)
// Blocks use BlockEntryLayout (its entries field counts index entries, four to a byte) and the
// file ends in TrailerLayout.
struct VerdictHeaderLayout {
  static constexpr BytesField kMagic{0, 8};
  static constexpr LeField<std::uint32_t> kVersion{8};
  static constexpr LeField<std::uint32_t> kBitsPerEntry{12};
  static constexpr BytesField kMaterial{16, 16};  // NUL-padded, last byte always NUL
  static constexpr LeField<std::uint32_t> kIndexScheme{32};
  static constexpr LeField<std::uint32_t> kSides{36};
  static constexpr LeField<std::uint64_t> kEntries{40};
  static constexpr LeField<std::uint32_t> kBlockEntries{48};
  static constexpr LeField<std::uint32_t> kBlocks{52};
  static constexpr LeField<std::uint64_t> kBlockIndexOffset{56};
  static constexpr LeField<std::uint64_t> kFileSize{64};
  static constexpr std::size_t kMateable = 72;
  static constexpr LeField<std::uint64_t> mateable(int a) { return {kMateable + 8 * static_cast<std::size_t>(a)}; }
  static constexpr std::size_t kPositions = 104;
  static constexpr LeField<std::uint64_t> positions(int stm) {
    return {kPositions + 8 * static_cast<std::size_t>(stm)};
  }
  static constexpr LeField<std::uint64_t> kChecksum{120};  // XXH64 (seed 0) of bytes [0, kChecksum.offset)
  static constexpr std::size_t kBytes = 128;
};
static_assert(VerdictHeaderLayout::kMagic.end() == VerdictHeaderLayout::kVersion.offset);
static_assert(VerdictHeaderLayout::kVersion.end() == VerdictHeaderLayout::kBitsPerEntry.offset);
static_assert(VerdictHeaderLayout::kBitsPerEntry.end() == VerdictHeaderLayout::kMaterial.offset);
static_assert(VerdictHeaderLayout::kMaterial.end() == VerdictHeaderLayout::kIndexScheme.offset);
static_assert(VerdictHeaderLayout::kIndexScheme.end() == VerdictHeaderLayout::kSides.offset);
static_assert(VerdictHeaderLayout::kSides.end() == VerdictHeaderLayout::kEntries.offset);
static_assert(VerdictHeaderLayout::kEntries.end() == VerdictHeaderLayout::kBlockEntries.offset);
static_assert(VerdictHeaderLayout::kBlockEntries.end() == VerdictHeaderLayout::kBlocks.offset);
static_assert(VerdictHeaderLayout::kBlocks.end() == VerdictHeaderLayout::kBlockIndexOffset.offset);
static_assert(VerdictHeaderLayout::kBlockIndexOffset.end() == VerdictHeaderLayout::kFileSize.offset);
static_assert(VerdictHeaderLayout::kFileSize.end() == VerdictHeaderLayout::kMateable);
static_assert(VerdictHeaderLayout::mateable(kNumArrays - 1).end() == VerdictHeaderLayout::kPositions);
static_assert(VerdictHeaderLayout::positions(1).end() == VerdictHeaderLayout::kChecksum.offset);
static_assert(VerdictHeaderLayout::kChecksum.end() == VerdictHeaderLayout::kBytes &&
              VerdictHeaderLayout::kBytes == 128);

inline constexpr std::size_t kHeaderBytes = HeaderLayout::kBytes;
inline constexpr std::size_t kBlockIndexEntryBytes = BlockEntryLayout::kBytes;

}  // namespace deadpos
