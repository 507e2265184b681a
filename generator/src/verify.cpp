// Verification of tables (docs/design.md, "Verification") and the derivation of a side, both on
// the forward-values engine (forward_values.h): verify() compares the values it requires with the
// stored ones, slot by slot in parallel; derive_side() stores them. The directory driver,
// verify_tables(), is verify_tables.cpp.
#include <omp.h>

#include <atomic>
#include <new>

#include "common.h"
#include "deadpos/verify.h"
#include "forward_values.h"

namespace deadpos {

namespace {

// A mismatch, as found: the report line is written after the run.
struct Mismatch {
  std::uint64_t index;
  Color target;
  std::uint8_t got;
  std::uint8_t expected;
};
// The outcome of one (side to move, king-pair slot): all its mismatches counted, the first
// max_report kept (in index order, then White's target before Black's).
struct SlotOutcome {
  std::uint64_t mismatches = 0;
  std::vector<Mismatch> first;
};

// Compares the stored entries of king-pair slot kk, side to move us, with the values the engine
// requires of them (`expected`, the slot's two arrays of slot_entries() bytes, filled here).
void check_slot(const internal::ForwardValues& engine, const LoadedTable& t, Color us, int kk,
                const ByColor<std::uint8_t*>& expected, std::size_t max_report, SlotOutcome& out) {
  engine.slot_values(us, kk, expected);
  const std::uint64_t n = engine.slot_entries();
  const std::uint64_t base = static_cast<std::uint64_t>(kk) * n;
  const std::uint8_t* got_w = t.arrays(us, Color::White).data() + base;
  const std::uint8_t* got_b = t.arrays(us, Color::Black).data() + base;
  const std::uint8_t* exp_w = expected[Color::White];
  const std::uint8_t* exp_b = expected[Color::Black];
  for (std::uint64_t k = 0; k < n; ++k) {
    if (got_w[k] == exp_w[k] && got_b[k] == exp_b[k]) continue;
    for (Color x : {Color::White, Color::Black}) {
      const std::uint8_t g = x == Color::White ? got_w[k] : got_b[k];
      const std::uint8_t e = x == Color::White ? exp_w[k] : exp_b[k];
      if (g == e) continue;
      ++out.mismatches;
      if (out.first.size() < max_report) out.first.push_back(Mismatch{base + k, x, g, e});
    }
  }
}

}  // namespace

VerifyResult verify(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
                    std::size_t max_report) {
  const TableIndex& idx = t.index;
  const internal::ForwardValues engine(t, subtables);
  const int slots = engine.slots();
  const std::string key = idx.material().key();
  // outcome[s * slots + kk]: side to move s (0 White, 1 Black), king-pair slot kk.
  std::vector<SlotOutcome> outcome(static_cast<std::size_t>(2 * slots));
  // The values of one slot per thread (two arrays of slot_entries() bytes), allocated before the
  // parallel loop: a failed allocation is the caller's bad_alloc, not a terminate() inside it.
  const std::size_t per_slot = static_cast<std::size_t>(engine.slot_entries());
  std::vector<std::vector<std::uint8_t>> scratch(static_cast<std::size_t>(omp_get_max_threads()),
                                                 std::vector<std::uint8_t>(2 * per_slot));
  std::atomic<int> done{0};
#pragma omp parallel for schedule(dynamic, 1)
  for (int w = 0; w < 2 * slots; ++w) {
    std::uint8_t* buf = scratch[static_cast<std::size_t>(omp_get_thread_num())].data();
    check_slot(engine, t, w < slots ? Color::White : Color::Black, w % slots, {{buf, buf + per_slot}}, max_report,
               outcome[static_cast<std::size_t>(w)]);
    const int d = done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (progress && omp_get_thread_num() == 0 && (d & 15) == 0)
      progress(Progress{key, Phase::Verify, static_cast<double>(d) / static_cast<double>(2 * slots)});
  }
  if (progress) progress(Progress{key, Phase::Verify, 1.0});
  VerifyResult res;
  res.checked = 2 * idx.size();
  for (int w = 0; w < 2 * slots; ++w) {
    const SlotOutcome& o = outcome[static_cast<std::size_t>(w)];
    res.mismatches += o.mismatches;
    const Color stm = w < slots ? Color::White : Color::Black;
    for (const Mismatch& m : o.first) {
      if (res.report.size() >= max_report) break;
      std::string where = "(not a position)";
      TableIndex::Squares sq;
      if (m.expected != DthmCode::kInvalid && idx.decode(m.index, sq))
        where = internal::position_of(idx, sq, stm).to_fen();
      res.report.push_back(key + " index " + std::to_string(m.index) + " " + where + ": DTHM of " +
                           (m.target == Color::White ? "White" : "Black") + " is " + std::to_string(m.got) +
                           ", successors give " + std::to_string(m.expected));
    }
  }
  return res;
}

Status derive_side(LoadedTable& t, const TableSet& subtables, Color side, const ProgressFn& progress) {
  DEADPOS_CHECK(t.has_side(~side));
  const TableIndex& idx = t.index;
  ByColor<std::uint8_t*> out{};
  for (Color x : {Color::White, Color::Black}) {
    auto& a = t.arrays(side, x);
    try {
      a.resize(idx.size());
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::OutOfMemory, idx.material().key() + ": cannot allocate " +
                                                    std::to_string(2 * idx.size()) + " bytes for the derived side");
    }
    out[x] = a.data();
  }
  const internal::ForwardValues engine(t, subtables);
  const int slots = engine.slots();
  const std::string key = idx.material().key();
  std::atomic<int> done{0};
  // Slots write disjoint index ranges (kk * stride(0) ...), and the engine reads only the other
  // side's arrays: no two threads touch one byte.
#pragma omp parallel for schedule(dynamic, 1)
  for (int kk = 0; kk < slots; ++kk) {
    const std::uint64_t base = static_cast<std::uint64_t>(kk) * engine.slot_entries();
    engine.slot_values(side, kk, {{out[Color::White] + base, out[Color::Black] + base}});
    const int d = done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (progress && omp_get_thread_num() == 0 && (d & 15) == 0)
      progress(Progress{key, Phase::Verify, static_cast<double>(d) / static_cast<double>(slots)});
  }
  if (progress) progress(Progress{key, Phase::Verify, 1.0});
  return Ok{};
}

}  // namespace deadpos
