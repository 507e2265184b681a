// A streaming PGN reader (PGN standard, "Portable Game Notation Specification and Implementation
// Guide", 1994, sections 8 and 18), lenient where real exports differ from the standard:
//   - tags "[Name "value"]" with \" and \\ escapes; several tags on one line; a tag value with an
//     unescaped quote or without its closing quote is read up to the last quote (or ']') of the
//     line; the movetext may start on the line of the last tag;
//   - movetext: SAN tokens (kept as text, replayed by deadpos/adjudicate.h), move numbers "1."
//     "1..." "1. ...", annotation glyphs (!, ?, !?, ...) and NAGs ($n), comments {...} (not nested:
//     the first '}' ends one) and ';' to the end of the line, variations (...) at any depth
//     (skipped: only the main line is kept), result tokens 1-0 0-1 1/2-1/2 *;
//   - lines starting with '%' (escape lines) are skipped; CRLF line ends, a UTF-8 byte order mark
//     (at the start of the file or of a line) and any bytes in tag values and comments (UTF-8 or
//     Latin-1, kept as they are);
//   - games need no blank line between them: a tag line after movetext begins the next game, and
//     so does a move after a result token.
// A game is never dropped: what cannot be read (a stray ')', an unknown character, a tag line that
// is not a tag, a game larger than kMaxGameBytes) is PgnGame::syntax_error, and the reader goes on
// with the next game.
//
// Memory: one game at a time (its text and tokens), never the file.
// Thread-safety: a PgnReader is used from one thread; PgnGame is a plain value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deadpos/result.h"

namespace deadpos {

// One tag pair. value_begin/value_end: byte range of the value as written (between the quotes,
// escapes not undone) in PgnGame::text, for writing a corrected value back.
struct PgnTag {
  std::string name;
  std::string value;  // escapes undone
  std::size_t value_begin = 0, value_end = 0;
};

// A main-line move token as written ("Nbd7", "e8=Q+", "O-O!?", "0-0"), with its byte range in
// PgnGame::text. number: the move number written before it since the previous main-line move
// ("12." or "12...", the first one when several; glued ones as "12.Nf3" too), empty when none;
// number_begin: its offset in text (== begin when number is empty), where a comment about the
// position before this move belongs (PGN standard 8.2.5: a comment before the move number).
struct PgnMove {
  std::string text;
  std::size_t begin = 0, end = 0;
  std::string number;
  std::size_t number_begin = 0;
};

struct PgnGame {
  std::uint64_t number = 0;  // 1-based position of the game in its input
  std::uint64_t line = 0;    // 1-based line of the input on which the game starts
  // The game's bytes as read (tags, movetext, the blank lines after it), byte for byte.
  std::string text;
  std::vector<PgnTag> tags;
  std::vector<PgnMove> moves;  // main line only
  // The result token ending the movetext ("1-0", "0-1", "1/2-1/2", "*"), empty when absent;
  // result_begin: its offset in text (meaningful when not empty).
  std::string result_token;
  std::size_t result_begin = 0;
  // Offset in text just after the last tag's ']' (0 when the game has no tag).
  std::size_t tags_end = 0;
  // A null move ("--", "Z0", "0000", "@@@@") in the main line: its index among the moves (the
  // token is in moves at that index too), else nullopt.
  std::optional<std::size_t> first_null_move;
  // Why the game's text cannot be read (one line, names the line and what), or nullopt.
  std::optional<std::string> syntax_error;

  // The value of the first tag named `name` (case-sensitive, as the standard says), or nullptr.
  const PgnTag* tag(std::string_view name) const;
};

// Reads games one by one from a stream.
class PgnReader {
 public:
  // A game whose text grows beyond this many bytes is cut: syntax_error says so, and the rest of
  // it is skipped (kept out of memory) up to the next game.
  static constexpr std::size_t kMaxGameBytes = std::size_t{32} << 20;

  explicit PgnReader(std::istream& in) : in_(in) {}

  // The next game, or nullopt at the end of the input. Text before the first game that holds no
  // tag and no move (blank lines, comments, escape lines) is not a game. Errors: Io when the
  // stream fails while reading (not at its end).
  Result<std::optional<PgnGame>> next();

  // Whether the input began with a UTF-8 byte order mark (EF BB BF; not part of the first game's
  // text); known once next() was called.
  bool bom() const { return bom_; }
  // Bytes consumed so far (for progress reports).
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  // Reads one line (without its '\n') into line_; false at the end of the input. newline_ tells
  // whether a '\n' ended it. A line longer than kMaxGameBytes is cut (too_long_).
  bool read_line();
  bool fill();

  std::istream& in_;
  std::string buf_;
  std::size_t buf_pos_ = 0;
  bool eof_ = false;
  bool io_error_ = false;

  std::string line_;
  bool newline_ = false;
  bool too_long_ = false;
  bool have_pending_line_ = false;  // line_ holds a line that belongs to the next game
  std::size_t pending_offset_ = 0;  // where in line_ the next game begins
  std::uint64_t line_number_ = 0;
  std::uint64_t games_ = 0;
  std::uint64_t bytes_read_ = 0;
  bool first_line_ = true;
  bool bom_ = false;
};

}  // namespace deadpos
