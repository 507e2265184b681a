// libFuzzer target: PGN text from outside (PgnReader, replay_game, corrected_pgn).
//
// Beyond "no crash, no leak, no undefined behaviour, no hang" (ASan+UBSan) it checks properties and
// aborts when one fails, so that libFuzzer keeps the input:
//   - the reader never reorders or changes bytes: the games' texts, joined, are a prefix of the
//     input (after a leading byte order mark; what follows the last game is no game's);
//   - each move's and tag's offsets point into its game's text at what was read;
//   - messages (syntax errors, replay problems) are one line of printable ASCII;
//   - a replayed game's moves are legal, one position per ply;
//   - corrected_pgn of a game, with a result change and a dead-ply comment, reads back as one
//     game with the same main line.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "deadpos/adjudicate.h"
#include "deadpos/pgn.h"

namespace {

using namespace deadpos;

void require(bool ok, const char* what, std::string_view detail) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_pgn: property violated: %s [%.*s]\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

bool printable_ascii(std::string_view s) {
  for (const char c : s)
    if (c < ' ' || c > '~') return false;
  return true;
}

std::vector<PgnGame> read_all(const std::string& text) {
  std::istringstream in(text);
  PgnReader r(in);
  std::vector<PgnGame> out;
  for (int guard = 0; guard < 100000; ++guard) {
    auto g = r.next();
    require(g.ok(), "a string stream never fails", "");
    if (!*g) break;
    out.push_back(std::move(**g));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<PgnGame> games = read_all(text);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  std::string joined;
  for (const PgnGame& g : games) {
    joined += g.text;
    for (const PgnMove& m : g.moves) {
      require(m.end <= g.text.size() && g.text.compare(m.begin, m.end - m.begin, m.text) == 0, "move offsets", m.text);
    }
    for (const PgnTag& t : g.tags)
      require(t.value_begin <= t.value_end && t.value_end <= g.text.size(), "tag offsets", t.name);
    if (g.syntax_error) require(printable_ascii(*g.syntax_error), "syntax error is printable ASCII", *g.syntax_error);

    const ReplayedGame r = replay_game(g);
    if (r.status != ReplayedGame::Status::Ok) {
      require(!r.problem.empty() && printable_ascii(r.problem), "problem is printable ASCII", r.problem);
      continue;
    }
    require(r.positions.size() == r.moves.size() + 1 && r.moves.size() == g.moves.size(), "one position per ply", "");
    for (std::size_t k = 0; k < r.moves.size(); ++k) {
      bool legal = false;
      for (const Move m : r.positions[k].legal_moves()) legal = legal || m == r.moves[k];
      require(legal, "replayed move is legal", g.moves[k].text);
    }
    Adjudication adj;
    adj.plies = r.plies();
    adj.dead_ply = static_cast<int>(size % (r.moves.size() + 1));
    adj.result = "1/2-1/2";
    adj.recorded = "1-0";
    adj.changed = true;
    adj.reason = "fuzz";
    const std::string fixed = corrected_pgn(g, adj);
    const std::vector<PgnGame> again = read_all(fixed);
    if (g.syntax_error || g.tags.empty()) continue;  // a tagless game may merge with text around it
    require(!again.empty(), "corrected game reads back", fixed);
    const ReplayedGame r2 = replay_game(again[0]);
    require(r2.status == ReplayedGame::Status::Ok && r2.moves == r.moves, "corrected game has the same moves", fixed);
  }
  require(text.starts_with(joined), "games' texts are the input", "");
  return 0;
}
