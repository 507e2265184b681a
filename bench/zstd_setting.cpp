// zstd settings on the filled blocks of a table (docs/format.md section 5: how the format's
// setting, level 5 with minMatch 6 and searchLog 6, was chosen). Reads every STEP-th block of the
// file with its invalid entries restored, fills them as write_table does (the code before; the
// block's first valid code before any), and compresses each block on its own with each setting,
// one thread: bits per entry and MB/s of entries. Not a format: nothing is written.
//
//   deadpos_zstd_setting TABLE.dpt [STEP]      (STEP default 16)
//
// Measured on 2026-12-02 (2-core AMD EPYC, beside another job, so MB/s are +-20%): see table.h
// (kZstdLevel) and the session note of that day.
#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "deadpos/table.h"

using namespace deadpos;

namespace {

struct Setting {
  const char* name;
  int level;
  int min_match;   // 0: the level's
  int search_log;  // 0: the level's
  int strategy;    // 0: the level's (ZSTD_strategy values: 4 lazy, 5 lazy2)
  int chain_log;   // 0: the level's
  int target_length;
};

void fill(std::vector<std::uint8_t>& b) {
  std::uint8_t prev = DthmCode::kNone;
  for (std::uint8_t v : b)
    if (v != DthmCode::kInvalid) {
      prev = v;
      break;
    }
  for (std::uint8_t& v : b) {
    if (v == DthmCode::kInvalid) v = prev;
    prev = v;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: deadpos_zstd_setting TABLE.dpt [STEP]\n");
    return 2;
  }
  auto f = TableFile::open(argv[1], FileCheck::HeaderOnly);
  if (!f) {
    std::fprintf(stderr, "%s\n", f.error().message.c_str());
    return 1;
  }
  const long step = argc > 2 ? std::atol(argv[2]) : 16;
  if (step < 1) {
    std::fprintf(stderr, "STEP must be at least 1\n");
    return 2;
  }
  std::vector<std::vector<std::uint8_t>> blocks;
  double raw = 0;
  for (std::uint32_t b = 0; b < f->header().blocks; b += static_cast<std::uint32_t>(step)) {
    std::vector<std::uint8_t> out;
    if (Status s = f->read_block(b, out); !s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 1;
    }
    fill(out);
    raw += static_cast<double>(out.size());
    blocks.push_back(std::move(out));
  }
  const Setting settings[] = {
      {"level 5", 5, 0, 0, 0, 0, 0},
      {"level 5 minMatch 6 searchLog 6 (format)", 5, kZstdMinMatch, kZstdSearchLog, 0, 0, 0},
      {"level 6", 6, 0, 0, 0, 0, 0},
      {"level 8", 8, 0, 0, 0, 0, 0},
      {"level 9", 9, 0, 0, 0, 0, 0},
      {"lazy minMatch 6 searchLog 7 chainLog 18", 5, 6, 7, 4, 18, 0},
      {"lazy2 minMatch 6 searchLog 7 chainLog 18 targetLength 64", 5, 6, 7, 5, 18, 64},
  };
  const std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> cc(ZSTD_createCCtx(), ZSTD_freeCCtx);
  std::vector<char> dst(ZSTD_compressBound(kBlockEntries));
  std::printf("%s: %zu of %u blocks (every %ld-th), format v%u file %.4f bits/entry\n", argv[1], blocks.size(),
              f->header().blocks, step, f->header().version,
              8.0 * static_cast<double>(f->header().file_size) / (4.0 * static_cast<double>(f->header().entries)));
  for (const Setting& s : settings) {
    ZSTD_CCtx_reset(cc.get(), ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cc.get(), ZSTD_c_compressionLevel, s.level);
    if (s.min_match) ZSTD_CCtx_setParameter(cc.get(), ZSTD_c_minMatch, s.min_match);
    if (s.search_log) ZSTD_CCtx_setParameter(cc.get(), ZSTD_c_searchLog, s.search_log);
    if (s.strategy) ZSTD_CCtx_setParameter(cc.get(), ZSTD_c_strategy, s.strategy);
    if (s.chain_log) ZSTD_CCtx_setParameter(cc.get(), ZSTD_c_chainLog, s.chain_log);
    if (s.target_length) ZSTD_CCtx_setParameter(cc.get(), ZSTD_c_targetLength, s.target_length);
    double bytes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& b : blocks) {
      const std::size_t r = ZSTD_compress2(cc.get(), dst.data(), dst.size(), b.data(), b.size());
      if (ZSTD_isError(r)) {
        std::fprintf(stderr, "%s: %s\n", s.name, ZSTD_getErrorName(r));
        return 1;
      }
      bytes += static_cast<double>(r);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-58s %.4f bits/entry %7.1f MB/s\n", s.name, 8 * bytes / raw, raw / secs / 1e6);
  }
  return 0;
}
