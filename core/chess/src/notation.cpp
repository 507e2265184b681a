#include "deadpos/notation.h"

#include <algorithm>
#include <optional>

namespace deadpos {

namespace {

std::optional<PieceType> promo_from_char(char c) {
  switch (c) {
    case 'q':
    case 'Q': return PieceType::Queen;
    case 'r':
    case 'R': return PieceType::Rook;
    case 'b':
    case 'B': return PieceType::Bishop;
    case 'n':
    case 'N': return PieceType::Knight;
    default: return std::nullopt;
  }
}

Error move_error(std::string_view text, const std::string& why) {
  return make_error(ErrorCode::InvalidMove, "move '" + shown_text(text) + "': " + why);
}

}  // namespace

std::string to_uci(Move m) {
  if (m.is_none()) return "0000";
  std::string s = square_name(m.from());
  s += square_name(m.to());
  if (m.kind() == Move::Kind::Promotion) s += static_cast<char>(piece_type_char(m.promotion()) - 'A' + 'a');
  return s;
}

Result<Move> parse_uci(const Position& pos, std::string_view uci) {
  if (uci.size() != 4 && uci.size() != 5) return move_error(uci, "UCI moves have 4 or 5 characters");
  for (Move m : pos.legal_moves()) {
    if (to_uci(m) == uci) return m;
  }
  return move_error(uci, "not a legal move in " + pos.to_fen());
}

std::string to_san(const Position& pos, Move m) {
  std::string s;
  const Piece pc = pos.piece_on(m.from());
  const PieceType pt = type_of(pc);
  if (m.kind() == Move::Kind::Castling) {
    s = to_index(m.to()) > to_index(m.from()) ? "O-O" : "O-O-O";
  } else {
    const bool capture = pos.piece_on(m.to()) != kNoPiece || m.kind() == Move::Kind::EnPassant;
    if (pt == PieceType::Pawn) {
      if (capture) {
        s += static_cast<char>('a' + file_index(m.from()));
        s += 'x';
      }
      s += square_name(m.to());
      if (m.kind() == Move::Kind::Promotion) {
        s += '=';
        s += piece_type_char(m.promotion());
      }
    } else {
      s += piece_type_char(pt);
      if (pt != PieceType::King) {
        // Other legal moves of the same piece type to the same square.
        bool ambiguous = false, same_file = false, same_rank = false;
        for (Move o : pos.legal_moves()) {
          if (o == m || o.to() != m.to() || o.from() == m.from() || pos.piece_on(o.from()) != pc) continue;
          ambiguous = true;
          if (file_index(o.from()) == file_index(m.from())) same_file = true;
          if (rank_index(o.from()) == rank_index(m.from())) same_rank = true;
        }
        if (ambiguous) {
          if (!same_file) {
            s += static_cast<char>('a' + file_index(m.from()));
          } else if (!same_rank) {
            s += static_cast<char>('1' + rank_index(m.from()));
          } else {
            s += square_name(m.from());
          }
        }
      }
      if (capture) s += 'x';
      s += square_name(m.to());
    }
  }
  const Position next = pos.after(m);
  if (next.in_check()) s += next.has_legal_move() ? '+' : '#';
  return s;
}

Result<Move> parse_san(const Position& pos, std::string_view san) {
  std::string t(san);
  // Strip annotations and check marks.
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?')) t.pop_back();
  if (t.empty()) return move_error(san, "empty");
  const MoveList legal = pos.legal_moves();
  if (t == "O-O" || t == "0-0" || t == "O-O-O" || t == "0-0-0") {
    const bool king_side = t.size() == 3;
    for (Move m : legal) {
      if (m.kind() == Move::Kind::Castling && (to_index(m.to()) > to_index(m.from())) == king_side) return m;
    }
    return move_error(san, "castling is not legal in " + pos.to_fen());
  }
  PieceType pt = PieceType::Pawn;
  std::size_t i = 0;
  if (t[0] >= 'A' && t[0] <= 'Z') {
    switch (t[0]) {
      case 'K': pt = PieceType::King; break;
      case 'Q': pt = PieceType::Queen; break;
      case 'R': pt = PieceType::Rook; break;
      case 'B': pt = PieceType::Bishop; break;
      case 'N': pt = PieceType::Knight; break;
      default: return move_error(san, std::string("unknown piece letter '") + t[0] + "'");
    }
    i = 1;
  }
  // Promotion suffix: "=Q" or "Q".
  std::optional<PieceType> promo;
  // "a8=q", "a8=X": whatever follows '=' names the promotion piece.
  if (pt == PieceType::Pawn && t.size() >= 3 && t[t.size() - 2] == '=' && !(t.back() >= 'A' && t.back() <= 'Z')) {
    return move_error(san, std::string("a pawn cannot promote to '") + t.back() +
                               "': the piece must be Q, R, B or N, a capital letter (FIDE 3.7.5)");
  }
  if (pt == PieceType::Pawn && t.size() >= 2 && t.back() >= 'A' && t.back() <= 'Z') {
    // A capital letter after a pawn's move can only name the piece it promotes to.
    const auto p = promo_from_char(t.back());
    if (!p) {
      return move_error(
          san, std::string("a pawn cannot promote to '") + t.back() + "': the piece must be Q, R, B or N (FIDE 3.7.5)");
    }
    promo = p;
    t.pop_back();
    if (!t.empty() && t.back() == '=') t.pop_back();
  }
  // Remaining: [from-file][from-rank][x]to-square
  if (t.size() < i + 2) return move_error(san, "no destination square");
  const std::string dest = t.substr(t.size() - 2);
  if (dest[0] < 'a' || dest[0] > 'h' || dest[1] < '1' || dest[1] > '8') {
    return move_error(san, "bad destination square '" + dest + "'");
  }
  const Square to = make_square(static_cast<File>(dest[0] - 'a'), static_cast<Rank>(dest[1] - '1'));
  std::string mid = t.substr(i, t.size() - 2 - i);
  if (!mid.empty() && mid.back() == 'x') mid.pop_back();
  int from_file = -1, from_rank = -1;
  for (char c : mid) {
    if (c >= 'a' && c <= 'h' && from_file < 0) {
      from_file = c - 'a';
    } else if (c >= '1' && c <= '8' && from_rank < 0) {
      from_rank = c - '1';
    } else {
      return move_error(san, "cannot read '" + mid + "' as disambiguation");
    }
  }
  std::optional<Move> found;
  for (Move m : legal) {
    if (m.kind() == Move::Kind::Castling) continue;
    if (m.to() != to || type_of(pos.piece_on(m.from())) != pt) continue;
    if (from_file >= 0 && file_index(m.from()) != from_file) continue;
    if (from_rank >= 0 && rank_index(m.from()) != from_rank) continue;
    if (m.kind() == Move::Kind::Promotion) {
      if (!promo || m.promotion() != *promo) continue;
    } else if (promo) {
      continue;
    }
    if (found) return move_error(san, "ambiguous in " + pos.to_fen());
    found = m;
  }
  if (!found) return move_error(san, "not a legal move in " + pos.to_fen());
  return *found;
}

std::vector<std::string> line_to_san(Position pos, const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) {
    out.push_back(to_san(pos, m));
    pos.make_move(m);
  }
  return out;
}

