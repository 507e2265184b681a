/* deadpos C API: exact dead-position (FIDE 5.2.2), can-mate / helpmate (DTHM) and flag-fall
 * (FIDE 6.9) answers from deadpos tables, for programs written in C or any language with a C FFI
 * (docs/api.md, "C API"). Link with `pkg-config --cflags --libs deadpos` or CMake's
 * `find_package(deadpos)` + `target_link_libraries(app PRIVATE deadpos::deadpos)`.
 *
 * Every position is answered as `deadpos probe` answers it (docs/cli.md): from the tables when its
 * material has one, otherwise by the exact search beyond the tables within the budgets of
 * deadpos_options; every answer is exact or says "undetermined", never a guess.
 *
 * Conventions, for every function below:
 *  - Status: functions that can fail return a deadpos_status; DEADPOS_OK (0) is success. On
 *    failure the output structs are left in an unspecified state (do not read them).
 *  - Errors: `err` may be NULL. When it is not, it is filled on every call: code = the returned
 *    status and message = "" on success, or a one-line NUL-terminated message naming what and where
 *    (printable ASCII; cut with "..." to fit). The caller owns it; use one per thread (no global
 *    error state exists).
 *  - Never aborts, never prints, never lets a C++ exception out; an allocation failure is
 *    DEADPOS_ERR_OUT_OF_MEMORY.
 *  - Strings passed in (FENs, directory names) are NUL-terminated, borrowed for the call only.
 *    Strings returned as `const char *` by the *_name functions and deadpos_version are static:
 *    never free them. Results are written into caller-owned structs and buffers.
 *  - Squares: 0..63, a1 = 0, b1 = 1, ..., h8 = 63 (bit i of a bitboard is square i).
 *  - Thread-safety: a deadpos_tablebase may be probed from any number of threads at once (tables
 *    are opened lazily, once; the block cache is shared and locked). deadpos_close must not run
 *    concurrently with any other use of the same handle. Distinct handles are independent.
 */
#ifndef DEADPOS_H
#define DEADPOS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define DEADPOS_API __attribute__((visibility("default")))
#else
#define DEADPOS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status codes ---------------------------------------------------------------------------- */

/* One code per deadpos error category (deadpos::ErrorCode, docs/cli.md "Exit codes"), then the
 * codes of the C boundary. Values are stable. */
typedef enum deadpos_status {
  DEADPOS_OK = 0,
  DEADPOS_ERR_INVALID_FEN = 1,         /* malformed or illegal position (FEN or bitboards) */
  DEADPOS_ERR_INVALID_ARGUMENT = 2,    /* impossible request (e.g. castling search over its limit) */
  DEADPOS_ERR_INVALID_MOVE = 3,        /* a move that is malformed or illegal */
  DEADPOS_ERR_IO = 4,                  /* a directory or table file cannot be listed or read */
  DEADPOS_ERR_MISSING_TABLE = 5,       /* a table the answer needs is absent (message names it) */
  DEADPOS_ERR_CORRUPT_TABLE = 6,       /* table bytes fail a checksum or format check (names the file) */
  DEADPOS_ERR_OUT_OF_MEMORY = 7,       /* an allocation failed */
  DEADPOS_ERR_TOO_MANY_MEN = 8,        /* more men than the loaded tables cover (tables_only) */
  DEADPOS_ERR_VERIFICATION_FAILED = 9, /* a table disagrees with its successors */
  DEADPOS_ERR_BAD_ARGUMENT = 10,       /* the caller's mistake: NULL pointer, value out of range */
  DEADPOS_ERR_BUFFER_TOO_SMALL = 11,   /* a caller buffer is too small (the size needed is returned) */
  DEADPOS_ERR_INTERNAL = 12,           /* an unexpected internal failure (a bug: please report it) */
  DEADPOS_STATUS_MAX_ENUM = 0x7fffffff /* not a status (see DEADPOS_SIDE_MAX_ENUM) */
} deadpos_status;

