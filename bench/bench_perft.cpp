// Perft throughput (style rule 37): legal move generation plus make/undo, with bulk counting at
// the last ply, as deadpos::perft does it. Each benchmark checks its node count once, before any
// timing (a fast wrong answer is worthless), and reports nodes/s through SetItemsProcessed
// (items_per_second in the report).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "deadpos/position.h"

namespace {

// Aborts the benchmark program when the position does not parse or perft gives the wrong count.
deadpos::Position checked_position(const char* name, const char* fen, int depth, std::uint64_t expected) {
  const deadpos::Result<deadpos::Position> pos = deadpos::Position::from_fen(fen);
  if (!pos) {
    std::fprintf(stderr, "%s: bad FEN '%s': %s\n", name, fen, pos.error().message.c_str());
    std::abort();
  }
  const std::uint64_t nodes = deadpos::perft(*pos, depth);
  if (nodes != expected) {
    std::fprintf(stderr, "%s: perft(%d) = %llu, expected %llu for %s\n", name, depth,
                 static_cast<unsigned long long>(nodes), static_cast<unsigned long long>(expected), fen);
    std::abort();
  }
  return *pos;
}

void run_perft(benchmark::State& state, const deadpos::Position& pos, int depth, std::uint64_t nodes) {
  for (auto _ : state) {
    std::uint64_t n = deadpos::perft(pos, depth);
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(nodes) * state.iterations());
  state.counters["nodes"] = static_cast<double>(nodes);
}

// Start position, depth 5: 4,865,609 nodes (chessprogramming.org "Perft Results").
void BM_Perft_StartPos(benchmark::State& state) {
  constexpr int kDepth = 5;
  constexpr std::uint64_t kNodes = 4'865'609;
  // Static: checked once per process, not on every call the framework makes to size the run.
  static const deadpos::Position pos =
      checked_position("BM_Perft_StartPos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", kDepth, kNodes);
  run_perft(state, pos, kDepth, kNodes);
}
BENCHMARK(BM_Perft_StartPos)->Unit(benchmark::kMillisecond);

// Kiwipete, depth 4: 4,085,603 nodes; castling, en passant, promotions and pins in quantity.
void BM_Perft_Kiwipete(benchmark::State& state) {
  constexpr int kDepth = 4;
  constexpr std::uint64_t kNodes = 4'085'603;
  static const deadpos::Position pos = checked_position(
      "BM_Perft_Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", kDepth, kNodes);
  run_perft(state, pos, kDepth, kNodes);
}
BENCHMARK(BM_Perft_Kiwipete)->Unit(benchmark::kMillisecond);

}  // namespace
