// The forward-values engine (docs/design.md, "Verification"): the value every entry of a table
// must have, recomputed from the legal moves of its position by forward move generation alone
// (nothing of the solver), from the table's other side to move and its subtables. verify()
// compares it with the stored side; derive_side() stores it (a side kept out of a file rebuilt
// from the side kept in it). Internal to generator/.
#pragma once

#include <cstdint>
#include <memory>

#include "deadpos/table_set.h"

namespace deadpos::internal {

class ForwardValues {
 public:
  // Prepares the engine for table t: its move geometry and the successor table of every capture
  // and promotion. t and subtables are read, never written, and must outlive the engine.
  // Precondition of slot_values: every subtable a move of the side to move enters is present
  // (TableSet::require; aborts through DEADPOS_CHECK otherwise). Throws std::bad_alloc.
  ForwardValues(const LoadedTable& t, const TableSet& subtables);
  ~ForwardValues();
  ForwardValues(const ForwardValues&) = delete;
  ForwardValues& operator=(const ForwardValues&) = delete;

  // King-pair slots of t's index and entries per slot (TableIndex::kk_slots, stride(0)): entry i
  // lies in slot i / slot_entries().
  int slots() const;
  std::uint64_t slot_entries() const;

  // Writes, for every entry i = kk * slot_entries() + k of king-pair slot kk with side to move us,
  // the byte code (DthmCode) it must have for target x into out[x][k], k < slot_entries():
  // kInvalid exactly at entries that are not positions, 0 for the checkmated side to move, kNone
  // for no helpmate, else 1 + the least successor value. Reads only t's arrays of side ~us (which
  // must be loaded whole: DEADPOS_CHECK) and the subtables. Thread-safe: const, for any number
  // of threads at once (each with its own out); the bytes depend on the inputs alone.
  void slot_values(Color us, int kk, const ByColor<std::uint8_t*>& out) const;

 private:
  class Engine;
  std::unique_ptr<const Engine> engine_;
};

}  // namespace deadpos::internal