std::string format_line(const Position& pos, const std::vector<Move>& moves) {
  const std::vector<std::string> san = line_to_san(pos, moves);
  std::string out;
  int number = pos.fullmove_number();
  Color side = pos.side_to_move();
  for (std::size_t i = 0; i < san.size(); ++i) {
    if (!out.empty()) out += ' ';
    if (side == Color::White) {
      out += std::to_string(number) + ". ";
    } else if (i == 0) {
      out += std::to_string(number) + "... ";
    }
    out += san[i];
    if (side == Color::Black) ++number;
    side = ~side;
  }
  return out;
}

std::string fen_of_epd_line(std::string_view line) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::size_t b = 0;
  std::size_t e = line.size();
  while (b < e && blank(line[b])) ++b;
  while (e > b && blank(line[e - 1])) --e;
  const std::string_view t = line.substr(b, e - b);
  // Find the start of the 5th field and the end of the 4th.
  std::size_t i = 0;
  std::size_t end4 = 0;
  for (int field = 0; field < 4 && i < t.size(); ++field) {
    while (i < t.size() && blank(t[i])) ++i;
    while (i < t.size() && !blank(t[i])) ++i;
    end4 = i;
  }
  while (i < t.size() && blank(t[i])) ++i;
  const bool epd = i < t.size() && ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z'));
  return std::string(epd ? t.substr(0, end4) : t);
}

}  // namespace deadpos
