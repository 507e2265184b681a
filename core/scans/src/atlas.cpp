// The numbers of `deadpos atlas` (deadpos/atlas.h).
//
// One scan_table pass reads both bytes of every entry: the DTHM of each side, i.e. the histogram
// of each byte, weighted by the raw positions of the entry's orbit. Entries whose king pair is off
// the a1-h8 diagonal all stand for 8 placements (2 with pawns) and are counted without decoding;
// only the diagonal king pairs (pawnless tables) are decoded for their multiplicity.
#include "deadpos/atlas.h"

#include <algorithm>
#include <array>
#include <new>
#include <string>

#include "deadpos/index.h"
#include "deadpos/notation.h"
#include "deadpos/query.h"

namespace deadpos {

namespace {

struct UnitStats {
  std::array<std::uint64_t, 256> hw{}, hb{};  // raw positions by byte of DTHM of White / Black
  std::uint64_t dead = 0;
  ByColor<std::uint8_t> max{{0, 0}};  // largest finite byte seen; valid when has[X]
  ByColor<bool> has{{false, false}};
  ByColor<std::uint64_t> first{{0, 0}};  // first entry with max[X]
  std::optional<Error> error;
};

}  // namespace

Result<AtlasMaterial> atlas_material(const TableFile& t, const Tablebase& tb, int threads) {
  const TableIndex& idx = t.index();
  AtlasMaterial out;
  out.material = t.material();
  out.table = t.name();
  const std::uint64_t weight = idx.has_pawns() ? 2 : 8;
  const std::uint64_t stride = idx.stride(0);
  // King-pair slots on the a1-h8 diagonal (pawnless only): there an orbit may be smaller.
  std::vector<std::uint8_t> diag;
  if (!idx.has_pawns()) {
    diag.assign(static_cast<std::size_t>(idx.kk_slots()), 0);
    TableIndex::Squares sq{};
    for (int s = 0; s < idx.kk_slots(); ++s) {
      for (std::uint64_t k = 0; k < stride; ++k) {
        if (!idx.decode(static_cast<std::uint64_t>(s) * stride + k, sq)) continue;
        diag[static_cast<std::size_t>(s)] =
            file_index(sq[0]) == rank_index(sq[0]) && file_index(sq[1]) == rank_index(sq[1]);
        break;
      }
    }
  }

  std::vector<UnitStats> units;
  try {
    units.resize(scan_unit_count(t));
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::OutOfMemory, t.name() + ": out of memory for the atlas statistics");
  }
  auto map = [&](const ScanUnit& su, std::size_t u) {
    UnitStats& st = units[u];
    const std::size_t n = su.white_mated.size();
    const std::uint8_t* w = su.white_mated.data();
    const std::uint8_t* b = su.black_mated.data();
    std::array<std::uint32_t, 256> cw{}, cb{};
    TableIndex::Squares sq{};
    std::size_t k = 0;
    while (k < n) {
      const std::uint64_t slot = (su.first + k) / stride;
      const std::size_t end = static_cast<std::size_t>(std::min<std::uint64_t>(n, (slot + 1) * stride - su.first));
      const bool on_diag = !diag.empty() && diag[static_cast<std::size_t>(slot)];
      if (!on_diag) {
        // Counts of one king slot fit 32 bits (a slot has at most 64^3 entries in a 5-man table).
        cw.fill(0);
        cb.fill(0);
        std::uint32_t dead = 0;
        for (std::size_t j = k; j < end; ++j) {
          const std::uint8_t x = w[j], y = b[j];
          if (x == DthmCode::kInvalid || y == DthmCode::kInvalid) continue;
          ++cw[x];
          ++cb[y];
          dead += (x == DthmCode::kNone) & (y == DthmCode::kNone);
        }
        for (std::size_t v = 0; v < 256; ++v) {
          st.hw[v] += std::uint64_t{cw[v]} * weight;
          st.hb[v] += std::uint64_t{cb[v]} * weight;
        }
        st.dead += std::uint64_t{dead} * weight;
      } else {
        for (std::size_t j = k; j < end; ++j) {
          const std::uint8_t x = w[j], y = b[j];
          if (x == DthmCode::kInvalid || y == DthmCode::kInvalid) continue;
          if (!idx.decode(su.first + j, sq)) {
            st.error = Error{ErrorCode::CorruptTable, t.name() + ": entry " + std::to_string(su.first + j) +
                                                          " is not a position but holds a value"};
            return;
          }
          const auto m = static_cast<std::uint64_t>(idx.multiplicity(sq));
          st.hw[x] += m;
          st.hb[y] += m;
          if (x == DthmCode::kNone && y == DthmCode::kNone) st.dead += m;
        }
      }
      k = end;
    }
    // The deepest entry of each side: the largest finite byte, then its first entry.
    for (Color x : {Color::White, Color::Black}) {
      const auto& h = x == Color::White ? st.hw : st.hb;
      int top = -1;
      for (int v = DthmCode::kMaxDthm; v >= 0; --v)
        if (h[static_cast<std::size_t>(v)] != 0) {
          top = v;
          break;
        }
      if (top < 0) continue;
      const std::uint8_t* p = x == Color::White ? w : b;
      for (std::size_t j = 0; j < n; ++j)
        if (p[j] == top) {
          st.has[x] = true;
          st.max[x] = static_cast<std::uint8_t>(top);
          st.first[x] = su.first + j;
          break;
        }
    }
  };
  std::optional<Error> err;
  const std::size_t per = units.size() / 2;
  auto reduce = [&](std::size_t u) {
    UnitStats& st = units[u];
    if (st.error) {
      err = st.error;
      return false;
    }
    const Color stm = u < per ? Color::White : Color::Black;
    AtlasSide& side = out.by_stm[stm];
    for (std::size_t v = 0; v < 256; ++v) {
      if (v == DthmCode::kInvalid) continue;
      side.positions += st.hw[v];
    }
    side.dead += st.dead;
    for (Color x : {Color::White, Color::Black}) {
      const auto& h = x == Color::White ? st.hw : st.hb;
      auto& hist = side.dthm_histogram[x];
      for (std::size_t v = 0; v <= DthmCode::kMaxDthm; ++v) {
        if (h[v] == 0) continue;
        if (hist.size() <= v) hist.resize(v + 1, 0);
        hist[v] += h[v];
        side.can_mate[~x] += h[v];
      }
      if (st.has[x] && st.max[x] > side.deepest[x].plies) {
        side.deepest[x].plies = st.max[x];
        side.deepest[x].index = st.first[x];
      }
    }
    side.checkmates += st.hw[0] + st.hb[0];  // the side to move is the one mated in 0 plies
    st = UnitStats{};
    return true;
  };
  if (Status s = scan_table(t, threads, map, reduce, std::nullopt, SIZE_MAX); !s) return s.error();
  if (err) return *err;

