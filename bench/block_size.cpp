// Block size and dictionaries for random access (issue 29, format v3): how large a table's parts
// are when cut into small zstd blocks, with and without a dictionary trained per array, and what a
// block costs to decompress. Not a format: nothing is written. The four arrays of TABLE are read
// whole (invalid entries 255) and recoded as the two parts of format v3:
//   verdict   per side to move, 2 bits per entry (bit 0: White can be mated, bit 1: Black can be),
//             4 entries per byte, invalid entries filled with the code before them
//   dthm      the four DTHM arrays, invalid entries filled as format v2 does (fill "invalid"), or
//             also the entries whose verdict is none (fill "none": the verdict part says where
//             they are, so a DTHM reader never reads them)
// Per part and block size (bytes of raw block), the compressed bytes of all blocks (dictionary
// included) as a fraction of the table file, and the mean time to decompress one block picked at
// random (a warm ZSTD_DCtx, the dictionary digested once), one thread.
//
//   deadpos_block_size TABLE.dpt [LEVEL] [DICT_BYTES]
//
// LEVEL: zstd level (default 5, the v2 setting's level); DICT_BYTES: dictionary size per array
// (default 65536), trained with ZDICT_trainFromBuffer on every k-th block (about 100 x DICT_BYTES).
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "deadpos/table.h"
#include "table_arrays.h"

using namespace deadpos;

namespace {

using Bytes = std::vector<std::uint8_t>;

// Replaces every entry for which `hole(i)` holds by the entry before it (the first by the first
// non-hole value, or fallback).
template <class Hole>
void fill(Bytes& a, Hole hole, std::uint8_t fallback) {
  std::uint8_t last = fallback;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!hole(i)) {
      last = a[i];
      break;
    }
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (hole(i))
      a[i] = last;
    else
      last = a[i];
  }
}

struct Measure {
  std::size_t bytes = 0;  // compressed blocks + dictionaries
  double us_per_block = 0;
  double write_mbs = 0;
};