/* "invalid FEN", "invalid argument", "invalid move", "I/O error", "missing table", "corrupt table",
 * "out of memory", "too many men", "verification failed" (the category names of `deadpos probe`),
 * "bad argument", "buffer too small", "internal error"; "ok" for DEADPOS_OK, "?" otherwise. */
DEADPOS_API const char* deadpos_status_name(deadpos_status s);

#define DEADPOS_MESSAGE_SIZE 256

/* Per-call error information, owned by the caller. */
typedef struct deadpos_error {
  deadpos_status code;
  char message[DEADPOS_MESSAGE_SIZE]; /* NUL-terminated one line; "" on success */
} deadpos_error;

/* The library's version, "MAJOR.MINOR.PATCH" (the project version; the SONAME is
 * libdeadpos.so.MAJOR.MINOR while MAJOR is 0). Static string. */
DEADPOS_API const char* deadpos_version(void);

/* ---- opening tables -------------------------------------------------------------------------- */

typedef struct deadpos_tablebase deadpos_tablebase; /* opaque */

/* Options of deadpos_open. Initialise with deadpos_options_init, then change fields: fields may
 * be added at the end in later versions, which deadpos_options_init fills. */
typedef struct deadpos_options {
  /* Decompressed-block cache limit, MiB, 0..1048576 (`deadpos probe --cache-mb`). Default, as the
   * command's: an eighth of the machine's memory (physical, or a lower cgroup v2 memory.max),
   * 256..4096 MiB, at most a quarter of RLIMIT_AS; read when deadpos_options_init runs. */
  uint64_t cache_mib;
  /* Beyond the tables, per side and position (`deadpos probe --budget-*`): positions the search may
   * generate, 0..2^40, 0 = no limit (default 2000000); milliseconds, 0..86400000, 0 = no limit
   * (default 0); MiB the search may store, 1..1048576 (default 512). A budget that runs out makes
   * that side's answer undetermined, never wrong. */
  uint64_t budget_nodes;
  uint64_t budget_ms;
  uint64_t budget_mib;
  /* Nonzero: answer from the tables only (exact DTHM or an error): a position without its table is
   * DEADPOS_ERR_MISSING_TABLE, or DEADPOS_ERR_TOO_MANY_MEN when it has more men than any table.
   * 0 (default): as `deadpos probe`, search beyond the tables. */
  int tables_only;
} deadpos_options;

/* Fills *opt with the defaults above. */
DEADPOS_API void deadpos_options_init(deadpos_options* opt);

/* Opens the *.dpt tables of `n_dirs` directories (later directories do not override earlier
 * ones); nothing is read yet (tables open lazily, on first use). `opt` NULL: defaults. On success
 * *out is a new handle, owned by the caller, freed with deadpos_close. Errors: BAD_ARGUMENT (NULL
 * dirs/out, n_dirs 0, an empty name, an option out of range), IO (a directory cannot be listed),
 * MISSING_TABLE (no table in any of the directories, as `deadpos probe` says), OUT_OF_MEMORY. */
DEADPOS_API deadpos_status deadpos_open(const char* const* dirs, size_t n_dirs, const deadpos_options* opt,
                                        deadpos_tablebase** out, deadpos_error* err);

/* Frees the handle and its cache. NULL is allowed. No other call may use tb during or after it. */
DEADPOS_API void deadpos_close(deadpos_tablebase* tb);

/* Largest number of men (kings included) among the tables found; 0 for NULL. */
DEADPOS_API int deadpos_max_men(const deadpos_tablebase* tb);

/* ---- positions as bitboards (Fathom's shape) ------------------------------------------------- */

/* Every enum ends with a *_MAX_ENUM member that is not a value: it makes each enum type as wide as
 * an int, so that any int a caller passes is a value of the type (and is refused as BAD_ARGUMENT or
 * INVALID_FEN, never undefined behaviour in the library). */
