// How fast a probe of the side not stored could be under one-sided storage (issue 12, part 4),
// with everything in memory: an upper bound for format v3's derived-side probe, whatever its block
// cache. Not a format: nothing is written. The four arrays of TABLE are read whole; for random legal
// positions of KEY with Black to move (the derived side), both DTHMs are rebuilt as 1 + the least
// DTHM of the children (White to move): a child of the same material by one index computation and
// two array reads, any other child (capture, promotion) by Tablebase::probe of its subtable. Every
// rebuilt answer is checked against the stored Black-to-move arrays before timing. Rows:
//   stored     the stored side's lookup alone (squares, index, two reads)
//   derived    the rebuild (move generation, one index per child)
//   probe      Tablebase::probe of the same positions (the whole probe of format v2)
// in millions of positions per second, one thread.
//
//   deadpos_derive_probe TABLES_DIR KEY [N]
//
// N: random positions (default 65536).
// Measured 2026-12-04 on the fresh <=5-man set (generation running on the other core): KRBvKR
// stored 3.33, derived 0.262 M/s (12.9 children, 4% into subtables); KBNvKP stored 4.37, derived
// 0.409 M/s (6.1 children, 12%). docs/design.md, "Table size".
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/table.h"
#include "deadpos/tablebase.h"
#include "support/random_position.h"
#include "table_arrays.h"

using namespace deadpos;

namespace {

using Pair = ByColor<std::optional<int>>;

std::optional<int> decoded(std::uint8_t v) {
  if (v <= DthmCode::kMaxDthm) return static_cast<int>(v);
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: deadpos_derive_probe TABLES_DIR KEY [N]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const auto m = Material::parse(argv[2]);
  if (!m || m->key() != argv[2]) {
    std::fprintf(stderr, "deadpos_derive_probe: '%s' is not a canonical material key\n", argv[2]);
    return 2;
  }
  const std::size_t n = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 65536;
  auto f = TableFile::open(dir + "/" + table_file_name(*m));
  auto tb = Tablebase::open({dir});
  if (!f || !tb) {
    std::fprintf(stderr, "deadpos_derive_probe: %s\n", (!f ? f.error() : tb.error()).message.c_str());
    return 1;
  }
  const TableIndex& idx = f->index();
  auto arrays = bench::read_arrays(*f, "deadpos_derive_probe");
  if (!arrays) return 1;
  const bench::TableArrays& a = *arrays;
  // Array 2 * stm + x holds DTHM_x with stm to move (docs/format.md section 3).
  const auto stored = [&](const Position& p, std::size_t stm) {
    const std::uint64_t i = idx.encode(idx.squares_of(p));
    return Pair{decoded(a[2 * stm][i]), decoded(a[2 * stm + 1][i])};
  };
  std::size_t other = 0;
  const auto derive = [&](const Position& p) -> std::optional<Pair> {
    Pair best;
    MoveList moves;
    p.legal_moves(moves);
    if (moves.size() == 0) {
      if (p.in_check()) best[p.side_to_move()] = 0;
      return best;
    }
    for (const Move mv : moves) {
      Position child = p;
      child.make_move(mv);
      Pair c;
      if (Material::of(child) == *m) {
        c = stored(child, 0);
      } else {
        auto r = tb->probe(child);
        if (!r) return std::nullopt;
        c = r->dthm;
        ++other;
      }
      for (const Color x : {Color::White, Color::Black})
        if (c[x] && (!best[x] || *c[x] + 1 < *best[x])) best[x] = *c[x] + 1;
    }
    return best;
  };
  std::mt19937_64 rng(12);
  std::vector<Position> ps;
  std::size_t children = 0;
  while (ps.size() < n) {
    Position p = test::random_position(*m, rng);
    if (p.side_to_move() != Color::Black) continue;
    const auto d = derive(p);
    if (!d || *d != stored(p, 1)) {
      std::fprintf(stderr, "deadpos_derive_probe: the rebuilt DTHMs differ from the stored ones at %s\n",
                   p.to_fen().c_str());
      return 1;
    }
    MoveList moves;
    p.legal_moves(moves);
    children += moves.size();
    ps.push_back(p);
  }
  std::printf("%s: %zu positions, Black to move, %.1f children each, %.2f of them into subtables\n", m->key().c_str(),
              n, static_cast<double>(children) / static_cast<double>(n),
              static_cast<double>(other) / static_cast<double>(children));
  const auto rate = [&](const char* name, const auto& fn) {
    std::size_t sink = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int rep = 0; rep < 3; ++rep)
      for (const Position& p : ps) sink += fn(p);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-9s %.3f M positions/s (%zu)\n", name, 3.0 * static_cast<double>(n) / s / 1e6, sink % 2);
  };
  rate("stored", [&](const Position& p) { return static_cast<std::size_t>(stored(p, 1)[Color::White].value_or(0)); });
  rate("derived", [&](const Position& p) { return static_cast<std::size_t>((*derive(p))[Color::White].value_or(0)); });
  rate("probe",
       [&](const Position& p) { return static_cast<std::size_t>(tb->probe(p)->dthm[Color::White].value_or(0)); });
  return 0;
}
