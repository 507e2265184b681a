// Reference verifier, one entry at a time (docs/design.md, "Verification"): the first verifier,
// kept as the test oracle of the fast one in verify.cpp (tests compare their mismatch counts and
// reports on damaged tables). Forward legal move generation only: core/ Position::legal_moves,
// no un-move code.
//
// For every index value and side to move it recomputes the value the entry must have:
//   kInvalid  iff the index value is broken or the placement is not legal (Position::check_placement)
//   0         iff the side to move is checkmated and it is the target side
//   kNone     for any other position without legal moves
//   min over legal moves m of 1 + V(position after m), else
// where V reads this table or a subtable, and gives a double push that allows an en passant
// capture the value of the position *with* the en passant right:
//   min(table value if that position has a legal move without the capture, 1 + value after each
//   en passant capture).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <mutex>

#include "common.h"
#include "deadpos/verify.h"
#include "en_passant_rule.h"

namespace deadpos {

namespace {

constexpr std::uint64_t kChunk = 1U << 14;

// Values of both targets: v[x] is the byte code of DTHM of x.
using Values = ByColor<int>;

struct Lookup {
  const LoadedTable& self;
  const TableSet& subs;

  // Both targets' values of a position without an en passant right, from one index computation.
  Values table_values(const Position& pos) const {
    const Material m = Material::of(pos);
    const LoadedTable* t = m == self.index.material() ? &self : subs.find(m);
    if (t != nullptr) {
      DEADPOS_CHECK(t->has_side(pos.side_to_move()));  // a subtable holds the sides its parent enters
      const std::uint64_t i = t->index.encode(t->index.squares_of(pos));
      return Values{{t->arrays(pos.side_to_move(), Color::White)[i], t->arrays(pos.side_to_move(), Color::Black)[i]}};
    }
    // The swapped material's table: colours swapped, so the target swaps too.
    const Position sw = pos.color_swapped();
    t = subs.find(m.swapped());
    DEADPOS_CHECK(t != nullptr);
    DEADPOS_CHECK(t->has_side(sw.side_to_move()));
    const std::uint64_t i = t->index.encode(t->index.squares_of(sw));
    return Values{{t->arrays(sw.side_to_move(), Color::Black)[i], t->arrays(sw.side_to_move(), Color::White)[i]}};
  }

  // Values of the position reached by a move, honouring an en passant right it may carry.
  Values values_after(const Position& after) const {
    return internal::values_honouring_en_passant(after, [this](const Position& p) { return table_values(p); });
  }
};

}  // namespace

VerifyResult verify_reference(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
                              std::size_t max_report) {
  VerifyResult res;
  const TableIndex& idx = t.index;
  const std::uint64_t n = idx.size();
  const std::uint64_t chunks = (n + kChunk - 1) / kChunk;
  const Lookup look{t, subtables};
  std::mutex mu;
  std::atomic<std::uint64_t> done{0};
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;
  const std::string key = idx.material().key();
  for (Color stm : {Color::White, Color::Black}) {
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : checked, mismatches)
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const std::uint64_t end = std::min(n, (c + 1) * kChunk);
      TableIndex::Squares sq;
      for (std::uint64_t i = c * kChunk; i < end; ++i) {
        ByColor<int> expect{{DthmCode::kInvalid, DthmCode::kInvalid}};
        std::optional<Position> pos;  // set for a legal placement (its FEN goes into a report)
        if (idx.decode(i, sq)) {
          pos = internal::position_of(idx, sq, stm);
          if (Position::check_placement(pos->placement())) {
            pos.reset();
          } else {
            const MoveList moves = pos->legal_moves();
            if (moves.empty()) {
              const bool mate = pos->in_check();
              for (Color x : {Color::White, Color::Black}) expect[x] = (mate && x == stm) ? 0 : DthmCode::kNone;
            } else {
              Values best{{DthmCode::kUnknown, DthmCode::kUnknown}};
              for (Move m : moves) {
                const Values v = look.values_after(pos->after(m));
                for (Color x : {Color::White, Color::Black})
                  if (v[x] <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v[x] + 1);
              }
              for (Color x : {Color::White, Color::Black})
                expect[x] = best[x] == DthmCode::kUnknown ? DthmCode::kNone : best[x];
            }
          }
        }
        ++checked;
        for (Color x : {Color::White, Color::Black}) {
          const std::uint8_t got = t.arrays(stm, x)[i];
          if (got == expect[x]) continue;
          ++mismatches;
          std::lock_guard lock(mu);
          if (res.report.size() < max_report) {
            res.report.push_back(key + " index " + std::to_string(i) + " " +
                                 (pos ? pos->to_fen() : std::string("(not a position)")) + ": DTHM of " +
                                 (x == Color::White ? "White" : "Black") + " is " + std::to_string(got) +
                                 ", successors give " + std::to_string(expect[x]));
          }
        }
      }
      const std::uint64_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (progress && omp_get_thread_num() == 0 && (d & 63) == 0)
        progress(Progress{key, Phase::Verify, static_cast<double>(d) / static_cast<double>(2 * chunks)});
    }
  }
  if (progress) progress(Progress{key, Phase::Verify, 1.0});
  res.checked = checked;
  res.mismatches = mismatches;
  return res;
}

}  // namespace deadpos
