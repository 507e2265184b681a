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
#include "deadpos/solver.h"

namespace deadpos {

namespace {

constexpr std::uint64_t kChunk = 1U << 14;

void add(SideStats& s, const SideStats& o) {
  s.positions += o.positions;
  s.checkmates += o.checkmates;
  s.stalemates += o.stalemates;
  s.white_can_mate += o.white_can_mate;
  s.black_can_mate += o.black_can_mate;
  s.dead += o.dead;
  for (Color x : {Color::White, Color::Black}) {
    s.max_dthm[x] = std::max(s.max_dthm[x], o.max_dthm[x]);
    if (s.histogram[x].size() < o.histogram[x].size()) s.histogram[x].resize(o.histogram[x].size());
    for (std::size_t d = 0; d < o.histogram[x].size(); ++d) s.histogram[x][d] += o.histogram[x][d];
  }
}

// Adds one entry of weight w.
void count(SideStats& s, std::uint64_t w, std::uint8_t v_white, std::uint8_t v_black, bool mate, bool stalemate) {
  s.positions += w;
  if (mate) s.checkmates += w;
  if (stalemate) s.stalemates += w;
  const bool white_mated = v_white <= DthmCode::kMaxDthm;
  const bool black_mated = v_black <= DthmCode::kMaxDthm;
  if (black_mated) s.white_can_mate += w;
  if (white_mated) s.black_can_mate += w;
  if (!white_mated && !black_mated) s.dead += w;
  const std::uint8_t vs[2] = {v_white, v_black};
  for (Color x : {Color::White, Color::Black}) {
    const std::uint8_t v = vs[to_index(x)];
    if (v > DthmCode::kMaxDthm) continue;
    s.max_dthm[x] = std::max<int>(s.max_dthm[x], v);
    if (s.histogram[x].size() <= v) s.histogram[x].resize(v + 1U);
    s.histogram[x][v] += w;
  }
}

}  // namespace

TableStats compute_stats(const LoadedTable& t, const ProgressFn& progress) {
  const TableIndex& idx = t.index;
  const std::uint64_t n = idx.size();
  const std::uint64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<int> bishop_slots;
  for (int j = 2; j < idx.men(); ++j)
    if (type_of(idx.piece(j)) == PieceType::Bishop) bishop_slots.push_back(j);
  const std::size_t classes = bishop_slots.empty() ? 0 : (std::size_t{1} << bishop_slots.size());

  TableStats out;
  out.material = idx.material().key();
  out.bishop_classes.resize(classes);
  for (std::size_t c = 0; c < classes; ++c) {
    for (std::size_t b = 0; b < bishop_slots.size(); ++b) out.bishop_classes[c].colours += (c >> b) & 1 ? 'L' : 'D';
  }
  std::mutex mu;
  for (Color stm : {Color::White, Color::Black}) {
    const std::uint8_t* aw = t.arrays[static_cast<std::size_t>(array_of(stm, Color::White))].data();
    const std::uint8_t* ab = t.arrays[static_cast<std::size_t>(array_of(stm, Color::Black))].data();
#pragma omp parallel
    {
      SideStats local;
      std::vector<SideStats> local_classes(classes);
#pragma omp for schedule(dynamic, 1)
      for (std::uint64_t c = 0; c < chunks; ++c) {
        const std::uint64_t end = std::min(n, (c + 1) * kChunk);
        TableIndex::Squares sq;
        for (std::uint64_t i = c * kChunk; i < end; ++i) {
          if (aw[i] == DthmCode::kInvalid) continue;
          const bool ok = idx.decode(i, sq);
          DEADPOS_CHECK(ok);
          const auto w = static_cast<std::uint64_t>(idx.multiplicity(sq));
          const bool mate = (stm == Color::White ? aw[i] : ab[i]) == 0;
          bool stalemate = false;
          if (aw[i] == DthmCode::kNone && ab[i] == DthmCode::kNone) {
            const Position pos = internal::position_of(idx, sq, stm);
            stalemate = !pos.in_check() && !pos.has_legal_move();
          }
          count(local, w, aw[i], ab[i], mate, stalemate);
          if (classes) {
            std::size_t cls = 0;
            for (std::size_t b = 0; b < bishop_slots.size(); ++b)
              if (is_light_square(sq[static_cast<std::size_t>(bishop_slots[b])])) cls |= std::size_t{1} << b;
            count(local_classes[cls], w / 2, aw[i], ab[i], mate, stalemate);
            count(local_classes[(classes - 1) ^ cls], w / 2, aw[i], ab[i], mate, stalemate);
          }
        }
      }
      std::lock_guard lock(mu);
      add(out.side[static_cast<std::size_t>(to_index(stm))], local);
      for (std::size_t k = 0; k < classes; ++k) add(out.bishop_classes[k].side[static_cast<std::size_t>(to_index(stm))], local_classes[k]);
    }
    if (progress) progress(Progress{out.material, "stats", stm == Color::White ? 0.5 : 1.0});
  }
  return out;
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
