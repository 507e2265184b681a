// Retrograde helpmate solver: the driver (docs/design.md, "Solver").
//
// State: one byte per index value per (side to move, side to be mated), codes of DthmCode. The
// stages, each in its own file:
//  1. init (init_row.h, with the exits of exits.h): one forward pass over the domain marks
//     broken and illegal entries kInvalid, checkmates 0 (for the mated side), other terminals
//     kNone, and seeds every other position with its best exit into a subtable.
//  2. levels d = 0, 1, ...: every predecessor (position one quiet move before) of a position whose
//     value is d gets d + 1 if its value is larger. This is a shortest-path search with integer
//     buckets, so every value is final when its level is expanded. Per level and side to move, the
//     pull (pull.h) relaxes the bulk of the edges row by row into the predecessors, and the push
//     (push.h) the edges pushed_edge() (level.h) leaves to it, by un-moves per entry. The frontier
//     of a level is a mask per row (frontier.h), written by the previous level's pull.
//  3. kUnknown -> kNone.
// The edges of the pull and the push together are exactly the un-moves of the per-entry solver
// (asserted level by level in debug builds: every update has an edge to level d, and every
// predecessor of every level-d position ends at most at d + 1), so the values are the same.
#include "deadpos/solver.h"

#include <algorithm>

#include "exits.h"
#include "frontier.h"
#include "init_row.h"
#include "level.h"
#include "pull.h"
#include "push.h"
#include "rows.h"

namespace deadpos {

namespace {

using internal::Frontier;
using internal::Level;
using internal::PushMode;
using internal::RowGeometry;

// The search state between levels: frontier[s][d & 1] is the frontier of side s at level d
// (written during level d - 1 by the other side's pull); twins holds Level::t.
struct Search {
  std::array<std::array<Frontier, 2>, 2> frontier;
  std::vector<std::uint64_t> twins;
  std::array<Frontier, 2>& of(Color s) { return frontier[static_cast<std::size_t>(to_index(s))]; }
};

// Stage 2 for one level d and side s to move in P. Returns the entries expanded.
std::uint64_t run_level(LoadedTable& t, const RowGeometry& geo, Search& st, int d, Color s) {
  const TableIndex& idx = t.index;
  auto arr = [&](Color stm, Color x) { return t.arrays(stm, x).data(); };
  Level l{
      idx, geo, d, s, {{arr(s, Color::White), arr(s, Color::Black)}}, {{arr(~s, Color::White), arr(~s, Color::Black)}}};
  std::uint64_t expanded = 0;
  if (geo.has_rows()) {
    const auto cur = static_cast<std::size_t>(d & 1);
    l.f = &st.of(s)[cur];
    l.f_next = &st.of(~s)[cur ^ 1];
    expanded = l.f->entries;
    if (!l.f->any[Color::White] && !l.f->any[Color::Black]) {
      internal::scan_frontier(geo, {{l.q[Color::White], l.q[Color::Black]}}, d + 1, *l.f_next);
      return expanded;
    }
    if (geo.last_pair()) {
      internal::transpose_frontier(geo, *l.f, st.twins);
      l.t = st.twins.data();
    }
    std::uint64_t entries = 0;
    bool any_w = false;
    bool any_b = false;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : entries) reduction(|| : any_w, any_b)
    for (int slot = 0; slot < geo.slots(); ++slot) {
      const internal::PullCount c = internal::PullSlot(l, slot).run();
      entries += c.entries;
      any_w = any_w || c.any[Color::White];
      any_b = any_b || c.any[Color::Black];
    }
    l.f_next->entries = entries;
    l.f_next->any = {{any_w, any_b}};
  } else {
    for (std::uint64_t i = 0; i < idx.size(); ++i)
      expanded += (l.p[Color::White][i] == d || l.p[Color::Black][i] == d) ? 1 : 0;
  }
  // The push: the edges the pull leaves out, and their entries added to the next frontier.
  // Without such edges there is nothing to push (no parallel region: each costs a barrier, which
  // is dear on a loaded machine).
  const PushMode mode = geo.has_rows() ? PushMode::kSpecial : PushMode::kAll;
  const bool any_push = !geo.has_rows() || internal::level_has_pushed_edges(geo, idx.has_pawns(), d);
  std::uint64_t stored = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : stored) if (any_push)
  for (int slot = 0; slot < (any_push ? geo.slots() : 0); ++slot) stored += internal::push_slot(l, slot, mode);
  if (stored && l.f_next) {
    // Only zero matters for the count (an entry stored for both targets counts twice), and the
    // flags only let the pull skip work.
    l.f_next->entries += stored;
    l.f_next->any = {{true, true}};
  }
#ifndef NDEBUG
#pragma omp parallel for schedule(dynamic, 1)
  for (int slot = 0; slot < geo.slots(); ++slot) internal::push_slot(l, slot, PushMode::kCheck);
#endif
  return expanded;
}

}  // namespace

