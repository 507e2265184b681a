#include "deadpos/table.h"

#include "file_checks.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>

namespace deadpos {

namespace {

constexpr unsigned char kMagic[8] = {'D', 'P', 'T', 'B', '\r', '\n', 0x1a, '\n'};

using H = HeaderLayout;
using E = BlockEntryLayout;

using internal::corrupt;
using internal::xxh64;

// The header's bytes (section 2, fields as table_layout.h lays them out).
void serialize_header(const TableHeader& h, std::byte* p) {
  std::memset(p, 0, kHeaderBytes);
  std::memcpy(p + H::kMagic.offset, kMagic, H::kMagic.size);
  store_field(p, H::kVersion, h.version);
  store_field(p, H::kMetric, h.metric);
  std::memcpy(p + H::kMaterial.offset, h.material.data(),
              std::min<std::size_t>(h.material.size(), H::kMaterial.size - 1));
  store_field(p, H::kIndexScheme, h.index_scheme);
  store_field(p, H::kArrays, h.arrays);
  store_field(p, H::kEntries, h.entries);
  store_field(p, H::kBlockEntries, h.block_entries);
  store_field(p, H::kBlocks, h.blocks);
  store_field(p, H::kBlockIndexOffset, h.block_index_offset);
  store_field(p, H::kFileSize, h.file_size);
  for (int a = 0; a < kNumArrays; ++a) {
    store_field(p, H::finite(a), h.summary[static_cast<std::size_t>(a)].finite);
    store_field(p, H::none(a), h.summary[static_cast<std::size_t>(a)].none);
  }
  store_field(p, H::kChecksum, xxh64(p, H::kChecksum.offset));
}

Status write_all(int fd, const std::byte* data, std::size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::Io, path + ": write failed: " + std::strerror(errno));
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
  return Ok{};
}

// "a FIFO", "a directory", ... for a file type that is not a regular file.
std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

Error not_regular(const std::string& path, mode_t mode) {
  return make_error(ErrorCode::Io, path + ": is " + file_kind(mode) + ", not a regular file");
}

}  // namespace

Result<bool> regular_file_exists(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;
    return make_error(ErrorCode::Io, path + ": cannot stat: " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) return not_regular(path, st.st_mode);
  return true;
}

namespace {

// Section 5: an invalid entry is stored as the code before it in the block (the first valid code
// for those before any; kNone in a block without one). Long runs of one code, and the same code
// repeated where rows repeat, are what zstd compresses best; the reader restores kInvalid.
void fill_invalid(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  std::uint8_t prev = DthmCode::kNone;
  for (std::size_t i = 0; i < n; ++i)
    if (in[i] != DthmCode::kInvalid) {
      prev = in[i];
      break;
    }
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t v = in[i] == DthmCode::kInvalid ? prev : in[i];
    out[i] = v;
    prev = v;
  }
}

}  // namespace

