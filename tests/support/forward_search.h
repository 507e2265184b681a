// The one forward-search oracle of the tests: breadth-first search over legal moves for the
// shortest sequence of moves (with both sides cooperating) that ends in a checkmate of each side.
//
// Independent of the code it checks: it uses only core/ Position (legal_moves, make/undo,
// has_legal_move, in_check) and the attack tables, never the solver, the analyzer, un-moves, the
// table index or a table. From a start position it visits positions level by level (level d =
// reachable in d plies, each distinct position once) and records, for each side X, the first
// level at which a checkmate of X appears: that is DTHM_X of the start (docs/design.md,
// "Definitions"). Positions without legal moves are not expanded (a mate or stalemate ends the game).
//
// Two ways to tell positions apart, as the Keys parameter of ForwardSearch:
//   ExactKeys     rules_key: board, side to move, castling rights, en passant square. Exact for
//                 any position (the counters do not change which moves are legal).
//   SymmetryKeys  symmetry_key: at most 4 men, no castling rights; positions equal up to a board
//                 symmetry are one (they have equal distances to every mate). Much faster.
// forward_mates() is the short form with exact keys that most tests use.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "deadpos/bitboard.h"
#include "deadpos/position.h"

namespace deadpos::test {

// Identity of a position for the rules of play: board, side to move, castling rights, en passant
// square (the counters are irrelevant to which moves are legal).
std::string rules_key(const Position& p);

// The board symmetries, with the verbs of types.h: bit 0 flip_diagonal (first), bit 1
// flip_horizontal, bit 2 flip_vertical. Without pawns (and without castling rights) all 8 map
// legal moves to legal moves, checks to checks and mates to mates, so symmetric positions have
// equal distances to every mate; with pawns only the left-right mirror (g = 2) does.
constexpr Square transformed(int g, Square s) {
  if (g & 1) s = flip_diagonal(s);
  if (g & 2) s = flip_horizontal(s);
  if (g & 4) s = flip_vertical(s);
  return s;
}

// Exact key of a position with at most 4 men and no castling rights up to the symmetries above
// (the counters are left out): the smallest, over the symmetries g that bring the White king into
// the triangle a1-d1-d4 (without pawns) or onto files a-d (with pawns: g = 0 or 2), of
//   bit 0      side to move
//   bits 1-7   en passant square of g(pos) + 1, 0 for none
//   bits 8-47  up to four 10-bit fields (square << 4 | piece) of g(pos), in increasing order
// Two positions get one key iff a symmetry maps one onto the other.
std::uint64_t symmetry_key(const Position& pos);

// Whether move m of pos may give check: false only if it provably does not (a superset of the
// checking moves).
bool may_give_check(const Position& pos, Move m);

// A side whose only man is its king can never give check: kings never stand next to each other,
// and without a pawn it gets no new man. So X can never be mated when X's opponent is bare.
inline bool bare_king(const Position& pos, Color c) { return popcount(pos.pieces(c)) == 1; }

// Visited set of 64-bit keys, open addressing (probing is the search's main cost: cache misses).
class FlatSet {
 public:
  explicit FlatSet(int log2_capacity) : bits_(log2_capacity), slots_(std::size_t{1} << log2_capacity, 0) {}
  // Starts loading the slot of k into the cache.
  void prefetch(std::uint64_t k) const { __builtin_prefetch(&slots_[home(k)]); }
  // Inserts k; false if it was present. Precondition: fewer than half the slots used.
  bool insert(std::uint64_t k);
  std::size_t size() const { return used_.size(); }
  std::size_t capacity() const { return slots_.size() / 2; }
  template <typename F>
  void for_each(F&& f) const {
    for (std::uint32_t i : used_) f(slots_[i] - 1);
  }
  void clear();

 private:
  std::size_t home(std::uint64_t k) const {
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ULL) >> (64 - bits_));
  }

  int bits_;
  std::vector<std::uint64_t> slots_;
  std::vector<std::uint32_t> used_;
};

