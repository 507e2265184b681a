// Lookup library: exact dead-position (FIDE 5.2.2) and flag-fall (FIDE 6.9) answers for any legal
// position whose material has tables, including castling rights and en passant rights, which the
// tables themselves leave out (docs/design.md, "Probing").
//
// Thread-safety: a Tablebase may be probed from any number of threads at once. Tables are opened
// lazily (once, on first use; an error opening one is sticky and returned by every later probe
// that needs it); decompressed blocks live in an LRU cache bounded by Options::cache_bytes.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/position.h"
#include "deadpos/result.h"

namespace deadpos {

namespace internal {
struct CastlingLimits;  // castling_search.h
class Search;           // analyzer.cpp
struct RootTable;       // analyzer.cpp
}  // namespace internal

struct ProbeResult {
  bool checkmate = false;  // the side to move is checkmated (the game is over)
  bool stalemate = false;  // the side to move is stalemated (the game is drawn)
  // dthm[X]: plies of the shortest sequence of legal moves ending in checkmate of X (DTHM_X);
  // nullopt if no sequence of legal moves ends in checkmate of X.
  ByColor<std::optional<int>> dthm;
  bool white_can_mate() const { return dthm[Color::Black].has_value(); }
  bool black_can_mate() const { return dthm[Color::White].has_value(); }
  // Dead position (FIDE 5.2.2): neither side can be checkmated by any sequence of legal moves.
  bool dead() const { return !dthm[Color::White] && !dthm[Color::Black]; }
  std::string table;             // canonical material key of the position's table, e.g. "KBvKN"
  bool castling_search = false;  // castling rights: answered by an exact search down to the tables
  bool en_passant = false;       // an en passant capture was legal and taken into account
};

// Result of a game whose player `flagged` ran out of time (FIDE 6.9, with 5.2.2 taking precedence).
struct FlagVerdict {
  enum class Reason {
    Checkmate,           // the position is already checkmate: the game ended before the flag
    Stalemate,           // the position is already stalemate: drawn
    DeadPosition,        // FIDE 5.2.2: no side can mate; drawn whatever the clock
    OpponentCannotMate,  // FIDE 6.9: the opponent cannot mate by any legal sequence; drawn
    OpponentCanMate,     // FIDE 6.9: the player who flagged loses
    Undetermined,        // the analysis budget ran out before the opponent's question was decided
  };
  Reason reason;
  std::string result;  // "1-0", "0-1" or "1/2-1/2"; empty when undetermined
  ProbeResult probe;   // Tablebase::flag_verdict only (table answers)
};
const char* flag_reason_text(FlagVerdict::Reason r);
// "checkmate", "stalemate", "dead-position", "opponent-cannot-mate", "opponent-can-mate",
// "undetermined": the reason's identifier in JSON answers (docs/cli.md).
const char* flag_reason_name(FlagVerdict::Reason r);

// FIDE 6.9 verdict (5.2.2 first) from an analysis of the position (Tablebase::analyze), for any
// number of men: Reason::Undetermined when the flagged side's question is undetermined and the
// position is not known to be dead. `probe` is left empty. Pure; thread-safe.
FlagVerdict flag_verdict(const PositionAnalysis& a, Color side_to_move, Color flagged);

class Tablebase {
 public:
  struct Options {
    // Decompressed-block cache limit, bytes; nullopt (the default): Tablebase::default_cache_bytes().
    // The cache has 16 shards of cache_bytes / 16 each, and a shard always keeps its latest block
    // (256 KiB raw), so a limit under 4 MiB is exceeded by up to 16 blocks. The cache grows
    // lazily, a block at a time as probes read it: nothing is reserved up front, and it never holds
    // more than the blocks actually read.
    std::optional<std::size_t> cache_bytes;
  };

  // The default block-cache limit, bytes, from the machine: an eighth of the memory available to
  // the process (physical memory, or a lower cgroup v2 memory.max), at least 256 MiB and at most
  // 4 GiB, and never more than a quarter of the address-space limit (RLIMIT_AS, `ulimit -v`)
  // when one is set. 23 GiB of memory: 2.9 GiB; 7 GiB (a 2-core CI machine): 896 MiB. Reads
  // sysconf and /sys/fs/cgroup/memory.max on each call; thread-safe.
  static std::size_t default_cache_bytes();

