// The directory driver of verification (verify.h, verify_tables): which tables a directory holds,
// their dependency order, which subtables each needs and whether they are usable, and one verdict
// per table; the values themselves are verify()'s (verify.cpp).
#include <algorithm>
#include <filesystem>
#include <map>
#include <new>

#include "deadpos/generate.h"
#include "deadpos/verdict_file.h"
#include "deadpos/verify.h"

namespace deadpos {

namespace {

// The verdict file of a verified table (format.md section 7) against the table's own arrays:
// every position's two bits must be "the DTHM of that side is finite". An absent verdict file is
// no failure: it is optional beside its table (the probe then reads the table's DTHM bytes), and
// deadpos generate writes it from the table. Errors: those of VerdictFile::open other than
// MissingTable, VerificationFailed naming the count.
Status check_verdict_file(const LoadedTable& t, const std::string& path) {
  auto v = VerdictFile::open(path, t.index.material());
  if (!v) {
    if (v.error().code == ErrorCode::MissingTable) return Ok{};
    return v.error();
  }
  std::uint64_t bad = 0;
  std::uint64_t checked = 0;
  for (Color stm : {Color::White, Color::Black}) {
    auto side = v->read_side(stm);
    if (!side) return side.error();
    const std::uint8_t* w = t.arrays(stm, Color::White).data();
    const std::uint8_t* b = t.arrays(stm, Color::Black).data();
    const std::uint8_t* got = side->data();
    const auto n = static_cast<std::int64_t>(t.index.size());
#pragma omp parallel for schedule(static) reduction(+ : bad, checked)
    for (std::int64_t i = 0; i < n; ++i) {
      if (w[i] == DthmCode::kInvalid) {
        bad += got[i] != DthmCode::kInvalid ? 1 : 0;
        continue;
      }
      ++checked;
      const unsigned want = (w[i] <= DthmCode::kMaxDthm ? 1U : 0U) | (b[i] <= DthmCode::kMaxDthm ? 2U : 0U);
      bad += got[i] != want ? 1 : 0;
    }
  }
  if (bad != 0) {
    return make_error(ErrorCode::VerificationFailed, path + ": " + std::to_string(bad) + " of " +
                                                         std::to_string(checked) +
                                                         " verdict entries disagree with the table");
  }
  return Ok{};
}

}  // namespace

Result<std::vector<TableVerdict>> verify_tables(const VerifyTablesOptions& opt) {
  using State = TableVerdict::State;
  const TableDirectory dir(opt.dir);
  std::vector<Material> mats = opt.materials;
  std::vector<std::string> not_tables;  // *.dpt files whose name is not a canonical material key
  if (mats.empty()) {
    auto listed = dir.list();
    if (!listed) return listed.error();
    for (const TableDirectory::Entry& e : *listed) {
      if (e.material && e.material->men() <= kMaxGenerateMen) {
        mats.push_back(*e.material);
      } else {
        not_tables.push_back(e.name);
      }
    }
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
    auto t = load_table(dir.table_path(m), m);
    if (!t) {
      v.state = State::Failed;
      v.error = t.error();
      finish(std::move(v));
      continue;
    }
    // A damaged subtable makes this table's check meaningless: find the first one.
    std::vector<SubtableNeed> needs;
    for (const SuccessorSides& s : m.successor_sides()) needs.emplace_back(s);
    set.retain_only(needs);
    // How a subtable that could not be used is described: absent, unreadable for lack of memory
    // (the file may be intact), unreadable (not a regular file, no permission: the bytes were
    // never seen), or damaged.
    const auto state_word = [](ErrorCode c) {
      return c == ErrorCode::MissingTable  ? "missing"
             : c == ErrorCode::OutOfMemory ? "not loadable (out of memory)"
             : c == ErrorCode::Io          ? "unreadable"
                                           : "damaged";
    };
    // The first subtable that cannot be used decides the verdict; the other absent ones are named
    // too (by file existence only, nothing more is loaded), so that one run lists what to build.
    std::vector<std::string> also_missing;
    for (const SuccessorSides& ss : m.successor_sides()) {
      const Material& s = ss.material;
      const std::string sk = s.key();
      if (v.state != State::Ok) {
        std::error_code ec;
        if (!std::filesystem::exists(dir.table_path(s), ec) && !ec) also_missing.push_back(sk);
        continue;
      }
      if (auto it = verdict_of.find(sk); it != verdict_of.end() && !out[it->second].table_ok) {
        const TableVerdict& sv = out[it->second];
        v.state = State::NotChecked;
        v.damaged = sv.state == State::NotChecked ? sv.damaged : sk;
        const std::string what = sv.state == State::NotChecked
                                     ? "was not checked (" + sv.damaged + " is " + state_word(sv.error->code) + ")"
                                     : std::string("is ") + state_word(sv.error->code);
        v.error = make_error(sv.error->code, "subtable " + sk + " " + what);
        continue;
      }
      auto bad = unloadable.find(sk);
      if (bad == unloadable.end()) {
        const Status st = set.require(s, ss.side_to_move);
        if (st) continue;
        bad = unloadable.emplace(sk, st.error()).first;
      }
      v.state = State::NotChecked;
      v.damaged = sk;
      v.error = make_error(bad->second.code,
                           "subtable " + sk + " is " + state_word(bad->second.code) + " (" + bad->second.message + ")");
    }
    if (!also_missing.empty()) {
      std::string list;
      for (const std::string& k : also_missing) list += (list.empty() ? "" : ", ") + k;
      v.error->message += "; also missing: " + list;
    }
    if (v.state == State::Ok) {
      try {
        v.result = verify(**t, set, opt.progress, opt.max_report);
      } catch (const std::bad_alloc&) {
        // The verifier's own memory (allocated before its parallel loops: the successor map and
        // the per-slot outcomes), beside the table's 4 bytes per entry and its subtables.
        const std::uint64_t mib = ((*t)->index.size() * 4 + (1u << 20) - 1) >> 20;
        v.state = State::Failed;
        v.error =
            make_error(ErrorCode::OutOfMemory, "the verifier's memory could not be allocated (the table takes about " +
                                                   std::to_string(mib) + " MiB, beside its subtables)");
        finish(std::move(v));
        continue;
      }
      if (v.result.mismatches != 0) {
        v.state = State::Failed;
        v.error = make_error(ErrorCode::VerificationFailed, std::to_string(v.result.mismatches) + " of " +
                                                                std::to_string(v.result.checked) +
                                                                " entries disagree with their successors");
      } else {
        v.table_ok = true;
        Status st = Ok{};
        try {
          st = check_verdict_file(**t, dir.verdict_path(m));
        } catch (const std::bad_alloc&) {
          st = make_error(ErrorCode::OutOfMemory, dir.verdict_path(m) + ": out of memory while checking the verdicts");
        }
        if (!st) {
          v.state = State::Failed;
          v.error = st.error();
        }
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
                         dir.path_of(f) + ": not a table name (<KEY>.dpt with a canonical material key of at most " +
                             std::to_string(kMaxGenerateMen) + " men)");
    finish(std::move(v));
  }
  return out;
}

}  // namespace deadpos
