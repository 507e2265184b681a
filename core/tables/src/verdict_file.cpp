// Verdict files (docs/format.md section 7; see verdict_file.h).
#include "deadpos/verdict_file.h"

#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <new>

#include "deadpos/dthm.h"
#include "file_checks.h"

namespace deadpos {

namespace {

constexpr unsigned char kVerdictMagic[8] = {'D', 'P', 'T', 'V', '\r', '\n', 0x1a, '\n'};
constexpr std::uint32_t kBitsPerEntry = 2;
constexpr std::uint32_t kSides = 2;

using V = VerdictHeaderLayout;
using E = BlockEntryLayout;
using internal::corrupt;
using internal::xxh64;

std::uint32_t blocks_per_side(std::uint64_t entries) {
  return static_cast<std::uint32_t>((entries + kVerdictBlockEntries - 1) / kVerdictBlockEntries);
}
std::size_t packed_bytes(std::uint64_t entries) { return static_cast<std::size_t>((entries + 3) / 4); }

void serialize(const VerdictHeader& h, std::byte* p) {
  std::memset(p, 0, V::kBytes);
  std::memcpy(p + V::kMagic.offset, kVerdictMagic, V::kMagic.size);
  store_field(p, V::kVersion, h.version);
  store_field(p, V::kBitsPerEntry, kBitsPerEntry);
  std::memcpy(p + V::kMaterial.offset, h.material.data(),
              std::min<std::size_t>(h.material.size(), V::kMaterial.size - 1));
  store_field(p, V::kIndexScheme, h.index_scheme);
  store_field(p, V::kSides, kSides);
  store_field(p, V::kEntries, h.entries);
  store_field(p, V::kBlockEntries, h.block_entries);
  store_field(p, V::kBlocks, h.blocks);
  store_field(p, V::kBlockIndexOffset, h.block_index_offset);
  store_field(p, V::kFileSize, h.file_size);
  for (int a = 0; a < kNumArrays; ++a) store_field(p, V::mateable(a), h.mateable[static_cast<std::size_t>(a)]);
  for (Color c : {Color::White, Color::Black}) store_field(p, V::positions(to_index(c)), h.positions[c]);
  store_field(p, V::kChecksum, xxh64(p, V::kChecksum.offset));
}

}  // namespace

Status write_verdicts(const std::string& path, const TableIndex& index, const Sides<std::vector<std::uint8_t>>& arrays,
                      int zstd_level) {
  const std::uint64_t n = index.size();
  for (const auto& a : arrays) DEADPOS_CHECK(a.size() == n);
  const std::uint32_t per_side = blocks_per_side(n);
  const std::uint32_t blocks = per_side * kSides;
  VerdictHeader h;
  h.material = index.material().key();
  h.index_scheme = index.has_pawns() ? 2 : 1;
  h.entries = n;
  h.blocks = blocks;
  for (Color stm : {Color::White, Color::Black}) {
    const std::uint8_t* w = arrays(stm, Color::White).data();
    const std::uint8_t* b = arrays(stm, Color::Black).data();
    std::uint64_t pos = 0, mw = 0, mb = 0, mismatch = 0, unknown = 0;
#pragma omp parallel for schedule(static) reduction(+ : pos, mw, mb, mismatch, unknown)
    for (std::uint64_t i = 0; i < n; ++i) {
      pos += w[i] != DthmCode::kInvalid ? 1 : 0;
      mismatch += (w[i] == DthmCode::kInvalid) != (b[i] == DthmCode::kInvalid) ? 1 : 0;
      mw += w[i] <= DthmCode::kMaxDthm ? 1 : 0;
      mb += b[i] <= DthmCode::kMaxDthm ? 1 : 0;
      unknown += (w[i] == DthmCode::kUnknown || b[i] == DthmCode::kUnknown) ? 1 : 0;
    }
    DEADPOS_CHECK(mismatch == 0 && unknown == 0);
    h.positions[stm] = pos;
    h.mateable(stm, Color::White) = mw;
    h.mateable(stm, Color::Black) = mb;
  }

  auto compressed = internal::compress_blocks(
      path, blocks, packed_bytes(kVerdictBlockEntries), zstd_level, 0, 0, [&](std::uint32_t bi, std::uint8_t* packed) {
        const Color stm = bi < per_side ? Color::White : Color::Black;
        const std::uint64_t first = static_cast<std::uint64_t>(bi % per_side) * kVerdictBlockEntries;
        const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kVerdictBlockEntries, n - first));
        const std::uint8_t* w = arrays(stm, Color::White).data() + first;
        const std::uint8_t* b = arrays(stm, Color::Black).data() + first;
        const auto code = [&](std::size_t i) {
          return static_cast<std::uint8_t>((w[i] <= DthmCode::kMaxDthm ? 1U : 0U) |
                                           (b[i] <= DthmCode::kMaxDthm ? 2U : 0U));
        };
        // Section 7: an entry that is not a position holds the code before it in the block (the
        // block's first position's code for those before it; 0 in a block without a position).
        std::uint8_t prev = 0;
        for (std::size_t i = 0; i < len; ++i)
          if (w[i] != DthmCode::kInvalid) {
            prev = code(i);
            break;
          }
        const std::size_t bytes = packed_bytes(len);
        std::fill(packed, packed + bytes, std::uint8_t{0});
        for (std::size_t i = 0; i < len; ++i) {
          const std::uint8_t c = w[i] == DthmCode::kInvalid ? prev : code(i);
          prev = c;
          packed[i >> 2] = static_cast<std::uint8_t>(packed[i >> 2] | (c << (2 * (i & 3U))));
        }
        return bytes;
      });
  if (!compressed) return compressed.error();
  const std::vector<std::vector<std::byte>>& comp = *compressed;

  std::uint64_t end = 0;
  const std::vector<std::byte> index_bytes = internal::block_index_bytes(
      comp, V::kBytes,
      [&](std::uint32_t bi) {
        const std::uint64_t first = static_cast<std::uint64_t>(bi % per_side) * kVerdictBlockEntries;
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(kVerdictBlockEntries, n - first));
      },
      end);
  h.block_index_offset = end;
  h.file_size = end + index_bytes.size() + TrailerLayout::kBytes;
  std::array<std::byte, V::kBytes> header_bytes{};
  serialize(h, header_bytes.data());
  return internal::write_blocked_file(path, header_bytes, comp, index_bytes);
}

