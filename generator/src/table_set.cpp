// TableSet and load_table (deadpos/table_set.h): the generator's in-memory tables.
#include "deadpos/table_set.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>

namespace deadpos {

namespace {

// Copies the entries of src (index values [first, first + len)) that lie in slice to their
// places in dst, the slice's array. The slice's entries are runs of 8 * stride values, one per
// value of the fields above its slot.
void copy_slice(const std::uint8_t* src, std::uint64_t first, std::uint64_t len, const RankSlice& sl,
                std::uint8_t* dst) {
  const std::uint64_t span = 64 * sl.stride;
  const std::uint64_t run = 8 * sl.stride;
  const std::uint64_t end = first + len;
  for (std::uint64_t hi = first / span; hi * span < end; ++hi) {
    const std::uint64_t a = std::max(first, hi * span + static_cast<std::uint64_t>(sl.rank) * run);
    const std::uint64_t b = std::min(end, hi * span + static_cast<std::uint64_t>(sl.rank + 1) * run);
    if (a < b) std::memcpy(dst + sl.offset(a), src + (a - first), b - a);
  }
}

void free_side(Sides<std::vector<std::uint8_t>>& arrays, Color stm) {
  for (Color x : {Color::White, Color::Black}) std::vector<std::uint8_t>().swap(arrays(stm, x));  // frees it
}

}  // namespace

std::vector<SubtableNeed> generation_needs(const Material& m) {
  std::vector<SubtableNeed> out;
  for (const SuccessorSides& s : m.successor_sides()) {
    SubtableNeed need(s);
    if (s.material.men() == m.men() && s.material.has_pawns()) {
      // Entered by non-capturing promotions only. The promoted piece, in the subtable's
      // orientation: its colour (swapped when the subtable is m's colour swap) and its rank.
      bool ok = true;
      RankSlice sl;
      for (Color c : {Color::White, Color::Black}) {
        if (m.count[c][PieceType::Pawn] == 0) continue;
        for (PieceType promo : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
          Material after = m;
          after.count[c][PieceType::Pawn]--;
          after.count[c][promo]++;
          if (after.canonical() != s.material) continue;
          const Color cc = after.is_canonical() ? c : ~c;
          if (s.material.count[cc][promo] != 1) {
            ok = false;
            continue;
          }
          const std::vector<Piece> men = s.material.non_king_men();
          const auto at = std::find(men.begin(), men.end(), make_piece(cc, promo));
          RankSlice here;
          here.slot = 2 + static_cast<int>(at - men.begin());
          here.rank = cc == Color::White ? 7 : 0;
          if (sl.active() && !sl.same_entries(here)) ok = false;
          sl = here;
        }
      }
      if (ok) need.slice = sl;
    }
    out.push_back(need);
  }
  return out;
}

Status TableSet::require(const SubtableNeed& need) {
  LoadedTable* present = find_mutable(need.material);
  ByColor<bool> load{};
  bool any = false;
  for (Color s : {Color::White, Color::Black}) {
    if (!need.side_to_move[s]) continue;
    if (present && present->has_side(s)) continue;
    if (present && need.slice.active() && present->has_slice(s) && present->slice.same_entries(need.slice)) continue;
    load[s] = true;
    any = true;
  }
  if (!any) return Ok{};
  const std::string path = TableDirectory(dir_).table_path(need.material);
  auto t = load_table(path, need.material, load, need.slice);
  if (!t) {
    // The reader's category as it is: MissingTable only for an absent file, Io for one that cannot
    // be read (a directory, a FIFO, no permission), CorruptTable for bad bytes.
    if (t.error().code == ErrorCode::MissingTable) {
      return make_error(ErrorCode::MissingTable,
                        "table " + need.material.key() + " not found (" + t.error().message + ")");
    }
    return t.error();
  }
  if (!present) {
    add(need.material, std::move(*t));
    return Ok{};
  }
  // Into the present table (its other sides stay): one slice per table, so a slice of other
  // entries held for another side gives way.
  LoadedTable& into = *present;
  if (need.slice.active() && !into.slice.same_entries(need.slice)) {
    for (Color s : {Color::White, Color::Black}) free_side(into.slice_arrays, s);
  }
  for (Color s : {Color::White, Color::Black}) {
    if (!load[s]) continue;
    auto& from = need.slice.active() ? (*t)->slice_arrays : (*t)->arrays;
    auto& to = need.slice.active() ? into.slice_arrays : into.arrays;
    for (Color x : {Color::White, Color::Black}) to(s, x) = std::move(from(s, x));
    if (!need.slice.active()) free_side(into.slice_arrays, s);  // the whole side serves
  }
  if (need.slice.active()) into.slice = (*t)->slice;
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

void TableSet::retain_only(const std::vector<SubtableNeed>& keep) {
  std::erase_if(tables_, [&](auto& e) {
    const auto k = std::find_if(keep.begin(), keep.end(), [&](const SubtableNeed& s) { return s.material == e.first; });
    if (k == keep.end()) return true;
    LoadedTable& t = *e.second;
    if (!k->slice.active() || !t.slice.same_entries(k->slice)) {
      for (Color s : {Color::White, Color::Black}) free_side(t.slice_arrays, s);
    }
    for (Color s : {Color::White, Color::Black}) {
      if (!k->side_to_move[s]) {
        free_side(t.arrays, s);
        free_side(t.slice_arrays, s);
      } else if (k->slice.active() && t.has_side(s)) {
        // Cut a whole side to the slice. Both cuts are made before anything is replaced: an
        // allocation that fails leaves the table as it was.
        RankSlice sl = k->slice;
        sl.stride = t.index.stride(sl.slot);
        const std::vector<std::uint8_t>& aw = t.arrays(s, Color::White);
        const std::vector<std::uint8_t>& ab = t.arrays(s, Color::Black);
        std::vector<std::uint8_t> cut_w(aw.size() / 8);
        std::vector<std::uint8_t> cut_b(ab.size() / 8);
        copy_slice(aw.data(), 0, aw.size(), sl, cut_w.data());
        copy_slice(ab.data(), 0, ab.size(), sl, cut_b.data());
        t.slice_arrays(s, Color::White) = std::move(cut_w);
        t.slice_arrays(s, Color::Black) = std::move(cut_b);
        free_side(t.arrays, s);
        t.slice = sl;
      }
    }
    return false;
  });
}

const LoadedTable* TableSet::find(const Material& canonical) const {
  for (const auto& [m, t] : tables_)
    if (m == canonical) return t.get();
  return nullptr;
}

LoadedTable* TableSet::find_mutable(const Material& canonical) {
  for (auto& [m, t] : tables_)
    if (m == canonical) return t.get();
  return nullptr;
}

std::uint8_t TableSet::value(const Position& pos, Color mated) const {
  const Material m = Material::of(pos);
  if (m.is_canonical()) {
    const LoadedTable* t = find(m);
    DEADPOS_CHECK(t != nullptr);
    const std::uint64_t i = t->index.encode(t->index.squares_of(pos));
    return t->view(pos.side_to_move(), mated)[i];
  }
  const Position sw = pos.color_swapped();
  const LoadedTable* t = find(m.swapped());
  DEADPOS_CHECK(t != nullptr);
  const std::uint64_t i = t->index.encode(t->index.squares_of(sw));
  return t->view(sw.side_to_move(), ~mated)[i];
}

namespace {

Result<std::unique_ptr<LoadedTable>> load_table_unguarded(const std::string& path, const Material& m,
                                                          ByColor<bool> sides, RankSlice slice) {
  auto f = TableFile::open(path, m);
  if (!f) return f.error();
  auto t = std::make_unique<LoadedTable>();
  t->index = f->index();
  // Blocks decompressed in parallel (read_block is thread-safe): loading the four 5-man
  // subtables of a pawn table is 2 GB of zstd output.
  const std::uint64_t n = t->index.size();
  const std::uint64_t per_array = (n + kBlockEntries - 1) / kBlockEntries;
  const auto loaded = [&](std::size_t a) { return sides[side_to_move_of_array(static_cast<int>(a))]; };
  if (slice.active()) {
    // A caller's contract (generation_needs): a piece's field in an index with pawns.
    DEADPOS_CHECK(m.has_pawns() && slice.slot >= 2 && slice.slot < t->index.men() && slice.rank >= 0 &&
                  slice.rank < 8 && type_of(t->index.piece(slice.slot)) != PieceType::Pawn);
    slice.stride = t->index.stride(slice.slot);
    t->slice = slice;
  }
  auto& dest = slice.active() ? t->slice_arrays : t->arrays;
  const std::uint64_t dest_size = slice.active() ? n / 8 : n;
  try {
    for (std::size_t a = 0; a < kNumArrays; ++a)
      if (loaded(a)) dest[a].resize(dest_size);
  } catch (const std::bad_alloc&) {
    const std::uint64_t arrays = (sides[Color::White] ? 2 : 0) + (sides[Color::Black] ? 2 : 0);
    return make_error(ErrorCode::OutOfMemory,
                      path + ": cannot allocate " + std::to_string(dest_size * arrays) + " bytes");
  }
  std::vector<std::pair<std::uint64_t, Error>> errors;  // by block: report the first, as read_array
  std::atomic<bool> out_of_memory{false};
  // Per array: entries with a finite value and with none, counted while each block is in cache.
  Sides<std::uint64_t> finite{};
  Sides<std::uint64_t> none{};
#pragma omp parallel
  {
    std::vector<std::uint8_t> buf;
    Sides<std::uint64_t> my_finite{};
    Sides<std::uint64_t> my_none{};
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
          std::uint8_t* to = dest[static_cast<std::size_t>(b / per_array)].data();
          if (slice.active())
            copy_slice(buf.data(), first, buf.size(), slice, to);
          else
            std::memcpy(to + first, buf.data(), buf.size());
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
                            std::to_string(h.finite != finite[a] ? HeaderLayout::finite(static_cast<int>(a)).offset
                                                                 : HeaderLayout::none(static_cast<int>(a)).offset) +
                            ") says " + std::to_string(h.finite != finite[a] ? h.finite : h.none) +
                            ", the array holds " + std::to_string(h.finite != finite[a] ? finite[a] : none[a]));
    }
  }
  return t;
}

}  // namespace

Result<std::unique_ptr<LoadedTable>> load_table(const std::string& path, const Material& m, ByColor<bool> sides,
                                                RankSlice slice) {
  // Any allocation outside the parallel block loop (which turns its own into errors): the
  // table's out-of-memory error, not the process's.
  try {
    return load_table_unguarded(path, m, sides, slice);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::OutOfMemory, path + ": out of memory while loading it");
  }
}

}  // namespace deadpos
