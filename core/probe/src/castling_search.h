// Castling search (internal to core/; docs/design.md, "Probing"): the tables leave castling rights
// out, so a position with rights is answered by an exact search over the positions reachable while
// keeping exactly these rights (a finite graph), seeded with the values of moves that lose a right
// (recursively: the rights only shrink) and solved by breadth-first buckets, like the generator.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>

#include <xxhash.h>

#include "deadpos/position.h"
#include "deadpos/probe_door.h"
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

// Memory of one stored position over the whole request, bytes: the Position, its id-map node and
// its predecessor list while its search runs (freed after), and its memo entry (kept until the
// request ends). Counted as if held at once, so the estimate (464 bytes) is above the real peak:
// r3k3/8/8/8/8/8/P7/4K2R w Kq - stores 1,041,282 positions in 471 MB peak RSS with a 16 MiB block
// cache (`deadpos probe --cache-mb 16`), about 430 bytes each with the program's own.
inline constexpr std::size_t kCastlingNodeBytes = sizeof(Position) + 320;

// Memo of castling-search results within one top-level request, with its limits.
struct CastlingMemo {
  explicit CastlingMemo(CastlingLimits& l) : limits(l) {}
  std::unordered_map<PositionKey, Values, PositionKeyHash> values;
  CastlingLimits& limits;
};

// Value of a successor that has lost a castling right (Tablebase's full value function; it may
// run a castling search of its own for the smaller rights, sharing the same memo).
using ValuesOf = std::function<Result<Values>(const Position&)>;

// Solves every position reachable from root while keeping exactly root's castling rights and
// stores their values in memo.values (docs/design.md, "Probing"). A position an earlier search
// of the request solved (memo.values) is an exit with its values, not searched again. Errors:
// those of values_of, and InvalidArgument when memo.limits run out (memo.limits.ran_out says
// which; nothing of this search is stored then).
Status castling_search(const Position& root, CastlingMemo& memo, const ValuesOf& values_of);

}  // namespace deadpos::internal