Status write_table(const std::string& path, const TableIndex& index, const Sides<std::vector<std::uint8_t>>& arrays,
                   int zstd_level) {
  const std::uint64_t n = index.size();
  for (const auto& a : arrays) DEADPOS_CHECK(a.size() == n);
  const std::uint32_t per_array = static_cast<std::uint32_t>((n + kBlockEntries - 1) / kBlockEntries);
  const std::uint32_t blocks = per_array * kNumArrays;

  TableHeader h;
  h.material = index.material().key();
  h.index_scheme = index.has_pawns() ? 2 : 1;
  h.entries = n;
  h.blocks = blocks;
  for (int a = 0; a < kNumArrays; ++a) {
    const std::uint8_t* p = arrays[static_cast<std::size_t>(a)].data();
    std::uint64_t finite = 0;
    std::uint64_t none = 0;
    std::uint64_t unknown = 0;
#pragma omp parallel for schedule(static) reduction(+ : finite, none, unknown)
    for (std::uint64_t i = 0; i < n; ++i) {
      finite += p[i] <= DthmCode::kMaxDthm ? 1 : 0;
      none += p[i] == DthmCode::kNone ? 1 : 0;
      unknown += p[i] == DthmCode::kUnknown ? 1 : 0;
    }
    DEADPOS_CHECK(unknown == 0);
    h.summary[static_cast<std::size_t>(a)].finite = finite;
    h.summary[static_cast<std::size_t>(a)].none = none;
  }

  // Compress blocks independently (parallel; each block's bytes depend only on its input).
  // Each block is compressed into a per-thread scratch buffer of ZSTD_compressBound bytes and
  // copied out at its exact size: sizing every block's own vector to the bound would hold as many
  // bytes as the raw arrays until the write (it doubled the peak memory of generate).
  auto compressed = internal::compress_blocks(
      path, blocks, kBlockEntries, zstd_level, kZstdMinMatch, kZstdSearchLog, [&](std::uint32_t b, std::uint8_t* out) {
        const std::size_t a = b / per_array;
        const std::uint64_t first = static_cast<std::uint64_t>(b % per_array) * kBlockEntries;
        const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(kBlockEntries, n - first));
        fill_invalid(arrays[a].data() + first, len, out);
        return len;
      });
  if (!compressed) return compressed.error();
  const std::vector<std::vector<std::byte>>& comp = *compressed;

  std::uint64_t end = 0;
  const std::vector<std::byte> index_bytes = internal::block_index_bytes(
      comp, kHeaderBytes,
      [&](std::uint32_t b) {
        const std::uint64_t first = static_cast<std::uint64_t>(b % per_array) * kBlockEntries;
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlockEntries, n - first));
      },
      end);
  h.block_index_offset = end;
  h.file_size = end + index_bytes.size() + TrailerLayout::kBytes;
  std::array<std::byte, kHeaderBytes> header_bytes{};
  serialize_header(h, header_bytes.data());
  return internal::write_blocked_file(path, header_bytes, comp, index_bytes);
}

namespace internal {

Result<std::vector<std::vector<std::byte>>> compress_blocks(
    const std::string& path, std::uint32_t blocks, std::size_t raw_bytes, int level, int min_match, int search_log,
    const std::function<std::size_t(std::uint32_t, std::uint8_t*)>& raw) {
  std::vector<std::vector<std::byte>> comp(blocks);
  bool failed = false;
  bool out_of_memory = false;  // zstd could not allocate its context
#pragma omp parallel
  {
    std::vector<std::byte> scratch(ZSTD_compressBound(raw_bytes));
    std::vector<std::uint8_t> in(raw_bytes);
    // One context per thread, reset by each frame.
    const std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
    bool set = cctx != nullptr;
    set = set && !ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level));
    if (min_match) set = set && !ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_minMatch, min_match));
    if (search_log) set = set && !ZSTD_isError(ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_searchLog, search_log));
    if (!set) {
#pragma omp atomic write
      out_of_memory = true;
    }
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
      if (!set) continue;
      const std::size_t len = raw(static_cast<std::uint32_t>(b), in.data());
      const std::size_t r = ZSTD_compress2(cctx.get(), scratch.data(), scratch.size(), in.data(), len);
      if (ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) {
#pragma omp atomic write
        out_of_memory = true;
      } else if (ZSTD_isError(r)) {
#pragma omp atomic write
        failed = true;
      } else {
        comp[static_cast<std::size_t>(b)].assign(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(r));
      }
    }
  }
  if (out_of_memory) return make_error(ErrorCode::OutOfMemory, path + ": out of memory while compressing");
  if (failed) return make_error(ErrorCode::Io, path + ": zstd compression failed");
  return comp;
}

std::vector<std::byte> block_index_bytes(const std::vector<std::vector<std::byte>>& frames, std::uint64_t first_offset,
                                         const std::function<std::uint32_t(std::uint32_t)>& entries_of,
                                         std::uint64_t& end) {
  std::uint64_t offset = first_offset;
  std::vector<std::byte> index(frames.size() * kBlockIndexEntryBytes);
  for (std::uint32_t b = 0; b < frames.size(); ++b) {
    const auto& c = frames[b];
    std::byte* e = index.data() + static_cast<std::size_t>(b) * kBlockIndexEntryBytes;
    store_field(e, E::kOffset, offset);
    store_field(e, E::kCompressedSize, static_cast<std::uint32_t>(c.size()));
    store_field(e, E::kEntries, entries_of(b));
    store_field(e, E::kChecksum, xxh64(c.data(), c.size()));
    offset += c.size();
  }
  end = offset;
  return index;
}

