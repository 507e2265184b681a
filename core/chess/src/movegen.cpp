// Legal move generation (FIDE Laws art. 3).
//
// Fully legal, not pseudo-legal-then-filter: with the king square, the checkers and the pinned
// pieces known, every move is legal by construction except en passant (the two pawns leave one
// rank at once: the "horizontal pin"), which is tested by recomputing slider attacks.
// Colour is a template parameter (style rule 23).
#include "deadpos/position.h"

namespace deadpos {

namespace {

template <Color Us>
struct Gen {
  static constexpr Color Them = ~Us;
  static constexpr int Up = Us == Color::White ? 8 : -8;
  static constexpr Bitboard Rank3 = Us == Color::White ? rank_bb(2) : rank_bb(5);
  static constexpr Bitboard Rank7 = Us == Color::White ? rank_bb(6) : rank_bb(1);

  static Bitboard shift_up(Bitboard b) { return Us == Color::White ? b << 8 : b >> 8; }

  // Our pieces pinned against our king by enemy sliders.
  static Bitboard pinned(const Position& pos, Square ksq) {
    const Bitboard occ = pos.pieces();
    const Bitboard snipers =
        ((rook_attacks(ksq, 0) & (pos.pieces(Them, PieceType::Rook) | pos.pieces(Them, PieceType::Queen))) |
         (bishop_attacks(ksq, 0) & (pos.pieces(Them, PieceType::Bishop) | pos.pieces(Them, PieceType::Queen))));
    Bitboard result = 0;
    Bitboard s = snipers;
    while (s) {
      const Square sq = pop_lsb(s);
      const Bitboard b = between_bb(ksq, sq) & occ;
      if (b && !more_than_one(b) && (b & pos.pieces(Us))) result |= b;
    }
    return result;
  }

  // Emits moves; returns early with true once one is found when kAnyOnly (has_legal_move).
  template <bool kAnyOnly>
  static bool generate(const Position& pos, MoveList* out) {
    const Square ksq = pos.king_square(Us);
    const Bitboard occ = pos.pieces();
    const Bitboard ours = pos.pieces(Us);
    const Bitboard theirs = pos.pieces(Them);
    const Bitboard checkers = pos.attackers_to(ksq, occ) & theirs;

    auto emit = [&](Move m) {
      if constexpr (!kAnyOnly) out->push(m);
    };

    // King moves: the king must not stand on an attacked square once it has left ksq (so
    // sliders see through its old square).
    {
      Bitboard b = king_attacks(ksq) & ~ours;
      const Bitboard occ_wo_king = occ ^ square_bb(ksq);
      while (b) {
        const Square to = pop_lsb(b);
        if (!pos.attacked_by(Them, to, occ_wo_king)) {
          if constexpr (kAnyOnly) return true;
          emit(Move::make(ksq, to));
        }
      }
    }
    if (more_than_one(checkers)) return false;  // double check: only king moves

    // Destination mask: when in check, capture the checker or block the line.
    const Bitboard target = checkers ? (between_bb(ksq, lsb(checkers)) | checkers) : ~Bitboard{0};
    const Bitboard pin = pinned(pos, ksq);

    // Knights, bishops, rooks, queens. A pinned knight never moves; other pinned pieces stay on
    // the king's line.
    for (PieceType pt : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen}) {
      Bitboard pcs = pos.pieces(Us, pt);
      while (pcs) {
        const Square from = pop_lsb(pcs);
        Bitboard b = piece_attacks(pt, from, occ) & ~ours & target;
        if (pin & square_bb(from)) b &= line_bb(ksq, from);
        while (b) {
          if constexpr (kAnyOnly) return true;
          emit(Move::make(from, pop_lsb(b)));
        }
      }
    }

