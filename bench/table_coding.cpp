// Measures how well a table's arrays compress under candidate codings (issue 12, part 4: the
// <=5-man set at 1.2 GB, a quarter of format v1). Not a format: nothing here is written to a
// table. Per coding, bits per index entry over a sample of king-pair slots of all four arrays:
//   v1            the file as stored (its size over 4 x entries)
//   fill lN       invalid entries (255) replaced by the previous valid value of the slot, zstd level N
//   order XYZ     the same at level 9 with the three non-king fields in another order (X slowest)
//   cm CTX        an adaptive context model (the code length -log2 p of each valid entry, with
//                 counts per context; an arithmetic coder would come within a fraction of a bit of
//                 it), contexts from the left (L) and upper (U) neighbours and the same entry of
//                 arrays coded before (O: same target, other side to move, or same side to move)
//   delta         at the file's setting (format.md section 5), arrays 2 and 3 (Black to move) stored as
//                 their difference modulo 252 from arrays 0 and 1 (White to move, same target; codes
//                 0..250 and none as 0..251), so a reader would decode both blocks: the cross-array
//                 redundancy a transform could take (the cm rows' O context is the same question)
//   prefix        at the file's setting, each sampled slot compressed with the slot before it (same
//                 array) as a zstd prefix: what any dictionary shared between blocks could gain
//   one-sided     the DTHM arrays of one side to move in a field order, the other side's as verdict
//                 bytes (finite -> 0, none), the side and order that make the least, at level 9 and
//                 at the file's setting, as a fraction of the four arrays at the file's setting:
//                 issue 12's 1.2 GB path
//   fill left/up/match  invalid entries filled three ways at the file's setting (see the code);
//                 the reader never reads them, so any fill is a writer's choice within format v2
//   both-sides per-array  the four arrays, each in its own field order and the smaller setting
//   per-array     the stored side chosen per target, each array its own order and setting, the
//                 derived side's verdicts as bytes or packed 8 to a byte
// with the zstd compression speed (MB/s of entries, one thread) for the fill rows.
//
//   deadpos_table_coding TABLE.dpt [STEP]
//
// STEP: every STEP-th king-pair slot (default 16). 5-man tables only (three non-king fields).
// Measured on 2026-12-02: see the session note of stop 20 (figures for KRBvKR and KBPvKB).
// delta and prefix, 2026-12-03 (format v2 file, STEP 16): KRBvKR stored 0.2517, delta 0.3238,
// prefix 0.2513 bits/entry. The same two codings over whole <=4-man tables (a throwaway program,
// four arrays' bytes): delta 1.19x larger on KRvKN, 1.24x KQvKR, 1.12x KNvKN, 1.07x KBvKN, 0.97x
// KPvKP; a shared dictionary trained on every block (ZDICT, 256 KiB) 1.01x larger on KRBvKR.
// Black-to-move DTHM is White-to-move's +1 or -1 about half each way, scattered: neither a transform
// between the sides to move nor references between blocks is a lever.
// one-sided, 2026-12-03, STEP 32, the better of the two settings: KRBvKR 0.419, KBPvKB 0.446,
// KBPvKP 0.424, KNPvKP 0.328, KNPvKB 0.362 ... over the 92 largest 5-man tables (96% of the set's
// bytes) 0.397: docs/design.md, "Table size".
// 2026-12-04, STEP 32: fill left 0.3288, up 0.3725, match 0.3295 bits/entry on KBNvKP (format v2's
// left fill stays); per-array 0.348 (verdict bits) against one-sided 0.396 on KBNvKP and 0.395
// against 0.419 on KRBvKR. Over the largest tables: bench/coding_projection.sh.
#include <zstd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "deadpos/table.h"
#include "table_arrays.h"

using namespace deadpos;

