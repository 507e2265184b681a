// Castling search (internal to core/; docs/design.md, "Probing"): the tables leave castling rights
// out, so a position with rights is answered by an exact search over the positions reachable while
// keeping exactly these rights (a finite graph), seeded with the values of moves that lose a right
// (recursively: the rights only shrink) and solved by breadth-first buckets, like the generator.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include <xxhash.h>

#include "deadpos/position.h"
#include "deadpos/result.h"
#include "probe_values.h"

namespace deadpos::internal {

// The identity of a position for the rules of play (FIDE 9.2.3: placement, side to move, castling
// rights, en passant square; not the move counters), exact and without building a FEN: the memo
// key of the castling search.
struct PositionKey {
  std::array<std::uint64_t, 4> squares{};  // 4 bits per square: the Piece code (kNoPiece = 15)
  std::uint64_t rest = 0;                  // side to move | castling rights << 1 | (ep square + 1) << 8
  bool operator==(const PositionKey&) const = default;
};
struct PositionKeyHash {
  std::size_t operator()(const PositionKey& k) const { return static_cast<std::size_t>(XXH3_64bits(&k, sizeof k)); }
};

PositionKey position_key(const Position& p);

// Memo of castling-search results within one top-level request.
using CastlingMemo = std::unordered_map<PositionKey, Values, PositionKeyHash>;

// Value of a successor that has lost a castling right (Tablebase's full value function; it may
// run a castling search of its own for the smaller rights, sharing the same memo).
using ValuesOf = std::function<Result<Values>(const Position&)>;

// Solves every position reachable from root while keeping exactly root's castling rights and
// stores their values in memo (docs/design.md, "Probing"). Errors: those of values_of, and
// InvalidArgument when the reachable set exceeds the search's size limit.
Status castling_search(const Position& root, CastlingMemo& memo, const ValuesOf& values_of);

}  // namespace deadpos::internal
