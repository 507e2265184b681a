// Castling search (see castling_search.h; docs/design.md, "Probing").
#include "castling_search.h"

#include <optional>
#include <string>
#include <vector>

#include "deadpos/table.h"

namespace deadpos::internal {

namespace {

// The out-of-limit error; the caller tells it from others by memo.limits.ran_out.
Error ran_out(const Position& root, CastlingLimits& l, BudgetKind why) {
  l.ran_out = why;
  return make_error(ErrorCode::InvalidArgument, "castling search from " + root.to_fen() + " ran out of its " +
                                                    budget_name(why) + " limit after " + std::to_string(l.stored) +
                                                    " positions");
}

// Counts one more stored position against the limits: the limit reached, or None.
BudgetKind count_one(CastlingLimits& l) {
  ++l.stored;
  if (l.nodes && l.stored > l.nodes) return BudgetKind::Nodes;
  if (l.memory_bytes && l.stored * kCastlingNodeBytes > l.memory_bytes) return BudgetKind::Memory;
  if (l.deadline && (l.stored & 255) == 0 && std::chrono::steady_clock::now() >= *l.deadline) return BudgetKind::Time;
  return BudgetKind::None;
}

}  // namespace

PositionKey position_key(const Position& p) {
  PositionKey k;
  for (int s = 0; s < 64; ++s) {
    const auto code = static_cast<std::uint64_t>(p.piece_on(square_at(s)));
    k.squares[static_cast<std::size_t>(s / 16)] |= code << (4 * (s % 16));
  }
  const auto ep = p.en_passant();
  k.rest = static_cast<std::uint64_t>(p.side_to_move() == Color::White ? 0 : 1) |
           static_cast<std::uint64_t>(p.castling_rights()) << 1 |
           static_cast<std::uint64_t>(ep ? to_index(*ep) + 1 : 0) << 8;
  return k;
}

Status castling_search(const Position& root, CastlingMemo& memo, const ValuesOf& values_of) {
  const std::uint8_t rights = root.castling_rights();
  std::vector<Position> nodes{root};
  std::unordered_map<PositionKey, std::uint32_t, PositionKeyHash> id{{position_key(root), 0}};
  CastlingLimits& limits = memo.limits;
  if (const BudgetKind why = count_one(limits); why != BudgetKind::None) return ran_out(root, limits, why);
  std::vector<std::vector<std::uint32_t>> preds(1);
  std::vector<Values> dist(1);
  for (std::size_t u = 0; u < nodes.size(); ++u) {
    const Position pu = nodes[u];
    const MoveList moves = pu.legal_moves();
    Values best{{DthmCode::kUnknown, DthmCode::kUnknown}};
    if (moves.empty()) {
      const bool mate = pu.in_check();
      for (Color x : {Color::White, Color::Black}) best[x] = (mate && x == pu.side_to_move()) ? 0 : kNone;
    }
    for (Move m : moves) {
      const Position pv = pu.after(m);
      std::optional<Values> solved;  // pv's exact values, when an earlier search of this request found them
      PositionKey k{};
      if (pv.castling_rights() == rights) {
        k = position_key(pv);
        // A position solved by an earlier search (from another root with these rights) is an exit
        // like a lost right: its values are final, so it is not searched again. Without this, the
        // searches from the many roots of one set of rights re-explored each other's positions.
        if (const auto hit = memo.values.find(k); hit != memo.values.end()) solved = hit->second;
      }
      if (pv.castling_rights() == rights && !solved) {
        auto [it, inserted] = id.try_emplace(k, static_cast<std::uint32_t>(nodes.size()));
        if (inserted) {
          if (const BudgetKind why = count_one(limits); why != BudgetKind::None) return ran_out(root, limits, why);
          nodes.push_back(pv);
          preds.emplace_back();
          dist.emplace_back();
        }
        preds[it->second].push_back(static_cast<std::uint32_t>(u));
      } else {
        auto v = solved ? Result<Values>(*solved) : values_of(pv);
        if (!v) return v.error();
        for (Color x : {Color::White, Color::Black}) {
          auto cr = plus((*v)[x], 1);
          if (!cr) return cr.error();
          const std::uint8_t c = *cr;
          if (c <= DthmCode::kMaxDthm && (best[x] == DthmCode::kUnknown || c < best[x])) best[x] = c;
        }
      }
    }
    dist[u] = best;
  }
  // Integer-bucket shortest paths over the internal edges (weight 1), per target.
  for (Color x : {Color::White, Color::Black}) {
    std::vector<std::vector<std::uint32_t>> bucket(DthmCode::kMaxDthm + 2);
    for (std::uint32_t u = 0; u < nodes.size(); ++u)
      if (dist[u][x] <= DthmCode::kMaxDthm) bucket[dist[u][x]].push_back(u);
    for (int d = 0; d <= DthmCode::kMaxDthm; ++d) {
      for (std::size_t k = 0; k < bucket[static_cast<std::size_t>(d)].size(); ++k) {
        const std::uint32_t u = bucket[static_cast<std::size_t>(d)][k];
        if (dist[u][x] != d) continue;  // stale entry
        for (std::uint32_t p : preds[u]) {
          std::uint8_t& dp = dist[p][x];
          if (dp == kNone) continue;  // terminal
          if (dp == DthmCode::kUnknown || dp > d + 1) {
            dp = static_cast<std::uint8_t>(d + 1);
            if (d + 1 <= DthmCode::kMaxDthm) bucket[static_cast<std::size_t>(d + 1)].push_back(p);
          }
        }
      }
    }
    for (auto& v : dist)
      if (v[x] == DthmCode::kUnknown) v[x] = kNone;
  }
  for (std::size_t u = 0; u < nodes.size(); ++u) memo.values[position_key(nodes[u])] = dist[u];
  return Ok{};
}

}  // namespace deadpos::internal