Result<LoadedTable> solve(const Material& m, const TableSet& subtables, const ProgressFn& progress) {
  auto index_r = TableIndex::make(m);
  if (!index_r) return index_r.error();
  LoadedTable out;
  out.index = *index_r;
  const TableIndex& idx = out.index;
  const std::uint64_t n = idx.size();
  for (auto& a : out.arrays) {
    try {
      a.assign(n, DthmCode::kUnknown);
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::OutOfMemory, m.key() + ": cannot allocate " + std::to_string(n * 4) + " bytes");
    }
  }
  for (const Material& s : m.successors()) {
    if (!subtables.find(s))
      return make_error(ErrorCode::MissingTable, "subtable " + s.key() + " of " + m.key() + " is not loaded");
  }
  const std::string key = m.key();
  auto report = [&](Phase phase, double f) {
    if (progress) progress(Progress{key, phase, f});
  };

  // Stage 1: init, seeded with the exits.
  const RowGeometry geo(idx);
  const internal::Exits exits(idx, subtables);
  const int max_seed = internal::init_pass(out, geo, exits, subtables, [&](double f) { report(Phase::Init, f); });
  report(Phase::Init, 1.0);

  // Stage 2: the levels.
  Search st;
  if (geo.has_rows()) {
    try {
      for (Color s : {Color::White, Color::Black})
        for (Frontier& fr : st.of(s)) fr.f.resize(2 * geo.rows());
      if (geo.last_pair()) st.twins.resize(2 * geo.rows());
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::OutOfMemory, m.key() + ": cannot allocate the frontier masks");
    }
    for (Color s : {Color::White, Color::Black}) {
      const ByColor<const std::uint8_t*> a{{out.arrays(s, Color::White).data(), out.arrays(s, Color::Black).data()}};
      internal::scan_frontier(geo, a, 0, st.of(s)[0]);
    }
  }
  bool finished = false;  // a level with nothing to expand was reached
  for (int d = 0; d < DthmCode::kMaxDthm; ++d) {
    std::uint64_t expanded = 0;
    for (Color s : {Color::White, Color::Black}) expanded += run_level(out, geo, st, d, s);
    report(Phase::Solve, std::min(1.0, static_cast<double>(d + 1) / 64.0));
    if (expanded == 0 && d >= max_seed) {
      finished = true;
      break;
    }
  }
  if (!finished) {
    // Values past the format's 250-ply limit would otherwise read as "none" (no helpmate): never
    // reached by <= 5 men (longest DTHM under 60), so this guards larger materials.
    return make_error(ErrorCode::InvalidArgument, m.key() + ": a DTHM exceeds the format's limit of " +
                                                      std::to_string(DthmCode::kMaxDthm) + " plies");
  }

  // Stage 3: what no level reached has no helpmate.
  for (auto& a : out.arrays) {
    std::uint8_t* p = a.data();
#pragma omp parallel for schedule(static)
    for (std::uint64_t i = 0; i < n; ++i)
      if (p[i] == DthmCode::kUnknown) p[i] = DthmCode::kNone;
  }
  report(Phase::Solve, 1.0);
  return out;
}

}  // namespace deadpos
