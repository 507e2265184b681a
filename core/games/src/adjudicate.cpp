// Game adjudication: see deadpos/adjudicate.h and docs/api.md, "PGN adjudication".
#include "deadpos/adjudicate.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "deadpos/notation.h"

namespace deadpos {

namespace {

std::string lower_trimmed(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  std::string out(s.substr(b, e - b + 1));
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_result_text(std::string_view r) { return r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*"; }

// "12. Nf3" / "12... Nf3" for ply index k (0-based) from a start position.
// "12... Nf3": the move numbered by the replay (from the start position's move number). When the
// text writes another move number before it, that is added: "3... e4, written '1. e4'".
std::string move_label(const Position& start, std::size_t k, const PgnMove& move) {
  const int first_black = start.side_to_move() == Color::Black ? 1 : 0;
  const auto ply = static_cast<int>(k) + first_black;  // plies since White's move of the start's move number
  const int number = start.fullmove_number() + ply / 2;
  const std::string label = std::to_string(number) + (ply % 2 == 0 ? "." : "...");
  std::string out = label + " " + shown_text(move.text);
  const std::string_view digits = std::string_view(move.number).substr(0, move.number.find('.'));
  if (!digits.empty() && digits != std::to_string(number)) {
    out += ", written '" + shown_text(move.number) + " " + shown_text(move.text) + "'";
  }
  return out;
}

// Strips what parse_san does not take: an "e.p." / "ep" suffix glued to the move.
std::string_view san_core(std::string_view t) {
  for (std::string_view suffix : {"e.p.", "ep"}) {
    if (t.size() > suffix.size() + 1 && t.ends_with(suffix)) {
      t.remove_suffix(suffix.size());
      break;
    }
  }
  return t;
}

bool looks_like_uci(std::string_view t) {
  if (t.size() != 4 && t.size() != 5) return false;
  auto file = [](char c) { return c >= 'a' && c <= 'h'; };
  auto rank = [](char c) { return c >= '1' && c <= '8'; };
  return file(t[0]) && rank(t[1]) && file(t[2]) && rank(t[3]) &&
         (t.size() == 4 || std::string_view("qrbn").find(t[4]) != std::string_view::npos);
}

int material_value(const Position& pos, Color c) {
  return 9 * popcount(pos.pieces(c, PieceType::Queen)) + 5 * popcount(pos.pieces(c, PieceType::Rook)) +
         3 * popcount(pos.pieces(c, PieceType::Bishop)) + 3 * popcount(pos.pieces(c, PieceType::Knight)) +
         popcount(pos.pieces(c, PieceType::Pawn));
}

// A FEN tag's position. A castling right whose king or rook is not on its original square can
// never be used, so it changes no legal move: such rights (written by some exporters) are dropped
// instead of rejecting the game. Every other problem is an error.
Result<Position> start_position(const std::string& fen) {
  auto p = Position::from_fen(fen);
  if (p) return p;
  auto pl = Placement::parse_fen(fen);
  if (!pl) return p;
  struct Right {
    std::uint8_t bit;
    Square king, rook;
    Piece k, r;
  };
  const Right rights[] = {
      {kWhiteOO, Square::E1, Square::H1, make_piece(Color::White, PieceType::King),
       make_piece(Color::White, PieceType::Rook)},
      {kWhiteOOO, Square::E1, Square::A1, make_piece(Color::White, PieceType::King),
       make_piece(Color::White, PieceType::Rook)},
      {kBlackOO, Square::E8, Square::H8, make_piece(Color::Black, PieceType::King),
       make_piece(Color::Black, PieceType::Rook)},
      {kBlackOOO, Square::E8, Square::A8, make_piece(Color::Black, PieceType::King),
       make_piece(Color::Black, PieceType::Rook)},
  };
  for (const Right& r : rights)
    if ((*pl)[r.king] != r.k || (*pl)[r.rook] != r.r) pl->castling &= static_cast<std::uint8_t>(~r.bit);
  auto q = Position::from_placement(*pl);
  return q ? q : p;
}

const char* side_name(Color c) { return c == Color::White ? "White" : "Black"; }
std::string winner_result(Color winner) { return winner == Color::White ? "1-0" : "0-1"; }

// Per-position answers of one game, asked at most once each.
class Analyst {
 public:
  Analyst(const Tablebase& tb, const AnalysisOptions& opt) : tb_(tb), opt_(opt) {}

  // Can `mated` be checkmated from pos? nullopt: undetermined.
  Result<std::optional<bool>> can_mate(int ply, const Position& pos, Color mated) {
    const auto key = std::make_pair(ply, mated);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    auto r = deadpos::analyze_side(tb_, pos, mated, opt_, false);
    if (!r) return r.error();
    ++analyses;
    answers_[key] = *r;
    return cache_[key] = r->can_mate();
  }

  Result<std::optional<bool>> dead(int ply, const Position& pos) {
    if (pos.is_checkmate()) return std::optional<bool>(false);
    if (!pos.has_legal_move()) return std::optional<bool>(true);  // stalemate: no sequence of moves at all
    // The weaker side as the mated one first: a stronger side usually has a quick helpmate, and a
    // lone king's "cannot mate" is a rule; either way one question often decides.
    const Color first =
        material_value(pos, Color::White) <= material_value(pos, Color::Black) ? Color::White : Color::Black;
    auto a = can_mate(ply, pos, first);
    if (!a) return a.error();
    if (*a == true) return std::optional<bool>(false);
    auto b = can_mate(ply, pos, ~first);
    if (!b) return b.error();
    if (*b == true) return std::optional<bool>(false);
    if (*a == false && *b == false) return std::optional<bool>(true);
    return std::optional<bool>();
  }

  // The analysis of pos from the answers asked so far (sides not asked are undetermined).
  PositionAnalysis analysis(int ply, const Position& pos) const {
    PositionAnalysis a;
    a.checkmate = pos.is_checkmate();
    a.stalemate = pos.is_stalemate();
    for (Color c : {Color::White, Color::Black}) {
      a.mate[c].mated = c;
      if (auto it = answers_.find({ply, c}); it != answers_.end()) a.mate[c] = it->second;
    }
    return a;
  }

  int analyses = 0;

 private:
  const Tablebase& tb_;
  const AnalysisOptions& opt_;
  std::map<std::pair<int, Color>, std::optional<bool>> cache_;
  std::map<std::pair<int, Color>, MateAnswer> answers_;
};

}  // namespace

const char* result_rule_name(ResultRule r) {
  switch (r) {
    case ResultRule::Checkmate: return "checkmate";
    case ResultRule::DeadPosition: return "dead-position";
    case ResultRule::Stalemate: return "stalemate";
    case ResultRule::TimeForfeit: return "time-forfeit";
    case ResultRule::Recorded: return "recorded";
    case ResultRule::Undetermined: return "undetermined";
  }
  return "?";
}

ReplayedGame replay_game(const PgnGame& g) {
  ReplayedGame r;
  auto fail = [&](ReplayedGame::Status s, std::string why) {
    r.status = s;
    r.problem = std::move(why);
    r.moves.clear();
    r.positions.clear();
    return r;
  };
  if (const PgnTag* v = g.tag("Variant")) {
    const std::string name = lower_trimmed(v->value);
    if (!name.empty() && name != "standard" && name != "from position" && name != "normal" && name != "chess") {
      return fail(ReplayedGame::Status::Unsupported, "variant '" + shown_text(v->value) + "' (only standard chess)");
    }
  }
  if (g.syntax_error) return fail(ReplayedGame::Status::Unreadable, *g.syntax_error);
  const PgnTag* fen = g.tag("FEN");
  const PgnTag* setup = g.tag("SetUp");
  Position start = Position::startpos();
  if (fen && !lower_trimmed(fen->value).empty()) {
    auto p = start_position(fen->value);
    if (!p) return fail(ReplayedGame::Status::Unreadable, "FEN tag: " + p.error().message);
    start = *p;
  } else if (setup && lower_trimmed(setup->value) == "1") {
    return fail(ReplayedGame::Status::Unreadable, "SetUp \"1\" without a FEN tag");
  }
  r.positions.reserve(g.moves.size() + 1);
  r.moves.reserve(g.moves.size());
  r.positions.push_back(start);
  Position pos = start;
  for (std::size_t k = 0; k < g.moves.size(); ++k) {
    const std::string& text = g.moves[k].text;
    auto where = [&] { return "ply " + std::to_string(k + 1) + " (" + move_label(start, k, g.moves[k]) + ")"; };
    if (g.first_null_move && *g.first_null_move == k) {
      return fail(ReplayedGame::Status::Unreadable, where() + ": a null move");
    }
    auto m = parse_san(pos, san_core(text));
    if (!m && looks_like_uci(text)) {
      if (auto u = parse_uci(pos, text)) m = *u;
    }
    if (!m) {
      // parse_san's message quotes the move and the position: keep its reason.
      std::string why = m.error().message;
      if (const auto colon = why.find("': "); colon != std::string::npos) why = why.substr(colon + 3);
      return fail(ReplayedGame::Status::Unreadable, where() + ": " + why);
    }
    pos.make_move(*m);
    r.moves.push_back(*m);
    r.positions.push_back(pos);
  }
  return r;
}

std::optional<std::string> recorded_result(const PgnGame& g) {
  if (const PgnTag* t = g.tag("Result"); t && is_result_text(t->value)) return t->value;
  if (!g.result_token.empty()) return g.result_token;
  return std::nullopt;
}

std::optional<Color> flagged_side(const PgnGame& g, Color side_to_move_at_end) {
  const PgnTag* term = g.tag("Termination");
  if (!term) return std::nullopt;
  const std::string t = lower_trimmed(term->value);
  const bool on_time = t.find("time forfeit") != std::string::npos || t.find("time-forfeit") != std::string::npos ||
                       t.find("on time") != std::string::npos || t.find("timeout") != std::string::npos ||
                       t.find("time out") != std::string::npos;
  if (!on_time) return std::nullopt;
  // chess.com: "<username> won on time".
  if (const auto at = t.find(" won on time"); at != std::string::npos) {
    const std::string winner = t.substr(0, at);
    const PgnTag* w = g.tag("White");
    const PgnTag* b = g.tag("Black");
    const bool is_white = w && lower_trimmed(w->value) == winner;
    const bool is_black = b && lower_trimmed(b->value) == winner;
    if (is_white != is_black) return is_white ? Color::Black : Color::White;
  }
  const auto rec = recorded_result(g);
  if (rec == "1-0") return Color::Black;
  if (rec == "0-1") return Color::White;
  return side_to_move_at_end;
}

Result<std::optional<bool>> position_dead(const Tablebase& tb, const AnalysisOptions& opt, const Position& pos,
                                          int* analyses) {
  Analyst a(tb, opt);
  auto r = a.dead(0, pos);
  if (analyses) *analyses += a.analyses;
  return r;
}

Result<Adjudication> adjudicate_game(const Tablebase& tb, const AnalysisOptions& opt, const PgnGame& g,
                                     const ReplayedGame& r) {
  if (r.status != ReplayedGame::Status::Ok || r.positions.size() != r.moves.size() + 1) {
    return make_error(ErrorCode::InvalidArgument, "adjudicate_game: the game was not replayed");
  }
  Adjudication out;
  out.plies = r.plies();
  out.recorded = recorded_result(g);
  Analyst an(tb, opt);
  const int n = r.plies();
  const Position& fin = r.positions.back();

  // 1. The final position; then the first dead ply by bisection (monotone: see the header).
  auto fd = an.dead(n, fin);
  if (!fd) return fd.error();
  out.final_dead = *fd;
  if (out.final_dead == true) {
    int lo = -1, hi = n;  // lo: the largest ply proven not dead (-1: none); hi: the smallest proven dead
    std::vector<bool> tried(static_cast<std::size_t>(n) + 1, false);
    tried[static_cast<std::size_t>(n)] = true;
    // Undetermined answers leave holes; at most this many questions per game.
    int budget = 2 * (32 - __builtin_clz(static_cast<unsigned>(n) + 1)) + 8;
    auto ask = [&](int k) -> Status {
      tried[static_cast<std::size_t>(k)] = true;
      --budget;
      auto d = an.dead(k, r.positions[static_cast<std::size_t>(k)]);
      if (!d) return d.error();
      if (*d == true) hi = std::min(hi, k);
      if (*d == false) lo = std::max(lo, k);
      return Ok{};
    };
    // Most games die at their last ply or a few before it: gallop back from the end (plies n-1,
    // n-2, n-4, ...) until one is proven not dead, then bisect between. O(log(n - first dead)).
    for (int step = 1; lo < 0 && hi > 0 && budget > 0; step *= 2) {
      const int k = std::max(0, hi - step);
      if (tried[static_cast<std::size_t>(k)]) break;
      if (auto s = ask(k); !s) return s.error();
      if (k == 0) break;
    }
    while (hi - lo > 1 && budget > 0) {
      // The untried ply of (lo, hi) nearest the middle.
      const int mid0 = lo + (hi - lo) / 2;
      int mid = -1;
      for (int d = 0; d < hi - lo && mid < 0; ++d) {
        if (mid0 - d > lo && !tried[static_cast<std::size_t>(mid0 - d)])
          mid = mid0 - d;
        else if (mid0 + d < hi && !tried[static_cast<std::size_t>(mid0 + d)])
          mid = mid0 + d;
      }
      if (mid < 0) break;
      if (auto s = ask(mid); !s) return s.error();
    }
    out.dead_ply_low = lo + 1;
    out.dead_ply_high = hi;
    if (hi == lo + 1) out.dead_ply = hi;
  }

  // 2. The result the Laws give.
  const Color stm = fin.side_to_move();
  auto set = [&](std::optional<std::string> result, ResultRule rule, std::string reason) {
    out.result = std::move(result);
    out.rule = rule;
    out.reason = std::move(reason);
  };
  std::string where_dead;
  if (out.dead_ply) {
    where_dead = *out.dead_ply == 0 ? "the start position" : "ply " + std::to_string(*out.dead_ply);
  } else if (out.final_dead == true) {
    where_dead = "a ply from " + std::to_string(*out.dead_ply_low) + " to " + std::to_string(*out.dead_ply_high) +
                 " (earlier positions undetermined)";
  }
  // Whose flag fell is the record's (Termination and result), whatever rule gives the result.
  const auto flagged = flagged_side(g, stm);
  out.flagged = flagged;
  if (fin.is_checkmate()) {
    set(winner_result(~stm), ResultRule::Checkmate,
        std::string(side_name(stm)) + " is checkmated on the board (FIDE 5.1.1)");
  } else if (out.final_dead == true && n > 0 && out.dead_ply == n && !fin.has_legal_move()) {
    set("1/2-1/2", ResultRule::Stalemate, std::string(side_name(stm)) + " is stalemated (FIDE 5.2.1)");
  } else if (out.final_dead == true) {
    set("1/2-1/2", ResultRule::DeadPosition,
        "dead position at " + where_dead + ": the game ended there, drawn (FIDE 5.2.2)" +
            (out.dead_ply && *out.dead_ply < n
                 ? "; " + std::to_string(n - *out.dead_ply) +
                       (n - *out.dead_ply == 1 ? " more ply was" : " more plies were") + " played"
                 : ""));
  } else if (flagged) {
    auto opp = an.can_mate(n, fin, *flagged);
    if (!opp) return opp.error();
    if (*opp == false) {
      // Dead or only one-sided? Ask the other side too, so the reason is the one `probe` gives.
      auto other = an.can_mate(n, fin, ~*flagged);
      if (!other) return other.error();
    }
    out.flag = flag_verdict(an.analysis(n, fin), stm, *flagged);
    const std::string who = std::string(side_name(*flagged)) + "'s flag fell";
    switch (out.flag->reason) {
      case FlagVerdict::Reason::OpponentCanMate:
        set(out.flag->result, ResultRule::TimeForfeit,
            who + " and " + side_name(~*flagged) +
                " can checkmate by a sequence of legal moves: " + side_name(~*flagged) + " wins (FIDE 6.9)");
        break;
      case FlagVerdict::Reason::OpponentCannotMate:
        set(out.flag->result, ResultRule::TimeForfeit,
            who + " but " + side_name(~*flagged) +
                " cannot checkmate by any sequence of legal moves: drawn (FIDE 6.9)");
        break;
      case FlagVerdict::Reason::DeadPosition:  // final_dead was undetermined, the flag answers settled it
        out.final_dead = true;
        set("1/2-1/2", ResultRule::DeadPosition, who + " in a dead position: drawn (FIDE 5.2.2)");
        break;
      case FlagVerdict::Reason::Undetermined:
        set(std::nullopt, ResultRule::Undetermined,
            who + "; whether " + side_name(~*flagged) + " can checkmate is undetermined (" + std::to_string(fin.men()) +
                " men, beyond what the tables and the analysis budget decide)");
        break;
      case FlagVerdict::Reason::Checkmate:
      case FlagVerdict::Reason::Stalemate: break;  // handled above
    }
  } else if (out.final_dead == false) {
    if (out.recorded && *out.recorded != "*") {
      set(out.recorded, ResultRule::Recorded,
          "no dead position, no checkmate or stalemate on the board: the "
          "recorded result stands");
    } else {
      set(std::nullopt, ResultRule::Recorded,
          "the game is unfinished ('*' or no result) and never reached a dead "
          "position: no result");
    }
  } else if (out.recorded == "1/2-1/2") {
    // Dead or not, the game is drawn.
    set(out.recorded, ResultRule::Recorded,
        "the recorded draw stands (whether the final position is dead is undetermined, a draw either way)");
  } else {
    set(std::nullopt, ResultRule::Undetermined,
        "whether the final position (" + std::to_string(fin.men()) +
            " men) is dead is undetermined: beyond what the tables and the analysis budget decide");
  }
  out.changed = out.result && out.result != out.recorded;
  out.analyses = an.analyses;
  return out;
}

std::string corrected_pgn(const PgnGame& g, const Adjudication& adj) {
  struct Edit {
    std::size_t begin, end;  // bytes of g.text replaced
    std::string text;
    bool tag = false;  // inside the tag section: no blanks added around it
  };
  std::vector<Edit> edits;
  if (adj.dead_ply) {
    const std::string note = "{deadpos: dead position from here (FIDE 5.2.2): the game ended drawn}";
    const auto k = static_cast<std::size_t>(*adj.dead_ply);
    // The comment on the position after ply k: before the next move's number when it has one
    // ("{...} 1. Kb1", not "1. {...} Kb1", which loses a FEN setup in pgn-extract), else after move k.
    if (k < g.moves.size() && (k == 0 || !g.moves[k].number.empty())) {
      const std::size_t at = g.moves[k].number_begin;
      edits.push_back({at, at, note + " "});
    } else if (k > 0 && k <= g.moves.size()) {
      edits.push_back({g.moves[k - 1].end, g.moves[k - 1].end, " " + note});
    } else if (k == 0) {
      const std::size_t at = !g.result_token.empty() ? g.result_begin : g.text.size();
      edits.push_back({at, at, note + " "});
    }
  }
  if (adj.changed && adj.result) {
    const std::string& res = *adj.result;
    const std::string note = "{deadpos: recorded " + (adj.recorded ? *adj.recorded : std::string("no result")) +
                             ", the Laws give " + res + ": " + adj.reason + "}";
    if (g.tag("Result")) {
      for (const PgnTag& t : g.tags) {  // every Result tag, a duplicate too
        if (t.name == "Result") edits.push_back({t.value_begin, t.value_end, res, true});
      }
    } else if (!g.tags.empty()) {
      edits.push_back({g.tags_end, g.tags_end, "\n[Result \"" + res + "\"]", true});
    }
    if (!g.result_token.empty()) {
      edits.push_back({g.result_begin, g.result_begin + g.result_token.size(), note + " " + res});
    } else {
      const std::size_t at = !g.moves.empty() ? g.moves.back().end : g.tags_end;
      edits.push_back({at, at, " " + note + " " + res});
    }
  }
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(g.text.size() + 256);
  std::size_t at = 0;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  for (const Edit& e : edits) {
    if (e.begin < at || e.end > g.text.size()) continue;  // overlapping edits cannot happen; never a garbled game
    out.append(g.text, at, e.begin - at);
    // An insertion stays a token of its own: a blank before and after it unless one is there.
    if (!e.tag && !out.empty() && !blank(out.back()) && !blank(e.text.front())) out += ' ';
    out += e.text;
    if (!e.tag && e.end < g.text.size() && !blank(g.text[e.end]) && !blank(e.text.back())) out += ' ';
    at = e.end;
  }
  out.append(g.text, at);
  return out;
}

}  // namespace deadpos