Result<VerdictFile> VerdictFile::open(const std::string& path, const Material& expected, FileCheck check) {
  auto src = open_file_source(path);
  if (!src) return src.error();
  try {
    return from_source(std::move(*src), path, &expected, check);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::OutOfMemory, path + ": out of memory while reading its header and block index");
  }
}

Result<VerdictFile> VerdictFile::from_bytes(std::vector<std::byte> bytes, const std::string& name) {
  try {
    return from_source(memory_source(std::move(bytes)), name, nullptr, FileCheck::Full);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::OutOfMemory, name + ": out of memory while reading its header and block index");
  }
}

Result<VerdictFile> VerdictFile::from_source(std::shared_ptr<const ByteSource> src, const std::string& name,
                                             const Material* expected, FileCheck check) {
  VerdictFile t;
  t.name_ = name;
  const std::uint64_t size = src->size();
  if (size < V::kBytes + TrailerLayout::kBytes)
    return corrupt(name, "file is " + std::to_string(size) +
                             " bytes, shorter than a verdict file's header and trailer (" +
                             std::to_string(V::kBytes + TrailerLayout::kBytes) + " bytes)");
  std::array<std::byte, V::kBytes> hb{};
  if (Status s = src->read_at(0, V::kBytes, hb.data()); !s) return s.error();
  const std::byte* p = hb.data();
  if (std::memcmp(p + V::kMagic.offset, kVerdictMagic, V::kMagic.size) != 0)
    return corrupt(name, "bad magic (not a deadpos verdict file)");
  if (load_field(p, V::kChecksum) != xxh64(p, V::kChecksum.offset)) return corrupt(name, "header checksum mismatch");
  VerdictHeader& h = t.header_;
  h.version = load_field(p, V::kVersion);
  if (h.version != kVerdictFormatVersion) {
    return corrupt(name, "unsupported verdict file version " + std::to_string(h.version) +
                             " (this deadpos reads version 1): regenerate it with deadpos generate");
  }
  if (load_field(p, V::kBitsPerEntry) != kBitsPerEntry) return corrupt(name, "bits per entry is not 2");
  char key[V::kMaterial.size];
  std::memcpy(key, p + V::kMaterial.offset, V::kMaterial.size);
  if (key[V::kMaterial.size - 1] != '\0') return corrupt(name, "material field not terminated");
  h.material = key;
  auto mat = Material::parse(h.material);
  if (!mat || !mat->is_canonical()) return corrupt(name, "bad material key '" + shown_text(h.material) + "'");
  if (expected && !(*mat == *expected))
    return corrupt(name, "file holds the verdicts of " + mat->key() + ", not " + expected->key());
  auto idx = TableIndex::make(*mat);
  if (!idx) return corrupt(name, idx.error().message);
  t.material_ = *mat;
  t.index_ = *idx;
  h.index_scheme = load_field(p, V::kIndexScheme);
  if (h.index_scheme != (t.index_.has_pawns() ? 2U : 1U)) return corrupt(name, "index scheme does not match material");
  if (load_field(p, V::kSides) != kSides) return corrupt(name, "side-to-move count is not 2");
  h.entries = load_field(p, V::kEntries);
  if (h.entries != t.index_.size()) return corrupt(name, "entry count does not match the material's index size");
  h.block_entries = load_field(p, V::kBlockEntries);
  if (h.block_entries != kVerdictBlockEntries) return corrupt(name, "unsupported block size");
  t.blocks_per_side_ = blocks_per_side(h.entries);
  h.blocks = load_field(p, V::kBlocks);
  if (h.blocks != t.blocks_per_side_ * kSides) return corrupt(name, "block count does not match the entry count");
  h.block_index_offset = load_field(p, V::kBlockIndexOffset);
  h.file_size = load_field(p, V::kFileSize);
  if (h.file_size != size) {
    return corrupt(name, "file is " + std::to_string(size) + " bytes, header says " + std::to_string(h.file_size) +
                             " (truncated or extended)");
  }
  if (h.block_index_offset < V::kBytes || h.block_index_offset > size ||
      h.block_index_offset + static_cast<std::uint64_t>(h.blocks) * E::kBytes + TrailerLayout::kBytes != size) {
    return corrupt(name, "block index offset out of range");
  }
  for (Color stm : {Color::White, Color::Black}) {
    h.positions[stm] = load_field(p, V::positions(to_index(stm)));
    if (h.positions[stm] > h.entries) {
      return corrupt(name, "header field 'positions' of side to move " + std::to_string(to_index(stm)) + " (offset " +
                               std::to_string(V::positions(to_index(stm)).offset) + ") exceeds the entry count");
    }
    for (Color x : {Color::White, Color::Black}) {
      const int a = array_of(stm, x);
      h.mateable(stm, x) = load_field(p, V::mateable(a));
      if (h.mateable(stm, x) > h.positions[stm]) {
        return corrupt(name, "header field 'mateable' of array " + std::to_string(a) + " (offset " +
                                 std::to_string(V::mateable(a).offset) + ") exceeds the positions of its side to move");
      }
    }
  }
  if (check == FileCheck::Full) {
    if (Status s = internal::check_file_checksum(*src, name); !s) return s.error();
  }
  t.block_index_.resize(static_cast<std::size_t>(h.blocks) * E::kBytes);
  if (Status s = src->read_at(h.block_index_offset, t.block_index_.size(), t.block_index_.data()); !s) return s.error();
  std::uint64_t expect = V::kBytes;
  for (std::uint32_t b = 0; b < h.blocks; ++b) {
    const std::byte* e = t.block_index_.data() + static_cast<std::uint64_t>(b) * E::kBytes;
    const std::uint64_t off = load_field(e, E::kOffset);
    const std::uint32_t csize = load_field(e, E::kCompressedSize);
    const std::uint32_t raw = load_field(e, E::kEntries);
    const std::uint64_t first = static_cast<std::uint64_t>(b % t.blocks_per_side_) * kVerdictBlockEntries;
    if (off != expect || off + csize > h.block_index_offset ||
        raw != std::min<std::uint64_t>(kVerdictBlockEntries, h.entries - first)) {
      return corrupt(name, "block " + std::to_string(b) + " has an out-of-range offset or size");
    }
    expect = off + csize;
  }
  if (expect != h.block_index_offset) return corrupt(name, "blocks do not fill the data section");
  t.src_ = std::move(src);
  return t;
}

