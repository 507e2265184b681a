// Adjudication of finished games by the Laws of Chess (docs/api.md, "PGN adjudication", "The result the
// Laws give"): replay a PGN game's main line, find the first ply at which the position was dead
// (FIDE 5.2.2: the game ended there, drawn), and give the result of games lost on time by FIDE 6.9.
//
// Exactness: every position is decided by analyze_side (deadpos/analysis.h: tables, or the exact search
// beyond them with its budgets); an undetermined answer is carried through and never turned into
// a verdict (docs/rules.md, "Positions beyond the tables").
//
// Thread-safety: the functions are pure given the Tablebase, which may be shared by any number of
// threads (deadpos/tablebase.h); distinct games may be adjudicated in parallel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/pgn.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/tablebase.h"

namespace deadpos {

// A game's main line replayed by the move generator.
struct ReplayedGame {
  enum class Status : std::uint8_t {
    Ok,           // every move was legal; positions holds the game
    Unreadable,   // the text, the start position or a move could not be read (problem says which)
    Unsupported,  // a variant other than standard chess (by its Variant tag)
  };
  Status status = Status::Ok;
  std::string problem;              // one line (ASCII; outside text through shown_text), empty when Ok
  std::vector<Move> moves;          // the main line, each legal in the position before it
  std::vector<Position> positions;  // positions[k]: after k plies; positions[0]: the start position
  int plies() const { return static_cast<int>(moves.size()); }
};

// Replays g: the start position from the FEN tag (with or without SetUp "1"; SetUp "1" without a
// FEN is unreadable), then each main-line move by parse_san (lenient: check marks, glyphs, "0-0",
// "e.p."), or as UCI ("g1f3", "e7e8q") when it is not SAN. Unreadable: a syntax error of the
// reader, a bad FEN, a null move, an illegal or ambiguous move (problem: "ply N (12... Nf3):
// <why>", numbered by the replay; "ply 6 (3... e4, written '1. e4'): <why>" when the move number
// written before the move differs). Unsupported: a Variant tag whose value (case, leading and trailing spaces and tabs
// ignored) is not one of "", "standard", "from position", "normal", "chess" (Chess960,
// crazyhouse, ...): such a game is never read as standard chess. Pure; thread-safe.
ReplayedGame replay_game(const PgnGame& g);

// The recorded result: the Result tag if it is one of "1-0", "0-1", "1/2-1/2", "*", else the
// movetext's result token, else nullopt.
std::optional<std::string> recorded_result(const PgnGame& g);

// Whose flag fell, when the game was lost (or drawn) on time by its tags, else nullopt:
// Termination "Time forfeit" (lichess), "<name> won on time" (chess.com: the other player),
// "... timeout ..." / "... on time" / "... time forfeit ..." in any case. The flagged side is the
// loser of a decisive recorded result (or named by the chess.com text), else the side to move at
// the end (only the clock of the side to move runs).
std::optional<Color> flagged_side(const PgnGame& g, Color side_to_move_at_end);

// Which rule gave the result (docs/api.md, "PGN adjudication").
enum class ResultRule : std::uint8_t {
  Checkmate,     // checkmate on the board at the end (FIDE 5.1.1)
  DeadPosition,  // the position was dead at some ply (FIDE 5.2.2; a stalemate at the end included)
  Stalemate,     // stalemate at the end, no earlier dead position (FIDE 5.2.1)
  TimeForfeit,   // a flag fell: FIDE 6.9 on the final position
  Recorded,      // none of the above: the recorded result stands
  Undetermined,  // the analysis could not decide what the result is
};
// "checkmate", "dead-position", "stalemate", "time-forfeit", "recorded", "undetermined"
const char* result_rule_name(ResultRule r);

struct Adjudication {
  int plies = 0;
  std::optional<std::string> recorded;  // recorded_result()
  // Whether the final position is dead (nullopt: undetermined).
  std::optional<bool> final_dead;
  // The first ply at which the position was dead (0 = the start position): set only when ply
  // dead_ply is proven dead and ply dead_ply - 1 proven not dead (or dead_ply is 0). When the final
  // position is dead but intermediate answers were undetermined, the first dead ply lies in
  // [dead_ply_low, dead_ply_high]; both are set whenever final_dead is true.
  std::optional<int> dead_ply;
  std::optional<int> dead_ply_low, dead_ply_high;
  // Time forfeits: the flagged side, from the record alone (flagged_side(): set whenever the tags
  // say the game was lost on time, whatever rule then gives the result), and the FIDE 6.9 verdict
  // on the final position (set when that rule gave the result).
  std::optional<Color> flagged;
  std::optional<FlagVerdict> flag;
  // The result the Laws give ("1-0", "0-1", "1/2-1/2"), or nullopt when undetermined or when the
  // game has no result (unfinished, '*', and nothing ends it).
  std::optional<std::string> result;
  bool changed = false;  // result is set and differs from the recorded one (or none was recorded)
  ResultRule rule = ResultRule::Recorded;
  std::string reason;  // one line of English (docs/api.md, "PGN adjudication")
  int analyses = 0;    // positions analysed (one side's question each counts one)
};

// Adjudicates a replayed game (status Ok). Deadness is monotone along a game: if the position after
// a legal move is not dead, neither is the one before it (prepend the move to its helpmate). So
// the final position is analysed first; only when it is dead are the plies binary-searched for the
// first dead one (about log2(plies) more analyses). Errors: CorruptTable / Io from the tables
// (never a wrong answer); InvalidArgument when r is not a replayed game (status Ok). Thread-safe.
Result<Adjudication> adjudicate_game(const Tablebase& tb, const AnalysisOptions& opt, const PgnGame& g,
                                     const ReplayedGame& r);

// The game's text as read, with the result corrected when adj.changed (every Result tag's value,
// or a Result tag added after the last tag; the movetext's result token, or one added after the
// last move) and comments "{deadpos: ...}": at the first dead ply (on the position after its
// move: before the next move's number when one is written there - "{...} 2. Kf1", and "{...} 1. Kd4"
// for ply 0 - else after the move) and, when the result changed, before the result token. Everything else
// is kept byte for byte. Pure.
std::string corrected_pgn(const PgnGame& g, const Adjudication& adj);

// Whether pos is dead (FIDE 5.2.2): checkmate is not, stalemate is; otherwise both sides'
// questions by analyze_side, the side with less material as the mated one first (nullopt:
// undetermined). `analyses` is incremented per question asked. Errors: as analyze_side.
Result<std::optional<bool>> position_dead(const Tablebase& tb, const AnalysisOptions& opt, const Position& pos,
                                          int* analyses = nullptr);

}  // namespace deadpos
