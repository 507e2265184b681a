// The locked-structure rule of locks.h. Two steps, both over-approximations of the future:
//  1. The frozen pawns: the largest set F of pawns such that, if every pawn of F stayed where it
//     is, no pawn of F could ever move or be taken. Computed as a greatest fixpoint: start with
//     every pawn, compute where every other man could ever go with F as walls, drop each pawn of F
//     that one of them could take, capture with, or unblock, and repeat until nothing drops.
//  2. The mate test: with F as walls, no square the mated king can ever reach is one where a
//     checkmate can be built (no man of the other side can ever attack it, or it always keeps a
//     neighbour square that no man of the other side can ever attack and the mated side's own
//     men can never all fill).
// When that fails and the kings are confined, a precise path: the exact fixpoint with the pairs
// of squares the two kings can stand on together, a capture of a frozen pawn by a king allowed
// only where it does not end the game in stalemate, and, for a side that can only ever move its
// king, the last move that a mate would need.
// docs/design.md, "Locked structures", proves every step sound.
#include "locks.h"

#include <array>
#include <string>

namespace deadpos::internal {

namespace {

constexpr Bitboard kFileA = file_bb(0), kFileH = file_bb(7);

Bitboard bit(Square s) { return square_bb(s); }

// One king step in every direction from every square of b (b itself not included).
Bitboard king_spread(Bitboard b) {
  const Bitboard row = b | ((b << 1) & ~kFileA) | ((b >> 1) & ~kFileH);
  return (row | (row << 8) | (row >> 8)) & ~b;
}

Bitboard pawn_push(Color c, Bitboard b) { return c == Color::White ? b << 8 : b >> 8; }
Bitboard last_rank(Color c) { return c == Color::White ? rank_bb(7) : rank_bb(0); }

// Where a man could ever stand and what it could ever attack, with `walls` (the frozen pawns) the
// only obstacles: other men move, so they are ignored (an over-approximation).
struct Reach {
  Bitboard region = 0;
  Bitboard attacks = 0;
};

// A piece that moves as `pt` (queen and knight moves both for `any`: a promoted pawn), from `start`.
Reach piece_reach(PieceType pt, bool any, Bitboard start, Bitboard walls) {
  unsigned moves = kFloodKnight;
  if (any || pt == PieceType::Queen) {
    moves = kFloodRook | kFloodBishop | (any ? kFloodKnight : 0U);
  } else if (pt == PieceType::Rook) {
    moves = kFloodRook;
  } else if (pt == PieceType::Bishop) {
    moves = kFloodBishop;
  }
  const Flood f = flood(start, walls, moves);
  return Reach{f.region, f.attacks};
}

// The floods of a promoted piece (queen and knight moves) with one set of walls, remembered: such
// a flood is a union of classes of an equivalence (its moves are symmetric), so the flood from a
// square already inside a remembered one is that one, and each round computes one flood per class
// met instead of one per pawn.
class PromotionFloods {
 public:
  explicit PromotionFloods(Bitboard walls) : walls_(walls) {}
  Reach from(Bitboard squares) {
    Reach r;
    for (Bitboard b = squares; b;) {
      const Square s = pop_lsb(b);
      std::size_t i = 0;
      while (i < n_ && !(floods_[i].region & bit(s))) ++i;
      if (i == n_) {
        if (n_ == floods_.size()) {  // more classes than slots: compute without remembering
          const Reach q = piece_reach(PieceType::Queen, true, bit(s), walls_);
          r.region |= q.region;
          r.attacks |= q.attacks;
          continue;
        }
        floods_[n_++] = piece_reach(PieceType::Queen, true, bit(s), walls_);
      }
      r.region |= floods_[i].region;
      r.attacks |= floods_[i].attacks;
    }
    return r;
  }

