// What one-sided storage would make of a table (issue 12, part 4: the <=5-man set at 1.2 GB).
// Not a format: nothing is written. A one-sided file keeps the DTHM arrays of one side to move
// (the "stored" side) and, for the other ("derived") side, one byte per entry that the probe and the
// whole-array readers complete by a 1-ply search (DTHM_X(p) = 1 + min over the children: helpmate
// distances are a plain minimum). Per sampled block, all four arrays filled as format v2 fills
// invalid entries (docs/format.md section 5) and compressed at the file's zstd setting:
//   full         the arrays as format v2 stores them
//   verdict      derived side: 253 (no helpmate) or 0 (a helpmate exists: search every child,
//                captures and promotions into subtables included)
//   exit-best    derived side: the DTHM itself where a capture, promotion or double push (an exit
//                from the table's own entries) attains it, else 252 (a move inside the table attains
//                it: the search needs only this table's stored side, no subtable)
// and the projected file size of each choice of stored side.
//
//   deadpos_one_sided TABLES_DIR KEY [STEP]
//
// STEP: every STEP-th block of 262,144 entries (default 16). The exit-best column probes the
// children of every derived-side entry of the sampled blocks through Tablebase (slow: ~1 us each).
// Measured on 2026-12-03 (format v2 files; the better stored side, of four arrays' bytes):
// KRvKN verdict 0.488, exit-best 0.488; KRBvKR (STEP 16) verdict 0.477, exit-best 0.831; KBPvKB
// (STEP 32) verdict 0.487, exit-best 0.820. So the derived side costs ~1-3% as verdict bytes, and
// storing the exit-attained values instead costs more than it saves (they scatter).
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/table.h"
#include "deadpos/tablebase.h"
#include "table_arrays.h"

using namespace deadpos;