Status VerdictFile::read_block(std::uint32_t block, std::vector<std::uint8_t>& out) const {
  if (block >= header_.blocks) return corrupt(name_, "block " + std::to_string(block) + " out of range");
  const std::byte* e = block_index_.data() + static_cast<std::uint64_t>(block) * E::kBytes;
  const std::uint64_t off = load_field(e, E::kOffset);
  const std::uint32_t csize = load_field(e, E::kCompressedSize);
  const std::size_t raw = packed_bytes(load_field(e, E::kEntries));
  thread_local std::vector<std::byte> comp;
  comp.resize(csize);
  if (Status s = src_->read_at(off, csize, comp.data()); !s) return s.error();
  if (xxh64(comp.data(), csize) != load_field(e, E::kChecksum))
    return corrupt(name_, "block " + std::to_string(block) + " checksum mismatch");
  // One decompression context per thread: ZSTD_decompress would allocate one per call.
  thread_local const std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) return make_error(ErrorCode::OutOfMemory, name_ + ": out of memory for a zstd context");
  out.resize(raw);
  const std::size_t r = ZSTD_decompressDCtx(dctx.get(), out.data(), raw, comp.data(), csize);
  if (ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) {
    return make_error(ErrorCode::OutOfMemory,
                      name_ + ": block " + std::to_string(block) + ": out of memory while decompressing");
  }
  if (ZSTD_isError(r) || r != raw) {
    return corrupt(name_,
                   "block " + std::to_string(block) + " does not decompress to " + std::to_string(raw) + " bytes");
  }
  return Ok{};
}

