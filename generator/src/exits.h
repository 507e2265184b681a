// Stage "exits" of the solver: the moves that leave the table (captures, promotions, captures
// with promotion) and the subtables they enter (docs/design.md, "Solver"). Internal to generator/.
//
// For every kind of exit (victim slot, promoting pawn slot, promoted piece) an Exits object holds
// a SubMap: the subtable entered, whether its canonical orientation is the colour-swapped one, and
// the subtable slot of each surviving man. The init pass (init_row.h) seeds every position with
// its best exit through these maps; the values of double pushes that allow en passant come from
// init_entry() there.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "deadpos/dthm.h"
#include "deadpos/table_set.h"
#include "rows.h"

namespace deadpos::internal {

// The subtable entered by an exit: which of its slots each man goes to, and whether its
// canonical orientation is the colour-swapped one (TableSet::value, done once per exit kind).
struct SubMap {
  const LoadedTable* table = nullptr;
  const RowGeometry* geo = nullptr;  // the subtable's king pairs and groups
  bool swapped = false;
  std::array<int, kMaxTableMen> slot{};  // sub slot of each man of the parent (-1: captured)

  // The subtable array holding DTHM of `target` after a move of `us` (as TableSet::value picks
  // them: (them to move, target) or, colour-swapped, (us to move, the other target)): whole, or
  // the promotion slice (SubtableNeed). DEADPOS_CHECK: that side is loaded (SuccessorSides).
  ArrayView array(Color us, Color target) const {
    return swapped ? table->view(us, ~target) : table->view(~us, target);
  }
};

constexpr std::array<PieceType, 4> kPromotions = {PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                                                  PieceType::Knight};

class Exits {
 public:
  // Builds the maps of every capture (victim slot), promotion (pawn slot, piece) and capture with
  // promotion. Precondition: the successors of idx's material are in subtables (DEADPOS_CHECK).
  Exits(const TableIndex& idx, const TableSet& subtables);

  // victim: captured slot or -1; promo: promoting pawn slot or -1, promoted piece kPromotions[x].
  const SubMap& map(int victim, int promo, int x) const { return maps_[key(victim, promo, x)]; }

  // DTHM of each target in the position after an exit (after: squares of the parent's slots
  // after the move; the captured slot is ignored), `us` having moved.
  static ByColor<Dthm> values_after(const SubMap& sm, const TableIndex::Squares& after, int men, Color us) {
    TableIndex::Squares ss{};
    for (int j = 0; j < men; ++j) {
      const int k = sm.slot[static_cast<std::size_t>(j)];
      if (k < 0) continue;
      const Square s = after[static_cast<std::size_t>(j)];
      ss[static_cast<std::size_t>(k)] = sm.swapped ? flip_vertical(s) : s;
    }
    const std::uint64_t i = sm.table->index.encode(ss);
    ByColor<Dthm> v;
    for (Color x : {Color::White, Color::Black}) v[x] = Dthm::from_code(sm.array(us, x)[i]);
    return v;
  }

 private:
  static std::size_t key(int v, int p, int x) {
    return static_cast<std::size_t>(((v + 1) * (kMaxTableMen + 1) + (p + 1)) * 4 + x);
  }
  int men_;
  std::array<SubMap, (kMaxTableMen + 1) * (kMaxTableMen + 1) * 4> maps_{};
  std::vector<std::unique_ptr<RowGeometry>> geos_;  // one per subtable
  std::vector<const LoadedTable*> geo_tables_;
};

}  // namespace deadpos::internal