namespace {

constexpr int kQ = 44;  // context values: 0..40 plies (40: 40 or more), 41 none, 42 invalid, 43 absent
int quantised(int v) { return v == 255 ? 42 : v == 253 ? 41 : v > 40 ? 40 : v; }

struct Model {
  std::vector<std::uint32_t> count;
  std::vector<std::uint32_t> total;
  double bits = 0;
  explicit Model(std::size_t contexts) : count(contexts * 256), total(contexts) {}
  void code(std::size_t ctx, int sym) {
    // Krichevsky-Trofimov-like estimate with a small prior: most symbols never occur in a context.
    bits -= std::log2((count[ctx * 256 + sym] + 0.02) / (total[ctx] + 0.02 * 256));
    ++count[ctx * 256 + sym];
    ++total[ctx];
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: deadpos_table_coding TABLE.dpt [STEP]\n");
    return 2;
  }
  auto f = TableFile::open(argv[1]);
  if (!f) {
    std::fprintf(stderr, "deadpos_table_coding: %s\n", f.error().message.c_str());
    return 1;
  }
  const TableIndex& idx = f->index();
  if (idx.men() != 5) {
    std::fprintf(stderr, "deadpos_table_coding: %s: a 5-man table is needed\n", argv[1]);
    return 2;
  }
  const std::size_t step = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 16;
  if (step == 0) {
    std::fprintf(stderr, "deadpos_table_coding: STEP must be a positive integer, not '%s'\n", argv[2]);
    return 2;
  }
  std::array<std::size_t, 3> range{};
  for (std::size_t j = 0; j < 3; ++j)
    range[j] = type_of(idx.piece(static_cast<int>(j) + 2)) == PieceType::Pawn ? 48 : 64;
  const std::size_t slot = range[0] * range[1] * range[2];
  const std::array<std::size_t, 3> stride{range[1] * range[2], range[2], 1};
  auto arrays = bench::read_arrays(*f, "deadpos_table_coding");
  if (!arrays) return 1;
  const bench::TableArrays& a = *arrays;
  const std::size_t n = a[0].size();
  std::vector<std::uint8_t> out(ZSTD_compressBound(slot));
  std::vector<std::uint8_t> buf(slot);
  ZSTD_CCtx* cc = ZSTD_createCCtx();
  // Filled copy of one slot of array k in field order p (p[0] slowest).
  auto fill = [&](std::size_t k, std::size_t s, const std::array<int, 3>& p) {
    const std::uint8_t* blk = a[k].data() + s * slot;
    std::size_t o = 0;
    std::uint8_t prev = 253;
    for (std::size_t x = 0; x < range[p[0]]; ++x)
      for (std::size_t y = 0; y < range[p[1]]; ++y)
        for (std::size_t z = 0; z < range[p[2]]; ++z) {
          const std::uint8_t v = blk[x * stride[p[0]] + y * stride[p[1]] + z * stride[p[2]]];
          if (v != 255) prev = v;
          buf[o++] = prev;
        }
  };
  const std::array<int, 3> natural{0, 1, 2};
  double sampled = 0;
  for (std::size_t s = 0; s < n / slot; s += step) sampled += static_cast<double>(slot) * kNumArrays;
  std::printf("%s: %zu entries per array, %zu per king slot, %.0f sampled (every %zu-th slot, 4 arrays)\n", argv[1], n,
              slot, sampled, step);
  std::printf("v1        %.4f bits/entry (file size)\n",
              8.0 * static_cast<double>(f->header().file_size) / (4.0 * static_cast<double>(n)));
  for (int level : {3, 5, 9, 12, 15, 19}) {
    double bytes = 0, secs = 0;
    for (std::size_t k = 0; k < kNumArrays; ++k)
      for (std::size_t s = 0; s < n / slot; s += step) {
        fill(k, s, natural);
        const auto t0 = std::chrono::steady_clock::now();
        bytes += static_cast<double>(ZSTD_compressCCtx(cc, out.data(), out.size(), buf.data(), slot, level));
        secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      }
    std::printf("fill l%-3d %.4f bits/entry, %.1f MB/s\n", level, 8 * bytes / sampled, sampled / secs / 1e6);
  }
  // The file's zstd setting (format.md section 5) for the one-sided, delta and prefix
  // rows, on the same context (ZSTD_compressCCtx's level 9 ignores these parameters).
  const auto file_setting = [&] {
    ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, kZstdLevel);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_minMatch, kZstdMinMatch);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_searchLog, kZstdSearchLog);
  };
  const auto at_file_setting = [&](const std::vector<std::uint8_t>& b) {
    file_setting();
    return static_cast<double>(ZSTD_compress2(cc, out.data(), out.size(), b.data(), b.size()));
  };
  // Invalid entries filled other ways (the reader never reads them: format.md section 5), natural
  // order, the file's setting: "left" is format v2's fill (the code before); "up" the code one row
  // (fastest field's range) earlier, which continues a match with the row before through the
  // invalid entries; "match" the code at whichever of the distances 1, one row, one plane has
  // matched the most valid entries in a row just before.
  {
    const std::array<std::size_t, 3> dist{1, range[2], range[1] * range[2]};
    std::array<double, 3> fill_bytes{};
    std::vector<std::uint8_t> own(slot);
    for (std::size_t k = 0; k < kNumArrays; ++k)
      for (std::size_t s = 0; s < n / slot; s += step) {
        fill(k, s, natural);
        fill_bytes[0] += at_file_setting(buf);
        const std::uint8_t* raw = a[k].data() + s * slot;
        for (std::size_t i = 0; i < slot; ++i)
          own[i] = raw[i] != 255 ? raw[i] : i >= dist[1] ? own[i - dist[1]] : buf[i];
        fill_bytes[1] += at_file_setting(own);
        std::array<std::size_t, 3> run{};
        for (std::size_t i = 0; i < slot; ++i) {
          if (raw[i] == 255) {
            std::size_t d = 0;
            for (std::size_t j = 1; j < 3; ++j)
              if (i >= dist[j] && run[j] > run[d]) d = j;
            own[i] = i >= dist[d] ? own[i - dist[d]] : buf[i];
          } else {
            own[i] = raw[i];
          }
          for (std::size_t j = 0; j < 3; ++j) run[j] = i >= dist[j] && own[i] == own[i - dist[j]] ? run[j] + 1 : 0;
        }
        fill_bytes[2] += at_file_setting(own);
      }
    std::printf("fill left %.4f, up %.4f, match %.4f bits/entry (the file's setting)\n", 8 * fill_bytes[0] / sampled,
                8 * fill_bytes[1] / sampled, 8 * fill_bytes[2] / sampled);
  }
  // Per field order (permutation number) and array, bytes at level 9 of the DTHM and of the
  // verdict (finite -> 0, none stays: what a one-sided file would keep of its derived side).
  // [0]: level 9, [1]: the file's setting (set below, before the loop).
  std::array<std::array<std::array<double, kNumArrays>, 6>, 2> order_bytes{}, order_verdict{}, order_bits{};
  std::vector<std::uint8_t> packed_bits(slot / 8);
  std::array<std::array<int, 3>, 6> orders{};
  std::array<int, 3> p{0, 1, 2};
  int perm = 0;
  do {
    orders[static_cast<std::size_t>(perm)] = p;
    double bytes = 0;
    for (std::size_t k = 0; k < kNumArrays; ++k)
      for (std::size_t s = 0; s < n / slot; s += step) {
        fill(k, s, p);
        const auto q = static_cast<std::size_t>(perm);
        const double b = static_cast<double>(ZSTD_compressCCtx(cc, out.data(), out.size(), buf.data(), slot, 9));
        bytes += b;
        order_bytes[0][q][k] += b;
        order_bytes[1][q][k] += at_file_setting(buf);
        for (std::uint8_t& v : buf) v = v <= DthmCode::kMaxDthm ? 0 : v;
        order_verdict[0][q][k] +=
            static_cast<double>(ZSTD_compressCCtx(cc, out.data(), out.size(), buf.data(), slot, 9));
        order_verdict[1][q][k] += at_file_setting(buf);
        // The same verdicts packed 8 to a byte (bit set: no helpmate), fastest field first.
        std::fill(packed_bits.begin(), packed_bits.end(), std::uint8_t{0});
        for (std::size_t i = 0; i < slot; ++i)
          if (buf[i] != 0) packed_bits[i / 8] = static_cast<std::uint8_t>(packed_bits[i / 8] | (1u << (i % 8)));
        order_bits[0][q][k] += static_cast<double>(
            ZSTD_compressCCtx(cc, out.data(), out.size(), packed_bits.data(), packed_bits.size(), 9));
        order_bits[1][q][k] += at_file_setting(packed_bits);
      }
    std::printf("order %d%d%d %.4f bits/entry (level 9)\n", p[0], p[1], p[2], 8 * bytes / sampled);
    ++perm;
  } while (std::next_permutation(p.begin(), p.end()));
  const auto rank = [](int v) { return v == 253 ? 251 : v; };
  double as_stored = 0, delta = 0, prefix = 0;
  std::vector<std::uint8_t> prev(slot), diff(slot);
  for (std::size_t k = 0; k < kNumArrays; ++k)
    for (std::size_t s = 0; s < n / slot; s += step) {
      fill(k, s, natural);
      file_setting();
      const double stored = static_cast<double>(ZSTD_compress2(cc, out.data(), out.size(), buf.data(), slot));
      as_stored += stored;
      if (k < 2) {
        delta += stored;
      } else {
        // Difference from the filled White-to-move slot (what a reader would have decoded); the
        // invalid entries of this side filled in the difference domain.
        std::vector<std::uint8_t> own(buf);
        fill(k - 2, s, natural);
        std::uint8_t last = 0;
        for (std::size_t i = 0; i < slot; ++i) {
          if (a[k][s * slot + i] != 255) last = static_cast<std::uint8_t>((rank(own[i]) - rank(buf[i]) + 252) % 252);
          diff[i] = last;
        }
        file_setting();
        delta += static_cast<double>(ZSTD_compress2(cc, out.data(), out.size(), diff.data(), slot));
        buf = own;
      }
      if (s == 0) {
        prefix += stored;
      } else {
        std::vector<std::uint8_t> cur(buf);
        fill(k, s - 1, natural);
        prev = buf;
        file_setting();
        ZSTD_CCtx_refPrefix(cc, prev.data(), slot);
        prefix += static_cast<double>(ZSTD_compress2(cc, out.data(), out.size(), cur.data(), slot));
      }
    }
  std::printf("stored    %.4f bits/entry (the file's setting)\n", 8 * as_stored / sampled);
  std::printf("delta     %.4f bits/entry (Black to move as the difference from White to move)\n", 8 * delta / sampled);
  std::printf("prefix    %.4f bits/entry (the slot before as a prefix)\n", 8 * prefix / sampled);
  // One-sided storage at level 9 in the best field order: the DTHM arrays of the side to move
  // stored, verdict bytes for the other, against the four arrays at the file's setting.
  for (std::size_t lv = 0; lv < 2; ++lv) {
    double best = 0;
    std::size_t best_perm = 0;
    int best_side = 0;
    for (std::size_t q = 0; q < orders.size(); ++q)
      for (int side = 0; side < 2; ++side) {
        const auto st = static_cast<std::size_t>(2 * side), dv = static_cast<std::size_t>(2 - 2 * side);
        const auto& ob = order_bytes[lv][q];
        const auto& ov = order_verdict[lv][q];
        const double b = ob[st] + ob[st + 1] + ov[dv] + ov[dv + 1];
        if (best == 0 || b < best) best = b, best_perm = q, best_side = side;
      }
    std::printf("one-sided %.4f bits/entry = %.3f of the file's setting (%s to move stored, order %d%d%d, %s)\n",
                8 * best / sampled, best / as_stored, best_side ? "Black" : "White", orders[best_perm][0],
                orders[best_perm][1], orders[best_perm][2], lv == 0 ? "level 9" : "the file's setting");
  }
  // The stored side chosen per target, each array in its own field order and at the smaller of the
  // two settings (a permutation and a setting per array cost a few header bytes); the derived
  // side's verdicts as bytes or packed as bits.
  const auto least = [&](const auto& by, std::size_t k) {
    double m = 0;
    for (std::size_t lv = 0; lv < 2; ++lv)
      for (std::size_t q = 0; q < orders.size(); ++q)
        if (m == 0 || by[lv][q][k] < m) m = by[lv][q][k];
    return m;
  };
  {
    // Both sides to move kept (every probe a single read), each array in its own order and setting.
    double total = 0;
    for (std::size_t k = 0; k < kNumArrays; ++k) total += least(order_bytes, k);
    std::printf("both-sides per-array %.4f bits/entry = %.3f of the file's setting\n", 8 * total / sampled,
                total / as_stored);
  }
  for (int packed = 0; packed < 2; ++packed) {
    double total = 0;
    std::string sides;
    for (std::size_t t = 0; t < 2; ++t) {
      const double white = least(order_bytes, t) + least(packed ? order_bits : order_verdict, 2 + t);
      const double black = least(order_bytes, 2 + t) + least(packed ? order_bits : order_verdict, t);
      total += std::min(white, black);
      sides += white <= black ? 'w' : 'b';
    }
    std::printf("per-array %.4f bits/entry = %.3f of the file's setting (stored side per target %s, verdicts as %s)\n",
                8 * total / sampled, total / as_stored, sides.c_str(), packed ? "bits" : "bytes");
  }
  // DTHM arrays only (format v3's table file: the verdicts of both sides are the .dpv file), each
  // array in its own order and setting: the stored side free per target, or fixed by a rule that a
  // colour swap keeps. "mater to move" stores arrays 1 and 2 (the side to move is not the target),
  // "mated to move" arrays 0 and 3. Under such a rule every child of a derived entry is a stored
  // entry in every table (a move flips the side to move; a swap flips both colours), so the 1-ply
  // search of a derived DTHM never recurses into another derived one.
  {
    double free_choice = 0;
    for (std::size_t t = 0; t < 2; ++t) free_choice += std::min(least(order_bytes, t), least(order_bytes, 2 + t));
    const double mater = least(order_bytes, 1) + least(order_bytes, 2);
    const double mated = least(order_bytes, 0) + least(order_bytes, 3);
    std::printf("dthm-only free %.4f bits/entry = %.3f of the file's setting (stored side chosen per target)\n",
                8 * free_choice / sampled, free_choice / as_stored);
    std::printf("dthm-only mater-to-move %.4f bits/entry = %.3f of the file's setting (arrays 1 and 2)\n",
                8 * mater / sampled, mater / as_stored);
    std::printf("dthm-only mated-to-move %.4f bits/entry = %.3f of the file's setting (arrays 0 and 3)\n",
                8 * mated / sampled, mated / as_stored);
  }
  ZSTD_freeCCtx(cc);
  // Context models, natural order; arrays coded 0, 1, 2, 3 (docs/format.md section 3).
  const std::vector<std::string> names{"none", "L", "L,U", "O", "L,U,O", "L,O,O2"};
  // Contexts per model (none, L, L+U, O, L+U+O, L+O+O2); 1 KiB of counts per context.
  const std::vector<std::size_t> contexts{
      1, kQ, std::size_t{kQ} * kQ, kQ, std::size_t{kQ} * kQ * kQ, std::size_t{kQ} * kQ * kQ};
  std::vector<Model> models;
  for (std::size_t j = 0; j < names.size() * kNumArrays; ++j) models.emplace_back(contexts[j % names.size()]);
  const std::size_t w = range[2];
  for (std::size_t s = 0; s < n / slot; s += step)
    for (std::size_t i = s * slot; i < (s + 1) * slot; ++i)
      for (std::size_t k = 0; k < kNumArrays; ++k) {
        const int v = a[k][i];
        if (v == 255) continue;  // invalid entries are known from the index: not coded
        const std::size_t L = i % w ? quantised(a[k][i - 1]) : 43;
        const std::size_t U = i % (w * range[1]) >= w ? quantised(a[k][i - w]) : 43;
        const std::size_t O = k == 0 ? 43 : quantised(a[k == 3 ? 1 : 0][i]);
        const std::size_t O2 = k == 3 ? quantised(a[2][i]) : k == 2 ? quantised(a[1][i]) : 43;
        const int sym = v == 253 ? 251 : v;
        Model* m = &models[k * names.size()];
        m[0].code(0, sym);
        m[1].code(L, sym);
        m[2].code(L * kQ + U, sym);
        m[3].code(O, sym);
        m[4].code((L * kQ + U) * kQ + O, sym);
        m[5].code((L * kQ + O) * kQ + O2, sym);
      }
  for (std::size_t j = 0; j < names.size(); ++j) {
    double bits = 0;
    for (std::size_t k = 0; k < kNumArrays; ++k) bits += models[k * names.size() + j].bits;
    std::printf("cm %-8s %.4f bits/entry (valid entries coded, invalid free)\n", names[j].c_str(), bits / sampled);
  }
  return 0;
}
