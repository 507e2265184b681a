// Index throughput (style rule 37) on KRBvKR-shaped indices: 462 king slots x 64^3 = 121,110,528
// values, the size of the largest 5-man pawnless tables.
//
// BM_Index_Encode: raw placements (random valid entries of the index, each moved by a random board
//   symmetry, so that encode() has to find the canonical one) -> index.
// BM_Index_Decode: a run of consecutive index values, as the solver's passes scan them (broken
//   entries included: they are part of every pass).
// Each benchmark checks its inputs once before timing (encode(decode(i)) == i) and reports
// positions/s through SetItemsProcessed.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"

namespace {

using deadpos::TableIndex;

const TableIndex& krbkr_index() {
  static const TableIndex idx = [] {
    const auto m = deadpos::Material::parse("KRBvKR");
    if (!m) std::abort();
    auto r = TableIndex::make(*m);
    if (!r) {
      std::fprintf(stderr, "TableIndex::make(KRBvKR): %s\n", r.error().message.c_str());
      std::abort();
    }
    return *r;
  }();
  return idx;
}

constexpr int kPlacements = 1 << 16;

struct EncodeInput {
  std::vector<TableIndex::Squares> placements;
  std::vector<std::uint64_t> expected;
};

const EncodeInput& encode_input() {
  static const EncodeInput in = [] {
    const TableIndex& idx = krbkr_index();
    std::mt19937_64 rng(1);
    EncodeInput e;
    while (static_cast<int>(e.placements.size()) < kPlacements) {
      const std::uint64_t i = rng() % idx.size();
      TableIndex::Squares sq;
      if (!idx.decode(i, sq)) continue;
      const int g = static_cast<int>(rng() % 8);
      for (int j = 0; j < idx.men(); ++j)
        sq[static_cast<std::size_t>(j)] = deadpos::apply_symmetry(g, sq[static_cast<std::size_t>(j)]);
      if (idx.encode(sq) != i) {
        std::fprintf(stderr, "BM_Index_Encode: encode(g(decode(%llu))) = %llu\n", static_cast<unsigned long long>(i),
                     static_cast<unsigned long long>(idx.encode(sq)));
        std::abort();
      }
      e.placements.push_back(sq);
      e.expected.push_back(i);
    }
    return e;
  }();
  return in;
}

void BM_Index_Encode(benchmark::State& state) {
  const TableIndex& idx = krbkr_index();
  const EncodeInput& in = encode_input();
  for (auto _ : state) {
    std::uint64_t sum = 0;
    for (const TableIndex::Squares& sq : in.placements) sum += idx.encode(sq);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(in.placements.size()) * state.iterations());
}
BENCHMARK(BM_Index_Encode)->Unit(benchmark::kMicrosecond);

// A run of consecutive values from the middle of the index (king slot 200 onwards).
constexpr std::uint64_t kDecodeRun = 1 << 18;

std::uint64_t decode_start() {
  static const std::uint64_t start = [] {
    const TableIndex& idx = krbkr_index();
    const std::uint64_t s = 200 * idx.stride(0);
    std::uint64_t valid = 0;
    TableIndex::Squares sq;
    for (std::uint64_t i = s; i < s + kDecodeRun; ++i) {
      if (!idx.decode(i, sq)) continue;
      ++valid;
      if (idx.encode(sq) != i) {
        std::fprintf(stderr, "BM_Index_Decode: encode(decode(%llu)) = %llu\n", static_cast<unsigned long long>(i),
                     static_cast<unsigned long long>(idx.encode(sq)));
        std::abort();
      }
    }
    if (valid == 0) std::abort();
    return s;
  }();
  return start;
}

void BM_Index_Decode(benchmark::State& state) {
  const TableIndex& idx = krbkr_index();
  const std::uint64_t start = decode_start();
  for (auto _ : state) {
    std::uint64_t valid = 0;
    TableIndex::Squares sq;
    for (std::uint64_t i = start; i < start + kDecodeRun; ++i) {
      valid += idx.decode(i, sq) ? 1U : 0U;
      benchmark::DoNotOptimize(sq);
    }
    benchmark::DoNotOptimize(valid);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(kDecodeRun) * state.iterations());
}
BENCHMARK(BM_Index_Decode)->Unit(benchmark::kMicrosecond);

}  // namespace
