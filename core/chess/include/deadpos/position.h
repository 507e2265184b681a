// Positions: Placement (any arrangement, as an index or a FEN parser yields it) and Position
// (a placement that passed the legality checks of docs/cli.md, "FEN input", and docs/rules.md, with the full rules of
// play).
//
// Thread-safety: both types are plain values; distinct objects may be used from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "deadpos/bitboard.h"
#include "deadpos/result.h"
#include "deadpos/types.h"

namespace deadpos {

// Castling rights as a 4-bit set.
//   bit 0: White king side (K), bit 1: White queen side (Q),
//   bit 2: Black king side (k), bit 3: Black queen side (q).
enum CastlingRight : std::uint8_t {
  kWhiteOO = 1,
  kWhiteOOO = 2,
  kBlackOO = 4,
  kBlackOOO = 8,
  kAllCastling = 15,
};

// Any placement of men with the game-state fields of a FEN; nothing is validated. This is what
// FEN parsing (syntax only) and table indices produce. Convert with Position::from_placement.
struct Placement {
  std::array<Piece, 64> board = [] {
    std::array<Piece, 64> b{};
    b.fill(kNoPiece);
    return b;
  }();
  Color side_to_move = Color::White;
  std::uint8_t castling = 0;         // CastlingRight bits
  std::optional<Square> en_passant;  // the square a capturing pawn moves to (rank 3 or 6)
  int halfmove_clock = 0;            // plies since the last capture or pawn move
  int fullmove_number = 1;           // starts at 1, incremented after Black's move

  Piece& operator[](Square s) { return board[static_cast<std::size_t>(to_index(s))]; }
  Piece operator[](Square s) const { return board[static_cast<std::size_t>(to_index(s))]; }
  bool operator==(const Placement&) const = default;

  // Parses the syntax of a FEN (6 fields; 4 fields accepted with counters defaulting to 0 and 1;
  // 5 fields with the fullmove number defaulting to 1; halfmove clock 0..100000, fullmove number
  // 1..100000). Legality is not checked here.
  // Errors: ErrorCode::InvalidFen, message naming the field and the problem.
  static Result<Placement> parse_fen(std::string_view fen);
};

// Why a FEN or placement was rejected (one category per check, see docs/cli.md, "FEN input", and docs/rules.md). The
// message of the accompanying Error says which field/square.
enum class FenProblem : std::uint8_t {
  FieldCount,            // not 4-6 space-separated fields
  BadPieceChar,          // a character other than KQRBNPkqrbnp1-8/ in the placement field
  RankCount,             // not exactly 8 ranks
  RankLength,            // a rank does not describe exactly 8 squares
  BadSideToMove,         // not 'w' or 'b'
  BadCastlingField,      // characters other than KQkq / '-', or repeated
  BadEnPassantField,     // not '-' or a square name
  BadCounter,            // halfmove/fullmove not a non-negative integer in range
  MissingKing,           // a side has no king
  ExtraKing,             // a side has two or more kings
  PawnOnBackRank,        // a pawn on rank 1 or 8
  TooManyMen,            // more than 16 men or more than 8 pawns for one side
  OpponentInCheck,       // the side not to move is in check
  KingsAdjacent,         // the two kings touch
  CastlingInconsistent,  // a castling right without king and rook on their original squares
  EnPassantImpossible,   // no double push could have produced the en passant square
};
const char* fen_problem_name(FenProblem p);

// Information needed to undo a move (make/undo pair).
struct UndoInfo {
  Piece captured = kNoPiece;
  std::uint8_t castling = 0;
  std::optional<Square> en_passant;
  int halfmove_clock = 0;
};

class Position {
 public:
  // The standard starting position.
  static Position startpos();

  // Parses and validates a FEN. Errors: ErrorCode::InvalidFen with a one-line message that starts
  // with the category name (fen_problem_name), e.g. "kings-adjacent: kings on e4 and e5 touch".
  static Result<Position> from_fen(std::string_view fen);
  // Validates a placement with the same checks as from_fen.
  static Result<Position> from_placement(const Placement& p);
  // Same checks; returns the category of the first failed check, or nullopt when valid.
  static std::optional<FenProblem> check_placement(const Placement& p, std::string* message = nullptr);