 private:
  Bitboard walls_;
  std::array<Reach, 16> floods_{};
  std::size_t n_ = 0;
};

// A pawn of colour c on s that is not frozen: its pushes (and double step) and captures, as if a
// man to take were always there, then on the last rank any piece from every square it reaches.
Reach pawn_reach(Color c, Square s, Bitboard walls, PromotionFloods& promotions) {
  const Bitboard start_rank = c == Color::White ? rank_bb(1) : rank_bb(6);
  Bitboard region = bit(s);
  for (;;) {
    const Bitboard movers = region & ~last_rank(c);
    const Bitboard single = pawn_push(c, movers) & ~walls;
    const Bitboard twice = pawn_push(c, pawn_push(c, movers & start_rank) & ~walls) & ~walls;
    const Bitboard next = region | single | twice | (pawn_attacks_bb(c, movers) & ~walls);
    if (next == region) break;
    region = next;
  }
  Reach r{region, pawn_attacks_bb(c, region & ~last_rank(c))};
  if (const Bitboard promo = region & last_rank(c)) {
    const Reach q = promotions.from(promo);
    r.region |= q.region;
    r.attacks |= q.attacks;
  }
  return r;
}

std::string square_list(Bitboard b) {
  std::string out;
  for (Bitboard x = b; x;) {
    if (!out.empty()) out += ", ";
    out += square_name(pop_lsb(x));
  }
  return out;
}

// Every man's reach with F = `frozen` as walls.
struct Reaches {
  ByColor<Bitboard> king_region{};
  ByColor<Bitboard> frozen_pawn_attacks{};      // squares the frozen pawns of a side attack
  ByColor<Bitboard> occupy{};                   // squares some other man of a side could stand on
  ByColor<Bitboard> attack{};                   // squares some other man of a side could attack
  ByColor<Bitboard> diagonal{};                 // squares a man of a side moving diagonally could stand on
  ByColor<Bitboard> straight{};                 // the same for moves along ranks and files
  ByColor<std::array<Bitboard, 63>> regions{};  // each other man's region (at most 63 men)
  ByColor<int> men{};                           // how many of `regions` are used
  ByColor<Bitboard> boxed{};                    // men other than pawns whose region is their square
  // With `joint` (the exact fixpoint, early false): for each square a of the king of W = ~mated,
  // the squares X's king can stand on while W's king stands on a; the king regions are then this
  // relation's two projections.
  bool joint = false;
  std::array<Bitboard, 64> pairs{};
  ByColor<Bitboard> blocked{};  // with `joint`: the boxed men that can never be taken
};

// The pairs of squares the two kings could ever stand on together, with the walls `frozen`:
// from the kings' squares, either king steps (the other side may always have moved another man
// meanwhile) onto a square that is neither a wall, nor attacked by a frozen pawn of the other
// side, nor next to the other king, nor held by a boxed man of its own side that can never be
// taken (r.boxed outside the other side's attack sets; a boxed man next to the other king's
// region may be taken by it and opens its square). docs/design.md, "Locked structures", the two
// kings. Replaces r's king regions by the relation's projections.
void joint_kings(const Position& p, Bitboard frozen, Color mated, Reaches& r) {
  const Color w = ~mated;
  ByColor<Bitboard> blocked{};
  for (Color c : {Color::White, Color::Black}) blocked[c] = r.boxed[c] & ~(r.attack[~c] | r.frozen_pawn_attacks[~c]);
  for (;;) {
    const Bitboard allowed_w = ~frozen & ~r.frozen_pawn_attacks[mated] & ~blocked[w];
    const Bitboard allowed_x = ~frozen & ~r.frozen_pawn_attacks[w] & ~blocked[mated];
    std::array<Bitboard, 64> s{};
    const auto at = [](Square a) { return static_cast<std::size_t>(to_index(a)); };
    s[at(p.king_square(w))] = bit(p.king_square(mated));
    Bitboard active = bit(p.king_square(w));
    for (bool changed = true; changed;) {
      changed = false;
      for (Bitboard as = active; as;) {
        const Square a = pop_lsb(as);
        const Bitboard near = king_attacks(a) | bit(a);
        Bitboard xs = s[at(a)];
        for (;;) {
          const Bitboard next = xs | (king_spread(xs) & allowed_x & ~near);
          if (next == xs) break;
          xs = next;
        }
        changed = changed || xs != s[at(a)];
        s[at(a)] = xs;
        for (Bitboard to = king_attacks(a) & allowed_w; to;) {
          const Square a2 = pop_lsb(to);
          const Bitboard add = xs & ~king_attacks(a2) & ~bit(a2);
          if (add & ~s[at(a2)]) {
            s[at(a2)] |= add;
            active |= bit(a2);
            changed = true;
          }
        }
      }
    }
    Bitboard region_w = 0, region_x = 0;
    for (Bitboard as = active; as;) {
      const Square a = pop_lsb(as);
      if (s[at(a)]) region_w |= bit(a);
      region_x |= s[at(a)];
    }
    const Bitboard open_w = blocked[w] & king_spread(region_x), open_x = blocked[mated] & king_spread(region_w);
    if (!open_w && !open_x) {
      r.king_region[w] = region_w;
      r.king_region[mated] = region_x;
      r.pairs = s;
      r.blocked = blocked;
      r.joint = true;
      return;
    }
    blocked[w] &= ~open_w;
    blocked[mated] &= ~open_x;
  }
}

// With `mated` given, returns early (with *hopeless set and r incomplete) as soon as the other
// side's men computed so far leave some square of the mated king's region checked with no flight
// at all, walls counted as flights: the relaxed test of frozen_pawns() must then fail, since the
// remaining men only add checks and cover. The other side's men go first, queens and rooks first,
// so that on open boards one flood settles it. With `early` false, r is always complete.
Reaches reaches(const Position& p, Bitboard frozen, Color mated, bool early, bool* hopeless) {
  Reaches r;
  *hopeless = false;
  PromotionFloods promotions(frozen);
  for (Color c : {Color::White, Color::Black}) {
    r.frozen_pawn_attacks[c] = pawn_attacks_bb(c, frozen & p.pieces(c, PieceType::Pawn));
  }
  for (Color c : {Color::White, Color::Black}) {
    // The king keeps off the frozen pawns and the squares the other side's frozen pawns attack:
    // those pawns stay, so a king there would be in check.
    const Bitboard allowed = ~frozen & ~r.frozen_pawn_attacks[~c];
    Bitboard king = bit(p.king_square(c));
    for (;;) {
      const Bitboard next = king | (king_spread(king) & allowed);
      if (next == king) break;
      king = next;
    }
    r.king_region[c] = king;
  }
  const Color w = ~mated;
  const Bitboard king_cover = king_spread(r.king_region[w]) | r.frozen_pawn_attacks[w];
  for (Color c : {w, mated}) {
    for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn}) {
      for (Bitboard men = p.pieces(c, pt) & ~frozen; men;) {
        const Square s = pop_lsb(men);
        const Reach m =
            pt == PieceType::Pawn ? pawn_reach(c, s, frozen, promotions) : piece_reach(pt, false, bit(s), frozen);
        r.occupy[c] |= m.region;
        r.attack[c] |= m.attacks;
        r.regions[c][static_cast<std::size_t>(r.men[c]++)] = m.region;
        // A pawn that can move may promote to either kind of line piece.
        if (pt != PieceType::Rook && pt != PieceType::Knight) r.diagonal[c] |= m.region;
        if (pt != PieceType::Bishop && pt != PieceType::Knight) r.straight[c] |= m.region;
        if (pt != PieceType::Pawn && m.region == bit(s)) r.boxed[c] |= bit(s);
        if (c != w || !early) continue;
        const Bitboard cover = r.attack[w] | king_cover;
        for (Bitboard ks = r.king_region[mated] & (r.attack[w] | r.frozen_pawn_attacks[w]); ks;) {
          if (!(king_attacks(pop_lsb(ks)) & ~cover)) {
            *hopeless = true;
            return r;
          }
        }
      }
    }
  }
  if (!early) joint_kings(p, frozen, mated, r);
  return r;
}

