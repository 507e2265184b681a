// Probe throughput of deadpos::Tablebase (style rule 37). Tables come from the directory in the
// environment variable DEADPOS_TABLES (e.g. the tests' <build>/tables4); without it every
// benchmark reports an error instead of a figure.
//
//   BM_Probe_Random4Man  warm cache, one thread: random legal KRvKN/KNvKR positions (half of them
//                        read through the colour swap); items/s = probes/s
//   BM_Probe_Random5Man  the same on the first 5-man table found (KRBvKR preferred), with the default
//                        256 MiB block cache and with 1 GiB; skipped without a 5-man table
//   BM_Probe_Random5Man/1  the same with a 1 MiB cache: nearly every probe decompresses a block
//   BM_Verdict_Random5Man  Tablebase::verdict on those positions, cache 1 MiB (misses) and 1 GiB
//   BM_Probe_FirstProbe  cold: Tablebase::open + one probe per iteration (directory listing, header
//                        and block index checks, one block read, checksummed and decompressed)
//   BM_Verdict_FirstProbe  the same for one verdict (a 5-man one when KRBvKR is there)
//   BM_Probe_Threads     one shared Tablebase probed from 1 and 2 threads (real time)
//   BM_Probe_EnPassant / BM_Probe_Castling  the two special rules, on fixed positions
//   BM_Probe_DerivedSide  what one-sided storage (issue 12: DTHM of one side to move on disk, the
//                        other by a 1-ply search) would cost a probe of the side not stored: both
//                        DTHMs as 1 + the least over the children, each child probed; the same
//                        random positions as BM_Probe_Random4Man / BM_Probe_Random5Man (1 GiB cache)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/tablebase.h"
#include "support/random_position.h"
#include "support/tables_dir.h"

