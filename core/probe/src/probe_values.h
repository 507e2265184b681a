// Values of a position as the lookup side computes them (internal to core/): the byte codes of
// both targets and the one arithmetic step on them, shared by tablebase.cpp and castling_search.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "deadpos/result.h"
#include "deadpos/table.h"
#include "deadpos/types.h"

namespace deadpos::internal {

using Values = ByColor<std::uint8_t>;  // DthmCode bytes, indexed by the side to be mated

inline constexpr std::uint8_t kNone = DthmCode::kNone;

// v + k plies, or none. Errors: CorruptTable when the sum passes the format's 250-ply code limit
// (docs/format.md section 3): real tables stay far below it (the longest DTHM of the <= 5-man set
// is under 60), so only a crafted file with valid checksums gets here, and it gets no answer.
inline Result<std::uint8_t> plus(std::uint8_t v, int k) {
  if (v > DthmCode::kMaxDthm) return kNone;
  if (v + k > DthmCode::kMaxDthm) {
    return make_error(ErrorCode::CorruptTable, "a table holds DTHM " + std::to_string(v) + ", and " +
                                                   std::to_string(v + k) + " plies exceed the format's limit of " +
                                                   std::to_string(DthmCode::kMaxDthm));
  }
  return static_cast<std::uint8_t>(v + k);
}

}  // namespace deadpos::internal