typedef enum deadpos_side {
  DEADPOS_WHITE = 0,
  DEADPOS_BLACK = 1,
  DEADPOS_SIDE_TO_MOVE = 2,
  DEADPOS_SIDE_MAX_ENUM = 0x7fffffff
} deadpos_side;

/* Castling rights bits (the FEN castling field KQkq). */
#define DEADPOS_CASTLE_WHITE_KING_SIDE 1u
#define DEADPOS_CASTLE_WHITE_QUEEN_SIDE 2u
#define DEADPOS_CASTLE_BLACK_KING_SIDE 4u
#define DEADPOS_CASTLE_BLACK_QUEEN_SIDE 8u
/* "no en passant square" */
#define DEADPOS_NO_SQUARE (-1)

/* A position as bitboards, bit i = square i (a1 = 0). Each man is in exactly one of white/black and
 * exactly one of the piece-type sets; it is checked like a FEN (docs/cli.md, "FEN input"): the
 * same legality checks, with the same DEADPOS_ERR_INVALID_FEN message a FEN of this position would
 * get; inconsistent sets (a man in both colours, in no colour or in two types) are INVALID_FEN too,
 * naming the square. The halfmove clock and fullmove number are 0 and 1 (they change no answer). */
typedef struct deadpos_bitboards {
  uint64_t white, black;                                  /* occupancy per colour */
  uint64_t kings, queens, rooks, bishops, knights, pawns; /* occupancy per piece type */
  deadpos_side side_to_move;                              /* DEADPOS_WHITE or DEADPOS_BLACK */
  unsigned castling;                                      /* DEADPOS_CASTLE_* bits, 0 = none */
  int en_passant; /* the square a capturing pawn moves to (rank 3 or 6), or DEADPOS_NO_SQUARE */
} deadpos_bitboards;

/* ---- answers --------------------------------------------------------------------------------- */

typedef enum deadpos_tri {
  DEADPOS_NO = 0,
  DEADPOS_YES = 1,
  DEADPOS_UNDETERMINED = 2,
  DEADPOS_TRI_MAX_ENUM = 0x7fffffff
} deadpos_tri;

/* How a side's question was decided (`how.*.method` of `deadpos probe --json`). */
typedef enum deadpos_method {
  DEADPOS_METHOD_TABLE = 0,        /* the position's table: exact DTHM */
  DEADPOS_METHOD_SEARCH = 1,       /* can mate: the search found a line (line_plies) */
  DEADPOS_METHOD_EXHAUSTED = 2,    /* cannot mate: every reachable position visited (positions) */
  DEADPOS_METHOD_RULE = 3,         /* cannot mate: a named rule (rule) */
  DEADPOS_METHOD_UNDETERMINED = 4, /* the budget ran out (budget) */
  DEADPOS_METHOD_NOT_ASKED = 5,    /* not analysed: a flag-fall answer that did not need it */
  DEADPOS_METHOD_MAX_ENUM = 0x7fffffff
} deadpos_method;

typedef enum deadpos_rule {
  DEADPOS_RULE_NONE = 0,
  DEADPOS_RULE_LONE_KING = 1,
  DEADPOS_RULE_SAME_COLOURED_BISHOPS = 2,
  DEADPOS_RULE_NO_CHECKMATE_PLACEMENT = 3,
  DEADPOS_RULE_ONE_COLOUR_BISHOPS = 4,
  DEADPOS_RULE_LOCKED_STRUCTURE = 5, /* since 0.2 */
  DEADPOS_RULE_MAX_ENUM = 0x7fffffff
} deadpos_rule;

typedef enum deadpos_budget {
  DEADPOS_BUDGET_NONE = 0,
  DEADPOS_BUDGET_NODES = 1,
  DEADPOS_BUDGET_TIME = 2,
  DEADPOS_BUDGET_MEMORY = 3,
  DEADPOS_BUDGET_OUT_OF_MEMORY = 4,
  DEADPOS_BUDGET_MAX_ENUM = 0x7fffffff
} deadpos_budget;

