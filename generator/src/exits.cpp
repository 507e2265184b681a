// Stage "exits" of the solver: the subtable maps of every exit kind (exits.h).
#include "exits.h"

namespace deadpos::internal {

Exits::Exits(const TableIndex& idx, const TableSet& subtables) : men_(idx.men()) {
  for (int v = -1; v < men_; ++v) {
    if (v == 0 || v == 1) continue;
    for (int p = -1; p < men_; ++p) {
      if (v < 0 && p < 0) continue;  // not an exit
      if (p >= 0 && (p < 2 || p == v || type_of(idx.piece(p)) != PieceType::Pawn)) continue;
      if (p >= 0 && v >= 0 &&
          (color_of(idx.piece(v)) == color_of(idx.piece(p)) || type_of(idx.piece(v)) == PieceType::Pawn))
        continue;
      for (int x = 0; x < (p >= 0 ? 4 : 1); ++x) {
        std::array<Piece, kMaxTableMen> after{};
        Material sub{};
        for (int j = 0; j < men_; ++j) {
          if (j == v) continue;
          Piece pc = idx.piece(j);
          if (j == p) pc = make_piece(color_of(pc), kPromotions[static_cast<std::size_t>(x)]);
          after[static_cast<std::size_t>(j)] = pc;
          sub.count[color_of(pc)][type_of(pc)]++;
        }
        SubMap& sm = maps_[key(v, p, x)];
        sm.swapped = !sub.is_canonical();
        sm.table = subtables.find(sm.swapped ? sub.swapped() : sub);
        DEADPOS_CHECK(sm.table != nullptr);
        for (std::size_t g = 0; g < geos_.size() && !sm.geo; ++g)
          if (geo_tables_[g] == sm.table) sm.geo = geos_[g].get();
        if (!sm.geo) {
          geos_.push_back(std::make_unique<RowGeometry>(sm.table->index));
          geo_tables_.push_back(sm.table);
          sm.geo = geos_.back().get();
        }
        const TableIndex& si = sm.table->index;
        std::array<bool, kMaxTableMen> used{};
        for (int j = 0; j < men_; ++j) {
          sm.slot[static_cast<std::size_t>(j)] = -1;
          if (j == v) continue;
          Piece pc = after[static_cast<std::size_t>(j)];
          if (sm.swapped) pc = make_piece(~color_of(pc), type_of(pc));
          for (int k = 0; k < si.men(); ++k)
            if (!used[static_cast<std::size_t>(k)] && si.piece(k) == pc) {
              used[static_cast<std::size_t>(k)] = true;
              sm.slot[static_cast<std::size_t>(j)] = k;
              break;
            }
          DEADPOS_CHECK(sm.slot[static_cast<std::size_t>(j)] >= 0);
        }
      }
    }
  }
}

}  // namespace deadpos::internal
