// Table statistics in raw positions (docs/design.md, "Statistics").
//
// Each valid index value stands for its whole symmetry orbit: TableIndex::multiplicity() raw
// placements. Half of every orbit has each bishop on its canonical square colour and half on the
// other colour (the colour-swapping symmetries are exactly half of the group, also for the
// stabilised orbits of size 4), so bishop-colour classes get multiplicity / 2 each for the class
// of the canonical placement and for its complement.
#include <omp.h>

#include <algorithm>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "common.h"
#include "deadpos/dthm.h"
#include "deadpos/stats.h"
#include "rows.h"

namespace deadpos {

namespace {

// Weighted counts for one side to move and one bishop-colour key: by byte code for each target
// (by_code[x][code]: weights are raw positions, multiplicity()), plus the dead entries (neither finite) and the
// stalemates among them (only dead entries can be stalemates). SideStats are derived from these
// at the end, so the pass only reads two bytes and adds per entry.
struct Tally {
  ByColor<std::array<std::uint64_t, 256>> by_code{};
  std::uint64_t dead = 0;
  std::uint64_t stalemates = 0;
  void add(const Tally& o) {
    for (Color x : {Color::White, Color::Black})
      for (std::size_t v = 0; v < 256; ++v) by_code[x][v] += o.by_code[x][v];
    dead += o.dead;
    stalemates += o.stalemates;
  }
};

// The statistics of a tally whose weights are multiplied by num / den (exact: den is 1, or 2 on
// even weights).
SideStats side_stats(const Tally& t, Color stm, std::uint64_t den) {
  SideStats s;
  for (std::size_t v = 0; v < 256; ++v) {
    if (v == DthmCode::kInvalid) continue;
    s.positions += t.by_code[Color::White][v] / den;
  }
  s.checkmates = t.by_code[stm][Dthm::in_plies(0).code()] / den;
  s.stalemates = t.stalemates / den;
  s.dead = t.dead / den;
  for (Color x : {Color::White, Color::Black}) {
    const auto& h = t.by_code[x];
    std::uint64_t finite = 0;
    for (int v = 0; v < 256; ++v) {
      const Dthm d = Dthm::from_code(static_cast<std::uint8_t>(v));
      if (d.is_none()) continue;
      const std::uint64_t c = h[static_cast<std::size_t>(v)] / den;
      finite += c;
      if (c) s.max_dthm[x] = d.plies();
    }
    if (s.max_dthm[x] >= 0) {
      s.histogram[x].assign(h.begin(), h.begin() + s.max_dthm[x] + 1);
      for (auto& c : s.histogram[x]) c /= den;
    }
    (x == Color::White ? s.black_can_mate : s.white_can_mate) = finite;
  }
  return s;
}

}  // namespace

TableStats compute_stats(const LoadedTable& t, const ProgressFn& progress) {
  const TableIndex& idx = t.index;
  const internal::RowGeometry geo(idx);
  std::vector<int> bishop_slots;
  for (int j = 2; j < idx.men(); ++j)
    if (type_of(idx.piece(j)) == PieceType::Bishop) bishop_slots.push_back(j);
  const std::size_t classes = bishop_slots.empty() ? 0 : (std::size_t{1} << bishop_slots.size());
  const std::size_t keys = std::max<std::size_t>(classes, 1);
  // The last man's bishop bit (its colour varies along a row), if it is a bishop.
  const std::size_t last_bishop_bit = !bishop_slots.empty() && bishop_slots.back() == geo.last() && geo.has_rows()
                                          ? std::size_t{1} << (bishop_slots.size() - 1)
                                          : 0;

  TableStats out;
  out.material = idx.material().key();
  out.bishop_classes.resize(classes);
  for (std::size_t c = 0; c < classes; ++c) {
    for (std::size_t b = 0; b < bishop_slots.size(); ++b) out.bishop_classes[c].colours += (c >> b) & 1 ? 'L' : 'D';
  }
  const int len = geo.row_len();
  const int base = geo.row_base();
  const auto rows = static_cast<std::int64_t>(geo.rows());
  std::mutex mu;
  for (Color stm : {Color::White, Color::Black}) {
    const std::uint8_t* aw = t.arrays(stm, Color::White).data();
    const std::uint8_t* ab = t.arrays(stm, Color::Black).data();
    std::vector<Tally> tally(keys);
#pragma omp parallel
    {
      std::vector<Tally> local(keys);
      // Rows off the diagonal have one weight for every entry: there the bytes are counted
      // unweighted (weighted once at the end), in four interleaved copies so that runs of equal
      // bytes do not serialise on one counter (the weighted per-entry tally took 0.75 s of CPU on
      // KRBvKR).
      struct Counts {
        ByColor<std::array<std::array<std::uint64_t, 256>, 4>> by_code{};
      };
      std::vector<Counts> counts(keys);
      const std::uint64_t weight = idx.has_pawns() ? 2 : 8;
      TableIndex::Squares sq{};
#pragma omp for schedule(dynamic, 256)
      for (std::int64_t r = 0; r < rows; ++r) {
        const auto row = static_cast<std::uint64_t>(r);
        Bitboard occ_rest = 0;
        if (!geo.decode_row(row, sq, occ_rest)) continue;  // every entry broken
        const auto slot = static_cast<int>(row / geo.rows_per_slot());
        // Raw placements per entry: 8 without pawns (2 with), except for the stabilised orbits of
        // placements with both kings on the a1-h8 diagonal (multiplicity() per entry there).
        const bool per_entry = geo.slot_diag(slot) || !geo.has_rows();
        std::size_t key = 0;
        for (std::size_t b = 0; b < bishop_slots.size(); ++b) {
          const auto j = static_cast<std::size_t>(bishop_slots[b]);
          if (static_cast<int>(j) < geo.last() && is_light_square(sq[j])) key |= std::size_t{1} << b;
        }
        const std::uint64_t off = row * static_cast<std::uint64_t>(len);
        if (!per_entry) {
          for (int k = 0; k < len; ++k) {
            const std::uint8_t vw = aw[off + static_cast<std::uint64_t>(k)];
            const std::uint8_t vb = ab[off + static_cast<std::uint64_t>(k)];
            // Broken entries are counted too, under kInvalid, which side_stats() leaves out.
            const std::size_t kk =
                key | (last_bishop_bit && is_light_square(square_at(k + base)) ? last_bishop_bit : 0);
            Counts& cn = counts[kk];
            cn.by_code[Color::White][static_cast<std::size_t>(k & 3)][vw]++;
            cn.by_code[Color::Black][static_cast<std::size_t>(k & 3)][vb]++;
            if (vw == DthmCode::kNone && vb == DthmCode::kNone) {
              sq[static_cast<std::size_t>(geo.last())] = square_at(k + base);
              Tally& tl = local[kk];
              tl.dead += weight;
              const Position pos = internal::position_of(idx, sq, stm);
              if (!pos.in_check() && !pos.has_legal_move()) tl.stalemates += weight;
            }
          }
          continue;
        }
        for (int k = 0; k < len; ++k) {
          const std::uint8_t vw = aw[off + static_cast<std::uint64_t>(k)];
          if (vw == DthmCode::kInvalid) continue;
          const std::uint8_t vb = ab[off + static_cast<std::uint64_t>(k)];
          if (geo.has_rows()) sq[static_cast<std::size_t>(geo.last())] = square_at(k + base);
          const std::uint64_t w = per_entry ? static_cast<std::uint64_t>(idx.multiplicity(sq)) : weight;
          const std::size_t kk = key | (last_bishop_bit && is_light_square(square_at(k + base)) ? last_bishop_bit : 0);
          Tally& tl = local[kk];
          tl.by_code[Color::White][vw] += w;
          tl.by_code[Color::Black][vb] += w;
          if (vw == DthmCode::kNone && vb == DthmCode::kNone) {
            tl.dead += w;
            const Position pos = internal::position_of(idx, sq, stm);
            if (!pos.in_check() && !pos.has_legal_move()) tl.stalemates += w;
          }
        }
      }
      for (std::size_t k = 0; k < keys; ++k)
        for (std::size_t c = 0; c < 4; ++c)
          for (std::size_t v = 0; v < 256; ++v) {
            for (Color x : {Color::White, Color::Black}) local[k].by_code[x][v] += counts[k].by_code[x][c][v] * weight;
          }
      std::lock_guard lock(mu);
      for (std::size_t k = 0; k < keys; ++k) tally[k].add(local[k]);
    }
    Tally all;
    for (const Tally& tl : tally) all.add(tl);
    out.side[static_cast<std::size_t>(to_index(stm))] = side_stats(all, stm, 1);
    // Bishop classes: each entry's orbit splits in halves between its class and the complement.
    for (std::size_t c = 0; c < classes; ++c) {
      Tally both = tally[c];
      both.add(tally[(classes - 1) ^ c]);
      out.bishop_classes[c].side[static_cast<std::size_t>(to_index(stm))] = side_stats(both, stm, 2);
    }
    if (progress) progress(Progress{out.material, Phase::Stats, stm == Color::White ? 0.5 : 1.0});
  }
  return out;
}

bool stats_json_intact(const std::string& text, const std::string& key) {
  const auto j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return false;  // also a parse error (discarded)
  const auto m = j.find("material");
  const auto w = j.find("white_to_move");
  const auto b = j.find("black_to_move");
  return m != j.end() && m->is_string() && *m == key && w != j.end() && w->is_object() && b != j.end() &&
         b->is_object();
}

std::string stats_to_json(const TableStats& s) {
  using nlohmann::json;
  auto side_json = [](const SideStats& st) {
    json j;
    j["positions"] = st.positions;
    j["checkmates"] = st.checkmates;
    j["stalemates"] = st.stalemates;
    j["white_can_mate"] = st.white_can_mate;
    j["black_can_mate"] = st.black_can_mate;
    j["dead"] = st.dead;
    j["max_dthm_white_mated_plies"] = st.max_dthm[Color::White];
    j["max_dthm_black_mated_plies"] = st.max_dthm[Color::Black];
    j["dthm_histogram_white_mated"] = st.histogram[Color::White];
    j["dthm_histogram_black_mated"] = st.histogram[Color::Black];
    return j;
  };
  json j;
  j["material"] = s.material;
  j["white_to_move"] = side_json(s.side[0]);
  j["black_to_move"] = side_json(s.side[1]);
  if (!s.bishop_classes.empty()) {
    json cls = json::array();
    for (const auto& c : s.bishop_classes) {
      json e;
      e["bishop_colours"] = c.colours;
      e["white_to_move"] = side_json(c.side[0]);
      e["black_to_move"] = side_json(c.side[1]);
      cls.push_back(e);
    }
    j["bishop_colour_classes"] = cls;
  }
  j["seconds"] = s.seconds;
  j["peak_rss_bytes"] = s.peak_rss_bytes;
  return j.dump(2) + "\n";
}

}  // namespace deadpos