/* "table", "search", "exhausted", "rule", "undetermined" */
DEADPOS_API const char* deadpos_method_name(deadpos_method m);
/* "none", "lone-king", "same-coloured-bishops", "no-checkmate-placement", "one-colour-bishops",
 * "locked-structure" */
DEADPOS_API const char* deadpos_rule_name(deadpos_rule r);
/* "none", "nodes", "time", "memory", "out-of-memory" */
DEADPOS_API const char* deadpos_budget_name(deadpos_budget b);

#define DEADPOS_REASON_SIZE 512

/* The proof behind one side's can-mate answer (`how.white_can_mate` / `how.black_can_mate`). */
typedef struct deadpos_how {
  deadpos_method method;
  deadpos_rule rule;     /* METHOD_RULE; else RULE_NONE */
  deadpos_budget budget; /* METHOD_UNDETERMINED; else BUDGET_NONE */
  uint64_t positions;    /* SEARCH: generated; EXHAUSTED: reachable positions stored; UNDETERMINED:
                            generated; else 0 */
  int line_plies;        /* SEARCH: length of the certificate line; else 0 */
  int shortest;          /* SEARCH: 1 when the line is proven shortest; else 0 */
  /* Cannot mate (TABLE without a DTHM, EXHAUSTED, RULE): why, in words (`how.*.reason`), NUL-
   * terminated (it always fits); "" otherwise (since 0.2). */
  char reason[DEADPOS_REASON_SIZE];
} deadpos_how;

/* DTHM fields: plies of the shortest sequence of legal moves ending in that checkmate (>= 0), or: */
#define DEADPOS_DTHM_NONE (-1)    /* the side cannot be checkmated */
#define DEADPOS_DTHM_UNKNOWN (-2) /* can be (not proven shortest) or undetermined: see the tri fields */

#define DEADPOS_FEN_SIZE 128
#define DEADPOS_TABLE_SIZE 32

/* Signs that no game can reach the position (`warnings` of `deadpos probe --json`; docs/cli.md,
 * "Positions no game can reach"): bits of deadpos_probe_result.warnings. Such a position is still
 * answered exactly (its moves are legal); no answer depends on how the position was reached. */
#define DEADPOS_WARNING_IMPOSSIBLE_CHECK 1u    /* "impossible-check": a check no single move gives */
#define DEADPOS_WARNING_IMPOSSIBLE_MATERIAL 2u /* "impossible-material": more pieces than promotions explain */
/* "impossible-check", "impossible-material" for one bit; NULL for anything else. */
DEADPOS_API const char* deadpos_warning_name(unsigned warning_bit);

/* The answer for one position (the fields of `deadpos probe --json`). */
typedef struct deadpos_probe_result {
  int checkmate;              /* 1: the side to move is checkmated */
  int stalemate;              /* 1: the side to move is stalemated */
  deadpos_tri dead;           /* FIDE 5.2.2: neither side can be checkmated */
  deadpos_tri white_can_mate; /* some sequence of legal moves ends with White checkmating */
  deadpos_tri black_can_mate;
  int dthm_white_mated_plies; /* DTHM of White's checkmate, or DEADPOS_DTHM_NONE / _UNKNOWN */
  int dthm_black_mated_plies;
  deadpos_how how_white_can_mate; /* how white_can_mate was decided */
  deadpos_how how_black_can_mate;
  int castling_search;            /* 1: castling rights answered by the exact castling search */
  int en_passant;                 /* 1: an en passant capture was legal and taken into account */
  char table[DEADPOS_TABLE_SIZE]; /* material key of the position's table ("KRvKN"), "" if none */
  char fen[DEADPOS_FEN_SIZE];     /* the position as a normalised 6-field FEN */
  unsigned warnings;              /* DEADPOS_WARNING_* bits, 0 = none (since 0.2) */
} deadpos_probe_result;