// Whether the men whose regions are `regions` can stand on every square of `need` at once: Hall's
// condition over the subsets of `need` (at most 8 squares, the neighbours of a king square).
bool can_fill(const std::array<Bitboard, 63>& regions, int count, Bitboard need) {
  std::array<Square, 8> sq{};
  int n = 0;
  for (Bitboard b = need; b;) sq[static_cast<std::size_t>(n++)] = pop_lsb(b);
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    Bitboard t = 0;
    for (int i = 0; i < n; ++i)
      if (mask & (1u << i)) t |= bit(sq[static_cast<std::size_t>(i)]);
    int men = 0;
    for (int i = 0; i < count; ++i) men += (regions[static_cast<std::size_t>(i)] & t) != 0;
    if (men < popcount(t)) return false;
  }
  return true;
}

// Step 2's test for X = mated with the walls `frozen` and the reaches r computed with them: true
// when no square of X's king region can hold a checkmate of X. With `frozen_flights` false,
// squares of `frozen` count as flights too (the relaxed test of frozen_pawns()).
bool no_mate_square(const Reaches& r, Bitboard frozen, Color mated, bool frozen_flights) {
  const Color w = ~mated;
  const Bitboard check = r.attack[w] | r.frozen_pawn_attacks[w];
  const Bitboard cover = check | king_spread(r.king_region[w]);
  const Bitboard walls = frozen_flights ? frozen : 0;
  // A checkmate with the king on k needs a check on k and every neighbour of k taken from the
  // king: a wall, a square the other side attacks, or one of the mated side's own men.
  for (Bitboard ks = r.king_region[mated] & check; ks;) {
    const Square k = pop_lsb(ks);
    const Bitboard flights = king_attacks(k) & ~walls & ~cover;
    if (!flights || can_fill(r.regions[mated], r.men[mated], flights)) return false;
  }
  return true;
}