Status write_blocked_file(const std::string& path, std::span<const std::byte> header,
                          const std::vector<std::vector<std::byte>>& frames, const std::vector<std::byte>& index) {
  // Whole-file checksum over everything before the trailer.
  XXH64_state_t* st = XXH64_createState();
  XXH64_reset(st, 0);
  XXH64_update(st, header.data(), header.size());
  for (const auto& c : frames) XXH64_update(st, c.data(), c.size());
  XXH64_update(st, index.data(), index.size());
  const std::uint64_t file_hash = XXH64_digest(st);
  XXH64_freeState(st);
  std::array<std::byte, TrailerLayout::kBytes> trailer{};
  store_field(trailer.data(), TrailerLayout::kChecksum, file_hash);
  std::vector<std::span<const std::byte>> parts;
  parts.reserve(frames.size() + 3);
  parts.emplace_back(header);
  for (const auto& c : frames) parts.emplace_back(c);
  parts.emplace_back(index);
  parts.emplace_back(trailer);
  return write_file_atomic(path, parts);
}

}  // namespace internal

Status write_file_atomic(const std::string& path, const std::vector<std::span<const std::byte>>& parts) {
  const std::string tmp = TableDirectory::temporary_path(path, ::getpid());
  // O_NONBLOCK | O_NOFOLLOW and the fstat: something else under the temporary's name (a FIFO, whose
  // open would block, or a link) is an error, never written through.
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0644);
  if (fd < 0) return make_error(ErrorCode::Io, tmp + ": cannot create: " + std::strerror(errno));
  if (struct stat st{}; ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(ErrorCode::Io, tmp + ": cannot create: a file that is not a regular file has this name");
  }
  Status s = Ok{};
  for (std::size_t i = 0; s.ok() && i < parts.size(); ++i) s = write_all(fd, parts[i].data(), parts[i].size(), tmp);
  if (s.ok() && ::fsync(fd) != 0) s = make_error(ErrorCode::Io, tmp + ": fsync failed: " + std::strerror(errno));
  ::close(fd);
  if (s.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    s = make_error(ErrorCode::Io, path + ": rename failed: " + std::strerror(errno));
  }
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  // The rename itself is durable once the directory is synced (best effort: some file systems
  // refuse fsync on a directory, and the file is complete either way).
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return Ok{};
}

namespace {

class FileSource final : public ByteSource {
 public:
  FileSource(int fd, std::uint64_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  ~FileSource() override { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  std::uint64_t size() const override { return size_; }
  Status read_at(std::uint64_t off, std::size_t n, std::byte* out) const override {
    while (n > 0) {
      const ssize_t r = ::pread(fd_, out, n, static_cast<off_t>(off));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) {
        return make_error(ErrorCode::Io, path_ + ": read of " + std::to_string(n) + " bytes at offset " +
                                             std::to_string(off) + " failed" +
                                             (r < 0 ? std::string(": ") + std::strerror(errno) : ""));
      }
      out += r;
      off += static_cast<std::uint64_t>(r);
      n -= static_cast<std::size_t>(r);
    }
    return Ok{};
  }

 private:
  int fd_;
  std::uint64_t size_;
  std::string path_;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::vector<std::byte> b) : bytes_(std::move(b)) {}
  std::uint64_t size() const override { return bytes_.size(); }
  Status read_at(std::uint64_t off, std::size_t n, std::byte* out) const override {
    if (off > bytes_.size() || n > bytes_.size() - off) return make_error(ErrorCode::Io, "read past the end");
    std::memcpy(out, bytes_.data() + off, n);
    return Ok{};
  }

 private:
  std::vector<std::byte> bytes_;
};

}  // namespace

Result<TableFile> TableFile::open(const std::string& path, const Material& expected, FileCheck check) {
  auto f = open(path, check);
  if (f && !(f->material() == expected)) {
    return make_error(ErrorCode::CorruptTable,
                      path + ": file holds the table " + f->material().key() + ", not " + expected.key());
  }
  return f;
}

namespace {

Error out_of_memory_reading(const std::string& name) {
  return make_error(ErrorCode::OutOfMemory, name + ": out of memory while reading its header and block index");
}

}  // namespace

