// Helpers shared by the probe tests (tests/test_probe_*.cpp): the tables under test, random legal
// positions of a material, an independent forward search for shortest helpmates, and the replay
// of a certificate line.
//
// The tables come from the directory in the environment variable DEADPOS_TABLES (ctest sets it to
// the "tables4" fixture's output). Missing tables are a failure, never a skip: a suite that skips
// everything when the fixture broke would pass without testing anything.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/tablebase.h"
#include "test_util.h"

namespace deadpos::probe_test {

using ::deadpos::test::join;
using ::deadpos::test::legal_uci;
using ::deadpos::test::position_from;

// Sample sizes of the random tests are divided by this in builds with assertions (Debug and the
// sanitizer build run the suite 10-20 times slower); Release runs the full samples.
#ifdef NDEBUG
inline constexpr int kSampleDivisor = 1;
#else
inline constexpr int kSampleDivisor = 5;
#endif

// Directory of the tables under test; empty if DEADPOS_TABLES is unset.
inline std::string tables_dir() {
  const char* d = std::getenv("DEADPOS_TABLES");
  return d ? std::string(d) : std::string();
}

// The shared Tablebase over DEADPOS_TABLES, opened once per process; nullptr (and *why set) when
// the variable is unset, the directory cannot be listed or holds no table.
inline const Tablebase* shared_tables(std::string* why = nullptr) {
  static std::string error;
  static const std::optional<Tablebase> tb = []() -> std::optional<Tablebase> {
    const std::string dir = tables_dir();
    if (dir.empty()) {
      error = "DEADPOS_TABLES is not set (run through ctest, or point it at 'deadpos generate --max-men 4' output)";
      return std::nullopt;
    }
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

// Random legal table position (no castling, no en passant right) of the material `key`, e.g. "KRvKN".
inline Position random_position(const Material& m, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> sq(0, 63);
  for (;;) {
    Placement pl;
    bool ok = true;
    for (Color c : {Color::White, Color::Black}) {
      for (PieceType pt : kMaterialOrder) {
        for (int k = 0; k < m.count[c][pt] && ok; ++k) {
          int tries = 0;
          for (;;) {
            const Square s = square_at(sq(rng));
            const bool back_rank = rank_of(s) == Rank::R1 || rank_of(s) == Rank::R8;
            if (pl[s] == kNoPiece && !(pt == PieceType::Pawn && back_rank)) {
              pl[s] = make_piece(c, pt);
              break;
            }
            if (++tries > 1000) {
              ok = false;
              break;
            }
          }
        }
      }
    }
    pl.side_to_move = (rng() & 1) ? Color::White : Color::Black;
    if (!ok || Position::check_placement(pl)) continue;
    auto p = Position::from_placement(pl);
    if (p) return std::move(*p);
  }
}

inline Position random_position(std::string_view key, std::mt19937_64& rng) {
  auto m = Material::parse(key);
  if (!m) throw std::runtime_error("test material rejected: " + m.error().message);
  return random_position(*m, rng);
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

// Identity of a position for the rules of play: board, side to move, castling rights, en passant
// square (the counters are irrelevant to which moves are legal).
inline std::string rules_key(const Position& p) {
  std::string k(67, '\0');
  for (int i = 0; i < 64; ++i) k[static_cast<std::size_t>(i)] = static_cast<char>(p.piece_on(square_at(i)));
  k[64] = static_cast<char>(p.side_to_move());
  k[65] = static_cast<char>(p.castling_rights());
  k[66] = static_cast<char>(p.en_passant() ? to_index(*p.en_passant()) : 64);
  return k;
}

// Independent oracle: breadth-first search over legal moves from root (Position::legal_moves and
// make_move only, no table) for the shortest sequence ending in checkmate of each side, up to
// max_plies plies or max_nodes distinct positions. Positions are merged by rules_key, which is
// exact: the moves available, and so every continuation, depend on nothing else.
struct ForwardMates {
  ByColor<std::optional<int>> plies;  // shortest mate of X found, if any within the limits
  int searched_plies = 0;             // every sequence of up to this many plies was examined
  std::size_t nodes = 0;
};

inline ForwardMates forward_mates(const Position& root, int max_plies, std::size_t max_nodes = 3'000'000) {
  ForwardMates out;
  std::unordered_set<std::string> seen{rules_key(root)};
  std::vector<Position> layer{root};
  for (int d = 0;; ++d) {
    // Every position at distance d is in `layer`: record mates, then expand.
    for (const Position& p : layer) {
      if (p.is_checkmate() && !out.plies[p.side_to_move()]) out.plies[p.side_to_move()] = d;
    }
    out.searched_plies = d;
    if ((out.plies[Color::White] && out.plies[Color::Black]) || d == max_plies) break;
    std::vector<Position> next;
    for (const Position& p : layer) {
      for (Move m : p.legal_moves()) {
        Position q = p.after(m);
        if (seen.insert(rules_key(q)).second) next.push_back(std::move(q));
      }
    }
    out.nodes = seen.size();
    if (next.empty() || seen.size() > max_nodes) {
      // Nothing new: the search is complete (every continuation was seen), or over budget.
      if (next.empty()) out.searched_plies = max_plies;
      break;
    }
    layer = std::move(next);
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
