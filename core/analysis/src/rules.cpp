// The rules of rules.h: a lone king, bishops of one colour, and no checkmate placement of a small
// pawnless material (docs/design.md, "Beyond the tables", gives each soundness argument).
#include "rules.h"

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "deadpos/material.h"

namespace deadpos::internal {

namespace {

// Whether some placement of the pawnless material m is a checkmate of `mated` (`mated` to move,
// the other side not in check). Enumerates every placement with the mated king on one of the 10
// squares of the a1-d1-d4 triangle: the 8 board symmetries map checkmates to checkmates when
// there are no pawns (and a checkmate never depends on castling rights). Placements in which no
// piece of the mating side attacks the mated king on an empty board are cut early (pieces placed
// later can only block lines). About 10 * 63 * 62 * 61 placements for 4 men: callers limit men.
bool has_checkmate_placement(const Material& m, Color mated) {
  const Color w = ~mated;
  std::vector<Piece> men{make_piece(mated, PieceType::King)};
  for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
    for (int k = 0; k < m.count[w][pt]; ++k) men.push_back(make_piece(w, pt));
  const std::size_t checkers_end = men.size();
  men.push_back(make_piece(w, PieceType::King));
  for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
    for (int k = 0; k < m.count[mated][pt]; ++k) men.push_back(make_piece(mated, pt));
  if (checkers_end == 1) return false;                                            // a lone king never gives check
  constexpr std::array<int, 10> kTriangle = {0, 1, 2, 3, 9, 10, 11, 18, 19, 27};  // a1 b1 c1 d1 b2 c2 d2 c3 d3 d4
  std::array<Square, 8> sq{};
  const int n = static_cast<int>(men.size());
  // Depth-first over the men; `used` holds the squares taken so far.
  auto place = [&](auto&& self, int i, Bitboard used) -> bool {
    if (i == n) {
      const Position p = Position::from_men(men.data(), sq.data(), n, mated);
      if (p.attacked_by(mated, p.king_square(w), p.pieces())) return false;  // the mater in check: illegal
      return p.in_check() && !p.has_legal_move();
    }
    if (static_cast<std::size_t>(i) == checkers_end) {
      // Every checking candidate is placed: one must attack the king square on an empty board.
      bool any = false;
      for (std::size_t j = 1; j < checkers_end; ++j)
        any = any || (piece_attacks(type_of(men[j]), sq[j], square_bb(sq[0])) & square_bb(sq[0]));
      if (!any) return false;
    }
    for (int s = 0; s < 64; ++s) {
      if (i == 0 && std::find(kTriangle.begin(), kTriangle.end(), s) == kTriangle.end()) continue;
      const Square q = square_at(s);
      if (used & square_bb(q)) continue;
      if (type_of(men[static_cast<std::size_t>(i)]) == PieceType::King && i > 0 && (king_attacks(sq[0]) & square_bb(q)))
        continue;
      sq[static_cast<std::size_t>(i)] = q;
      if (self(self, i + 1, used | square_bb(q))) return true;
    }
    return false;
  };
  return place(place, 0, 0);
}

// Whether no placement of m, nor of any material left from it by captures, is a checkmate of
// `mated` (pawnless materials of at most kMaxEnumeratedMen men only; nullopt otherwise). Computed
// once per material and side per process.
constexpr int kMaxEnumeratedMen = 4;
std::optional<bool> no_checkmate_placement(const Material& m, Color mated) {
  if (m.has_pawns() || m.men() > kMaxEnumeratedMen) return std::nullopt;
  static std::mutex mu;
  static std::map<std::uint64_t, bool> memo;
  std::uint64_t key = mated == Color::White ? 0 : 1;  // the counts, 4 bits each, and the side
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt : kMaterialOrder) key = (key << 4) | static_cast<std::uint64_t>(m.count[c][pt]);
  {
    std::lock_guard lock(mu);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  bool none = !has_checkmate_placement(m, mated);
  for (Color c : {Color::White, Color::Black}) {
    for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
      if (!none || m.count[c][pt] == 0) continue;
      Material sub = m;
      --sub.count[c][pt];
      none = *no_checkmate_placement(sub, mated);
    }
  }
  std::lock_guard lock(mu);
  memo.emplace(key, none);
  return none;
}

// The men counts of p by colour and type, 4 bits each: a cheap material identity.
std::uint64_t material_code(const Position& p) {
  std::uint64_t code = 0;
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < 5; ++t)
      code = (code << 4) | static_cast<std::uint64_t>(popcount(p.pieces(c, static_cast<PieceType>(t))));
  return code;
}

}  // namespace

AnalysisRule cannot_mate_rule(const Position& p, Color mated, RuleCache* cache) {
  const Color w = ~mated;
  // A king never gives check (kings never stand adjacent), and without a pawn the mating side
  // can never get another man.
  if (p.pieces(w) == p.pieces(w, PieceType::King)) return AnalysisRule::LoneKing;
  // Only kings and bishops, all bishops on one colour, no pawns: the squares next to the mated
  // king orthogonally are of the other colour, and only the mating king could cover them.
  const Bitboard men = p.pieces() & ~p.pieces(PieceType::King);
  if (men == p.pieces(PieceType::Bishop) && ((men & kLightSquares) == men || (men & kDarkSquares) == men)) {
    return AnalysisRule::SameColouredBishops;
  }
  // The mater has only bishops, all on one colour; the mated side only queens, rooks and bishops
  // of that colour; no pawns, no knights: the check is a single bishop check, and a queen or rook
  // next to the mated king can always take or block it.
  const Bitboard wb = p.pieces(w, PieceType::Bishop);
  if (wb && p.pieces(w) == (wb | p.pieces(w, PieceType::King)) && !p.pieces(PieceType::Pawn) &&
      !p.pieces(PieceType::Knight)) {
    const Bitboard colour = (wb & kLightSquares) ? kLightSquares : kDarkSquares;
    if (!(wb & ~colour) && !(p.pieces(mated, PieceType::Bishop) & ~colour)) return AnalysisRule::OneColourBishops;
  }
  if (p.men() <= kMaxEnumeratedMen && !p.pieces(PieceType::Pawn)) {
    bool none;
    const std::uint64_t code = cache ? material_code(p) : 0;
    if (cache && cache->code == code) {
      none = cache->none;
    } else {
      none = no_checkmate_placement(Material::of(p), mated) == true;
      if (cache) *cache = RuleCache{code, none};
    }
    if (none) return AnalysisRule::NoCheckmatePlacement;
  }
  return AnalysisRule::None;
}

}  // namespace deadpos::internal
