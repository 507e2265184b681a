// What rebuilding a side to move costs a reader of whole arrays under one-sided storage (issue 12,
// docs/design.md "Table size"): derive_side() on each side of a generated table, timed, and checked
// byte for byte against the side the file stores.
//
//   deadpos_derive_side TABLES_DIR KEY
//
// Prints, per side to move, the wall-clock seconds of derive_side (all OpenMP threads) and whether
// the derived arrays equal the stored ones. Exit 1 when they differ or a table cannot be loaded.
// Measured on 2026-12-03 (2 threads, beside a 5-man generation on the same 2 cores): see the
// session note of that day.
#include <chrono>
#include <cstdio>
#include <string>

#include "deadpos/material.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"

using namespace deadpos;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: deadpos_derive_side TABLES_DIR KEY\n");
    return 2;
  }
  const std::string dir = argv[1];
  auto m = Material::parse(argv[2]);
  if (!m || !m->is_canonical()) {
    std::fprintf(stderr, "deadpos_derive_side: '%s' is not a canonical material key\n", argv[2]);
    return 2;
  }
  auto t = load_table(dir + "/" + table_file_name(*m), *m);
  if (!t) {
    std::fprintf(stderr, "deadpos_derive_side: %s\n", t.error().message.c_str());
    return 1;
  }
  TableSet subs(dir);
  for (const SuccessorSides& s : m->successor_sides()) {
    if (Status st = subs.require(s.material, s.side_to_move); !st) {
      std::fprintf(stderr, "deadpos_derive_side: %s\n", st.error().message.c_str());
      return 1;
    }
  }
  int rc = 0;
  for (Color side : {Color::White, Color::Black}) {
    ByColor<std::vector<std::uint8_t>> stored;
    for (Color x : {Color::White, Color::Black}) stored[x] = (*t)->arrays[static_cast<std::size_t>(array_of(side, x))];
    const auto t0 = std::chrono::steady_clock::now();
    if (Status st = derive_side(**t, subs, side); !st) {
      std::fprintf(stderr, "deadpos_derive_side: %s\n", st.error().message.c_str());
      return 1;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool same = true;
    for (Color x : {Color::White, Color::Black})
      same = same && stored[x] == (*t)->arrays[static_cast<std::size_t>(array_of(side, x))];
    std::printf("%s %s to move: derived in %.2f s, %s\n", m->key().c_str(), side == Color::White ? "White" : "Black",
                secs, same ? "equal to the stored side" : "DIFFERENT from the stored side");
    rc |= same ? 0 : 1;
  }
  return rc;
}