// Rule (iii)'s test for the other king: the pawn of c on s is next to the region of e's king and
// not always defended (defended: attacked by a frozen pawn of c, or c's king's whole region lies
// next to it; kings are never taken and never stand next to each other).
bool king_near_undefended(const Reaches& r, Square s, Color c) {
  const bool defended = (r.frozen_pawn_attacks[c] & bit(s)) || !(r.king_region[c] & ~king_attacks(s));
  return (king_spread(r.king_region[~c]) & bit(s)) && !defended;
}

// Whether the only man of side c that can ever move is its king, with r's walls `frozen`.
bool king_only(const Position& p, const Reaches& r, Bitboard frozen, Color c) {
  const Bitboard pieces = p.pieces(c) & ~p.pieces(PieceType::King) & ~p.pieces(PieceType::Pawn);
  return !(p.pieces(c, PieceType::Pawn) & ~frozen) && !(pieces & ~r.boxed[c]);
}

// Whether a line piece of side e could give check to a king on kc when e's king leaves `from`
// (a discovered check): `from` on a line with kc, no wall between, and a square beyond it on that
// line, before a wall, where a man of e moving along such lines could stand.
bool may_discover(const Reaches& r, Bitboard frozen, Color e, Square kc, Square from) {
  const Bitboard line = line_bb(kc, from);
  if (!line || (between_bb(kc, from) & frozen)) return false;
  const bool straight =
      ((rank_bb(static_cast<int>(rank_of(kc))) | file_bb(static_cast<int>(file_of(kc)))) & bit(from)) != 0;
  const Bitboard seen = (straight ? rook_attacks(kc, frozen) : bishop_attacks(kc, frozen)) & line;
  for (Bitboard sq = seen & (straight ? r.straight[e] : r.diagonal[e]); sq;) {
    if (between_bb(kc, pop_lsb(sq)) & bit(from)) return true;
  }
  return false;
}

