// The locked-structure rule of locks.h. Two steps, both over-approximations of the future:
//  1. The frozen pawns: the largest set F of pawns such that, if every pawn of F stayed where it
//     is, no pawn of F could ever move or be taken. Computed as a greatest fixpoint: start with
//     every pawn, compute where every other man could ever go with F as walls, drop each pawn of F
//     that one of them could take, capture with, or unblock, and repeat until nothing drops.
//  2. The mate test: with F as walls, no square the mated king can ever reach is one where a
//     checkmate can be built (no man of the other side can ever attack it, or it always keeps a
//     neighbour square that no man of the other side can ever attack and the mated side's own
//     men can never all fill).
// docs/design.md, "Locked structures", proves both steps sound.
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

// Every man's reach with F = `frozen` as walls.
struct Reaches {
  ByColor<Bitboard> king_region{};
  ByColor<Bitboard> frozen_pawn_attacks{};      // squares the frozen pawns of a side attack
  ByColor<Bitboard> occupy{};                   // squares some other man of a side could stand on
  ByColor<Bitboard> attack{};                   // squares some other man of a side could attack
  ByColor<std::array<Bitboard, 63>> regions{};  // each other man's region (at most 63 men)
  ByColor<int> men{};                           // how many of `regions` are used
};

// With `mated` given, returns early (with *hopeless set and r incomplete) as soon as the other
// side's men computed so far leave some square of the mated king's region checked with no flight
// at all, walls counted as flights: the relaxed test of frozen_pawns() must then fail, since the
// remaining men only add checks and cover. The other side's men go first, queens and rooks first,
// so that on open boards one flood settles it.
Reaches reaches(const Position& p, Bitboard frozen, Color mated, bool* hopeless) {
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
        if (c != w) continue;
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

// Step 1: the greatest set of pawns that stay forever, given that they all do.
// Starts from a superset of it: the pawns whose square in front holds a pawn of that set or a
// king (a pawn with a free square in front is dropped in the first round anyway). The iteration
// shrinks every set that contains the greatest fixpoint to a fixpoint that still contains it,
// hence to it. Returns 0 early when the mate test cannot succeed: every round's set contains the
// greatest fixpoint, and with more walls the regions, attack sets and cover only shrink, so
// no_mate_square(..., false) failing for the round's set (where a wall may count as a flight, a
// superset of the final flights, filled by fewer men with smaller regions) means that step 2
// fails for the fixpoint too.
Bitboard frozen_pawns(const Position& p, Color mated, Reaches& r) {
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
    r = reaches(p, frozen, mated, &hopeless);
    if (hopeless || !no_mate_square(r, frozen, mated, false)) return 0;
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
      const bool defended = (r.frozen_pawn_attacks[c] & bit(s)) || !(r.king_region[c] & ~king_attacks(s));
      const bool taken = ((r.attack[e] | r.frozen_pawn_attacks[e]) & bit(s)) != 0 ||
                         ((king_spread(r.king_region[e]) & bit(s)) && !defended);
      if (!held || captures || taken) drop |= bit(s);
    }
    if (!drop) return frozen;
    frozen &= ~drop;
  }
  return 0;
}

const char* colour_name(Color c) { return c == Color::White ? "White" : "Black"; }

std::string square_list(Bitboard b) {
  std::string out;
  for (Bitboard x = b; x;) {
    if (!out.empty()) out += ", ";
    out += square_name(pop_lsb(x));
  }
  return out;
}

}  // namespace

bool locked_cannot_mate(const Position& p, Color mated, std::string* reason) {
  if (p.en_passant() || !p.pieces(PieceType::Pawn)) return false;
  Reaches r;
  const Bitboard frozen = frozen_pawns(p, mated, r);
  if (!frozen || !no_mate_square(r, frozen, mated, true)) return false;  // step 2
  const Color w = ~mated;
  const Bitboard king = r.king_region[mated];
  const Bitboard check = r.attack[w] | r.frozen_pawn_attacks[w];
  if (reason) {
    const std::string wn = colour_name(w), xn = colour_name(mated);
    *reason = "the pawns on " + square_list(frozen) + " can never move or be taken; " + xn +
              "'s king can only ever stand on ";
    *reason += popcount(king) <= 8 ? square_list(king) : std::to_string(popcount(king)) + " squares";
    if (!(king & check)) {
      *reason += ", where no man of " + wn + " can ever give check";
    } else {
      *reason += ", and wherever " + wn + " can give check it keeps a flight square that no man of " + wn +
                 " can ever attack and " + xn + "'s own men can never all fill";
    }
  }
  return true;
}

}  // namespace deadpos::internal