/* Answers a position given as FEN (6 fields; 4 or 5 accepted, the counters then 0 and 1; not
 * EPD). Errors: BAD_ARGUMENT (NULL tb/fen/out), INVALID_FEN (the message names the field or the
 * check, e.g. "kings-adjacent: ..."), CORRUPT_TABLE, IO, OUT_OF_MEMORY, INVALID_ARGUMENT; with
 * tables_only also MISSING_TABLE and TOO_MANY_MEN. Thread-safe. */
DEADPOS_API deadpos_status deadpos_probe_fen(const deadpos_tablebase* tb, const char* fen, deadpos_probe_result* out,
                                             deadpos_error* err);
/* The same for a position as bitboards. */
DEADPOS_API deadpos_status deadpos_probe_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                                   deadpos_probe_result* out, deadpos_error* err);

/* ---- flag-fall ------------------------------------------------------------------------------- */

/* Why a flag-fall ends as it does (`flag.reason` of `deadpos probe --json --flag`). */
typedef enum deadpos_flag_reason {
  DEADPOS_FLAG_CHECKMATE = 0,            /* already checkmate: the game ended before the flag */
  DEADPOS_FLAG_STALEMATE = 1,            /* already stalemate: drawn */
  DEADPOS_FLAG_DEAD_POSITION = 2,        /* FIDE 5.2.2: drawn whatever the clock */
  DEADPOS_FLAG_OPPONENT_CANNOT_MATE = 3, /* FIDE 6.9: drawn */
  DEADPOS_FLAG_OPPONENT_CAN_MATE = 4,    /* FIDE 6.9: the flagged side loses */
  DEADPOS_FLAG_UNDETERMINED = 5,         /* the budget ran out before the opponent's question was decided */
  DEADPOS_FLAG_MAX_ENUM = 0x7fffffff
} deadpos_flag_reason;

/* "checkmate", "stalemate", "dead-position", "opponent-cannot-mate", "opponent-can-mate",
 * "undetermined" (the identifiers of `flag.reason`). */
DEADPOS_API const char* deadpos_flag_reason_name(deadpos_flag_reason r);

typedef struct deadpos_flag_result {
  deadpos_side flagged; /* DEADPOS_WHITE or DEADPOS_BLACK (DEADPOS_SIDE_TO_MOVE resolved) */
  deadpos_flag_reason reason;
  char result[8];             /* "1-0", "0-1", "1/2-1/2", or "" when undetermined */
  deadpos_probe_result probe; /* the position's answer the verdict was drawn from */
} deadpos_flag_result;

/* The result of the game when `flagged` (DEADPOS_WHITE, DEADPOS_BLACK, or DEADPOS_SIDE_TO_MOVE)
 * runs out of time in the position: FIDE 6.9 with 5.2.2 first. Errors: as deadpos_probe_fen, and
 * BAD_ARGUMENT for another `flagged`. Thread-safe. */
DEADPOS_API deadpos_status deadpos_flag_fen(const deadpos_tablebase* tb, const char* fen, deadpos_side flagged,
                                            deadpos_flag_result* out, deadpos_error* err);
DEADPOS_API deadpos_status deadpos_flag_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                                  deadpos_side flagged, deadpos_flag_result* out, deadpos_error* err);

/* ---- while the game is played: can this side still checkmate? is the position dead? ---------- */