// With the kings' pairs (r.joint): whether the king of e = ~c could ever take the pawn of c on s
// in a move after which the game goes on. It steps onto s from a square next to it while c's king
// stands on a square kc not next to s; when c can only ever move its king and that king then has
// no square to step to (walls, squares e's frozen pawns attack, c's men that can never be taken,
// the squares next to s), no frozen pawn of c had e's king on the square in front of it (that
// pawn may now advance), and no line piece of e can be uncovered onto c's king, the capture is
// stalemate and ends the game (FIDE 5.2.2), so no sequence to a checkmate passes through it.
bool king_may_take(const Position& p, const Reaches& r, Bitboard frozen, Color mated, Square s, Color c) {
  const Color e = ~c, w = ~mated;
  const bool only_king = king_only(p, r, frozen, c);
  // Frozen pawns of e count only where a frozen pawn of e defends them: e's king, now on s, has
  // left its region, so the region's defence of them no longer holds.
  const Bitboard stuck = (frozen & p.pieces(c)) | r.frozen_pawn_attacks[e] | r.blocked[c] | king_attacks(s) | bit(s);
  // A frozen pawn of c held by e's king (rule (i): the square in front is a king that never
  // steps anywhere else) is free to advance once that king has gone to take on s.
  const Bitboard c_pawns = frozen & p.pieces(c, PieceType::Pawn);
  const Bitboard held_by_king = c == Color::White ? c_pawns << 8 : c_pawns >> 8;
  const auto goes_on = [&](Square kc, Square ke) {
    return !only_king || (king_attacks(kc) & ~stuck) || (held_by_king & bit(ke)) || may_discover(r, frozen, e, kc, ke);
  };
  const Bitboard near = king_attacks(s) | bit(s);
  for (Bitboard as = r.king_region[w]; as;) {
    const Square a = pop_lsb(as);
    const Bitboard xs = r.pairs[static_cast<std::size_t>(to_index(a))];
    if (e == w) {
      if (!(king_attacks(s) & bit(a))) continue;
      for (Bitboard kc = xs & ~near; kc;)
        if (goes_on(pop_lsb(kc), a)) return true;
    } else {
      if (near & bit(a)) continue;
      for (Bitboard ke = xs & king_attacks(s); ke;)
        if (goes_on(a, pop_lsb(ke))) return true;
    }
  }
  return false;
}

// The precise path's pre-test: the two kings, flooded with every pawn that has a pawn or a king
// in front as a wall (and kept off the squares such pawns of the other side attack), together
// reach at most kConfined squares.
constexpr int kConfined = 48;
bool kings_confined(const Position& p) {
  const Bitboard pawns = p.pieces(PieceType::Pawn), stops = pawns | p.pieces(PieceType::King);
  Bitboard held = 0;
  for (Color c : {Color::White, Color::Black})
    held |= p.pieces(c, PieceType::Pawn) & (c == Color::White ? stops >> 8 : stops << 8);
  int squares = 0;
  for (Color c : {Color::White, Color::Black}) {
    const Bitboard allowed = ~held & ~pawn_attacks_bb(~c, held & p.pieces(~c));
    Bitboard king = bit(p.king_square(c));
    for (;;) {
      const Bitboard next = king | (king_spread(king) & allowed);
      if (next == king) break;
      king = next;
    }
    squares += popcount(king);
  }
  return squares <= kConfined;
}

// Step 1: the greatest set of pawns that stay forever, given that they all do.
// Starts from a superset of it: the pawns whose square in front holds a pawn of that set or a
// king (a pawn with a free square in front is dropped in the first round anyway). The iteration
// shrinks every set that contains the greatest fixpoint to a fixpoint that still contains it,
// hence to it. Returns 0 early when the mate test cannot succeed: every round's set contains the
// greatest fixpoint, and with more walls the regions, attack sets and cover only shrink, so
// no_mate_square(..., false) failing for the round's set (where a wall may count as a flight, a
// superset of the final flights, filled by fewer men with smaller regions) means that step 2
// fails for the fixpoint too. With `early` false it never returns early (the last-move test below
// proves more than no_mate_square, so the early exits, which assume step 2 is no_mate_square, do
// not hold for it) and r is the reaches of the fixpoint.
Bitboard frozen_pawns(const Position& p, Color mated, Reaches& r, bool early) {
  const Bitboard pawns = p.pieces(PieceType::Pawn), kings = p.pieces(PieceType::King);
  Bitboard frozen = pawns;
  for (;;) {
    Bitboard held = 0;
    for (Bitboard f = frozen; f;) {
      const Square s = pop_lsb(f);
      if (pawn_push(color_of(p.piece_on(s)), bit(s)) & (frozen | kings)) held |= bit(s);
    }
    if (held == frozen) break;
    frozen = held;
  }
  while (frozen) {
    bool hopeless = false;
    r = reaches(p, frozen, mated, early, &hopeless);
    if (early && (hopeless || !no_mate_square(r, frozen, mated, false))) return 0;
    Bitboard drop = 0;
    for (Bitboard f = frozen; f;) {
      const Square s = pop_lsb(f);
      const Color c = color_of(p.piece_on(s)), e = ~c;
      // It could move forward: the square in front is not held for ever by a frozen pawn or by a
      // king that can never move.
      const Bitboard front = pawn_push(c, bit(s));
      bool held = (front & frozen) != 0;
      for (Color k : {Color::White, Color::Black}) held = held || r.king_region[k] == front;
      // It could capture: a man of the other side (not its king) could stand where it takes.
      const bool captures = (pawn_attacks_bb(c, bit(s)) & (r.occupy[e] | (frozen & p.pieces(e)))) != 0;
      // It could be taken: by a man that could attack its square (a frozen pawn of the other side
      // that attacks it is one too), or by the other king, unless the square is always defended
      // (the king would stand in check there): by a frozen pawn of its own side, or by its own
      // king when every square that king can reach is next to it (kings are never taken).
      const bool taken = ((r.attack[e] | r.frozen_pawn_attacks[e]) & bit(s)) != 0 ||
                         (king_near_undefended(r, s, c) && (!r.joint || king_may_take(p, r, frozen, mated, s, c)));
      if (!held || captures || taken) drop |= bit(s);
    }
    if (!drop) return frozen;
    frozen &= ~drop;
  }
  return 0;
}

