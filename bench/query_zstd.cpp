// The reference speed for bench/query_speed.sh: decompression alone of every block of a table
// file, what `zstd -d` would do with the same frames (the zstd program is not installed here;
// libzstd is). Usage: deadpos_query_zstd FILE.dpt [THREADS]
// The file is read into memory first (the page cache makes a second read as fast anyway), then
// every frame (docs/format.md, section 5) is decompressed with ZSTD_decompressDCtx on THREADS
// OpenMP threads (default 1), without the XXH64 checks the reader adds. Prints one line:
//   "<file> blocks B compressed C bytes raw R bytes S s: X MB/s compressed, Y MB/s raw"
#include <omp.h>
#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "deadpos/table.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE.dpt [THREADS]\n", argv[0]);
    return 2;
  }
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  auto t = deadpos::TableFile::open(argv[1], deadpos::FileCheck::HeaderOnly);
  if (!t) {
    std::fprintf(stderr, "%s\n", t.error().message.c_str());
    return 1;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto& h = t->header();
  struct Frame {
    std::uint64_t off;
    std::uint32_t size, entries;
  };
  std::vector<Frame> frames(h.blocks);
  for (std::uint32_t b = 0; b < h.blocks; ++b) {
    const unsigned char* e = bytes.data() + h.block_index_offset + std::uint64_t{b} * deadpos::kBlockIndexEntryBytes;
    std::memcpy(&frames[b].off, e, 8);  // little-endian host (x86-64), as the bench machine
    std::memcpy(&frames[b].size, e + 8, 4);
    std::memcpy(&frames[b].entries, e + 12, 4);
  }
  std::uint64_t compressed = 0, raw = 0;
  for (const Frame& f : frames) {
    compressed += f.size;
    raw += f.entries;
  }
  int bad = 0;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel num_threads(threads) reduction(+ : bad)
  {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    std::vector<unsigned char> out(h.block_entries);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(frames.size()); ++b) {
      const Frame& f = frames[static_cast<std::size_t>(b)];
      const std::size_t n = ZSTD_decompressDCtx(dctx, out.data(), out.size(), bytes.data() + f.off, f.size);
      if (ZSTD_isError(n) || n != f.entries) ++bad;
    }
    ZSTD_freeDCtx(dctx);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (bad) {
    std::fprintf(stderr, "%d frames failed to decompress\n", bad);
    return 1;
  }
  std::printf("%s blocks %u compressed %llu bytes raw %llu bytes %.3f s: %.0f MB/s compressed, %.0f MB/s raw\n",
              argv[1], h.blocks, static_cast<unsigned long long>(compressed), static_cast<unsigned long long>(raw), s,
              static_cast<double>(compressed) / s / 1e6, static_cast<double>(raw) / s / 1e6);
  return 0;
}
