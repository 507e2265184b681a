#include "deadpos/position.h"

#include <charconv>
#include <cstdio>
#include <vector>

namespace deadpos {

namespace {

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

Error fen_error(FenProblem p, const std::string& detail) {
  return make_error(ErrorCode::InvalidFen, std::string(fen_problem_name(p)) + ": " + detail);
}

std::optional<PieceType> piece_type_from_char(char c) {
  switch (c) {
    case 'p':
    case 'P': return PieceType::Pawn;
    case 'n':
    case 'N': return PieceType::Knight;
    case 'b':
    case 'B': return PieceType::Bishop;
    case 'r':
    case 'R': return PieceType::Rook;
    case 'q':
    case 'Q': return PieceType::Queen;
    case 'k':
    case 'K': return PieceType::King;
    default: return std::nullopt;
  }
}

std::optional<Square> parse_square(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return std::nullopt;
  return make_square(static_cast<File>(s[0] - 'a'), static_cast<Rank>(s[1] - '1'));
}

bool parse_counter(std::string_view s, int min, int& out) {
  // Upper bound keeps arithmetic on counters far from overflow; real games stay below 10,000.
  constexpr int kMax = 100000;
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < min || v > kMax) return false;
  out = v;
  return true;
}

}  // namespace

const char* fen_problem_name(FenProblem p) {
  switch (p) {
    case FenProblem::FieldCount: return "field-count";
    case FenProblem::BadPieceChar: return "bad-piece-char";
    case FenProblem::RankCount: return "rank-count";
    case FenProblem::RankLength: return "rank-length";
    case FenProblem::BadSideToMove: return "bad-side-to-move";
    case FenProblem::BadCastlingField: return "bad-castling-field";
    case FenProblem::BadEnPassantField: return "bad-en-passant-field";
    case FenProblem::BadCounter: return "bad-counter";
    case FenProblem::MissingKing: return "missing-king";
    case FenProblem::ExtraKing: return "extra-king";
    case FenProblem::PawnOnBackRank: return "pawn-on-back-rank";
    case FenProblem::TooManyMen: return "too-many-men";
    case FenProblem::OpponentInCheck: return "opponent-in-check";
    case FenProblem::KingsAdjacent: return "kings-adjacent";
    case FenProblem::CastlingInconsistent: return "castling-inconsistent";
    case FenProblem::EnPassantImpossible: return "en-passant-impossible";
  }
  return "?";
}