// The last-move test (docs/design.md, "Locked structures", the last move), for a side X = mated
// whose only man that can ever move is its king (every pawn of X frozen, every other man of X
// boxed in for ever by the walls), a position without castling rights and the kings' pairs of r:
// whether no checkmate of X with X's king on k can ever occur, when the flight test alone cannot
// show it. `jk`: the squares W's king can stand on while X's king is on k. The flights of k that
// no man of W other than its king can ever attack and that no man of X stands on must be covered
// by W's king, from a square of `kset`. Then either W's last move was a king move onto kset,
// which gives check only by uncovering a line piece, or W's king already stood on kset when X's
// king stepped onto k from a neighbour t, which therefore was not next to it and is a flight at
// the mate unless W can attack or occupy it.
bool last_move_excludes(const Position& p, const Reaches& r, Bitboard frozen, Color mated, Square k, Bitboard jk,
                        Bitboard* kings) {
  const Color w = ~mated;
  const Bitboard attackable = r.attack[w] | r.frozen_pawn_attacks[w];
  const Bitboard own = p.pieces(mated) & ~p.pieces(PieceType::King) & ~frozen;
  const Bitboard need = king_attacks(k) & ~frozen & ~attackable & ~own;
  if (!need) return false;
  Bitboard kset = jk;
  for (Bitboard n = need; n;) kset &= king_attacks(pop_lsb(n));
  if (!kset) return true;
  *kings |= kset;
  // At the root itself X's king may already stand on k with W to move and W's king on kset: a
  // mate at once, with no last move of X. (With W's king elsewhere, a mate on W's first move
  // is a king move onto kset, the first case below; a later one follows a move of X's king.)
  if (p.side_to_move() == w && p.king_square(mated) == k && (kset & bit(p.king_square(w)))) return false;
  const auto at = [](Square a) { return static_cast<std::size_t>(to_index(a)); };
  // W's last move a king move from o (a square W's king can stand on while X's king is on k)
  // onto kset, uncovering a line from a line piece of W beyond o through o to k.
  for (Bitboard q = kset; q;) {
    for (Bitboard o = king_attacks(pop_lsb(q)) & r.king_region[w]; o;) {
      const Square from = pop_lsb(o);
      if ((r.pairs[at(from)] & bit(k)) && may_discover(r, frozen, w, k, from)) return false;
    }
  }
  // W's king already on a square kq of kset when X's king stepped from t onto k (so the pair
  // (kq, t) occurs), and at the mate t is empty and attacked by another man of W, or holds one.
  for (Bitboard t = king_attacks(k) & r.king_region[mated] & (attackable | r.occupy[w]); t;) {
    const Bitboard from = bit(pop_lsb(t));
    for (Bitboard q = kset; q;) {
      if (r.pairs[at(pop_lsb(q))] & from) return false;
    }
  }
  return true;
}

