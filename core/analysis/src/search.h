// One question of the analysis, "can `mated` be checkmated from the root?", as one stage of the
// best-first search of search.cpp (internal to the analysis room; analyze.cpp runs the stages).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include <unistd.h>

#include "deadpos/analysis.h"
#include "deadpos/probe_door.h"
#include "rules.h"
#include "store.h"

namespace deadpos::internal {

// The root's table answer, shared by the stages and both questions of one analysis: computed once
// (the castling search of a root with rights can be the largest part of the work).
struct RootTable {
  bool done = false;
  std::optional<ProbeResult> answer;  // nullopt: beyond the tables (or castling search out of budget)
};

// One question: can `mated` be checkmated from the root?
class Search {
 public:
  // One stage of the search: at most opt.budget.nodes positions (0: no limit), the plies so far
  // weighing 1 / plies_divisor in the priority, the clock stopping at `deadline`. whole_nodes: the
  // caller's node budget (0: no limit), of which a stage may have only a part; the lines of table
  // answers get all of it (whole_budget()).
  Search(const Tablebase& tb, const AnalysisOptions& opt, Color mated, int plies_divisor,
         std::optional<std::chrono::steady_clock::time_point> deadline, std::uint64_t whole_nodes)
      : tb_(tb),
        opt_(opt),
        whole_nodes_(whole_nodes),
        mated_(mated),
        table_men_(std::min(opt.table_men, tb.max_men())),
        leaf_men_(std::min(table_men_, opt.leaf_table_men)),
        plies_divisor_(plies_divisor),
        deadline_(deadline) {
    // Never more than half the physical memory, whatever the caller asked: on Linux an allocation
    // past it does not fail but gets the process killed, which would be a crash, not an answer.
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) {
      opt_.budget.memory_bytes =
          std::min(opt_.budget.memory_bytes, static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page));
    }
  }

  ~Search() {
    if (nodes_.capacity() * sizeof(Node) > kKeepBytes) std::vector<Node>().swap(nodes_);
    if (slots_.size() * sizeof(std::uint64_t) > kKeepBytes) std::vector<std::uint64_t>().swap(slots_);
    if (spare_.size() * sizeof(std::uint64_t) > kKeepBytes) std::vector<std::uint64_t>().swap(spare_);
    std::size_t queued = 0;
    for (const auto& b : buckets_) queued += b.capacity();
    if (queued * sizeof(std::uint32_t) > kKeepBytes) std::vector<std::vector<std::uint32_t>>().swap(buckets_);
  }
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // Fills root_table (once) with the root's table answer, the castling search held to this
  // search's whole budget; running out of memory there leaves the root to the search.
  Status fill_root_table(const Position& root, RootTable& root_table);
  // Answers the question; root_table as filled by fill_root_table.
  Result<MateAnswer> run(const Position& root, bool want_line, const RootTable& root_table);
  std::uint64_t generated() const { return generated_; }

 private:
  static constexpr std::uint32_t kNoParent = 0xFFFFFFFFU;
  static constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};

  // The tables' answer for p, or nullopt when p has more than `men` men, its table is absent, or
  // its castling rights need a castling search larger than what is left of the budget: the search
  // then expands p like any other position, exactly. The positions a castling search stores count
  // as generated (AnalysisBudget::nodes).
  Result<std::optional<ProbeResult>> table_answer(const Position& p, int men) {
    if (p.men() > men) return std::optional<ProbeResult>{};
    CastlingLimits limits = left_for_castling();
    auto r = ProbeDoor::probe(tb_, p, limits);
    generated_ += limits.stored;
    if (!r) {
      if (r.error().code == ErrorCode::MissingTable || r.error().code == ErrorCode::TooManyMen ||
          limits.ran_out != BudgetKind::None) {
        return std::optional<ProbeResult>{};
      }
      return r.error();
    }
    return std::optional<ProbeResult>{std::move(*r)};
  }

  // The same question answered by the tables' verdicts alone (ProbeDoor::verdict: no DTHM byte
  // read where a verdict file is present), for the leaves of the search.
  Result<std::optional<Verdict>> table_verdict(const Position& p, int men) {
    if (p.men() > men) return std::optional<Verdict>{};
    CastlingLimits limits = left_for_castling();
    auto r = ProbeDoor::verdict(tb_, p, limits);
    generated_ += limits.stored;
    if (!r) {
      if (r.error().code == ErrorCode::MissingTable || r.error().code == ErrorCode::TooManyMen ||
          limits.ran_out != BudgetKind::None) {
        return std::optional<Verdict>{};
      }
      return r.error();
    }
    return std::optional<Verdict>{*r};
  }

  // What is left of the budget for a castling search now: the nodes not yet generated, the memory
  // the store does not hold, the deadline.
  CastlingLimits left_for_castling() const {
    CastlingLimits l;
    if (opt_.budget.nodes) l.nodes = opt_.budget.nodes > generated_ ? opt_.budget.nodes - generated_ : 1;
    const std::size_t held = store_bytes();
    l.memory_bytes = opt_.budget.memory_bytes > held ? opt_.budget.memory_bytes - held : 1;
    l.deadline = deadline_;
    return l;
  }
  // The caller's whole budget, without the clock: for re-reading a table answer already obtained
  // within it (the certificate's replay and its line), which the clock must not turn into an
  // error. Not the stage's nodes: the first stage's 200,000 ran out on the castling searches along
  // a KRRvKR line whose root the whole budget had answered.
  CastlingLimits whole_budget() const {
    CastlingLimits l;
    l.nodes = whole_nodes_;
    l.memory_bytes = opt_.budget.memory_bytes;
    return l;
  }

  // The store's bytes: nodes as allocated, the hash slots in use, a queue entry per node.
  std::size_t store_bytes() const {
    return nodes_.capacity() * sizeof(Node) + slot_count_ * sizeof(std::uint64_t) +
           nodes_.size() * sizeof(std::uint32_t);
  }

  // Heuristic distance to a checkmate of mated_ (smaller is closer; only orders the search).
  int estimate(const Position& p) const;

  // Inserts p if it is new: true when inserted. Open addressing over node ids.
  bool insert(const Key& k, std::uint64_t h, std::uint32_t id);
  void grow();

  // The moves from the root to node id, then `rest` (moves in node id's frame), on the real board.
  std::vector<Move> path_to(std::uint32_t id, const std::vector<Move>& rest) const;
  // A mate of mated_ found: the path to node `parent`, then `rest` (moves in its frame), then, when
  // table_dthm > 0, the table's line of that many plies from there (computed only if a line was
  // asked for); table_dthm kFromVerdict: the position there is in the tables, whose verdict says
  // mated_ can be mated, and its DTHM is read here. Replays what it returns.
  static constexpr int kFromVerdict = -1;
  Result<MateAnswer> found(const Position& root, std::uint32_t parent, const std::vector<Move>& rest, int table_dthm);

  bool out_of_budget(BudgetKind& why);

  const Tablebase& tb_;
  AnalysisOptions opt_;
  std::uint64_t whole_nodes_;  // see the constructor
  Color mated_;
  int table_men_;  // tables used for the root
  int leaf_men_;   // tables used inside the search
  int plies_divisor_;
  bool want_line_ = false;
  std::optional<std::chrono::steady_clock::time_point> deadline_;

  std::vector<Node>& nodes_ = scratch().nodes;
  // The hash table: slots_[0, slot_count_), each the hash tag << 32 | node id, kEmptySlot when free.
  // The vectors are kept between searches (Scratch): a table that doubles again in every search
  // would fault in fresh pages each time.
  std::vector<std::uint64_t>& slots_ = scratch().slots;
  std::vector<std::uint64_t>& spare_ = scratch().spare;
  std::size_t slot_count_ = 0;
  std::vector<std::vector<std::uint32_t>>& buckets_ = scratch().buckets;  // open nodes by priority (LIFO)
  std::uint64_t generated_ = 0;
  std::uint64_t checks_ = 0;  // calls of out_of_budget, for the clock
  RuleCache rule_cache_;
};

}  // namespace deadpos::internal
