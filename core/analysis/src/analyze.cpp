// The analysis's entry points (deadpos/analysis.h): each question in two stages of the search
// (search.h), both questions of a position sharing the root's table answer, and the FIDE 6.9
// verdict from them.
#include <chrono>
#include <new>

#include "deadpos/analysis.h"
#include "deadpos/probe_door.h"
#include "search.h"

namespace deadpos {

namespace {

using internal::RootTable;
using internal::Search;
using Deadline = std::optional<std::chrono::steady_clock::time_point>;

Deadline deadline_of(const AnalysisOptions& opt) {
  if (!opt.budget.time_ms) return std::nullopt;
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(opt.budget.time_ms);
}

// analyze_side() with its clock, and the root's table answer shared with the other question.
Result<MateAnswer> analyze_side(const Tablebase& tb, const Position& pos, Color mated, const AnalysisOptions& opt,
                                bool want_line, Deadline deadline, RootTable& root) {
  {
    Search s(tb, opt, mated, 1, deadline, opt.budget.nodes);
    if (Status st = s.fill_root_table(pos, root); !st) return st.error();
  }
  // One stage; running out of memory (std::bad_alloc, e.g. under ulimit -v) is undetermined too,
  // with the positions generated until then.
  auto stage = [&](const AnalysisOptions& o, int plies_divisor) -> Result<MateAnswer> {
    Search s(tb, o, mated, plies_divisor, deadline, opt.budget.nodes);
    try {
      return s.run(pos, want_line, root);
    } catch (const std::bad_alloc&) {
      MateAnswer a;
      a.mated = mated;
      a.method = Method::Undetermined;
      a.budget = BudgetKind::OutOfMemory;
      a.positions = s.generated();
      return a;
    }
  };
  // Two stages that differ only in the order of the queue: a greedy one over the first
  // kFirstStageNodes positions, then, if it ran out of them, a broader one with the rest of the
  // budget. Each order finds helpmates the other misses: of the 9 lichess 30k positions the greedy
  // order leaves undetermined with the <=4-man tables, the two stages leave 2; the broad order
  // alone searches twice the positions on the rest of the lichess positions and 3.6 times on the
  // 4-man oracle, where no question needs more than 200,000 positions with the greedy order.
  // Each stage is a complete search: either one running out of positions proves "cannot mate".
  constexpr std::uint64_t kFirstStageNodes = 200'000;
  AnalysisOptions first = opt;
  if (!opt.budget.nodes || opt.budget.nodes > kFirstStageNodes) first.budget.nodes = kFirstStageNodes;
  auto a = stage(first, 16);
  if (!a || a->method != Method::Undetermined || a->budget != BudgetKind::Nodes ||
      first.budget.nodes == opt.budget.nodes) {
    return a;
  }
  AnalysisOptions rest = opt;
  if (opt.budget.nodes) rest.budget.nodes = opt.budget.nodes - a->positions;
  const std::uint64_t used = a->positions;
  a = stage(rest, 1);
  if (a && a->method != Method::Exhausted) a->positions += used;
  return a;
}

}  // namespace

Result<MateAnswer> analyze_side(const Tablebase& tb, const Position& pos, Color mated, const AnalysisOptions& opt,
                                bool want_line) {
  RootTable root;
  return analyze_side(tb, pos, mated, opt, want_line, deadline_of(opt), root);
}

namespace {

// analyze() and analyze_flag(): the board, the warnings, then the questions, `first` first; the
// second is asked only when `ask_second(first answer)` holds, else it is Method::NotAsked. With
// one_clock both questions share one deadline (the second gets what the first left), else each
// has its own.
template <typename AskSecond>
Result<PositionAnalysis> analyze_in_order(const Tablebase& tb, const Position& pos, const AnalysisOptions& opt,
                                          bool want_lines, Color first, bool one_clock, AskSecond ask_second) {
  PositionAnalysis r;
  r.warnings = reachability_warnings(pos);
  if (!pos.has_legal_move()) {
    r.checkmate = pos.in_check();
    r.stalemate = !r.checkmate;
  }
  // The root's table answer (with its castling search, if any) is read once for both questions;
  // each question has its own clock.
  RootTable root;
  const Deadline shared = deadline_of(opt);
  for (Color x : {first, ~first}) {
    // A table answers both questions in one read (the root's table answer is shared), and the
    // board answers both of a checkmate or stalemate (no move to search): no saving, so both are
    // given (docs/cli.md, invariants 3 and 4, hold for flag answers too).
    const bool terminal = r.checkmate || r.stalemate;
    if (x != first && !terminal && r.mate[first].method != Method::Table && !ask_second(r.mate[first])) {
      r.mate[x].mated = x;
      r.mate[x].method = Method::NotAsked;
      continue;
    }
    auto a = analyze_side(tb, pos, x, opt, want_lines, one_clock ? shared : deadline_of(opt), root);
    if (!a) return a.error();
    r.mate[x] = std::move(*a);
  }
  if (r.mate[first].method == Method::Table) {
    // The table answer of the root: its material key and how castling / en passant were handled.
    const ProbeResult p = internal::ProbeDoor::describe(pos);
    r.table = p.table;
    r.castling_search = p.castling_search;
    r.en_passant = p.en_passant;
  }
  return r;
}

}  // namespace

Result<PositionAnalysis> analyze(const Tablebase& tb, const Position& pos, const AnalysisOptions& opt,
                                 bool want_lines) {
  return analyze_in_order(tb, pos, opt, want_lines, Color::White, false, [](const MateAnswer&) { return true; });
}

Result<PositionAnalysis> analyze_flag(const Tablebase& tb, const Position& pos, Color flagged,
                                      const AnalysisOptions& opt, bool want_line) {
  return analyze_in_order(tb, pos, opt, want_line, flagged, true,
                          [](const MateAnswer& m) { return m.can_mate() == false; });
}

Result<PositionAnalysis> analyze_dead(const Tablebase& tb, const Position& pos, const AnalysisOptions& opt) {
  return analyze_in_order(tb, pos, opt, false, Color::White, true,
                          [](const MateAnswer& m) { return m.can_mate() != true; });
}

FlagVerdict flag_verdict(const PositionAnalysis& a, Color side_to_move, Color flagged) {
  FlagVerdict v{};
  const auto opp = a.mate[flagged].can_mate();  // can the flagged side be mated?
  if (a.checkmate) {
    v.reason = FlagVerdict::Reason::Checkmate;
    v.result = side_to_move == Color::White ? "0-1" : "1-0";
  } else if (a.stalemate) {
    v.reason = FlagVerdict::Reason::Stalemate;
    v.result = "1/2-1/2";
  } else if (a.dead() == true) {
    v.reason = FlagVerdict::Reason::DeadPosition;
    v.result = "1/2-1/2";
  } else if (opp == false) {
    v.reason = FlagVerdict::Reason::OpponentCannotMate;
    v.result = "1/2-1/2";
  } else if (opp == true) {
    v.reason = FlagVerdict::Reason::OpponentCanMate;
    v.result = flagged == Color::White ? "0-1" : "1-0";
  } else {
    v.reason = FlagVerdict::Reason::Undetermined;
    v.result.clear();
  }
  return v;
}

}  // namespace deadpos