// Step 2 on the kings' pairs of r (r.joint), with the last-move test added where `last_move`:
// the squares of X's king region where a checkmate is not excluded; 0 when every square is. The
// flight test is no_mate_square's with W's king covering only the squares next to where it can
// stand while X's king is on k. Fills *by_last_move with the squares only the last-move test
// excluded.
Bitboard mate_squares_left(const Position& p, const Reaches& r, Bitboard frozen, Color mated, bool last_move,
                           Bitboard* by_last_move, Bitboard* kings) {
  const Color w = ~mated;
  const Bitboard check = r.attack[w] | r.frozen_pawn_attacks[w];
  Bitboard left = 0;
  *by_last_move = 0;
  *kings = 0;
  for (Bitboard ks = r.king_region[mated] & check; ks;) {
    const Square k = pop_lsb(ks);
    Bitboard jk = 0;
    for (Bitboard as = r.king_region[w]; as;) {
      const Square a = pop_lsb(as);
      if (r.pairs[static_cast<std::size_t>(to_index(a))] & bit(k)) jk |= bit(a);
    }
    const Bitboard flights = king_attacks(k) & ~frozen & ~(check | king_spread(jk));
    if (flights && !can_fill(r.regions[mated], r.men[mated], flights)) continue;
    if (last_move && last_move_excludes(p, r, frozen, mated, k, jk, kings)) {
      *by_last_move |= bit(k);
    } else {
      left |= bit(k);
    }
  }
  return left;
}

const char* colour_name(Color c) { return c == Color::White ? "White" : "Black"; }

}  // namespace

bool locked_cannot_mate(const Position& p, Color mated, std::string* reason) {
  if (p.en_passant() || !p.pieces(PieceType::Pawn)) return false;
  Reaches r;
  Bitboard frozen = frozen_pawns(p, mated, r, true);
  Bitboard by_last_move = 0, last_move_kings = 0;
  if (!frozen || !no_mate_square(r, frozen, mated, true)) {  // step 2
    // The exact fixpoint with the kings' pairs, and the last-move test for a side that can only
    // ever move its king. Worth its cost (several times the fast path's) only where pawns that
    // cannot move now confine both kings: the pre-test floods the kings with every pawn that has a
    // pawn or king in front as a wall (a superset of the frozen pawns).
    if (!kings_confined(p)) return false;
    frozen = frozen_pawns(p, mated, r, false);
    if (!frozen) return false;
    const bool last_move = !p.castling_rights() && king_only(p, r, frozen, mated);
    if (mate_squares_left(p, r, frozen, mated, last_move, &by_last_move, &last_move_kings)) return false;
  }
  const Color w = ~mated;
  const Bitboard king = r.king_region[mated];
  const Bitboard check = r.attack[w] | r.frozen_pawn_attacks[w];
  if (reason) {
    const std::string wn = colour_name(w), xn = colour_name(mated);
    *reason = "the pawns on " + square_list(frozen) + " can never move or be taken";
    // Those the other king could step next to: taken only by a capture that is stalemate.
    for (Color c : {Color::White, Color::Black}) {
      Bitboard by_stalemate = 0;
      for (Bitboard f = frozen & p.pieces(c); r.joint && f;) {
        const Square s = pop_lsb(f);
        if (!((r.attack[~c] | r.frozen_pawn_attacks[~c]) & bit(s)) && king_near_undefended(r, s, c))
          by_stalemate |= bit(s);
      }
      if (by_stalemate)
        *reason += std::string(", except ") + (popcount(by_stalemate) > 1 ? "those on " : "the one on ") +
                   square_list(by_stalemate) + " by " + colour_name(~c) + "'s king, and that capture is stalemate";
    }
    *reason += "; " + xn + "'s king can only ever stand on ";
    *reason += popcount(king) <= 8 ? square_list(king) : std::to_string(popcount(king)) + " squares";
    if (!(king & check)) {
      *reason += ", where no man of " + wn + " can ever give check";
    } else {
      *reason += ", and wherever " + wn + " can give check " + xn + "'s king keeps a flight square that no man of " +
                 wn + " can ever attack and " + xn + "'s own men can never all fill";
      if (by_last_move) {
        const std::string at = square_list(by_last_move), from = square_list(last_move_kings);
        *reason += ", except on " + at + ", where only " + wn + "'s king, from " + from +
                   ", could take the last flight square from " + xn + "'s king; " + xn +
                   " can only ever move its king, and " + wn + "'s king can neither already stand on " + from +
                   " when " + xn + "'s king steps onto " + at + " nor go to " + from + " with check";
      }
    }
  }
  return true;
}

}  // namespace deadpos::internal
