// The un-move generator of the solver's push pass (generator/src/push.h, for_each_unmove),
// checked against forward move generation (core's Position::legal_moves), which shares no code
// with it.
//
// For each material below and each sampled index value P (a legal position: the side not to move
// not in check) with either side to move:
//   * soundness: every un-move (man j back to `from`, predecessor Q) is a legal position with the
//     mover to move, and Q has a legal move from `from` to j's square that is neither a capture nor
//     a promotion and reaches exactly P; a double push is flagged as such, and only a double push;
//   * completeness: the oracle below tries every man of the mover on every empty square and keeps
//     the placements Q that are legal and have such a move into P; that set equals the generated
//     one (nothing missing, nothing twice).
// Materials: pieces only (KRvK, KBNvK), pawns (KPvK, KPvKP: double pushes that give an en passant
// capture, pawns on the seventh rank whose promotions are exits, not un-moves), identical men
// (KNNvK).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "deadpos/index.h"
#include "deadpos/material.h"
#include "deadpos/position.h"
#include "push.h"
#include "rows.h"

namespace deadpos {
namespace {

using UnmoveSet = std::set<std::tuple<int, int, bool>>;  // (man, from square, double push)

Position position_of(const TableIndex& idx, const TableIndex::Squares& sq, Color stm) {
  std::array<Piece, kMaxTableMen> pcs{};
  for (int j = 0; j < idx.men(); ++j) pcs[static_cast<std::size_t>(j)] = idx.piece(j);
  return Position::from_men(pcs.data(), sq.data(), idx.men(), stm);
}

// Legal as a table position: the side not to move is not in check.
bool legal(const Position& pos) {
  const Color them = ~pos.side_to_move();
  return !pos.attacked_by(pos.side_to_move(), pos.king_square(them), pos.pieces());
}

bool same_board(const Position& a, const Position& b) {
  if (a.side_to_move() != b.side_to_move()) return false;
  for (int s = 0; s < 64; ++s)
    if (a.piece_on(square_at(s)) != b.piece_on(square_at(s))) return false;
  return true;
}

// The quiet legal move of q from `from` to `to`, if any (no capture: `to` is empty in q; no
// promotion).
bool has_quiet_move(const Position& q, Square from, Square to, Move& found) {
  for (Move m : q.legal_moves()) {
    if (m.from() != from || m.to() != to) continue;
    if (m.kind() == Move::Kind::Promotion || m.kind() == Move::Kind::EnPassant) continue;
    if (q.piece_on(to) != kNoPiece) continue;
    found = m;
    return true;
  }
  return false;
}

// The oracle: every man of the mover on every empty square, kept when the placement is a legal
// position with a quiet legal move into p.
UnmoveSet oracle(const TableIndex& idx, const TableIndex::Squares& sq, const Position& p) {
  UnmoveSet out;
  const Color mover = ~p.side_to_move();
  for (int j = 0; j < idx.men(); ++j) {
    const Piece pc = idx.piece(j);
    if (color_of(pc) != mover) continue;
    const Square to = sq[static_cast<std::size_t>(j)];
    for (int f = 0; f < 64; ++f) {
      const Square from = square_at(f);
      if (p.piece_on(from) != kNoPiece) continue;
      if (type_of(pc) == PieceType::Pawn && (rank_index(from) == 0 || rank_index(from) == 7)) continue;
      TableIndex::Squares qs = sq;
      qs[static_cast<std::size_t>(j)] = from;
      const Position q = position_of(idx, qs, mover);
      if (!legal(q)) continue;
      Move m;
      if (!has_quiet_move(q, from, to, m)) continue;
      if (!same_board(q.after(m), p)) continue;
      const bool dbl = type_of(pc) == PieceType::Pawn && std::abs(rank_index(from) - rank_index(to)) == 2;
      out.insert({j, f, dbl});
    }
  }
  return out;
}

struct Counts {
  std::uint64_t positions = 0;
  std::uint64_t unmoves = 0;
  std::uint64_t double_pushes = 0;
};

// Checks the sampled index values i = first, first + step, ... of key with both sides to move.
Counts check_material(const char* key, std::uint64_t step) {
  const Result<Material> mat = Material::parse(key);
  EXPECT_TRUE(mat.ok()) << key;
  const Result<TableIndex> idx_r = TableIndex::make(*mat);
  EXPECT_TRUE(idx_r.ok()) << key;
  const TableIndex& idx = *idx_r;
  const internal::RowGeometry geo(idx);
  Counts c;
  TableIndex::Squares sq{};
  for (std::uint64_t i = 0; i < idx.size(); i += step) {
    if (!idx.decode(i, sq)) continue;
    for (Color s : {Color::White, Color::Black}) {
      const Position p = position_of(idx, sq, s);
      if (!legal(p)) continue;
      ++c.positions;
      UnmoveSet got;
      int twice = 0;
      internal::for_each_unmove(geo, sq, s, [&](int j, Square from, bool dbl, const TableIndex::Squares& q) {
        if (!got.insert({j, to_index(from), dbl}).second) ++twice;
        // Soundness, move by move (the oracle's set comparison below names the position).
        const Position qp = position_of(idx, q, ~s);
        EXPECT_TRUE(legal(qp)) << key << ": un-move to an illegal position " << qp.to_fen();
        Move m;
        EXPECT_TRUE(has_quiet_move(qp, from, sq[static_cast<std::size_t>(j)], m))
            << key << ": " << qp.to_fen() << " has no quiet legal move into " << p.to_fen();
        if (has_quiet_move(qp, from, sq[static_cast<std::size_t>(j)], m)) {
          EXPECT_TRUE(same_board(qp.after(m), p)) << key << ": " << qp.to_fen() << " does not reach " << p.to_fen();
        }
      });
      EXPECT_EQ(twice, 0) << key << ": an un-move generated twice in " << p.to_fen();
      const UnmoveSet want = oracle(idx, sq, p);
      EXPECT_EQ(got, want) << key << ": un-moves of " << p.to_fen() << " (generated " << got.size() << ", legal "
                           << want.size() << ")";
      if (got != want) return c;  // one position's report is enough
      c.unmoves += got.size();
      for (const auto& u : got) c.double_pushes += std::get<2>(u) ? 1 : 0;
    }
  }
  return c;
}

TEST(PushUnmoves, PiecesOnly) {
  const Counts a = check_material("KRvK", 7);
  const Counts b = check_material("KBNvK", 409);
  EXPECT_GT(a.positions, 1000U);
  EXPECT_GT(b.positions, 1000U);
  EXPECT_GT(a.unmoves + b.unmoves, 10000U);
}

TEST(PushUnmoves, IdenticalMen) {
  const Counts c = check_material("KNNvK", 211);
  EXPECT_GT(c.positions, 1000U);
}

TEST(PushUnmoves, PawnsWithDoublePushesAndPromotionRanks) {
  const Counts a = check_material("KPvK", 3);
  const Counts b = check_material("KPvKP", 331);
  EXPECT_GT(a.positions + b.positions, 10000U);
  EXPECT_GT(a.double_pushes, 100U);
  EXPECT_GT(b.double_pushes, 100U);
}

// Every double push in KPvKP that gives an en passant capture: the white pawn on its fourth rank
// beside the black pawn (Black to move), over the whole index, not a sample.
TEST(PushUnmoves, EnPassantRelevantDoublePushes) {
  const Result<Material> mat = Material::parse("KPvKP");
  ASSERT_TRUE(mat.ok());
  const Result<TableIndex> idx_r = TableIndex::make(*mat);
  ASSERT_TRUE(idx_r.ok());
  const TableIndex& idx = *idx_r;
  const internal::RowGeometry geo(idx);
  TableIndex::Squares sq{};
  std::uint64_t checked = 0;
  std::uint64_t doubles = 0;
  for (std::uint64_t i = 0; i < idx.size() && checked < 3000; i += 5) {
    if (!idx.decode(i, sq)) continue;
    Square wp = sq[2], bp = sq[3];
    if (color_of(idx.piece(2)) != Color::White) std::swap(wp, bp);
    if (rank_index(wp) != 3 || rank_index(bp) != 3 || std::abs(file_index(wp) - file_index(bp)) != 1) continue;
    const Position p = position_of(idx, sq, Color::Black);
    if (!legal(p)) continue;
    ++checked;
    UnmoveSet got;
    internal::for_each_unmove(geo, sq, Color::Black, [&](int j, Square from, bool dbl, const TableIndex::Squares&) {
      got.insert({j, to_index(from), dbl});
      doubles += dbl ? 1 : 0;
    });
    const UnmoveSet want = oracle(idx, sq, p);
    ASSERT_EQ(got, want) << "un-moves of " << p.to_fen();
  }
  EXPECT_GT(checked, 500U);
  EXPECT_GT(doubles, 100U);
}

}  // namespace
}  // namespace deadpos