    // Pawns.
    {
      const Bitboard pawns = pos.pieces(Us, PieceType::Pawn);
      const Bitboard empty = ~occ;
      Bitboard pp = pawns;
      while (pp) {
        const Square from = pop_lsb(pp);
        const Bitboard pin_line = (pin & square_bb(from)) ? line_bb(ksq, from) : ~Bitboard{0};
        const bool promo = (square_bb(from) & Rank7) != 0;
        Bitboard dests = 0;
        const Bitboard one = shift_up(square_bb(from)) & empty;
        dests |= one;
        if (one & (Us == Color::White ? rank_bb(2) : rank_bb(5))) dests |= shift_up(one) & empty;
        dests |= pawn_attacks(Us, from) & theirs;
        dests &= target & pin_line;
        while (dests) {
          const Square to = pop_lsb(dests);
          if constexpr (kAnyOnly) return true;
          if (promo) {
            for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
              emit(Move::make(from, to, Move::Kind::Promotion, pt));
          } else {
            emit(Move::make(from, to));
          }
        }
      }
      // En passant: tested by recomputing attacks on the king with both pawns moved, which covers
      // the horizontal pin, a diagonal pin of the capturing pawn and the resolution of a check by
      // the double-pushed pawn.
      if (const auto ep = pos.en_passant()) {
        const Square cap = square_at(to_index(*ep) - Up);
        if (pos.piece_on(cap) == make_piece(Them, PieceType::Pawn) && pos.piece_on(*ep) == kNoPiece) {
          Bitboard b = pawn_attacks(Them, *ep) & pawns;
          while (b) {
            const Square from = pop_lsb(b);
            const Bitboard occ2 = (occ ^ square_bb(from) ^ square_bb(cap)) | square_bb(*ep);
            const Bitboard rq =
                (pos.pieces(Them, PieceType::Rook) | pos.pieces(Them, PieceType::Queen)) & ~square_bb(cap);
            const Bitboard bq =
                (pos.pieces(Them, PieceType::Bishop) | pos.pieces(Them, PieceType::Queen)) & ~square_bb(cap);
            const Bitboard others = (pos.pieces(Them, PieceType::Knight) & knight_attacks(ksq)) |
                                    (pos.pieces(Them, PieceType::Pawn) & ~square_bb(cap) & pawn_attacks(Us, ksq));
            if ((rook_attacks(ksq, occ2) & rq) || (bishop_attacks(ksq, occ2) & bq) || others) continue;
            if constexpr (kAnyOnly) return true;
            emit(Move::make(from, *ep, Move::Kind::EnPassant));
          }
        }
      }
    }

    // Castling: not out of, through or into check; squares between king and rook empty.
    if (!checkers) {
      const std::uint8_t rights = pos.castling_rights();
      const std::uint8_t oo = Us == Color::White ? kWhiteOO : kBlackOO;
      const std::uint8_t ooo = Us == Color::White ? kWhiteOOO : kBlackOOO;
      const Rank r = Us == Color::White ? Rank::R1 : Rank::R8;
      const Square e = make_square(File::E, r);
      if (ksq == e) {
        if ((rights & oo) && pos.piece_on(make_square(File::H, r)) == make_piece(Us, PieceType::Rook) &&
            !(occ & (square_bb(make_square(File::F, r)) | square_bb(make_square(File::G, r)))) &&
            !pos.attacked_by(Them, make_square(File::F, r), occ) &&
            !pos.attacked_by(Them, make_square(File::G, r), occ)) {
          if constexpr (kAnyOnly) return true;
          emit(Move::make(e, make_square(File::G, r), Move::Kind::Castling));
        }
        if ((rights & ooo) && pos.piece_on(make_square(File::A, r)) == make_piece(Us, PieceType::Rook) &&
            !(occ & (square_bb(make_square(File::B, r)) | square_bb(make_square(File::C, r)) |
                     square_bb(make_square(File::D, r)))) &&
            !pos.attacked_by(Them, make_square(File::D, r), occ) &&
            !pos.attacked_by(Them, make_square(File::C, r), occ)) {
          if constexpr (kAnyOnly) return true;
          emit(Move::make(e, make_square(File::C, r), Move::Kind::Castling));
        }
      }
    }
    return false;
  }
};

std::uint64_t perft_rec(Position& pos, int depth) {
  MoveList moves;
  pos.legal_moves(moves);
  if (depth == 1) return static_cast<std::uint64_t>(moves.size());  // bulk counting at the leaves
  std::uint64_t n = 0;
  for (Move m : moves) {
    const UndoInfo u = pos.make_move(m);
    n += perft_rec(pos, depth - 1);
    pos.undo_move(m, u);
  }
  return n;
}

}  // namespace

void Position::legal_moves(MoveList& out) const {
  out.clear();
  if (side_to_move_ == Color::White)
    Gen<Color::White>::generate<false>(*this, &out);
  else
    Gen<Color::Black>::generate<false>(*this, &out);
}

bool Position::has_legal_move() const {
  return side_to_move_ == Color::White ? Gen<Color::White>::generate<true>(*this, nullptr)
                                       : Gen<Color::Black>::generate<true>(*this, nullptr);
}

std::uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  Position p = pos;
  return perft_rec(p, depth);
}

}  // namespace deadpos