namespace deadpos {
namespace {

// The shared, warm Tablebase; nullptr with *why set when there is none.
const Tablebase* shared_tables(std::string* why) {
  static std::string error;
  static const std::optional<Tablebase> tb = []() -> std::optional<Tablebase> {
    const std::optional<std::string> dir = test::tables_dir_if_set();
    if (!dir) {
      error = "DEADPOS_TABLES is not set";
      return std::nullopt;
    }
    auto r = Tablebase::open({*dir});
    if (!r || r->max_men() == 0) {
      error = r ? "no tables in " + *dir : r.error().message;
      return std::nullopt;
    }
    return std::move(*r);
  }();
  *why = error;
  return tb ? &*tb : nullptr;
}

// The 5-man table the 5-man benchmarks probe: KRBvKR when present, else the last 5-man key
// found; empty without one.
std::string five_man_key(const Tablebase& tb) {
  std::string key;
  for (const std::string& k : tb.materials()) {
    if (Material::parse(k)->men() == 5 && (key.empty() || k == "KRBvKR")) key = k;
  }
  return key;
}

// n random legal positions of `key` and of its colour swap, alternating.
std::vector<Position> random_positions(const Material& m, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < n) out.push_back(test::random_position(out.size() % 2 ? m.swapped() : m, rng));
  return out;
}

// Probes a fixed sample of positions round-robin; every answer was checked once before timing.
void probe_loop(benchmark::State& state, const Tablebase& tb, const std::vector<Position>& ps) {
  for (const Position& p : ps) {
    if (!tb.probe(p)) {
      state.SkipWithError(("probe failed on " + p.to_fen()).c_str());
      return;
    }
  }
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 7919;
  for (auto _ : state) {
    auto r = tb.probe(ps[i++ % ps.size()]);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_Probe_Random4Man(benchmark::State& state) {
  std::string why;
  const Tablebase* tb = shared_tables(&why);
  if (!tb) return state.SkipWithError(why.c_str());
  static const std::vector<Position> ps = random_positions(*Material::parse("KRvKN"), 1 << 16, 1);
  probe_loop(state, *tb, ps);
}
BENCHMARK(BM_Probe_Random4Man);

// Argument: the block cache in MiB. A 5-man table decompresses to 4 x 121 MB, so the default
// 256 MiB cache cannot hold it and random probes mostly decompress blocks; 1024 MiB holds it all.
void BM_Probe_Random5Man(benchmark::State& state) {
  std::string why;
  const Tablebase* shared = shared_tables(&why);
  if (!shared) return state.SkipWithError(why.c_str());
  const std::string key = five_man_key(*shared);
  const std::string dir = *test::tables_dir_if_set();  // set: shared_tables opened it
  if (key.empty()) return state.SkipWithError(("no 5-man table in " + dir).c_str());
  Tablebase::Options opt;
  opt.cache_bytes = static_cast<std::size_t>(state.range(0)) << 20;
  auto tb = Tablebase::open({dir}, opt);
  if (!tb) return state.SkipWithError(tb.error().message.c_str());
  // As many positions as the 4-man benchmark when the table fits in the cache; fewer when every
  // probe decompresses blocks (the warm-up pass alone would take a minute).
  static const std::vector<Position> many = random_positions(*Material::parse(key), 1 << 16, 5);
  const std::vector<Position> few(many.begin(), many.begin() + (1 << 12));
  const bool fits = opt.cache_bytes >= (std::size_t{1} << 30);
  state.SetLabel(key + (fits ? ", 65536 positions" : ", 4096 positions"));
  probe_loop(state, *tb, fits ? many : few);
}
BENCHMARK(BM_Probe_Random5Man)->Arg(1)->Arg(256)->Arg(1024)->ArgName("cache_mb");

// Tablebase::verdict (the verdict files: 16 KiB blocks, docs/format.md section 7) on the random
// positions of BM_Probe_Random5Man. Argument: the block cache in MiB; 1 MiB holds four
// decompressed verdict blocks per shard against the 5-man table's ~3,700 (two sides to move of
// 121 M entries, 4 to a byte, 16 KiB each): nearly every probe a miss. 1024 MiB holds them all.
void BM_Verdict_Random5Man(benchmark::State& state) {
  std::string why;
  const Tablebase* shared = shared_tables(&why);
  if (!shared) return state.SkipWithError(why.c_str());
  const std::string key = five_man_key(*shared);
  const std::string dir = *test::tables_dir_if_set();
  if (key.empty()) return state.SkipWithError(("no 5-man table in " + dir).c_str());
  Tablebase::Options opt;
  opt.cache_bytes = static_cast<std::size_t>(state.range(0)) << 20;
  auto tb = Tablebase::open({dir}, opt);
  if (!tb) return state.SkipWithError(tb.error().message.c_str());
  static const std::vector<Position> ps = random_positions(*Material::parse(key), 1 << 16, 5);
  for (const Position& p : ps)
    if (!tb->verdict(p)) return state.SkipWithError(("verdict failed on " + p.to_fen()).c_str());
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = tb->verdict(ps[i++ % ps.size()]);
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(key + ", 65536 positions");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Verdict_Random5Man)->Arg(1)->Arg(1024)->ArgName("cache_mb");

void BM_Probe_FirstProbe(benchmark::State& state) {
  const std::optional<std::string> dir = test::tables_dir_if_set();
  if (!dir) return state.SkipWithError("DEADPOS_TABLES is not set");
  const Position p = *Position::from_fen("8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1");
  for (auto _ : state) {
    auto tb = Tablebase::open({*dir});
    auto r = tb ? tb->probe(p) : Result<ProbeResult>(tb.error());
    if (!r) return state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Probe_FirstProbe)->Unit(benchmark::kMicrosecond);

// The same for a verdict: Tablebase::open + one Tablebase::verdict (the verdict file's header,
// block index and one 16 KiB block), on a 5-man position when the directory has KRBvKR.
void BM_Verdict_FirstProbe(benchmark::State& state) {
  const std::optional<std::string> dir = test::tables_dir_if_set();
  if (!dir) return state.SkipWithError("DEADPOS_TABLES is not set");
  auto probe_tb = Tablebase::open({*dir});
  if (!probe_tb) return state.SkipWithError(probe_tb.error().message.c_str());
  const auto m = probe_tb->materials();
  const bool five = std::find(m.begin(), m.end(), "KRBvKR") != m.end();
  const Position p =
      *Position::from_fen(five ? "8/8/3r4/3k4/8/1B6/8/K1R5 w - - 0 1" : "8/8/8/3k4/8/1n6/8/K1R5 w - - 0 1");
  for (auto _ : state) {
    auto tb = Tablebase::open({*dir});
    auto r = tb ? tb->verdict(p) : Result<PositionVerdict>(tb.error());
    if (!r) return state.SkipWithError(r.error().message.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(five ? "KRBvKR" : "KRvKN");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Verdict_FirstProbe)->Unit(benchmark::kMicrosecond);

void BM_Probe_Threads(benchmark::State& state) {
  std::string why;
  const Tablebase* tb = shared_tables(&why);
  if (!tb) return state.SkipWithError(why.c_str());
  static const std::vector<Position> ps = random_positions(*Material::parse("KRvKN"), 1 << 16, 1);
  probe_loop(state, *tb, ps);
}
BENCHMARK(BM_Probe_Threads)->Threads(1)->Threads(2)->UseRealTime();

void BM_Probe_EnPassant(benchmark::State& state) {
  std::string why;
  const Tablebase* tb = shared_tables(&why);
  if (!tb) return state.SkipWithError(why.c_str());
  const Position p = *Position::from_fen("8/8/8/8/1pP5/k7/8/K7 b - c3 0 1");
  auto r = tb->probe(p);  // 1...bxc3 e.p. mates White in 5 plies (tests/test_probe_rules.cpp)
  if (!r || r->dthm[Color::White] != 5) return state.SkipWithError("wrong answer for the en passant position");
  probe_loop(state, *tb, {p});
}
BENCHMARK(BM_Probe_EnPassant);

void BM_Probe_Castling(benchmark::State& state) {
  std::string why;
  const Tablebase* tb = shared_tables(&why);
  if (!tb) return state.SkipWithError(why.c_str());
  const Position p = *Position::from_fen("8/8/8/8/8/8/3Q4/R3K2k w Q - 0 1");
  auto r = tb->probe(p);  // 1.O-O-O# (tests/test_probe_rules.cpp)
  if (!r || r->dthm[Color::Black] != 1) return state.SkipWithError("wrong answer for the castling position");
  probe_loop(state, *tb, {p});
}
BENCHMARK(BM_Probe_Castling)->Unit(benchmark::kMicrosecond);

// DTHM of both targets by a 1-ply search over the tables: DTHM_X(p) = 1 + min over the legal moves
// of DTHM_X(child) (helpmate distances are a plain minimum: both sides cooperate); 0 for X
// checkmated. nullopt in both on a probe error.
std::optional<ByColor<std::optional<int>>> derived_dthm(const Tablebase& tb, const Position& p) {
  ByColor<std::optional<int>> best;
  MoveList moves;
  p.legal_moves(moves);
  if (moves.size() == 0) {
    if (p.in_check()) best[p.side_to_move()] = 0;
    return best;
  }
  for (const Move m : moves) {
    Position child = p;
    child.make_move(m);
    auto r = tb.probe(child);
    if (!r) return std::nullopt;
    for (const Color x : {Color::White, Color::Black}) {
      if (r->dthm[x] && (!best[x] || *r->dthm[x] + 1 < *best[x])) best[x] = *r->dthm[x] + 1;
    }
  }
  return best;
}

// Argument: 4 or 5 men. Every derived answer was checked against the stored one before timing.
void BM_Probe_DerivedSide(benchmark::State& state) {
  std::string why;
  const Tablebase* shared = shared_tables(&why);
  if (!shared) return state.SkipWithError(why.c_str());
  std::string key = "KRvKN";
  const Tablebase* tb = shared;
  std::optional<Tablebase> big;
  if (state.range(0) == 5) {
    key.clear();
    for (const std::string& k : shared->materials()) {
      if (Material::parse(k)->men() == 5 && (key.empty() || k == "KRBvKR")) key = k;
    }
    if (key.empty()) return state.SkipWithError("no 5-man table");
    Tablebase::Options opt;
    opt.cache_bytes = std::size_t{1} << 30;
    auto r = Tablebase::open({*test::tables_dir_if_set()}, opt);
    if (!r) return state.SkipWithError(r.error().message.c_str());
    big.emplace(std::move(*r));
    tb = &*big;
  }
  const std::vector<Position> ps = random_positions(*Material::parse(key), 1 << 14, state.range(0));
  std::size_t children = 0;
  for (const Position& p : ps) {
    auto d = derived_dthm(*tb, p);
    auto r = tb->probe(p);
    if (!d || !r || *d != r->dthm) return state.SkipWithError(("derived answer differs on " + p.to_fen()).c_str());
    children += p.legal_moves().size();
  }
  std::size_t i = 0;
  for (auto _ : state) {
    auto d = derived_dthm(*tb, ps[i++ % ps.size()]);
    benchmark::DoNotOptimize(d);
  }
  state.SetLabel(key + ", " + std::to_string(static_cast<double>(children * 10 / ps.size()) / 10.0).substr(0, 4) +
                 " children per probe");
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Probe_DerivedSide)->Arg(4)->Arg(5)->ArgName("men");

}  // namespace
}  // namespace deadpos
