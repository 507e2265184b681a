#include <benchmark/benchmark.h>
#include "deadpos/position.h"
static void BM_Perft_Start(benchmark::State& state) {
  const auto pos = deadpos::Position::startpos();
  for (auto _ : state) benchmark::DoNotOptimize(deadpos::perft(pos, 4));
}
BENCHMARK(BM_Perft_Start);