Result<std::shared_ptr<const ByteSource>> open_file_source(const std::string& path) {
  // stat first: open() of a FIFO for reading blocks until a writer appears (for ever). O_NONBLOCK
  // and the fstat below close the race of a file replaced between the two calls.
  auto exists = regular_file_exists(path);
  if (!exists) return exists.error();
  if (!*exists) return make_error(ErrorCode::MissingTable, path + ": no such table file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return make_error(errno == ENOENT ? ErrorCode::MissingTable : ErrorCode::Io,
                      path + ": cannot open: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return make_error(ErrorCode::Io, path + ": cannot stat: " + why);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return not_regular(path, st.st_mode);
  }
  try {
    return std::shared_ptr<const ByteSource>(
        std::make_shared<FileSource>(fd, static_cast<std::uint64_t>(st.st_size), path));
  } catch (const std::bad_alloc&) {
    ::close(fd);
    return out_of_memory_reading(path);
  }
}

std::shared_ptr<const ByteSource> memory_source(std::vector<std::byte> bytes) {
  return std::make_shared<MemorySource>(std::move(bytes));
}

Result<TableFile> TableFile::open(const std::string& path, FileCheck check) {
  auto src = open_file_source(path);
  if (!src) return src.error();
  // Reading the header and the block index allocates (the block index, a checksum buffer): under a
  // memory limit that is OutOfMemory naming the file, not an exception escaping to the caller.
  try {
    return from_source(std::move(*src), path, check);
  } catch (const std::bad_alloc&) {
    return out_of_memory_reading(path);
  }
}

Result<TableFile> TableFile::from_bytes(std::vector<std::byte> bytes, const std::string& name) {
  try {
    return from_source(std::make_shared<MemorySource>(std::move(bytes)), name, FileCheck::Full);
  } catch (const std::bad_alloc&) {
    return out_of_memory_reading(name);
  }
}

