// Frontier masks of the solver's levels (docs/design.md, "Solver"), internal to generator/.
//
// The frontier of one side to move at level d is one 64-bit mask per row (rows.h) and target:
// bit sq of mask (row, x) is set when the entry of that row with the last man on sq has
// DTHM_x == d. The pull pass (pull.h) reads them instead of the table bytes.
#pragma once

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <cstdint>
#include <vector>

#include "deadpos/table.h"
#include "deadpos/types.h"
#include "rows.h"

namespace deadpos::internal {

// Masks of the row bytes (len 64 or 48 at p): == v, and open for value v (> v, neither kNone
// nor kInvalid). Bit k is byte k (the caller shifts by the row base).
#if defined(__SSE2__)
inline std::uint64_t bytes_equal(const std::uint8_t* p, int len, std::uint8_t v) {
  const __m128i x = _mm_set1_epi8(static_cast<char>(v));
  std::uint64_t m = 0;
  for (int k = 0; k < len; k += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    m |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, x)))) << k;
  }
  return m;
}
inline void row_masks(const std::uint8_t* p, int len, std::uint8_t v, std::uint64_t& eq, std::uint64_t& open) {
  const __m128i x = _mm_set1_epi8(static_cast<char>(v));
  const __m128i above = _mm_set1_epi8(static_cast<char>(v + 1));
  const __m128i none = _mm_set1_epi8(static_cast<char>(DthmCode::kNone));
  const __m128i invalid = _mm_set1_epi8(static_cast<char>(DthmCode::kInvalid));
  eq = open = 0;
  for (int k = 0; k < len; k += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    const __m128i ge = _mm_cmpeq_epi8(_mm_max_epu8(b, above), b);
    const __m128i special = _mm_or_si128(_mm_cmpeq_epi8(b, none), _mm_cmpeq_epi8(b, invalid));
    open |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_andnot_si128(special, ge))))
            << k;
    eq |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, x)))) << k;
  }
}
#else
inline std::uint64_t bytes_equal(const std::uint8_t* p, int len, std::uint8_t v) {
  std::uint64_t m = 0;
  for (int k = 0; k < len; ++k) m |= static_cast<std::uint64_t>(p[k] == v) << k;
  return m;
}
inline void row_masks(const std::uint8_t* p, int len, std::uint8_t v, std::uint64_t& eq, std::uint64_t& open) {
  eq = open = 0;
  for (int k = 0; k < len; ++k) {
    eq |= static_cast<std::uint64_t>(p[k] == v) << k;
    open |= static_cast<std::uint64_t>(p[k] > v && p[k] != DthmCode::kNone && p[k] != DthmCode::kInvalid) << k;
  }
}
#endif

// Frontier masks of one side for one level: mask(row)[x] has the entries with DTHM_x == d, and
// what the termination test needs.
struct Frontier {
  std::vector<std::uint64_t> f;  // f[2 * row + x] (x: 0 White, 1 Black)
  std::uint64_t entries = 0;     // entries with value d for either target
  ByColor<bool> any{};           // some entry with DTHM_x == d

  ByColor<std::uint64_t> mask(std::uint64_t row) const { return {{f[2 * row], f[2 * row + 1]}}; }
  void set(std::uint64_t row, const ByColor<std::uint64_t>& m) {
    f[2 * row] = m[Color::White];
    f[2 * row + 1] = m[Color::Black];
  }
};

// Frontier masks of side s (arrays a[target]) at level d by a scan of every row: level 0, and a
// level whose pull was skipped (no frontier on the other side). OpenMP inside.
void scan_frontier(const RowGeometry& geo, const ByColor<const std::uint8_t*>& a, int d, Frontier& out);

// The transposed masks of a twin table's frontier (Level::t in level.h). OpenMP inside.
void transpose_frontier(const RowGeometry& geo, const Frontier& fr, std::vector<std::uint64_t>& out);

}  // namespace deadpos::internal
