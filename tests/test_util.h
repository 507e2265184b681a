// Small helpers shared by the test files: FEN parsing that fails loudly and move lists as sets of
// UCI strings (so a failing comparison prints readable moves, not raw 16-bit codes). The sampling
// rule of slow builds (test::slow_build, test::sample_size) comes with it from tests/support.
#pragma once

#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "support/sampling.h"  // slow_build(), sample_size()

namespace deadpos::test {

// Parses a FEN that the test expects to be valid. Throws (which gtest reports as a failure of the
// running test, with the message) instead of returning a half-made position.
inline Position position_from(std::string_view fen) {
  Result<Position> r = Position::from_fen(fen);
  if (!r) throw std::runtime_error("test FEN rejected: '" + std::string(fen) + "': " + r.error().message);
  return std::move(r).value();
}

// All legal moves of pos as UCI strings, ordered.
inline std::set<std::string> legal_uci(const Position& pos) {
  std::set<std::string> out;
  for (Move m : pos.legal_moves()) out.insert(to_uci(m));
  return out;
}

// Space-separated list of a set of strings, for failure messages.
inline std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) {
    if (!out.empty()) out += ' ';
    out += x;
  }
  return out;
}

}  // namespace deadpos::test