Result<Placement> Placement::parse_fen(std::string_view fen) {
  const std::vector<std::string_view> f = split_fields(fen);
  if (f.size() < 4 || f.size() > 6) {
    return fen_error(FenProblem::FieldCount, "expected 6 fields (4 or 5 accepted), got " + std::to_string(f.size()));
  }
  Placement p;
  // Field 1: placement, rank 8 first.
  int rank = 7;
  int file = 0;
  for (std::size_t i = 0; i < f[0].size(); ++i) {
    const char c = f[0][i];
    if (c == '/') {
      if (file != 8) {
        return fen_error(FenProblem::RankLength,
                         "rank " + std::to_string(rank + 1) + " describes " + std::to_string(file) + " squares, not 8");
      }
      --rank;
      file = 0;
      if (rank < 0) return fen_error(FenProblem::RankCount, "more than 8 ranks in the placement field");
      continue;
    }
    if (c >= '1' && c <= '8') {
      // FEN writes each run of empty squares as one digit ("41" is not FEN, though it may add up).
      if (i > 0 && f[0][i - 1] >= '1' && f[0][i - 1] <= '8') {
        return fen_error(FenProblem::RankLength, "rank " + std::to_string(rank + 1) + " has two digits in a row ('" +
                                                     std::string(f[0].substr(i - 1, 2)) + "')");
      }
      file += c - '0';
      if (file > 8) {
        return fen_error(FenProblem::RankLength, "rank " + std::to_string(rank + 1) + " describes more than 8 squares");
      }
      continue;
    }
    const auto pt = piece_type_from_char(c);
    if (!pt) {
      char shown[16];
      if (c > ' ' && c < 0x7f) {
        std::snprintf(shown, sizeof shown, "'%c'", c);
      } else {  // control or non-ASCII byte: never echoed raw (messages go into JSON and terminals)
        std::snprintf(shown, sizeof shown, "byte 0x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
      }
      return fen_error(FenProblem::BadPieceChar, std::string("unexpected character ") + shown + " at position " +
                                                     std::to_string(i + 1) + " of the placement field");
    }
    if (file >= 8) {
      return fen_error(FenProblem::RankLength, "rank " + std::to_string(rank + 1) + " describes more than 8 squares");
    }
    const Color col = (c >= 'a' && c <= 'z') ? Color::Black : Color::White;
    p[make_square(static_cast<File>(file), static_cast<Rank>(rank))] = make_piece(col, *pt);
    ++file;
  }
  if (rank != 0)
    return fen_error(FenProblem::RankCount, "placement field has " + std::to_string(8 - rank) + " ranks, not 8");
  if (file != 8)
    return fen_error(FenProblem::RankLength, "rank 1 describes " + std::to_string(file) + " squares, not 8");

  // Field 2: side to move.
  if (f[1] == "w") {
    p.side_to_move = Color::White;
  } else if (f[1] == "b") {
    p.side_to_move = Color::Black;
  } else {
    return fen_error(FenProblem::BadSideToMove, "side to move is '" + shown_text(f[1]) + "', expected 'w' or 'b'");
  }

  // Field 3: castling.
  if (f[2] != "-") {
    for (char c : f[2]) {
      std::uint8_t bit = 0;
      switch (c) {
        case 'K': bit = kWhiteOO; break;
        case 'Q': bit = kWhiteOOO; break;
        case 'k': bit = kBlackOO; break;
        case 'q': bit = kBlackOOO; break;
        default:
          return fen_error(FenProblem::BadCastlingField, "castling field '" + shown_text(f[2]) + "' has '" +
                                                             shown_text(std::string_view(&c, 1)) +
                                                             "'; expected KQkq or '-'");
      }
      if (p.castling & bit) {
        return fen_error(FenProblem::BadCastlingField, "castling field '" + shown_text(f[2]) + "' repeats '" + c + "'");
      }
      p.castling = static_cast<std::uint8_t>(p.castling | bit);
    }
  }

  // Field 4: en passant.
  if (f[3] != "-") {
    const auto sq = parse_square(f[3]);
    if (!sq) {
      return fen_error(FenProblem::BadEnPassantField,
                       "en passant field '" + shown_text(f[3]) + "' is neither '-' nor a square");
    }
    p.en_passant = sq;
  }

  // Fields 5 and 6: counters (defaults 0 and 1 when absent).
  if (f.size() >= 5 && !parse_counter(f[4], 0, p.halfmove_clock)) {
    return fen_error(FenProblem::BadCounter, "halfmove clock '" + shown_text(f[4]) + "' is not an integer 0..100000");
  }
  if (f.size() == 6 && !parse_counter(f[5], 1, p.fullmove_number)) {
    return fen_error(FenProblem::BadCounter, "fullmove number '" + shown_text(f[5]) + "' is not an integer 1..100000");
  }
  return p;
}

std::optional<FenProblem> Position::check_placement(const Placement& p, std::string* message) {
  auto fail = [&](FenProblem prob, const std::string& m) {
    if (message) *message = m;
    return std::optional<FenProblem>(prob);
  };
  ByColor<int> kings{};
  ByColor<int> men{};
  ByColor<int> pawns{};
  ByColor<Square> ksq{};
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    const Piece pc = p[s];
    if (pc == kNoPiece) continue;
    const Color c = color_of(pc);
    men[c]++;
    if (type_of(pc) == PieceType::King) {
      kings[c]++;
      ksq[c] = s;
    }
    if (type_of(pc) == PieceType::Pawn) {
      pawns[c]++;
      if (rank_index(s) == 0 || rank_index(s) == 7) {
        return fail(FenProblem::PawnOnBackRank, std::string("pawn on ") + square_name(s));
      }
    }
  }
  for (Color c : {Color::White, Color::Black}) {
    const char* name = c == Color::White ? "White" : "Black";
    if (kings[c] == 0) return fail(FenProblem::MissingKing, std::string(name) + " has no king");
    if (kings[c] > 1)
      return fail(FenProblem::ExtraKing, std::string(name) + " has " + std::to_string(kings[c]) + " kings");
    if (men[c] > 16)
      return fail(FenProblem::TooManyMen, std::string(name) + " has " + std::to_string(men[c]) + " men (max 16)");
    if (pawns[c] > 8)
      return fail(FenProblem::TooManyMen, std::string(name) + " has " + std::to_string(pawns[c]) + " pawns (max 8)");
  }
  if (square_distance(ksq[Color::White], ksq[Color::Black]) <= 1) {
    return fail(FenProblem::KingsAdjacent, std::string("kings on ") + square_name(ksq[Color::White]) + " and " +
                                               square_name(ksq[Color::Black]) + " touch");
  }
  // Castling rights need king and rook on their original squares.
  struct CastleReq {
    std::uint8_t bit;
    Square king, rook;
    Piece k, r;
    char name;
  };
  const CastleReq reqs[4] = {
      {kWhiteOO, Square::E1, Square::H1, make_piece(Color::White, PieceType::King),
       make_piece(Color::White, PieceType::Rook), 'K'},
      {kWhiteOOO, Square::E1, Square::A1, make_piece(Color::White, PieceType::King),
       make_piece(Color::White, PieceType::Rook), 'Q'},
      {kBlackOO, Square::E8, Square::H8, make_piece(Color::Black, PieceType::King),
       make_piece(Color::Black, PieceType::Rook), 'k'},
      {kBlackOOO, Square::E8, Square::A8, make_piece(Color::Black, PieceType::King),
       make_piece(Color::Black, PieceType::Rook), 'q'},
  };
  for (const CastleReq& r : reqs) {
    if (!(p.castling & r.bit)) continue;
    if (p[r.king] != r.k || p[r.rook] != r.r) {
      return fail(FenProblem::CastlingInconsistent, std::string("castling right '") + r.name + "' needs the king on " +
                                                        square_name(r.king) + " and a rook on " + square_name(r.rook));
    }
  }
  // En passant: the side to move captures onto ep; the opponent's pawn that just double-pushed
  // stands in front of it, and the two squares it crossed are empty.
  if (p.en_passant) {
    const Square ep = *p.en_passant;
    const Color us = p.side_to_move;
    const int want_rank = us == Color::White ? 5 : 2;
    const std::string eps = square_name(ep);
    if (rank_index(ep) != want_rank) {
      return fail(FenProblem::EnPassantImpossible, "en passant square " + eps + " is not on rank " +
                                                       std::to_string(want_rank + 1) + " for the side to move");
    }
    const int dir = us == Color::White ? 8 : -8;
    const Square pawn_sq = square_at(to_index(ep) - dir);
    const Square origin = square_at(to_index(ep) + dir);
    if (p[pawn_sq] != make_piece(~us, PieceType::Pawn)) {
      return fail(FenProblem::EnPassantImpossible,
                  "en passant square " + eps + " has no enemy pawn in front of it on " + square_name(pawn_sq));
    }
    if (p[ep] != kNoPiece || p[origin] != kNoPiece) {
      return fail(FenProblem::EnPassantImpossible, "en passant square " + eps + " or " + square_name(origin) +
                                                       " is occupied, so no double push was possible");
    }
  }
  // The side not to move must not be in check. Build a temporary position for attack tests.
  Position pos;
  pos.board_.fill(kNoPiece);
  for (int i = 0; i < 64; ++i)
    if (p.board[static_cast<std::size_t>(i)] != kNoPiece)
      pos.put_piece(p.board[static_cast<std::size_t>(i)], square_at(i));
  const Color them = ~p.side_to_move;
  if (pos.attacked_by(p.side_to_move, ksq[them], pos.pieces())) {
    return fail(FenProblem::OpponentInCheck, std::string(them == Color::White ? "White" : "Black") +
                                                 " (not to move) is in check, king on " + square_name(ksq[them]));
  }
  return std::nullopt;
}