  QueryFilter f;
  f.dead_not_by_material = true;
  auto dnm = run_query(t, t.material(), f, threads);
  if (!dnm) return dnm.error();
  for (Color stm : {Color::White, Color::Black}) out.by_stm[stm].dead_not_by_material = dnm->positions[stm];

  // Example positions and their lines.
  std::array<Piece, kMaxTableMen> pieces{};
  for (int j = 0; j < idx.men(); ++j) pieces[static_cast<std::size_t>(j)] = idx.piece(j);
  for (Color stm : {Color::White, Color::Black}) {
    for (Color x : {Color::White, Color::Black}) {
      AtlasDeepest& d = out.by_stm[stm].deepest[x];
      if (d.plies < 0) continue;
      TableIndex::Squares sq{};
      if (!idx.decode(d.index, sq)) {
        return make_error(ErrorCode::CorruptTable,
                          t.name() + ": entry " + std::to_string(d.index) + " is not a position but holds a value");
      }
      d.position = Position::from_men(pieces.data(), sq.data(), idx.men(), stm);
      auto line = tb.helpmate_line(d.position, x);
      if (!line) return line.error();
      if (static_cast<int>(line->size()) != d.plies) {
        return make_error(ErrorCode::CorruptTable, t.name() + ": the helpmate line of " + d.position.to_fen() +
                                                       " has " + std::to_string(line->size()) +
                                                       " plies, the table says " + std::to_string(d.plies));
      }
      d.line = std::move(*line);
      d.san = line_to_san(d.position, d.line);
    }
  }
  return out;
}

}  // namespace deadpos