struct SymmetryKeys {
  using Key = std::uint64_t;
  static Key key(const Position& p) { return symmetry_key(p); }
  // Room for max_nodes keys.
  class Set : public FlatSet {
   public:
    explicit Set(std::uint64_t max_nodes);
  };
};

struct ExactKeys {
  using Key = std::string;
  static Key key(const Position& p) { return rules_key(p); }
  class Set {
   public:
    explicit Set(std::uint64_t /*max_nodes*/) {}
    void prefetch(const Key&) const {}
    bool insert(const Key& k) { return keys_.insert(k).second; }
    std::size_t size() const { return keys_.size(); }
    std::size_t capacity() const { return SIZE_MAX / 2; }
    template <typename F>
    void for_each(F&& f) const {
      for (const Key& k : keys_) f(k);
    }
    void clear() { keys_.clear(); }

   private:
    std::unordered_set<Key> keys_;
  };
};

struct SearchResult {
  ByColor<int> first_mate{{-1, -1}};         // level of the first checkmate of X, -1 if none found
  ByColor<bool> impossible{{false, false}};  // X's opponent is a bare king at the start (prune on)
  int completed = 0;                         // every position at a level <= completed was examined
  bool exhausted = false;                    // the whole reachable set was examined
  std::uint64_t nodes = 0;                   // distinct positions visited
  ByColor<std::uint64_t> nodes_at_find{};    // nodes visited when the first mate of X was found
};

template <typename Keys>
struct SearchOptions {
  // Nodes after which the search stops looking for a mate of X.
  ByColor<std::uint64_t> budget{{1'000'000, 1'000'000}};
  // Positions known to lie in a mate-free set closed under legal moves (not entered again).
  const std::unordered_set<typename Keys::Key>* closed = nullptr;
  // A target X whose opponent is a bare king is given up at once (see bare_king), and a position
  // is not expanded when that holds for every target not found yet. Without pruning the search
  // examines every reachable position (until a budget or max_plies stops it).
  bool prune = false;
  // The level at which the caller expects the first mate of X (-1: unknown); see run().
  ByColor<int> horizon{{-1, -1}};
  // No level beyond this one is generated.
  int max_plies = INT_MAX;
  // Moves for which this returns true are left out of the search (null: none).
  bool (*skip)(const Position&, Move) = nullptr;
};

template <typename Keys>
class ForwardSearch {
 public:
  using Options = SearchOptions<Keys>;

  // Room for max_nodes distinct positions (the budgets must stay below it).
  explicit ForwardSearch(std::uint64_t max_nodes = 1'000'000) : seen_(max_nodes) {}

  // Searches from start. When every target still searched for expects its mate at the next level
  // (options.horizon), that level is examined without the visited set and only through the moves
  // that may give check (may_give_check; each child is still tested with in_check and
  // has_legal_move): only whether a child is a checkmate matters, and a mate there cannot have been
  // seen at a lower level, where it would have been found. This skips most of the largest level's
  // work and stays exact: every lower level is complete, so a mate found there is the first, and
  // no mate found there is reported as "completed that level, no mate". Nodes of that level count
  // the children made.
  SearchResult run(const Position& start, const Options& options);

  // The positions the last run visited.
  const typename Keys::Set& seen() const { return seen_; }

 private:
  typename Keys::Set seen_;
  std::vector<Position> frontier_, next_;
};

extern template class ForwardSearch<SymmetryKeys>;
extern template class ForwardSearch<ExactKeys>;

// Shortest helpmates of both sides from root within max_plies plies and max_nodes distinct
// positions (exact keys, no pruning): the short form of ForwardSearch<ExactKeys>.
struct ForwardMates {
  ByColor<std::optional<int>> plies;  // shortest mate of X found, if any within the limits
  int searched_plies = 0;             // every sequence of up to this many plies was examined (once
                                      // both mates are found: the level of the deeper one)
  std::size_t nodes = 0;              // distinct positions visited
};
ForwardMates forward_mates(const Position& root, int max_plies, std::size_t max_nodes = 3'000'000,
                           bool (*skip)(const Position&, Move) = nullptr);

}  // namespace deadpos::test