Result<Position> Position::from_placement(const Placement& p) {
  std::string msg;
  if (const auto prob = check_placement(p, &msg)) return fen_error(*prob, msg);
  Position pos;
  pos.board_.fill(kNoPiece);
  for (int i = 0; i < 64; ++i)
    if (p.board[static_cast<std::size_t>(i)] != kNoPiece)
      pos.put_piece(p.board[static_cast<std::size_t>(i)], square_at(i));
  pos.side_to_move_ = p.side_to_move;
  pos.castling_ = p.castling;
  pos.en_passant_ = p.en_passant;
  pos.halfmove_clock_ = p.halfmove_clock;
  pos.fullmove_number_ = p.fullmove_number;
  return pos;
}

Position Position::from_men(const Piece* pieces, const Square* squares, int n, Color stm,
                            std::optional<Square> en_passant, std::uint8_t castling) {
  Position pos;
  pos.board_.fill(kNoPiece);
  for (int i = 0; i < n; ++i) pos.put_piece(pieces[i], squares[i]);
  pos.side_to_move_ = stm;
  pos.en_passant_ = en_passant;
  pos.castling_ = castling;
  assert(pos.is_ok());
  return pos;
}

Result<Position> Position::from_fen(std::string_view fen) {
  auto pl = Placement::parse_fen(fen);
  if (!pl) return pl.error();
  return from_placement(*pl);
}