  // Builds a position from n men without validation (table indices, solvers, the analyzer's
  // position store): counters 0 and 1. Precondition: a legal placement, and castling rights only
  // with their king and rook on their original squares (assert(is_ok()) in debug builds).
  static Position from_men(const Piece* pieces, const Square* squares, int n, Color stm,
                           std::optional<Square> en_passant = std::nullopt, std::uint8_t castling = 0);

  // FEN of the position, 6 fields. The en passant field is written as stored.
  std::string to_fen() const;
  // A diagram with rank 8 on top, pieces as FEN letters, '.' for empty squares.
  std::string to_diagram() const;
  Placement placement() const;

  Piece piece_on(Square s) const { return board_[static_cast<std::size_t>(to_index(s))]; }
  Bitboard pieces() const { return by_color_[Color::White] | by_color_[Color::Black]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Square king_square(Color c) const { return lsb(pieces(c, PieceType::King)); }
  Color side_to_move() const { return side_to_move_; }
  std::uint8_t castling_rights() const { return castling_; }
  std::optional<Square> en_passant() const { return en_passant_; }
  int halfmove_clock() const { return halfmove_clock_; }
  int fullmove_number() const { return fullmove_number_; }

  // Pieces of either colour attacking square s, given occupancy occ.
  Bitboard attackers_to(Square s, Bitboard occ) const;
  // Whether colour `by` attacks square s with occupancy occ.
  bool attacked_by(Color by, Square s, Bitboard occ) const;
  // Enemy pieces giving check to the side to move.
  Bitboard checkers() const;
  bool in_check() const { return checkers() != 0; }

  // All legal moves (FIDE art. 3). Castling is king-from/king-to.
  void legal_moves(MoveList& out) const;
  MoveList legal_moves() const {
    MoveList l;
    legal_moves(l);
    return l;
  }
  // Whether the side to move has at least one legal move (cheaper than legal_moves).
  bool has_legal_move() const;
  // Checkmate: in check with no legal move (FIDE 1.4.1, 5.1.1).
  bool is_checkmate() const { return in_check() && !has_legal_move(); }
  // Stalemate: not in check, no legal move (FIDE 5.2.1).
  bool is_stalemate() const { return !in_check() && !has_legal_move(); }

  // Plays a legal move. Precondition: m is in legal_moves(). Returns what undo_move needs.
  UndoInfo make_move(Move m);
  void undo_move(Move m, const UndoInfo& u);
  // Copy-make convenience.
  Position after(Move m) const {
    Position p = *this;
    p.make_move(m);
    return p;
  }

  // Colour-swapped and vertically mirrored position: White's men become Black's on the mirrored
  // squares, the side to move swaps, castling rights and the en passant square follow.
  Position color_swapped() const;

  // Number of men (including kings) on the board.
  int men() const { return popcount(pieces()); }

  // Debug invariant check (style rule 14): bitboards agree with the mailbox, one king each.
  bool is_ok() const;

  bool operator==(const Position& o) const {
    return board_ == o.board_ && side_to_move_ == o.side_to_move_ && castling_ == o.castling_ &&
           en_passant_ == o.en_passant_ && halfmove_clock_ == o.halfmove_clock_ &&
           fullmove_number_ == o.fullmove_number_;
  }

 private:
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);

  std::array<Piece, 64> board_{};
  ByColor<Bitboard> by_color_{};
  ByPieceType<Bitboard> by_type_{};
  Color side_to_move_ = Color::White;
  std::uint8_t castling_ = 0;
  std::optional<Square> en_passant_;
  int halfmove_clock_ = 0;
  int fullmove_number_ = 1;
};

// Counts leaf nodes of the legal move tree to `depth` plies (perft). depth 0 returns 1.
std::uint64_t perft(const Position& pos, int depth);

}  // namespace deadpos