namespace {

constexpr std::uint8_t kSearch = 252;  // derived-side code: the value comes from a 1-ply search

// Format v2's fill of invalid entries (255) in one block: the previous valid code, and before the
// first valid one that entry's code.
void fill(std::vector<std::uint8_t>& b) {
  std::size_t first = 0;
  while (first < b.size() && b[first] == 255) ++first;
  const std::uint8_t lead = first < b.size() ? b[first] : 253;
  std::uint8_t prev = lead;
  for (std::uint8_t& v : b) {
    if (v == 255) v = prev;
    prev = v;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: deadpos_one_sided TABLES_DIR KEY [STEP]\n");
    return 2;
  }
  const std::string dir = argv[1], key = argv[2];
  const std::size_t step = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 16;
  auto f = TableFile::open(dir + "/" + key + ".dpt");
  auto tb = Tablebase::open({dir});
  if (!f || !tb || step == 0) {
    std::fprintf(stderr, "deadpos_one_sided: %s\n",
                 !f    ? f.error().message.c_str()
                 : !tb ? tb.error().message.c_str()
                       : "STEP 0");
    return 1;
  }
  const TableIndex& idx = f->index();
  auto arrays = bench::read_arrays(*f, "deadpos_one_sided");
  if (!arrays) return 1;
  const bench::TableArrays& a = *arrays;
  const std::size_t n = a[0].size(), block = 262144;
  ZSTD_CCtx* cc = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, kZstdLevel);
  ZSTD_CCtx_setParameter(cc, ZSTD_c_minMatch, kZstdMinMatch);
  ZSTD_CCtx_setParameter(cc, ZSTD_c_searchLog, kZstdSearchLog);
  std::vector<std::uint8_t> out(ZSTD_compressBound(block));
  auto packed = [&](std::vector<std::uint8_t> b) {
    fill(b);
    return static_cast<double>(ZSTD_compress2(cc, out.data(), out.size(), b.data(), b.size()));
  };
  // bytes[scheme][k]: 0 full, 1 verdict, 2 exit-best.
  std::array<std::array<double, kNumArrays>, 3> bytes{};
  std::array<double, kNumArrays> finite{}, exit_best{};
  double sampled = 0;
  for (std::size_t b0 = 0; b0 < n; b0 += block * step) {
    const std::size_t len = std::min(block, n - b0);
    sampled += static_cast<double>(len);
    std::array<std::vector<std::uint8_t>, kNumArrays> verdict, exits;
    for (std::size_t k = 0; k < kNumArrays; ++k) {
      verdict[k].assign(a[k].begin() + static_cast<std::ptrdiff_t>(b0),
                        a[k].begin() + static_cast<std::ptrdiff_t>(b0 + len));
      exits[k] = verdict[k];
    }
    for (int stm = 0; stm < 2; ++stm) {
      for (std::size_t e = 0; e < len; ++e) {
        const std::size_t i = b0 + e;
        if (a[2 * stm][i] == 255) continue;  // both arrays of one side to move share the invalid entries
        for (int x = 0; x < 2; ++x) {
          if (a[2 * stm + x][i] != 253) verdict[2 * stm + x][e] = 0;
        }
        if (a[2 * stm][i] == 253 && a[2 * stm + 1][i] == 253) continue;
        TableIndex::Squares sq{};
        if (!idx.decode(i, sq)) return std::fprintf(stderr, "entry %zu: valid code at a broken entry\n", i), 1;
        Placement pl;
        for (int j = 0; j < idx.men(); ++j)
          pl.board[static_cast<std::size_t>(to_index(sq[static_cast<std::size_t>(j)]))] = idx.piece(j);
        pl.side_to_move = stm ? Color::Black : Color::White;
        auto pos = Position::from_placement(pl);
        if (!pos) return std::fprintf(stderr, "entry %zu: %s\n", i, pos.error().message.c_str()), 1;
        std::array<int, 2> best{1 << 20, 1 << 20};
        for (const Move m : pos->legal_moves()) {
          const int dist = to_index(m.to()) - to_index(m.from());
          const bool exit = pos->piece_on(m.to()) != kNoPiece || m.kind() != Move::Kind::Normal ||
                            (type_of(pos->piece_on(m.from())) == PieceType::Pawn && (dist == 16 || dist == -16));
          if (!exit) continue;
          Position child = *pos;
          child.make_move(m);
          auto r = tb->probe(child);
          if (!r) return std::fprintf(stderr, "%s: %s\n", child.to_fen().c_str(), r.error().message.c_str()), 1;
          for (int x = 0; x < 2; ++x) {
            const auto& d = r->dthm[x ? Color::Black : Color::White];
            if (d && *d + 1 < best[static_cast<std::size_t>(x)]) best[static_cast<std::size_t>(x)] = *d + 1;
          }
        }
        for (int x = 0; x < 2; ++x) {
          const std::size_t k = static_cast<std::size_t>(2 * stm + x);
          const int v = a[k][i];
          if (v == 253) continue;
          finite[k] += 1;
          if (best[static_cast<std::size_t>(x)] == v) {
            exit_best[k] += 1;
          } else {
            exits[k][e] = kSearch;
          }
        }
      }
    }
    for (std::size_t k = 0; k < kNumArrays; ++k) {
      std::vector<std::uint8_t> full(a[k].begin() + static_cast<std::ptrdiff_t>(b0),
                                     a[k].begin() + static_cast<std::ptrdiff_t>(b0 + len));
      bytes[0][k] += packed(full);
      bytes[1][k] += packed(verdict[k]);
      bytes[2][k] += packed(exits[k]);
    }
  }
  ZSTD_freeCCtx(cc);
  const double scale = static_cast<double>(n) / sampled;  // sampled blocks -> whole table
  std::printf("%s: %zu entries per array, %.0f sampled per array (every %zu-th block); file %llu bytes\n", key.c_str(),
              n, sampled, step, static_cast<unsigned long long>(f->header().file_size));
  const char* names[] = {"full", "verdict", "exit-best"};
  for (std::size_t s = 0; s < 3; ++s) {
    std::printf("%-10s", names[s]);
    for (std::size_t k = 0; k < kNumArrays; ++k) std::printf(" %12.0f", bytes[s][k] * scale);
    std::printf("   (projected bytes, arrays 0..3)\n");
  }
  for (std::size_t k = 0; k < kNumArrays; ++k)
    std::printf("array %zu: %.1f%% of its helpmate entries have an exit attaining the DTHM\n", k,
                100 * exit_best[k] / std::max(finite[k], 1.0));
  const double whole = (bytes[0][0] + bytes[0][1] + bytes[0][2] + bytes[0][3]) * scale;
  for (int stored = 0; stored < 2; ++stored) {
    const std::size_t s0 = static_cast<std::size_t>(2 * stored), d0 = static_cast<std::size_t>(2 - 2 * stored);
    const double keep = (bytes[0][s0] + bytes[0][s0 + 1]) * scale;
    for (std::size_t s = 1; s < 3; ++s) {
      const double other = (bytes[s][d0] + bytes[s][d0 + 1]) * scale;
      std::printf("store %s to move, derived %-9s %12.0f bytes = %.3f of four arrays\n", stored ? "Black" : "White",
                  names[s], keep + other, (keep + other) / whole);
    }
  }
  return 0;
}