Position Position::startpos() { return from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").value(); }

Placement Position::placement() const {
  Placement p;
  p.board = board_;
  p.side_to_move = side_to_move_;
  p.castling = castling_;
  p.en_passant = en_passant_;
  p.halfmove_clock = halfmove_clock_;
  p.fullmove_number = fullmove_number_;
  return p;
}

std::string Position::to_fen() const {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      const Piece pc = piece_on(make_square(static_cast<File>(f), static_cast<Rank>(r)));
      if (pc == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) s += static_cast<char>('0' + empty);
      empty = 0;
      s += piece_char(pc);
    }
    if (empty) s += static_cast<char>('0' + empty);
    if (r) s += '/';
  }
  s += side_to_move_ == Color::White ? " w " : " b ";
  if (!castling_) s += '-';
  if (castling_ & kWhiteOO) s += 'K';
  if (castling_ & kWhiteOOO) s += 'Q';
  if (castling_ & kBlackOO) s += 'k';
  if (castling_ & kBlackOOO) s += 'q';
  s += ' ';
  s += en_passant_ ? square_name(*en_passant_) : "-";
  s += ' ' + std::to_string(halfmove_clock_) + ' ' + std::to_string(fullmove_number_);
  return s;
}

std::string Position::to_diagram() const {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    out += static_cast<char>('1' + r);
    out += ' ';
    for (int f = 0; f < 8; ++f) {
      const Piece pc = piece_on(make_square(static_cast<File>(f), static_cast<Rank>(r)));
      out += pc == kNoPiece ? '.' : piece_char(pc);
      if (f < 7) out += ' ';
    }
    out += '\n';
  }
  out += "  a b c d e f g h\n";
  return out;
}

