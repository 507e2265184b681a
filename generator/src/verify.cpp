// Independent verifier (docs/design.md, "Verification"): forward legal move generation only.
//
// For every index value and side to move it recomputes, from the legal moves of the position
// (core/ Position::legal_moves, no un-move code), the value the entry must have:
//   kInvalid  iff the index value is broken or the placement is not legal (Position::check_placement)
//   0         iff the side to move is checkmated and it is the target side
//   kNone     for any other position without legal moves
//   min over legal moves m of 1 + V(position after m), else
// where V reads this table or a subtable, and gives a double push that allows an en passant
// capture the value of the position *with* the en passant right:
//   min(table value if that position has a legal move without the capture, 1 + value after each
//   en passant capture).
// Local consistency plus exact terminals proves every entry exact (see the proof in docs/design.md).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>

#include "common.h"
#include "deadpos/generate.h"
#include "deadpos/verify.h"

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
      const std::uint64_t i = t->index.encode(t->index.squares_of(pos));
      return Values{{t->arrays[static_cast<std::size_t>(array_of(pos.side_to_move(), Color::White))][i],
                     t->arrays[static_cast<std::size_t>(array_of(pos.side_to_move(), Color::Black))][i]}};
    }
    // The swapped material's table: colours swapped, so the target swaps too.
    const Position sw = pos.color_swapped();
    t = subs.find(m.swapped());
    DEADPOS_CHECK(t != nullptr);
    const std::uint64_t i = t->index.encode(t->index.squares_of(sw));
    return Values{{t->arrays[static_cast<std::size_t>(array_of(sw.side_to_move(), Color::Black))][i],
                   t->arrays[static_cast<std::size_t>(array_of(sw.side_to_move(), Color::White))][i]}};
  }

  // Values of the position reached by a move, honouring an en passant right it may carry.
  Values values_after(const Position& after) const {
    if (after.en_passant()) {
      const MoveList moves = after.legal_moves();
      bool other_move = false;
      bool any_ep = false;
      Values best{{DthmCode::kUnknown, DthmCode::kUnknown}};
      for (Move m : moves) {
        if (m.kind() != Move::Kind::EnPassant) {
          other_move = true;
          continue;
        }
        any_ep = true;
        const Values v = table_values(after.after(m));
        for (Color x : {Color::White, Color::Black})
          if (v[x] <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v[x] + 1);
      }
      if (any_ep) {
        if (other_move) {
          const Values v = table_values(after);  // same placement, no en passant right
          for (Color x : {Color::White, Color::Black})
            if (v[x] <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v[x]);
        }
        for (Color x : {Color::White, Color::Black})
          if (best[x] == DthmCode::kUnknown) best[x] = DthmCode::kNone;
        return best;
      }
    }
    return table_values(after);
  }
};

}  // namespace

VerifyResult verify(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
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
          const std::uint8_t got = t.arrays[static_cast<std::size_t>(array_of(stm, x))][i];
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

Result<std::vector<TableVerdict>> verify_tables(const VerifyTablesOptions& opt) {
  using State = TableVerdict::State;
  std::vector<Material> mats = opt.materials;
  std::vector<std::string> not_tables;  // *.dpt files whose name is not a canonical material key
  if (mats.empty()) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(opt.dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
      const std::filesystem::path& f = it->path();
      if (f.extension() != ".dpt") continue;
      const std::string key = f.stem().string();
      auto m = Material::parse(key);
      if (m && m->is_canonical() && m->key() == key && m->men() <= kMaxGenerateMen) {
        mats.push_back(*m);
      } else {
        not_tables.push_back(f.filename().string());
      }
    }
    if (ec) return make_error(ErrorCode::Io, opt.dir + ": cannot list the table directory: " + ec.message());
    if (mats.empty() && not_tables.empty()) {
      return make_error(ErrorCode::MissingTable,
                        "no tables (*.dpt) in " + opt.dir + "; build them with: deadpos generate --out " + opt.dir);
    }
  }
  // Dependency order: build_order puts every successor first; keep only the tables asked for.
  std::vector<Material> order;
  for (const Material& m : build_order(mats))
    if (std::find(mats.begin(), mats.end(), m) != mats.end()) order.push_back(m);

  std::vector<TableVerdict> out;
  std::map<std::string, std::size_t> verdict_of;  // key -> index in out
  std::map<std::string, Error> unloadable;        // subtables outside `order` that failed to load
  auto finish = [&](TableVerdict v) {
    if (opt.on_table) opt.on_table(v);
    verdict_of[v.name] = out.size();
    out.push_back(std::move(v));
  };
  TableSet set(opt.dir);
  for (const Material& m : order) {
    TableVerdict v;
    v.name = m.key();
    auto t = load_table(opt.dir + "/" + table_file_name(m), m);
    if (!t) {
      v.state = State::Failed;
      v.error = t.error();
      finish(std::move(v));
      continue;
    }
    // A damaged subtable makes this table's check meaningless: find the first one.
    set.retain_only(m.successors());
    // How a subtable that could not be used is described: absent, unreadable for lack of memory
    // (the file may be intact), or damaged.
    const auto state_word = [](ErrorCode c) {
      return c == ErrorCode::MissingTable  ? "missing"
             : c == ErrorCode::OutOfMemory ? "not loadable (out of memory)"
                                           : "damaged";
    };
    for (const Material& s : m.successors()) {
      const std::string sk = s.key();
      if (auto it = verdict_of.find(sk); it != verdict_of.end() && out[it->second].state != State::Ok) {
        const TableVerdict& sv = out[it->second];
        v.state = State::NotChecked;
        v.damaged = sv.state == State::NotChecked ? sv.damaged : sk;
        const std::string what = sv.state == State::NotChecked
                                     ? "was not checked (" + sv.damaged + " is " + state_word(sv.error->code) + ")"
                                     : std::string("is ") + state_word(sv.error->code);
        v.error = make_error(sv.error->code, "subtable " + sk + " " + what);
        break;
      }
      auto bad = unloadable.find(sk);
      if (bad == unloadable.end()) {
        const Status st = set.require(s);
        if (st) continue;
        bad = unloadable.emplace(sk, st.error()).first;
      }
      v.state = State::NotChecked;
      v.damaged = sk;
      v.error = make_error(bad->second.code,
                           "subtable " + sk + " is " + state_word(bad->second.code) + " (" + bad->second.message + ")");
      break;
    }
    if (v.state == State::Ok) {
      v.result = verify(**t, set, opt.progress, opt.max_report);
      if (v.result.mismatches != 0) {
        v.state = State::Failed;
        v.error = make_error(ErrorCode::VerificationFailed, std::to_string(v.result.mismatches) + " of " +
                                                                std::to_string(v.result.checked) +
                                                                " entries disagree with their successors");
      }
    }
    finish(std::move(v));
  }
  std::sort(not_tables.begin(), not_tables.end());
  for (const std::string& f : not_tables) {
    TableVerdict v;
    v.name = f;
    v.state = State::Failed;
    v.error = make_error(ErrorCode::CorruptTable,
                         opt.dir + "/" + f + ": not a table name (<KEY>.dpt with a canonical material key of at most " +
                             std::to_string(kMaxGenerateMen) + " men)");
    finish(std::move(v));
  }
  return out;
}

}  // namespace deadpos