/* The two questions a tournament manager asks after a move or at a flag-fall, each with a hard time
 * cap per call (since 0.2; docs/api.md, "Adjudicating while the game is played"). Not a
 * win/draw/loss probe: "can mate" means some sequence of legal moves, however absurd, with both
 * sides cooperating, ends with `side` checkmating (KR v KR: both can mate, yet it is a tablebase
 * draw).
 *
 * deadpos_can_mate_*: *out = DEADPOS_YES when some sequence of legal moves from the position ends
 * with `side` (DEADPOS_WHITE, DEADPOS_BLACK or DEADPOS_SIDE_TO_MOVE) checkmating its opponent,
 * DEADPOS_NO when none does (FIDE 6.9: when the opponent of `side` runs out of time the game is
 * drawn; 7.5.5 likewise), DEADPOS_UNDETERMINED when the budget ran out first: the caller then keeps
 * its own rule.
 * deadpos_is_dead_*: *out = DEADPOS_YES when neither side can checkmate (FIDE 5.2.2: the game is
 * drawn at once), DEADPOS_NO when one can, DEADPOS_UNDETERMINED when the budget ran out first.
 *
 * max_ms: the call's wall-clock cap, 1..86400000 ms; 0 = the handle's budget_ms (which may be 0: no
 * time limit). The node and memory budgets of the handle apply as well. The clock is checked every
 * 256 positions searched, so a call returns within max_ms plus that much search and one table block
 * read; past the cap the answer is DEADPOS_UNDETERMINED (never an error, never wrong). With
 * tables_only the tables alone answer (no search, max_ms unused) and a position without its table is
 * MISSING_TABLE / TOO_MANY_MEN. Errors: BAD_ARGUMENT (NULL tb/fen/pos/out, a side out of range,
 * max_ms over 86400000), INVALID_FEN, and as deadpos_probe_fen. Thread-safe: any number of threads
 * may call these at once on one handle. */
DEADPOS_API deadpos_status deadpos_can_mate_fen(const deadpos_tablebase* tb, const char* fen, deadpos_side side,
                                                uint64_t max_ms, deadpos_tri* out, deadpos_error* err);
DEADPOS_API deadpos_status deadpos_can_mate_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                                      deadpos_side side, uint64_t max_ms, deadpos_tri* out,
                                                      deadpos_error* err);
DEADPOS_API deadpos_status deadpos_is_dead_fen(const deadpos_tablebase* tb, const char* fen, uint64_t max_ms,
                                               deadpos_tri* out, deadpos_error* err);
DEADPOS_API deadpos_status deadpos_is_dead_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                                     uint64_t max_ms, deadpos_tri* out, deadpos_error* err);

/* ---- helpmate lines -------------------------------------------------------------------------- */

typedef struct deadpos_line_info {
  deadpos_tri can_be_mated; /* YES: the buffer holds the line; NO / UNDETERMINED: no line ("") */
  int plies;                /* moves in the line (0 when the position is that checkmate already) */
  int shortest;             /* 1: proven shortest (its length is the DTHM; always from the tables) */
  size_t needed;            /* bytes the line needs, with its NUL terminator (also on BUFFER_TOO_SMALL) */
} deadpos_line_info;

/* A sequence of legal moves from the position that ends with `mated` (DEADPOS_WHITE, DEADPOS_BLACK
 * or DEADPOS_SIDE_TO_MOVE) checkmated, written into buf as UCI moves separated by single spaces
 * ("a5a6 d7d1 a6a7 d1a1"; castling as the king's move "e1g1", promotions "e7e8q"), NUL-terminated.
 * From the tables the line is a shortest one; beyond them a search certificate (info->shortest).
 * `info` must not be NULL. buf may be NULL when buf_size is 0 (ask for info->needed first); a
 * line of 7 men rarely exceeds 1 KiB. The size query (buf NULL, buf_size 0) therefore answers
 * BUFFER_TOO_SMALL exactly when there is a line to fetch (YES; needed 1 for the empty line of a
 * position that is that checkmate already), and DEADPOS_OK when there is none (NO, UNDETERMINED). Errors: BAD_ARGUMENT,
 * BUFFER_TOO_SMALL (buf gets "" when buf_size > 0; info->needed says how much), MISSING_TABLE (every continuation of
 * the line passes through an absent table), and as deadpos_probe_fen. Thread-safe. */
DEADPOS_API deadpos_status deadpos_line_fen(const deadpos_tablebase* tb, const char* fen, deadpos_side mated, char* buf,
                                            size_t buf_size, deadpos_line_info* info, deadpos_error* err);
DEADPOS_API deadpos_status deadpos_line_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                                  deadpos_side mated, char* buf, size_t buf_size,
                                                  deadpos_line_info* info, deadpos_error* err);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* DEADPOS_H */
