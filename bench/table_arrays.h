// The four arrays of a table file, for the bench programs that study a whole table
// (one_sided.cpp, table_coding.cpp, derive_probe.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "deadpos/table.h"

namespace deadpos::bench {

using TableArrays = Sides<std::vector<std::uint8_t>>;

// Every array of f as TableFile::read_array gives it (index order, invalid entries 255); on an
// error, prints "PROGRAM: message" on standard error and returns nullopt.
inline std::optional<TableArrays> read_arrays(const TableFile& f, const char* program) {
  TableArrays a;
  for (std::size_t k = 0; k < kNumArrays; ++k) {
    auto r = f.read_array(static_cast<int>(k));
    if (!r) {
      std::fprintf(stderr, "%s: %s\n", program, r.error().message.c_str());
      return std::nullopt;
    }
    a[k] = std::move(*r);
  }
  return a;
}

}  // namespace deadpos::bench
