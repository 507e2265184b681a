// TableSet and load_table (deadpos/table_set.h): the generator's in-memory tables.
#include "deadpos/table_set.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>

namespace deadpos {

Status TableSet::require(const Material& canonical, ByColor<bool> sides) {
  if (const LoadedTable* present = find(canonical)) {
    bool missing = false;
    for (Color s : {Color::White, Color::Black}) {
      if (present->has_side(s))
        sides[s] = true;
      else
        missing = missing || sides[s];
    }
    if (!missing) return Ok{};
  }
  const std::string path = dir_ + "/" + table_file_name(canonical);
  auto t = load_table(path, canonical, sides);
  if (!t) {
    // The reader's category as it is: MissingTable only for an absent file, Io for one that cannot
    // be read (a directory, a FIFO, no permission), CorruptTable for bad bytes.
    if (t.error().code == ErrorCode::MissingTable) {
      return make_error(ErrorCode::MissingTable, "table " + canonical.key() + " not found (" + t.error().message + ")");
    }
    return t.error();
  }
  add(canonical, std::move(*t));
  return Ok{};
}

void TableSet::add(const Material& m, std::unique_ptr<LoadedTable> t) {
  for (auto& [mm, tt] : tables_)
    if (mm == m) {
      tt = std::move(t);
      return;
    }
  tables_.emplace_back(m, std::move(t));
}

void TableSet::retain_only(const std::vector<SuccessorSides>& keep) {
  std::erase_if(tables_, [&](auto& e) {
    const auto k =
        std::find_if(keep.begin(), keep.end(), [&](const SuccessorSides& s) { return s.material == e.first; });
    if (k == keep.end()) return true;
    for (Color s : {Color::White, Color::Black})
      if (!k->side_to_move[s])
        for (Color x : {Color::White, Color::Black})
          std::vector<std::uint8_t>().swap(e.second->arrays[static_cast<std::size_t>(array_of(s, x))]);  // frees it
    return false;
  });
}

const LoadedTable* TableSet::find(const Material& canonical) const {
  for (const auto& [m, t] : tables_)
    if (m == canonical) return t.get();
  return nullptr;
}

std::uint8_t TableSet::value(const Position& pos, Color mated) const {
  const Material m = Material::of(pos);
  if (m.is_canonical()) {
    const LoadedTable* t = find(m);
    DEADPOS_CHECK(t != nullptr);
    DEADPOS_CHECK(t->has_side(pos.side_to_move()));
    const std::uint64_t i = t->index.encode(t->index.squares_of(pos));
    return t->arrays[static_cast<std::size_t>(array_of(pos.side_to_move(), mated))][i];
  }
  const Position sw = pos.color_swapped();
  const LoadedTable* t = find(m.swapped());
  DEADPOS_CHECK(t != nullptr);
  DEADPOS_CHECK(t->has_side(sw.side_to_move()));
  const std::uint64_t i = t->index.encode(t->index.squares_of(sw));
  return t->arrays[static_cast<std::size_t>(array_of(sw.side_to_move(), ~mated))][i];
}

namespace {

Result<std::unique_ptr<LoadedTable>> load_table_unguarded(const std::string& path, const Material& m,
                                                          ByColor<bool> sides) {
  auto f = TableFile::open(path, m);
  if (!f) return f.error();
  auto t = std::make_unique<LoadedTable>();
  t->index = f->index();
  // Blocks decompressed in parallel (read_block is thread-safe): loading the four 5-man
  // subtables of a pawn table is 2 GB of zstd output.
  const std::uint64_t n = t->index.size();
  const std::uint64_t per_array = (n + kBlockEntries - 1) / kBlockEntries;
  // Arrays 0, 1 are White to move, 2, 3 Black to move (docs/format.md section 3).
  const auto loaded = [&](std::size_t a) { return sides[a < 2 ? Color::White : Color::Black]; };
  try {
    for (std::size_t a = 0; a < kNumArrays; ++a)
      if (loaded(a)) t->arrays[a].resize(n);
  } catch (const std::bad_alloc&) {
    const std::uint64_t arrays = (sides[Color::White] ? 2 : 0) + (sides[Color::Black] ? 2 : 0);
    return make_error(ErrorCode::OutOfMemory, path + ": cannot allocate " + std::to_string(n * arrays) + " bytes");
  }
  std::vector<std::pair<std::uint64_t, Error>> errors;  // by block: report the first, as read_array
  std::atomic<bool> out_of_memory{false};
  // Per array: entries with a finite value and with none, counted while each block is in cache.
  std::array<std::uint64_t, kNumArrays> finite{};
  std::array<std::uint64_t, kNumArrays> none{};
#pragma omp parallel
  {
    std::vector<std::uint8_t> buf;
    std::array<std::uint64_t, kNumArrays> my_finite{};
    std::array<std::uint64_t, kNumArrays> my_none{};
#pragma omp for schedule(dynamic, 1)
    for (std::uint64_t b = 0; b < per_array * kNumArrays; ++b) {
      if (!loaded(static_cast<std::size_t>(b / per_array))) continue;
      // A failed allocation (the reader's buffers, an error message) must not leave the parallel
      // region: it is recorded, and becomes the table's out-of-memory error after it.
      try {
        const std::uint64_t first = (b % per_array) * kBlockEntries;
        const Status st = f->read_block(static_cast<std::uint32_t>(b), buf);
        // The solver extends subtable values by 1 or 2 plies (a capture, or a double push and the en
        // passant capture): a value within 2 of the format's limit cannot be extended. Real tables
        // stay far below it; refusing such a file keeps a crafted one from aborting the solver.
        // One branch-free pass (vectorised) that also counts.
        unsigned unextendable = 0;
        std::uint32_t nf = 0;  // a block holds fewer than 2^32 entries
        std::uint32_t nn = 0;
        for (const std::uint8_t v : buf) {
          unextendable |=
              static_cast<unsigned>(v >= DthmCode::kMaxDthm - 1) & static_cast<unsigned>(v <= DthmCode::kMaxDthm);
          nf += v <= DthmCode::kMaxDthm ? 1 : 0;
          nn += v == DthmCode::kNone ? 1 : 0;
        }
        if (st && unextendable) {
#pragma omp critical(load_table_errors)
          errors.emplace_back(
              b, make_error(ErrorCode::CorruptTable, path + ": block " + std::to_string(b) + " holds a DTHM of " +
                                                         std::to_string(DthmCode::kMaxDthm - 1) +
                                                         " plies or more, which the solver cannot extend"));
        } else if (st && buf.size() == std::min<std::uint64_t>(kBlockEntries, n - first)) {
          std::memcpy(t->arrays[static_cast<std::size_t>(b / per_array)].data() + first, buf.data(), buf.size());
          my_finite[static_cast<std::size_t>(b / per_array)] += nf;
          my_none[static_cast<std::size_t>(b / per_array)] += nn;
        } else {
#pragma omp critical(load_table_errors)
          errors.emplace_back(
              b, st ? make_error(ErrorCode::CorruptTable, path + ": block " + std::to_string(b) + " has the wrong size")
                    : st.error());
        }
      } catch (const std::bad_alloc&) {
        out_of_memory.store(true, std::memory_order_relaxed);
      }
    }
#pragma omp critical(load_table_counts)
    for (std::size_t a = 0; a < kNumArrays; ++a) {
      finite[a] += my_finite[a];
      none[a] += my_none[a];
    }
  }
  if (out_of_memory.load())
    return make_error(ErrorCode::OutOfMemory, path + ": out of memory while reading its blocks");
  if (!errors.empty()) {
    return std::min_element(errors.begin(), errors.end(),
                            [](const auto& x, const auto& y) { return x.first < y.first; })
        ->second;
  }
  // The header's per-array counts (docs/format.md section 2) against the arrays: the reader's open
  // checks only that they fit the layout.
  for (std::size_t a = 0; a < kNumArrays; ++a) {
    if (!loaded(a)) continue;
    const ArraySummary& h = f->header().summary[a];
    if (h.finite != finite[a] || h.none != none[a]) {
      return make_error(ErrorCode::CorruptTable,
                        path + ": header field '" + (h.finite != finite[a] ? "finite" : "none") + " entries of array " +
                            std::to_string(a) + "' (offset " +
                            std::to_string(72 + 16 * a + (h.finite != finite[a] ? 0 : 8)) + ") says " +
                            std::to_string(h.finite != finite[a] ? h.finite : h.none) + ", the array holds " +
                            std::to_string(h.finite != finite[a] ? finite[a] : none[a]));
    }
  }
  return t;
}

}  // namespace

Result<std::unique_ptr<LoadedTable>> load_table(const std::string& path, const Material& m, ByColor<bool> sides) {
  // Any allocation outside the parallel block loop (which turns its own into errors): the
  // table's out-of-memory error, not the process's.
  try {
    return load_table_unguarded(path, m, sides);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::OutOfMemory, path + ": out of memory while loading it");
  }
}

}  // namespace deadpos