// Cuts every array of `arrays` into blocks of `block` bytes and compresses each, with a dictionary
// trained per array when dict_bytes > 0.
Measure measure(const std::vector<Bytes>& arrays, std::size_t block, int level, std::size_t dict_bytes) {
  Measure m;
  ZSTD_DCtx* dctx = ZSTD_createDCtx();
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::mt19937_64 rng(7);
  double us = 0;
  std::size_t timed = 0;
  double write_s = 0;
  std::size_t written = 0;
  for (const Bytes& a : arrays) {
    std::vector<std::uint8_t> dict;
    if (dict_bytes > 0) {
      const std::size_t nblocks = (a.size() + block - 1) / block;
      const std::size_t want = std::max<std::size_t>(1, std::min(nblocks, (100 * dict_bytes) / block));
      const std::size_t step = std::max<std::size_t>(1, nblocks / want);
      std::vector<std::uint8_t> samples;
      std::vector<std::size_t> sizes;
      for (std::size_t b = 0; b < nblocks; b += step) {
        const std::size_t lo = b * block, hi = std::min(a.size(), lo + block);
        samples.insert(samples.end(), a.begin() + static_cast<std::ptrdiff_t>(lo),
                       a.begin() + static_cast<std::ptrdiff_t>(hi));
        sizes.push_back(hi - lo);
      }
      dict.resize(dict_bytes);
      const std::size_t r = ZDICT_trainFromBuffer(dict.data(), dict.size(), samples.data(), sizes.data(),
                                                  static_cast<unsigned>(sizes.size()));
      if (ZDICT_isError(r)) {
        dict.clear();  // too few samples: no dictionary for this array
      } else {
        dict.resize(r);
      }
    }
    ZSTD_CDict* cd = dict.empty() ? nullptr : ZSTD_createCDict(dict.data(), dict.size(), level);
    ZSTD_DDict* dd = dict.empty() ? nullptr : ZSTD_createDDict(dict.data(), dict.size());
    m.bytes += dict.size();
    std::vector<std::vector<std::uint8_t>> frames;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t lo = 0; lo < a.size(); lo += block) {
      const std::size_t n = std::min(block, a.size() - lo);
      std::vector<std::uint8_t> out(ZSTD_compressBound(n));
      std::size_t c;
      if (cd)
        c = ZSTD_compress_usingCDict(cctx, out.data(), out.size(), a.data() + lo, n, cd);
      else
        c = ZSTD_compressCCtx(cctx, out.data(), out.size(), a.data() + lo, n, level);
      if (ZSTD_isError(c)) std::abort();
      out.resize(c);
      m.bytes += c;
      frames.push_back(std::move(out));
    }
    write_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    written += a.size();
    // Random blocks, decoded into a buffer of the block's size.
    std::vector<std::uint8_t> raw(block);
    const std::size_t tries = std::min<std::size_t>(4096, frames.size() * 4);
    std::vector<std::size_t> pick(tries);
    for (auto& p : pick) p = rng() % frames.size();
    const auto t1 = std::chrono::steady_clock::now();
    for (std::size_t p : pick) {
      const auto& f = frames[p];
      const std::size_t d = dd ? ZSTD_decompress_usingDDict(dctx, raw.data(), raw.size(), f.data(), f.size(), dd)
                               : ZSTD_decompressDCtx(dctx, raw.data(), raw.size(), f.data(), f.size());
      if (ZSTD_isError(d)) std::abort();
    }
    us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t1).count();
    timed += tries;
    ZSTD_freeCDict(cd);
    ZSTD_freeDDict(dd);
  }
  ZSTD_freeCCtx(cctx);
  ZSTD_freeDCtx(dctx);
  m.us_per_block = us / static_cast<double>(timed);
  m.write_mbs = static_cast<double>(written) / 1e6 / write_s;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: deadpos_block_size TABLE.dpt [LEVEL] [DICT_BYTES]\n");
    return 2;
  }
  const int level = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::size_t dict_bytes = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 65536;
  auto f = TableFile::open(argv[1], FileCheck::HeaderOnly);
  if (!f) {
    std::fprintf(stderr, "deadpos_block_size: %s\n", f.error().message.c_str());
    return 1;
  }
  auto arrays = bench::read_arrays(*f, "deadpos_block_size");
  if (!arrays) return 1;
  const double file = static_cast<double>(f->header().file_size);
  const std::size_t n = f->header().entries;
  constexpr std::uint8_t kInv = DthmCode::kInvalid, kNone = DthmCode::kNone;

  // Verdict part: per side to move, 2-bit codes, invalid filled, packed 4 per byte.
  std::vector<Bytes> verdict;
  for (Color stm : {Color::White, Color::Black}) {
    const Bytes& w = (*arrays)[array_of(stm, Color::White)];
    const Bytes& b = (*arrays)[array_of(stm, Color::Black)];
    Bytes code(n);
    for (std::size_t i = 0; i < n; ++i)
      code[i] = w[i] == kInv ? kInv : static_cast<std::uint8_t>((w[i] != kNone ? 1 : 0) | (b[i] != kNone ? 2 : 0));
    fill(
        code, [&](std::size_t i) { return code[i] == kInv; }, 0);
    Bytes packed((n + 3) / 4, 0);
    for (std::size_t i = 0; i < n; ++i) packed[i / 4] |= static_cast<std::uint8_t>(code[i] << (2 * (i % 4)));
    verdict.push_back(std::move(packed));
  }
  std::vector<Bytes> dthm_inv, dthm_none;
  for (std::size_t k = 0; k < kNumArrays; ++k) {
    Bytes a = (*arrays)[k];
    fill(
        a, [&](std::size_t i) { return a[i] == kInv; }, kNone);
    dthm_inv.push_back(a);
    Bytes b = (*arrays)[k];
    const Bytes& orig = (*arrays)[k];
    fill(
        b, [&](std::size_t i) { return orig[i] == kInv || orig[i] == kNone; }, 0);
    dthm_none.push_back(std::move(b));
  }
  std::printf("%s  file %.0f bytes, %zu entries per array, level %d, dictionary %zu\n", argv[1], file, n, level,
              dict_bytes);
  std::printf("%-14s %8s %6s %10s %10s %9s\n", "part", "block", "dict", "bytes", "of file", "us/block");
  for (std::size_t block : {4096UL, 16384UL, 65536UL, 262144UL}) {
    for (bool dict : {false, true}) {
      const std::size_t d = dict ? dict_bytes : 0;
      const Measure v = measure(verdict, block, level, d);
      const Measure i = measure(dthm_inv, block, level, d);
      const Measure o = measure(dthm_none, block, level, d);
      std::printf("%-14s %8zu %6s %10zu %10.4f %9.2f\n", "verdict", block, dict ? "yes" : "no", v.bytes,
                  static_cast<double>(v.bytes) / file, v.us_per_block);
      std::printf("%-14s %8zu %6s %10zu %10.4f %9.2f  %.0f MB/s\n", "dthm invalid", block, dict ? "yes" : "no", i.bytes,
                  static_cast<double>(i.bytes) / file, i.us_per_block, i.write_mbs);
      std::printf("%-14s %8zu %6s %10zu %10.4f %9.2f  %.0f MB/s\n", "dthm none", block, dict ? "yes" : "no", o.bytes,
                  static_cast<double>(o.bytes) / file, o.us_per_block, o.write_mbs);
      std::fflush(stdout);
    }
  }
  return 0;
}
