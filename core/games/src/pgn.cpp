// The streaming PGN reader: see deadpos/pgn.h.
//
// The reader works line by line (the PGN standard's escape mechanism and ';' comments are
// line-based) and keeps the lexical state that crosses lines: inside a {comment}, the variation
// depth, whether the movetext has begun. A game ends where the next one begins (a tag after
// movetext, a move after a result token) or at the end of the input; its text is kept byte for
// byte so that `deadpos adjudicate --pgn-out` can write it back with only the result changed.
#include "deadpos/pgn.h"

#include <algorithm>
#include <array>

namespace deadpos {

const PgnTag* PgnGame::tag(std::string_view name) const {
  for (const PgnTag& t : tags)
    if (t.name == name) return &t;
  return nullptr;
}

namespace {

constexpr std::size_t kChunk = 64 * 1024;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The UTF-8 byte order mark (U+FEFF) is read as a blank wherever a token may begin.
bool is_bom(std::string_view s, std::size_t i) { return s.substr(i).starts_with("\xEF\xBB\xBF"); }

// Characters that end a movetext token.
bool is_delimiter(char c) {
  return is_blank(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '[' || c == ']' || c == '$';
}

bool is_result(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

bool is_null_move(std::string_view t) { return t == "--" || t == "Z0" || t == "0000" || t == "@@@@"; }

// Characters of SAN (and the lenient forms parse_san and the UCI fallback accept).
bool is_move_char(char c) {
  return (c >= 'a' && c <= 'h') || (c >= '1' && c <= '8') || c == 'K' || c == 'Q' || c == 'R' || c == 'B' || c == 'N' ||
         c == 'O' || c == '0' || c == 'x' || c == '=' || c == '+' || c == '#' || c == '!' || c == '?' || c == '-' ||
         c == 'q' || c == 'r' || c == 'n' || c == 'P' || c == 'Z' || c == '@' || c == ':' || c == 'p' || c == '.';
}

std::string line_ref(std::uint64_t line) { return "line " + std::to_string(line); }

// Parses one tag pair starting at s[i] == '['. On success returns true, fills tag (offsets
// relative to s) and sets end to the index after ']'.
bool parse_tag(std::string_view s, std::size_t i, PgnTag& tag, std::size_t& end) {
  std::size_t j = i + 1;
  while (j < s.size() && is_blank(s[j])) ++j;
  const std::size_t name_begin = j;
  while (j < s.size() && !is_blank(s[j]) && s[j] != '"' && s[j] != ']' && s[j] != '[') ++j;
  if (j == name_begin) return false;
  tag.name = std::string(s.substr(name_begin, j - name_begin));
  while (j < s.size() && is_blank(s[j])) ++j;
  if (j >= s.size() || s[j] != '"') return false;
  const std::size_t value_begin = j + 1;
  // Strict reading: \" and \\ escapes; a quote ends the value only when ']' follows (after
  // blanks), so that unescaped quotes inside a value are part of it.
  std::string value;
  for (std::size_t k = value_begin; k < s.size(); ++k) {
    const char c = s[k];
    if (c == '\\' && k + 1 < s.size() && (s[k + 1] == '"' || s[k + 1] == '\\')) {
      value += s[++k];
      continue;
    }
    if (c == '"') {
      std::size_t m = k + 1;
      while (m < s.size() && is_blank(s[m])) ++m;
      if (m < s.size() && s[m] == ']') {
        tag.value = std::move(value);
        tag.value_begin = value_begin;
        tag.value_end = k;
        end = m + 1;
        return true;
      }
    }
    value += c;
  }
  // Lenient reading (a backslash before the closing quote, a missing closing quote): the value
  // runs to the last '"]' of the line, or else to its last ']', as written.
  std::size_t close = s.rfind("\"]");
  std::size_t stop = 0;
  if (close != std::string_view::npos && close >= value_begin) {
    stop = close + 2;
  } else {
    close = s.rfind(']');
    if (close == std::string_view::npos || close < value_begin) return false;
    stop = close + 1;
  }
  tag.value = std::string(s.substr(value_begin, close - value_begin));
  tag.value_begin = value_begin;
  tag.value_end = close;
  end = stop;
  return true;
}

}  // namespace

bool PgnReader::fill() {
  if (eof_) return false;
  if (buf_pos_ > 0) {
    buf_.erase(0, buf_pos_);
    buf_pos_ = 0;
  }
  const std::size_t old = buf_.size();
  buf_.resize(old + kChunk);
  in_.read(buf_.data() + old, static_cast<std::streamsize>(kChunk));
  const auto got = static_cast<std::size_t>(in_.gcount());
  buf_.resize(old + got);
  if (in_.bad()) io_error_ = true;
  if (!in_) eof_ = true;
  return got > 0;
}

bool PgnReader::read_line() {
  line_.clear();
  newline_ = false;
  too_long_ = false;
  bool any = false;
  for (;;) {
    if (buf_pos_ >= buf_.size() && !fill()) break;
    any = true;
    const std::size_t nl = buf_.find('\n', buf_pos_);
    const std::size_t stop = nl == std::string::npos ? buf_.size() : nl;
    const std::size_t room = kMaxGameBytes - std::min(kMaxGameBytes, line_.size());
    const std::size_t take = std::min(stop - buf_pos_, room);
    if (take < stop - buf_pos_) too_long_ = true;
    line_.append(buf_, buf_pos_, take);
    bytes_read_ += stop - buf_pos_;
    buf_pos_ = stop;
    if (nl != std::string::npos) {
      ++buf_pos_;
      ++bytes_read_;
      newline_ = true;
      break;
    }
  }
  if (!any) return false;
  ++line_number_;
  if (first_line_) {
    first_line_ = false;
    if (line_.starts_with("\xEF\xBB\xBF")) {
      // The byte order mark is not part of the first game's text (nor of its first tag).
      line_.erase(0, 3);
      bom_ = true;
    }
  }
  return true;
}

Result<std::optional<PgnGame>> PgnReader::next() {
  PgnGame g;
  bool in_comment = false;
  int depth = 0;
  bool movetext = false;      // a move, move number, variation or result seen: a tag now begins a new game
  bool after_result = false;  // the main line's result token was read
  bool content = false;       // a tag, a move or a result: the text is a game
  bool discarding = false;    // the game outgrew kMaxGameBytes: its text is no longer kept
  std::string number;         // the move number written since the last main-line move
  std::size_t number_begin = 0;
  auto fail = [&](std::string why) {
    if (!g.syntax_error) g.syntax_error = std::move(why);
  };

  for (;;) {
    std::size_t start = 0;
    if (have_pending_line_) {
      have_pending_line_ = false;
      start = pending_offset_;
    } else if (!read_line()) {
      if (io_error_) return make_error(ErrorCode::Io, "read error after " + line_ref(line_number_));
      break;
    }
    if (g.line == 0) g.line = line_number_;
    const std::string_view s(line_);
    const std::size_t base = g.text.size() - start;  // offset in g.text of s[0]
    if (too_long_) fail(line_ref(line_number_) + ": line longer than " + std::to_string(kMaxGameBytes) + " bytes");
    // A new game begins at s[i]: keep s[start, i) in this game and the rest for the next call.
    bool split = false;
    std::size_t split_at = s.size();
    auto begin_next_game = [&](std::size_t i) {
      split = true;
      split_at = i;
    };

    // Escape mechanism (PGN standard 6): a '%' in the first column makes the line a comment.
    const bool escape_line = !in_comment && start == 0 && !s.empty() && s[0] == '%';
    std::size_t i = escape_line ? s.size() : start;
    while (i < s.size() && !split) {
      if (in_comment) {
        const std::size_t close = s.find('}', i);
        if (close == std::string_view::npos) {
          i = s.size();
        } else {
          in_comment = false;
          i = close + 1;
        }
        continue;
      }
      const char c = s[i];
      if (is_blank(c)) {
        ++i;
        continue;
      }
      if (is_bom(s, i)) {
        i += 3;
        continue;
      }
      if (c == '{') {
        in_comment = true;
        ++i;
        continue;
      }
      if (c == ';') break;  // comment to the end of the line
      if (c == '[' && depth == 0) {
        if (movetext) {
          begin_next_game(i);
          break;
        }
        PgnTag tag;
        std::size_t end = 0;
        if (!parse_tag(s, i, tag, end)) {
          fail(line_ref(line_number_) + ": cannot read a tag in '" + shown_text(s.substr(i)) + "'");
          break;
        }
        tag.value_begin += base;
        tag.value_end += base;
        g.tags.push_back(std::move(tag));
        g.tags_end = base + end;
        content = true;
        i = end;
        continue;
      }
      if (c == '(') {
        ++depth;
        movetext = content = true;
        ++i;
        continue;
      }
      if (c == ')') {
        if (depth == 0) {
          fail(line_ref(line_number_) + ": ')' without its '('");
        } else {
          --depth;
        }
        ++i;
        continue;
      }
      if (c == '$') {  // NAG
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        continue;
      }
      if (c == '}' || c == ']' || c == '[') {
        fail(line_ref(line_number_) + ": unexpected '" + std::string(1, c) + "'");
        ++i;
        continue;
      }
      // A token: runs to the next delimiter.
      std::size_t e = i;
      while (e < s.size() && !is_delimiter(s[e])) ++e;
      std::string_view tok = s.substr(i, e - i);
      const std::size_t tok_begin = i;
      i = e;
      if (depth > 0) continue;  // inside a variation: skipped
      if (is_result(tok)) {
        if (after_result) {
          begin_next_game(tok_begin);  // a tagless game that is only a result
          break;
        }
        g.result_token = std::string(tok);
        g.result_begin = base + tok_begin;
        after_result = movetext = content = true;
        continue;
      }
      // Move number: digits and dots ("12.", "12...", "12"), possibly glued to the move ("12.Nf3").
      std::size_t k = 0;
      while (k < tok.size() && tok[k] >= '0' && tok[k] <= '9') ++k;
      if (k > 0 && (k == tok.size() || tok[k] == '.')) {
        while (k < tok.size() && tok[k] == '.') ++k;
        if (!after_result && number.empty()) {
          number = std::string(tok.substr(0, k));
          number_begin = base + tok_begin;
        }
        tok.remove_prefix(k);
        if (tok.empty()) {
          if (after_result) {
            begin_next_game(tok_begin);
            break;
          }
          movetext = true;
          continue;
        }
      } else {
        k = 0;
        while (k < tok.size() && tok[k] == '.') ++k;  // "..." or "1. ...Nf6"
        tok.remove_prefix(k);
        if (tok.empty()) continue;
      }
      if (tok.find_first_not_of("!?") == std::string_view::npos) continue;  // a glyph: !, ?, !?, ...
      if (tok == "e.p." || tok == "ep") continue;                           // en passant mark after the move
      if (after_result) {
        begin_next_game(tok_begin);
        break;
      }
      if (!std::all_of(tok.begin(), tok.end(), is_move_char)) {
        fail(line_ref(line_number_) + ": unknown token '" + shown_text(s.substr(tok_begin, e - tok_begin)) + "'");
        continue;
      }
      if (is_null_move(tok) && !g.first_null_move) g.first_null_move = g.moves.size();
      const std::size_t move_begin = base + (e - tok.size());
      if (number.empty()) number_begin = move_begin;
      g.moves.push_back(
          PgnMove{std::string(tok), move_begin, move_begin + tok.size(), std::move(number), number_begin});
      number.clear();
      movetext = content = true;
    }

    // Keep the bytes of this game.
    const std::string_view kept = s.substr(start, split_at - start);
    if (!discarding) {
      if (g.text.size() + kept.size() + 1 > kMaxGameBytes) {
        discarding = true;
        fail("game longer than " + std::to_string(kMaxGameBytes) + " bytes");
        g.text.clear();
        g.text.shrink_to_fit();
        g.moves.clear();
        g.moves.shrink_to_fit();
      } else {
        g.text.append(kept);
        if (!split && newline_) g.text += '\n';
      }
    }
    if (split) {
      have_pending_line_ = true;
      pending_offset_ = split_at;
      break;
    }
  }
  if (!content && !g.syntax_error) {
    // Only blanks, comments or escape lines: not a game (the end of the input, or its tail).
    return std::optional<PgnGame>{};
  }
  if (in_comment) fail("the input ends inside a comment ('{' without '}')");
  if (depth > 0) fail("the input ends inside a variation ('(' without ')')");
  g.number = ++games_;
  return std::optional<PgnGame>{std::move(g)};
}

}  // namespace deadpos
