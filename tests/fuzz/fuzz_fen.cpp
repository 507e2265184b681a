// libFuzzer target: FEN and EPD text from outside (Position::from_fen, fen_of_epd_line).
//
// Beyond "no crash, no leak, no undefined behaviour" (ASan+UBSan) it checks properties and aborts
// when one fails, so that libFuzzer keeps the input as a crash:
//   - an error is ErrorCode::InvalidFen whose message is one line of printable ASCII (messages go
//     into terminals and JSON; tools/ prints them as they are);
//   - a FEN that parses re-serialises with to_fen, and that text parses to the same position and
//     serialises to the same text again;
//   - fen_of_epd_line gives a FEN back unchanged, and the 4 fields of an EPD record;
//   - every legal move survives UCI and SAN (text -> parse -> the same move) and make/undo.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "deadpos/notation.h"
#include "deadpos/position.h"

namespace {

using deadpos::ErrorCode;
using deadpos::Position;

void require(bool ok, const char* what, std::string_view detail) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_fen: property violated: %s [%.*s]\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

bool printable_ascii(std::string_view s) {
  for (const char c : s)
    if (c < ' ' || c > '~') return false;
  return true;
}

// Parses text as a FEN and checks the properties above; returns whether it parsed.
bool check_fen(std::string_view text) {
  auto r = Position::from_fen(text);
  if (!r) {
    require(r.error().code == ErrorCode::InvalidFen, "error code is InvalidFen", r.error().message);
    require(!r.error().message.empty() && printable_ascii(r.error().message), "message is printable ASCII",
            r.error().message);
    return false;
  }
  Position pos = *r;
  require(pos.is_ok(), "parsed position is_ok", text);
  const std::string fen = pos.to_fen();
  auto again = Position::from_fen(fen);
  require(again.ok(), "to_fen output parses", fen);
  require(*again == pos, "to_fen output parses to the same position", fen);
  require(again->to_fen() == fen, "to_fen is stable", fen);
  require(deadpos::fen_of_epd_line(fen) == fen, "fen_of_epd_line keeps a FEN", fen);

  const Position before = pos;
  for (const deadpos::Move m : pos.legal_moves()) {
    const std::string uci = deadpos::to_uci(m);
    auto u = deadpos::parse_uci(pos, uci);
    require(u.ok() && *u == m, "parse_uci(to_uci(m)) == m", fen + " " + uci);
    const std::string san = deadpos::to_san(pos, m);
    auto s = deadpos::parse_san(pos, san);
    require(s.ok() && *s == m, "parse_san(to_san(m)) == m", fen + " " + san);
    const deadpos::UndoInfo undo = pos.make_move(m);
    require(pos.is_ok(), "is_ok after make_move", fen + " " + uci);
    pos.undo_move(m, undo);
    require(pos == before, "undo_move restores the position", fen + " " + uci);
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_fen(text);

  // The same bytes as a line of an EPD file: what fen_of_epd_line keeps goes to the parser.
  const std::string fen = deadpos::fen_of_epd_line(text);
  require(fen.size() <= text.size(), "fen_of_epd_line does not grow its input", fen);
  if (check_fen(fen)) {
    // Its first 4 fields followed by EPD operations give those 4 fields back.
    const std::string full = Position::from_fen(fen)->to_fen();
    std::size_t end4 = 0;
    for (int field = 0; field < 4; ++field) end4 = full.find(' ', end4 + (field > 0 ? 1 : 0));
    const std::string fields4 = full.substr(0, end4);
    require(deadpos::fen_of_epd_line(fields4 + " bm Kxa8; id \"x\";") == fields4, "EPD record gives its 4 fields",
            fields4);
  }
  return 0;
}