  // Indexes the *.dpt files of the directories (later directories do not override earlier ones;
  // files whose name is not a canonical material key of at most kMaxTableMen men are skipped).
  // Nothing is read yet. Errors: Io if a directory cannot be listed; InvalidArgument for an empty name.
  static Result<Tablebase> open(const std::vector<std::string>& dirs, Options opt);
  static Result<Tablebase> open(const std::vector<std::string>& dirs) { return open(dirs, Options{}); }

  Tablebase(Tablebase&&) noexcept;
  Tablebase& operator=(Tablebase&&) noexcept;
  ~Tablebase();

  // Exact answer for pos. A checkmate or stalemate is answered by the rules alone, whatever tables
  // are loaded. Errors: TooManyMen (more men than any loaded table), MissingTable (a table the
  // answer needs is absent: names it), CorruptTable (a checksum or format check failed, or a value
  // that cannot be right: names the file; never a wrong answer), Io (a table file cannot be read
  // any more), InvalidArgument (castling rights whose exact search needs more than 4,000,000
  // positions over all its rights, about 1.7 GiB: analyze() answers those within its budget).
  Result<ProbeResult> probe(const Position& pos) const;

  // One shortest sequence of legal moves from pos that ends with `mated` checkmated: exactly
  // DTHM_mated plies. A move into a table that is not loaded is passed over when another move
  // continues the line (so a line that captures nothing needs no capture subtables); MissingTable
  // only when every continuation needs an absent table. Errors: as probe(), and InvalidArgument if
  // `mated` cannot be checkmated.
  Result<std::vector<Move>> helpmate_line(const Position& pos, Color mated) const;

  // FIDE 6.9 verdict when `flagged` runs out of time in pos. Errors: as probe().
  Result<FlagVerdict> flag_verdict(const Position& pos, Color flagged) const;

  // Can `mated` be checkmated by some sequence of legal moves from pos, for any number of men
  // (deadpos/analysis.h; docs/design.md, "Beyond the tables")? Positions the tables cover (at most
  // opt.table_men men, table present) are answered by probe() (Method::Table, exact DTHM; with
  // want_line the shortest line). Otherwise an exact search: a line that replays to the mate
  // (Method::Search, not proven shortest), a proof that none exists (Method::Exhausted with the
  // number of positions, or Method::Rule), or Method::Undetermined naming the budget that ran out
  // (opt.budget; running out of memory is undetermined too). Errors: as probe() for a table that
  // is corrupt or unreadable (never MissingTable or TooManyMen: the search goes on without it).
  // Thread-safe like probe(); memory is bounded by opt.budget.memory_bytes plus the block cache.
  Result<MateAnswer> analyze_side(const Position& pos, Color mated, const AnalysisOptions& opt, bool want_line) const;
  // Both sides' questions for pos (analyze_side for White and for Black, each with its own budget),
  // plus checkmate/stalemate on the board. Errors: as analyze_side().
  Result<PositionAnalysis> analyze(const Position& pos, const AnalysisOptions& opt, bool want_lines) const;

  // The block-cache limit in use, bytes (Options::cache_bytes or default_cache_bytes()).
  std::size_t cache_bytes() const;

  // Largest number of men (kings included) among the tables found; 0 if none.
  int max_men() const;
  // Material keys of the tables found, sorted.
  std::vector<std::string> materials() const;

  struct Impl;

 private:
  friend class internal::Search;
  explicit Tablebase(std::unique_ptr<Impl> impl);
  // probe() and helpmate_line() with the castling searches held to `limits` (the analysis passes
  // its budget, analyzer.cpp), which also receive the positions stored and, when a limit ran
  // out (the error is then InvalidArgument), which one.
  Result<ProbeResult> probe(const Position& pos, internal::CastlingLimits& limits) const;
  Result<std::vector<Move>> helpmate_line(const Position& pos, Color mated, internal::CastlingLimits& limits) const;
  // analyze_side() with its clock, and the root's table answer shared with the other question
  // (analyzer.cpp).
  Result<MateAnswer> analyze_side(const Position& pos, Color mated, const AnalysisOptions& opt, bool want_line,
                                  std::optional<std::chrono::steady_clock::time_point> deadline,
                                  internal::RootTable& root) const;
  // What probe() says of pos besides the DTHMs: checkmate, stalemate, table, castling_search,
  // en_passant (the rules alone, no table read).
  static ProbeResult describe(const Position& pos);
  std::unique_ptr<Impl> impl_;
};

}  // namespace deadpos