Result<std::vector<std::uint8_t>> VerdictFile::read_side(Color stm) const {
  std::vector<std::uint8_t> all(header_.entries);
  std::vector<std::uint8_t> buf;
  for (std::uint32_t i = 0; i < blocks_per_side_; ++i) {
    const std::uint32_t b = static_cast<std::uint32_t>(to_index(stm)) * blocks_per_side_ + i;
    if (Status s = read_block(b, buf); !s) return s.error();
    const std::uint64_t first = static_cast<std::uint64_t>(i) * kVerdictBlockEntries;
    const std::uint64_t len = std::min<std::uint64_t>(kVerdictBlockEntries, header_.entries - first);
    for (std::uint32_t k = 0; k < len; ++k) all[first + k] = at(buf, k).bits;
  }
  const auto range = static_cast<std::uint64_t>(index_.last_range());
  for (std::uint64_t row = 0; row * range < header_.entries; ++row) {
    const std::uint64_t valid = index_.row_positions(row, stm);
    for (std::uint64_t f = 0; f < range; ++f)
      if (((valid >> f) & 1U) == 0) all[row * range + f] = DthmCode::kInvalid;
  }
  return all;
}

bool verdicts_match_header(const VerdictHeader& v, const TableHeader& t) {
  if (v.material != t.material || v.entries != t.entries) return false;
  for (std::size_t a = 0; a < kNumArrays; ++a) {
    const Color stm = side_to_move_of_array(static_cast<int>(a));
    if (v.mateable[a] != t.summary[a].finite) return false;
    if (v.positions[stm] != t.summary[a].finite + t.summary[a].none) return false;
  }
  return true;
}

}  // namespace deadpos