Result<TableFile> TableFile::from_source(std::shared_ptr<const ByteSource> src, const std::string& name,
                                         FileCheck check) {
  TableFile t;
  t.name_ = name;
  const std::uint64_t size = src->size();
  if (size < kHeaderBytes + TrailerLayout::kBytes)
    return corrupt(name, "file is " + std::to_string(size) + " bytes, shorter than a header");
  std::array<std::byte, kHeaderBytes> hb{};
  if (Status s = src->read_at(0, kHeaderBytes, hb.data()); !s) return s.error();
  const std::byte* p = hb.data();
  if (std::memcmp(p + H::kMagic.offset, kMagic, H::kMagic.size) != 0)
    return corrupt(name, "bad magic (not a deadpos table)");
  if (load_field(p, H::kChecksum) != xxh64(p, H::kChecksum.offset)) return corrupt(name, "header checksum mismatch");
  TableHeader& h = t.header_;
  h.version = load_field(p, H::kVersion);
  if (h.version < kOldestReadableVersion || h.version > kFormatVersion) {
    return corrupt(name, "unsupported format version " + std::to_string(h.version) +
                             " (this deadpos reads versions 1 and 2): regenerate it with deadpos generate");
  }
  h.metric = load_field(p, H::kMetric);
  if (h.metric != kMetricDthm) return corrupt(name, "unknown metric " + std::to_string(h.metric));
  char key[H::kMaterial.size];
  std::memcpy(key, p + H::kMaterial.offset, H::kMaterial.size);
  if (key[H::kMaterial.size - 1] != '\0') return corrupt(name, "material field not terminated");
  h.material = key;
  auto mat = Material::parse(h.material);
  if (!mat || !mat->is_canonical()) return corrupt(name, "bad material key '" + shown_text(h.material) + "'");
  auto idx = TableIndex::make(*mat);
  if (!idx) return corrupt(name, idx.error().message);
  t.material_ = *mat;
  t.index_ = *idx;
  h.index_scheme = load_field(p, H::kIndexScheme);
  if (h.index_scheme != (t.index_.has_pawns() ? 2U : 1U)) return corrupt(name, "index scheme does not match material");
  h.arrays = load_field(p, H::kArrays);
  if (h.arrays != kNumArrays) return corrupt(name, "array count " + std::to_string(h.arrays) + " is not 4");
  h.entries = load_field(p, H::kEntries);
  if (h.entries != t.index_.size()) return corrupt(name, "entry count does not match the material's index size");
  h.block_entries = load_field(p, H::kBlockEntries);
  if (h.block_entries != kBlockEntries) return corrupt(name, "unsupported block size");
  t.blocks_per_array_ = static_cast<std::uint32_t>((h.entries + kBlockEntries - 1) / kBlockEntries);
  h.blocks = load_field(p, H::kBlocks);
  if (h.blocks != t.blocks_per_array_ * kNumArrays) return corrupt(name, "block count does not match the entry count");
  h.block_index_offset = load_field(p, H::kBlockIndexOffset);
  h.file_size = load_field(p, H::kFileSize);
  if (h.file_size != size) {
    return corrupt(name, "file is " + std::to_string(size) + " bytes, header says " + std::to_string(h.file_size) +
                             " (truncated or extended)");
  }
  if (h.block_index_offset < kHeaderBytes || h.block_index_offset > size ||
      h.block_index_offset + static_cast<std::uint64_t>(h.blocks) * kBlockIndexEntryBytes + TrailerLayout::kBytes !=
          size) {
    return corrupt(name, "block index offset out of range");
  }
  // The per-array counts (section 2) against the layout: finite + none entries fit in the array,
  // and both arrays of one side to move mark the same entries invalid (section 4), so they hold
  // the same number of valid (finite or none) entries. load_table recounts them exactly.
  for (int a = 0; a < kNumArrays; ++a) {
    ArraySummary& sa = h.summary[static_cast<std::size_t>(a)];
    sa.finite = load_field(p, H::finite(a));
    sa.none = load_field(p, H::none(a));
    if (sa.finite > h.entries || sa.none > h.entries - sa.finite) {
      return corrupt(name, "header field 'finite/none entries of array " + std::to_string(a) + "' (offsets " +
                               std::to_string(H::finite(a).offset) + ", " + std::to_string(H::none(a).offset) +
                               "): " + std::to_string(sa.finite) + " finite + " + std::to_string(sa.none) +
                               " none entries exceed the array's " + std::to_string(h.entries) + " entries");
    }
  }
  for (int a = 0; a < kNumArrays; a += 2) {
    const ArraySummary& x = h.summary[static_cast<std::size_t>(a)];
    const ArraySummary& y = h.summary[static_cast<std::size_t>(a + 1)];
    if (x.finite + x.none != y.finite + y.none) {
      return corrupt(name, "header fields 'finite/none entries of arrays " + std::to_string(a) + " and " +
                               std::to_string(a + 1) + "' disagree: " + std::to_string(x.finite + x.none) + " and " +
                               std::to_string(y.finite + y.none) +
                               " valid entries, but both arrays of one side to move have the same valid entries");
    }
  }
  if (check == FileCheck::Full) {
    if (Status s = internal::check_file_checksum(*src, name); !s) return s.error();
  }
  // Block index entries: offsets contiguous from the header to the block index.
  t.block_index_.resize(static_cast<std::size_t>(h.blocks) * kBlockIndexEntryBytes);
  if (Status s = src->read_at(h.block_index_offset, t.block_index_.size(), t.block_index_.data()); !s) return s.error();
  std::uint64_t expect = kHeaderBytes;
  for (std::uint32_t b = 0; b < h.blocks; ++b) {
    const std::byte* e = t.block_index_.data() + static_cast<std::uint64_t>(b) * kBlockIndexEntryBytes;
    const std::uint64_t off = load_field(e, E::kOffset);
    const std::uint32_t csize = load_field(e, E::kCompressedSize);
    const std::uint32_t raw = load_field(e, E::kEntries);
    const std::uint64_t first = static_cast<std::uint64_t>(b % t.blocks_per_array_) * kBlockEntries;
    if (off != expect || off + csize > h.block_index_offset ||
        raw != std::min<std::uint64_t>(kBlockEntries, h.entries - first)) {
      return corrupt(name, "block " + std::to_string(b) + " has an out-of-range offset or size");
    }
    expect = off + csize;
  }
  if (expect != h.block_index_offset) return corrupt(name, "blocks do not fill the data section");
  t.src_ = std::move(src);
  return t;
}

std::pair<std::uint32_t, std::uint32_t> TableFile::locate(int array, std::uint64_t idx) const {
  return {static_cast<std::uint32_t>(static_cast<std::uint64_t>(array) * blocks_per_array_ + idx / kBlockEntries),
          static_cast<std::uint32_t>(idx % kBlockEntries)};
}

