// Helpers shared by the probe tests (tests/test_probe_*.cpp): the tables under test and the replay
// of a certificate line, with the names of tests/support that they use (the tables directory,
// random legal positions of a material, the forward-search oracle, the sampling rule).
//
// The tables come from the directory in the environment variable DEADPOS_TABLES (ctest sets it to
// the "tables4" fixture's output). Missing tables are a failure, never a skip: a suite that skips
// everything when the fixture broke would pass without testing anything.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/material.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/tablebase.h"
#include "support/forward_search.h"
#include "support/random_position.h"
#include "support/tables_dir.h"
#include "test_util.h"

namespace deadpos::probe_test {

using ::deadpos::test::forward_mates;
using ::deadpos::test::ForwardMates;
using ::deadpos::test::join;
using ::deadpos::test::legal_uci;
using ::deadpos::test::position_from;
using ::deadpos::test::random_position;
using ::deadpos::test::rules_key;
using ::deadpos::test::tables_dir;

// The shared Tablebase over DEADPOS_TABLES, opened once per process; nullptr (and *why set) when
// the variable is unset, the directory cannot be listed or holds no table.
inline const Tablebase* shared_tables(std::string* why = nullptr) {
  static std::string error;
  static const std::optional<Tablebase> tb = []() -> std::optional<Tablebase> {
    const std::optional<std::string> set = ::deadpos::test::tables_dir_if_set();
    if (!set) {
      error = "DEADPOS_TABLES is not set (run through ctest, or point it at 'deadpos generate --max-men 4' output)";
      return std::nullopt;
    }
    const std::string& dir = *set;
    auto r = Tablebase::open({dir});
    if (!r) {
      error = "cannot open tables in " + dir + ": " + r.error().message;
      return std::nullopt;
    }
    if (r->max_men() == 0) {
      error = "no tables (*.dpt) in " + dir;
      return std::nullopt;
    }
    return std::move(*r);
  }();
  if (why) *why = error;
  return tb ? &*tb : nullptr;
}

// Use as: const Tablebase* tb; ASSERT_TABLES(tb);  Fails the test (never skips) without tables.
#define ASSERT_TABLES(tb)                                    \
  std::string tables_error_;                                 \
  tb = ::deadpos::probe_test::shared_tables(&tables_error_); \
  ASSERT_NE(tb, nullptr) << tables_error_

// Largest n such that the tables hold every material of up to n men (all_materials(n)): a
// directory may hold a few larger tables (KRBvKR) without the rest of their size.
inline int complete_men(const Tablebase& tb) {
  const std::vector<std::string> have = tb.materials();
  int n = 1;
  while (n < tb.max_men()) {
    bool all = true;
    for (const Material& m : all_materials(n + 1))
      if (std::find(have.begin(), have.end(), m.key()) == have.end()) all = false;
    if (!all) break;
    ++n;
  }
  return n;
}

// Every material with 2..max_men men in both orientations (KRvKN and KNvKR).
inline std::vector<Material> materials_both_ways(int max_men) {
  std::vector<Material> out;
  for (const Material& m : all_materials(max_men)) {
    out.push_back(m);
    if (!m.is_symmetric()) out.push_back(m.swapped());
  }
  return out;
}

// Replays `line` from pos with legality checked at every ply; returns "" when it is a helpmate of
// `mated` in exactly `plies` plies, else a description of the first problem.
inline std::string check_helpmate_line(const Position& pos, Color mated, const std::vector<Move>& line, int plies) {
  Position p = pos;
  if (static_cast<int>(line.size()) != plies) {
    return "line has " + std::to_string(line.size()) + " plies, DTHM is " + std::to_string(plies);
  }
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!p.legal_moves().contains(line[i])) {
      return "ply " + std::to_string(i + 1) + ": " + to_uci(line[i]) + " is not legal in " + p.to_fen();
    }
    p.make_move(line[i]);
  }
  if (!p.is_checkmate()) return "the line ends in " + p.to_fen() + ", not a checkmate";
  if (p.side_to_move() != mated) return "the line ends in a checkmate of the wrong side: " + p.to_fen();
  return "";
}

inline std::string dthm_text(const std::optional<int>& d) { return d ? std::to_string(*d) : std::string("none"); }

}  // namespace deadpos::probe_test
