// Lookup library: exact dead-position (FIDE 5.2.2) and flag-fall (FIDE 6.9) answers for any legal
// position whose material has tables, including castling rights and en passant rights, which the
// tables themselves leave out (docs/design.md, "Probing").
//
// Thread-safety: a Tablebase may be probed from any number of threads at once. Tables are opened
// lazily (once, on first use; an error opening one is sticky and returned by every later probe
// that needs it); decompressed blocks live in an LRU cache bounded by Options::cache_bytes.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "deadpos/position.h"
#include "deadpos/result.h"

namespace deadpos {

namespace internal {
class ProbeDoor;  // deadpos/probe_door.h
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

// What the verdicts alone say of a position (docs/format.md section 7): no distance, so a table's
// verdict file suffices. The same booleans as ProbeResult's (can_be_mated[X] == dthm[X].has_value()).
struct PositionVerdict {
  bool checkmate = false;  // the side to move is checkmated (the game is over)
  bool stalemate = false;  // the side to move is stalemated (the game is drawn)
  // can_be_mated[X]: some sequence of legal moves ends in checkmate of X (FIDE 6.9: X's opponent
  // "can checkmate X by any possible series of legal moves").
  ByColor<bool> can_be_mated{};
  bool white_can_mate() const { return can_be_mated[Color::Black]; }
  bool black_can_mate() const { return can_be_mated[Color::White]; }
  // Dead position (FIDE 5.2.2): neither side can be checkmated by any sequence of legal moves.
  bool dead() const { return !can_be_mated[Color::White] && !can_be_mated[Color::Black]; }
  std::string table;             // canonical material key of the position's table, e.g. "KBvKN"
  bool castling_search = false;  // castling rights: answered by an exact search (needs table files)
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
  // files whose name is not a canonical material key of at most kMaxTableMen men are skipped),
  // then the *.dpv files of materials that have no *.dpt in any of them: verdict-only tables,
  // which answer verdict() and nothing else (docs/format.md section 7: a server or tournament
  // manager that needs only FIDE 5.2.2 and 6.9 may keep the verdict files alone).
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

  // Which sides can be checkmated from pos, from the verdict files (one small block: docs/format.md
  // section 7) where the tables have them, else from the table files' DTHM bytes: exactly the
  // booleans of probe(), without reading a distance. Verdict-only tables answer here. Errors: as
  // probe(); a position with castling rights (and a legal move) is answered by the castling
  // search, which needs the table files: MissingTable for a verdict-only table; CorruptTable
  // naming a damaged verdict file (never an answer from it).
  Result<PositionVerdict> verdict(const Position& pos) const;
  // FIDE 6.9 verdict when `flagged` runs out of time in pos. Errors: as probe().
  Result<FlagVerdict> flag_verdict(const Position& pos, Color flagged) const;

  // The block-cache limit in use, bytes (Options::cache_bytes or default_cache_bytes()).
  std::size_t cache_bytes() const;

  // Largest number of men (kings included) among the tables found with a table file; 0 if none.
  int max_men() const;
  // The same over every table, verdict-only ones included (what verdict() answers up to).
  int max_verdict_men() const;
  // Material keys of the tables found with a table file, sorted.
  std::vector<std::string> materials() const;
  // Material keys of the verdict-only tables (a *.dpv without its *.dpt), sorted.
  std::vector<std::string> verdict_only_materials() const;

  struct Impl;

 private:
  // The analysis probes within its own budget through this door (deadpos/probe_door.h).
  friend class internal::ProbeDoor;
  explicit Tablebase(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace deadpos