Status TableFile::read_block(std::uint32_t block, std::vector<std::uint8_t>& out, InvalidEntries invalid) const {
  if (block >= header_.blocks) return corrupt(name_, "block " + std::to_string(block) + " out of range");
  const std::byte* e = block_index_.data() + static_cast<std::uint64_t>(block) * kBlockIndexEntryBytes;
  const std::uint64_t off = load_field(e, E::kOffset);
  const std::uint32_t csize = load_field(e, E::kCompressedSize);
  const std::uint32_t raw = load_field(e, E::kEntries);
  const std::uint64_t hash = load_field(e, E::kChecksum);
  thread_local std::vector<std::byte> comp;
  comp.resize(csize);
  if (Status s = src_->read_at(off, csize, comp.data()); !s) return s.error();
  if (xxh64(comp.data(), csize) != hash) {
    return corrupt(name_, "block " + std::to_string(block) + " checksum mismatch");
  }
  // One decompression context per thread: ZSTD_decompress would allocate one per call.
  thread_local const std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) return make_error(ErrorCode::OutOfMemory, name_ + ": out of memory for a zstd context");
  out.resize(raw);
  const std::size_t r = ZSTD_decompressDCtx(dctx.get(), out.data(), raw, comp.data(), csize);
  if (ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) {
    // zstd allocates its decompression context: a failure there is the process's memory, not the file.
    return make_error(ErrorCode::OutOfMemory,
                      name_ + ": block " + std::to_string(block) + ": out of memory while decompressing");
  }
  if (ZSTD_isError(r) || r != raw) {
    return corrupt(name_,
                   "block " + std::to_string(block) + " does not decompress to " + std::to_string(raw) + " bytes");
  }
  // One branch-free pass (vectorised; the early-exit loop was 63% of a cold 5-man probe). v2
  // stores no kInvalid (section 5): there it is an undefined code too.
  const std::uint8_t invalid_code = header_.version >= 2 ? DthmCode::kNone : DthmCode::kInvalid;
  unsigned bad = 0;
  for (std::uint8_t v : out) {
    bad |= static_cast<unsigned>(v > DthmCode::kMaxDthm) & static_cast<unsigned>(v != DthmCode::kNone) &
           static_cast<unsigned>(v != invalid_code);
  }
  if (bad) {
    for (std::uint8_t v : out) {
      if (v > DthmCode::kMaxDthm && v != DthmCode::kNone && v != invalid_code) {
        return corrupt(name_, "block " + std::to_string(block) + " holds the undefined code " + std::to_string(v));
      }
    }
  }
  if (invalid == InvalidEntries::Marked && header_.version >= 2) mark_invalid(block, out);
  return Ok{};
}

void TableFile::mark_invalid(std::uint32_t block, std::vector<std::uint8_t>& out) const {
  // Rows of last_range() entries may straddle blocks.
  const Color stm = side_to_move_of_array(static_cast<int>(block / blocks_per_array_));
  const auto range = static_cast<std::uint64_t>(index_.last_range());
  const std::uint64_t first = static_cast<std::uint64_t>(block % blocks_per_array_) * kBlockEntries;
  const std::uint64_t end = first + out.size();
  for (std::uint64_t row = first / range; row * range < end; ++row) {
    const std::uint64_t valid = index_.row_positions(row, stm);
    const std::uint64_t lo = std::max(row * range, first);
    const std::uint64_t hi = std::min(row * range + range, end);
    std::uint8_t* p = out.data() + (lo - first);
    const std::uint64_t f0 = lo - row * range;
    for (std::uint64_t i = 0; i < hi - lo; ++i) {
      const bool keep = (valid >> (f0 + i)) & 1U;
      p[i] = keep ? p[i] : DthmCode::kInvalid;
    }
  }
}

Result<std::vector<std::uint8_t>> TableFile::read_array(int array) const {
  if (array < 0 || array >= kNumArrays) return corrupt(name_, "array " + std::to_string(array) + " out of range");
  std::vector<std::uint8_t> all(header_.entries);
  std::vector<std::uint8_t> buf;
  for (std::uint32_t i = 0; i < blocks_per_array_; ++i) {
    const std::uint32_t b = static_cast<std::uint32_t>(array) * blocks_per_array_ + i;
    if (Status s = read_block(b, buf); !s) return s.error();
    std::memcpy(all.data() + static_cast<std::uint64_t>(i) * kBlockEntries, buf.data(), buf.size());
  }
  return all;
}

}  // namespace deadpos
