// Frontier masks of the solver's levels (frontier.h).
#include "frontier.h"

#include <array>
#include <bit>

namespace deadpos::internal {

namespace {

// Transposes a 64x64 bit matrix: bit j of word i <-> bit i of word j.
inline void transpose64(std::array<std::uint64_t, 64>& a) {
  std::uint64_t m = 0x00000000FFFFFFFFULL;
  for (int j = 32; j != 0; j >>= 1, m ^= (m << j)) {
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const std::uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}

}  // namespace

void transpose_frontier(const RowGeometry& geo, const Frontier& fr, std::vector<std::uint64_t>& out) {
  const int a = geo.last() - 1;
  const int base = geo.field_base(a);
  const int range = geo.field_range(a);
  const auto groups = static_cast<std::int64_t>(geo.rows() / static_cast<std::uint64_t>(range));
  const std::uint64_t* f = fr.f.data();
  std::uint64_t* t = out.data();
#pragma omp parallel for schedule(static, 256)
  for (std::int64_t g = 0; g < groups; ++g) {
    const std::uint64_t r0 = static_cast<std::uint64_t>(g) * static_cast<std::uint64_t>(range);
    for (std::uint64_t x = 0; x < 2; ++x) {
      std::array<std::uint64_t, 64> m{};
      for (int k = 0; k < range; ++k)
        m[static_cast<std::size_t>(k + base)] = f[2 * (r0 + static_cast<std::uint64_t>(k)) + x];
      transpose64(m);
      for (int k = 0; k < range; ++k)
        t[2 * (r0 + static_cast<std::uint64_t>(k)) + x] = m[static_cast<std::size_t>(k + base)];
    }
  }
}

void scan_frontier(const RowGeometry& geo, const ByColor<const std::uint8_t*>& a, int d, Frontier& out) {
  const std::uint8_t* cw = a[Color::White];
  const std::uint8_t* cb = a[Color::Black];
  const int len = geo.row_len();
  const int base = geo.row_base();
  const auto v = static_cast<std::uint8_t>(d);
  const auto rows = static_cast<std::int64_t>(geo.rows());
  std::uint64_t entries = 0;
  std::uint64_t any_w = 0;
  std::uint64_t any_b = 0;
  std::uint64_t* f = out.f.data();
#pragma omp parallel for schedule(static, 4096) reduction(+ : entries) reduction(| : any_w, any_b)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::uint64_t off = static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(len);
    const std::uint64_t w = bytes_equal(cw + off, len, v) << base;
    const std::uint64_t b = bytes_equal(cb + off, len, v) << base;
    f[2 * r] = w;
    f[2 * r + 1] = b;
    any_w |= w;
    any_b |= b;
    entries += static_cast<std::uint64_t>(std::popcount(w | b));
  }
  out.entries = entries;
  out.any[Color::White] = any_w != 0;
  out.any[Color::Black] = any_b != 0;
}

}  // namespace deadpos::internal