void Position::put_piece(Piece p, Square s) {
  board_[static_cast<std::size_t>(to_index(s))] = p;
  by_color_[color_of(p)] |= square_bb(s);
  by_type_[type_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
  const Piece p = piece_on(s);
  by_color_[color_of(p)] &= ~square_bb(s);
  by_type_[type_of(p)] &= ~square_bb(s);
  board_[static_cast<std::size_t>(to_index(s))] = kNoPiece;
}

void Position::move_piece(Square from, Square to) {
  const Piece p = piece_on(from);
  const Bitboard ft = square_bb(from) | square_bb(to);
  by_color_[color_of(p)] ^= ft;
  by_type_[type_of(p)] ^= ft;
  board_[static_cast<std::size_t>(to_index(to))] = p;
  board_[static_cast<std::size_t>(to_index(from))] = kNoPiece;
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
  return (pawn_attacks(Color::Black, s) & pieces(Color::White, PieceType::Pawn)) |
         (pawn_attacks(Color::White, s) & pieces(Color::Black, PieceType::Pawn)) |
         (knight_attacks(s) & pieces(PieceType::Knight)) | (king_attacks(s) & pieces(PieceType::King)) |
         (rook_attacks(s, occ) & (pieces(PieceType::Rook) | pieces(PieceType::Queen))) |
         (bishop_attacks(s, occ) & (pieces(PieceType::Bishop) | pieces(PieceType::Queen)));
}

bool Position::attacked_by(Color by, Square s, Bitboard occ) const {
  const Bitboard them = pieces(by);
  return (pawn_attacks(~by, s) & pieces(by, PieceType::Pawn)) ||
         (knight_attacks(s) & them & pieces(PieceType::Knight)) || (king_attacks(s) & them & pieces(PieceType::King)) ||
         (rook_attacks(s, occ) & them & (pieces(PieceType::Rook) | pieces(PieceType::Queen))) ||
         (bishop_attacks(s, occ) & them & (pieces(PieceType::Bishop) | pieces(PieceType::Queen)));
}

Bitboard Position::checkers() const {
  const Color us = side_to_move_;
  return attackers_to(king_square(us), pieces()) & pieces(~us);
}

namespace {
// Castling rights lost when a move touches a square (king or rook origin).
constexpr std::uint8_t castling_mask(Square s) {
  switch (s) {
    case Square::E1: return kWhiteOO | kWhiteOOO;
    case Square::H1: return kWhiteOO;
    case Square::A1: return kWhiteOOO;
    case Square::E8: return kBlackOO | kBlackOOO;
    case Square::H8: return kBlackOO;
    case Square::A8: return kBlackOOO;
    default: return 0;
  }
}
}  // namespace

UndoInfo Position::make_move(Move m) {
  UndoInfo u{kNoPiece, castling_, en_passant_, halfmove_clock_};
  const Color us = side_to_move_;
  const Square from = m.from();
  const Square to = m.to();
  const Piece moving = piece_on(from);
  ++halfmove_clock_;
  en_passant_.reset();
  switch (m.kind()) {
    case Move::Kind::Castling: {
      const bool king_side = to_index(to) > to_index(from);
      const Square rook_from = make_square(king_side ? File::H : File::A, rank_of(from));
      const Square rook_to = make_square(king_side ? File::F : File::D, rank_of(from));
      move_piece(from, to);
      move_piece(rook_from, rook_to);
      break;
    }
    case Move::Kind::EnPassant: {
      const Square cap = square_at(to_index(to) + (us == Color::White ? -8 : 8));
      u.captured = piece_on(cap);
      remove_piece(cap);
      move_piece(from, to);
      halfmove_clock_ = 0;
      break;
    }
    case Move::Kind::Promotion:
    case Move::Kind::Normal: {
      if (piece_on(to) != kNoPiece) {
        u.captured = piece_on(to);
        remove_piece(to);
        halfmove_clock_ = 0;
      }
      if (m.kind() == Move::Kind::Promotion) {
        remove_piece(from);
        put_piece(make_piece(us, m.promotion()), to);
      } else {
        move_piece(from, to);
      }
      if (type_of(moving) == PieceType::Pawn) {
        halfmove_clock_ = 0;
        if ((to_index(to) ^ to_index(from)) == 16) en_passant_ = square_at((to_index(to) + to_index(from)) / 2);
      }
      break;
    }
  }
  castling_ = static_cast<std::uint8_t>(castling_ & ~(castling_mask(from) | castling_mask(to)));
  if (us == Color::Black) ++fullmove_number_;
  side_to_move_ = ~us;
  assert(is_ok());
  return u;
}

void Position::undo_move(Move m, const UndoInfo& u) {
  side_to_move_ = ~side_to_move_;
  const Color us = side_to_move_;
  if (us == Color::Black) --fullmove_number_;
  const Square from = m.from();
  const Square to = m.to();
  switch (m.kind()) {
    case Move::Kind::Castling: {
      const bool king_side = to_index(to) > to_index(from);
      const Square rook_from = make_square(king_side ? File::H : File::A, rank_of(from));
      const Square rook_to = make_square(king_side ? File::F : File::D, rank_of(from));
      move_piece(to, from);
      move_piece(rook_to, rook_from);
      break;
    }
    case Move::Kind::EnPassant: {
      move_piece(to, from);
      put_piece(u.captured, square_at(to_index(to) + (us == Color::White ? -8 : 8)));
      break;
    }
    case Move::Kind::Promotion:
      remove_piece(to);
      put_piece(make_piece(us, PieceType::Pawn), from);
      if (u.captured != kNoPiece) put_piece(u.captured, to);
      break;
    case Move::Kind::Normal:
      move_piece(to, from);
      if (u.captured != kNoPiece) put_piece(u.captured, to);
      break;
  }
  castling_ = u.castling;
  en_passant_ = u.en_passant;
  halfmove_clock_ = u.halfmove_clock;
  assert(is_ok());
}

Position Position::color_swapped() const {
  Position p;
  p.board_.fill(kNoPiece);
  for (int i = 0; i < 64; ++i) {
    const Piece pc = board_[static_cast<std::size_t>(i)];
    if (pc != kNoPiece) p.put_piece(make_piece(~color_of(pc), type_of(pc)), flip_vertical(square_at(i)));
  }
  p.side_to_move_ = ~side_to_move_;
  p.castling_ = static_cast<std::uint8_t>(((castling_ & 3U) << 2) | ((castling_ >> 2) & 3U));
  if (en_passant_) p.en_passant_ = flip_vertical(*en_passant_);
  p.halfmove_clock_ = halfmove_clock_;
  p.fullmove_number_ = fullmove_number_;
  return p;
}

bool Position::is_ok() const {
  if (popcount(pieces(Color::White, PieceType::King)) != 1) return false;
  if (popcount(pieces(Color::Black, PieceType::King)) != 1) return false;
  if (by_color_[Color::White] & by_color_[Color::Black]) return false;
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    const Piece pc = piece_on(s);
    if (pc == kNoPiece) {
      if (pieces() & square_bb(s)) return false;
    } else if (!(pieces(color_of(pc), type_of(pc)) & square_bb(s))) {
      return false;
    }
  }
  return true;
}

}  // namespace deadpos
