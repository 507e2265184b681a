/* capi.errors: every failure of the C API comes back as its status code with a one-line message,
 * in the caller's error struct: bad arguments, tables that cannot be opened, invalid FENs, invalid
 * bitboards (with the message the same position as FEN gets), a too-small line buffer.
 *   capi_errors TABLES WORKDIR        (TABLES: the <=4-man tables; WORKDIR: scratch, created)
 * Exit status: 0 when every check holds, 1 otherwise (each failed check printed). */
#include <deadpos.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "capi_test_util.h"

/* The returned status equals err.code, and the message is one non-empty printable line. */
static void check_error(deadpos_status got, deadpos_status want, const deadpos_error* err, const char* what) {
  CHECK(got == want, "%s: status %s, expected %s (%s)", what, deadpos_status_name(got), deadpos_status_name(want),
        err->message);
  CHECK(err->code == got, "%s: err.code %d != status %d", what, (int)err->code, (int)got);
  const size_t n = strlen(err->message);
  CHECK(n > 0 && n < DEADPOS_MESSAGE_SIZE, "%s: message length %zu", what, n);
  for (size_t i = 0; i < n; ++i) CHECK(err->message[i] >= 0x20 && err->message[i] < 0x7f, "%s: byte %zu", what, i);
}

static int contains(const char* s, const char* part) { return strstr(s, part) != NULL; }

/* docs/cli.md's block-cache default, MiB, from /proc/meminfo, cgroup v2 memory.max and RLIMIT_AS
 * (the library reads sysconf): an eighth of the memory, 256..4096 MiB, at most RLIMIT_AS / 4. */
static uint64_t default_cache_mib(void) {
  unsigned long long mem = 0, limit = 0, kib = 0;
  char line[256];
  FILE* f = fopen("/proc/meminfo", "r");
  while (f && fgets(line, sizeof line, f)) {
    if (sscanf(line, "MemTotal: %llu kB", &kib) == 1) mem = kib * 1024;
  }
  if (f) fclose(f);
  f = fopen("/sys/fs/cgroup/memory.max", "r");
  if (f && fscanf(f, "%llu", &limit) == 1 && limit > 0 && limit < mem) mem = limit;
  if (f) fclose(f);
  unsigned long long bytes = mem / 8;
  if (bytes < (256ULL << 20)) bytes = 256ULL << 20;
  if (bytes > (4096ULL << 20)) bytes = 4096ULL << 20;
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < bytes)
    bytes = rl.rlim_cur / 4;
  return bytes >> 20;
}

/* An illegal position: the bitboard probe fails like the FEN probe, same code and message. */
static void check_same_error(const deadpos_tablebase* tb, const char* fen, const char* placement, deadpos_side stm,
                             unsigned castling, int ep, const char* expect_part) {
  deadpos_probe_result r;
  deadpos_error ef, eb;
  const deadpos_status sf = deadpos_probe_fen(tb, fen, &r, &ef);
  const deadpos_bitboards b = bitboards_of(placement, stm, castling, ep);
  const deadpos_status sb = deadpos_probe_bitboards(tb, &b, &r, &eb);
  check_error(sf, DEADPOS_ERR_INVALID_FEN, &ef, fen);
  check_error(sb, DEADPOS_ERR_INVALID_FEN, &eb, fen);
  CHECK(!strcmp(ef.message, eb.message), "%s: FEN message '%s' != bitboard message '%s'", fen, ef.message, eb.message);
  CHECK(contains(ef.message, expect_part), "%s: message '%s' lacks '%s'", fen, ef.message, expect_part);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_errors TABLES WORKDIR\n");
    return 2;
  }
  const char* tables = argv[1];
  deadpos_error err;
  deadpos_tablebase* tb = NULL;
  deadpos_options opt;

  /* version and names */
  const char* v = deadpos_version();
  CHECK(v && v[0] >= '0' && v[0] <= '9' && contains(v, "."), "version '%s'", v ? v : "(null)");
  for (int s = DEADPOS_OK; s <= DEADPOS_ERR_INTERNAL; ++s) {
    const char* n = deadpos_status_name((deadpos_status)s);
    CHECK(strcmp(n, "?") != 0, "status %d has no name", s);
    for (int t = DEADPOS_OK; t < s; ++t)
      CHECK(strcmp(n, deadpos_status_name((deadpos_status)t)) != 0, "name %s twice", n);
  }
  CHECK(!strcmp(deadpos_status_name(DEADPOS_ERR_MISSING_TABLE), "missing table"), "missing table name");
  CHECK(!strcmp(deadpos_status_name((deadpos_status)99), "?"), "unknown status");

  /* opening */
  const char* dirs[] = {tables};
  check_error(deadpos_open(dirs, 1, NULL, NULL, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "open out NULL");
  check_error(deadpos_open(dirs, 0, NULL, &tb, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "open no dirs");
  CHECK(tb == NULL, "handle set on failure");
  check_error(deadpos_open(NULL, 1, NULL, &tb, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "open dirs NULL");
  const char* empty_name[] = {""};
  check_error(deadpos_open(empty_name, 1, NULL, &tb, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "open empty name");
  deadpos_options_init(&opt);
  CHECK(opt.cache_mib == default_cache_mib(), "cache_mib %llu, expected the machine's %llu",
        (unsigned long long)opt.cache_mib, (unsigned long long)default_cache_mib());
  CHECK(opt.budget_nodes == 2000000 && opt.budget_ms == 0 && opt.budget_mib == 512 && opt.tables_only == 0,
        "defaults as `deadpos probe`'s");
  opt.budget_mib = 0;
  check_error(deadpos_open(dirs, 1, &opt, &tb, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "budget_mib 0");
  CHECK(contains(err.message, "budget_mib"), "message names the option: %s", err.message);
  deadpos_options_init(&opt);
  opt.cache_mib = ((uint64_t)1 << 20) + 1;
  check_error(deadpos_open(dirs, 1, &opt, &tb, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "cache_mib too large");
  deadpos_options_init(&opt);
  opt.budget_ms = 86400001;
  check_error(deadpos_open(dirs, 1, &opt, &tb, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "budget_ms too large");
  char missing[4096], empty[4096];
  snprintf(missing, sizeof missing, "%s/no-such-dir", argv[2]);
  snprintf(empty, sizeof empty, "%s/empty", argv[2]);
  mkdir(argv[2], 0777);
  mkdir(empty, 0777);
  const char* missing_dirs[] = {missing};
  check_error(deadpos_open(missing_dirs, 1, NULL, &tb, &err), DEADPOS_ERR_IO, &err, "open a missing directory");
  CHECK(contains(err.message, "no-such-dir"), "names the directory: %s", err.message);
  const char* empty_dirs[] = {empty};
  check_error(deadpos_open(empty_dirs, 1, NULL, &tb, &err), DEADPOS_ERR_MISSING_TABLE, &err, "open an empty directory");
  CHECK(contains(err.message, "no tables"), "says no tables: %s", err.message);
  CHECK(deadpos_open(empty_dirs, 1, NULL, &tb, NULL) == DEADPOS_ERR_MISSING_TABLE, "err NULL is allowed");
  deadpos_close(NULL);

  CHECK(deadpos_open(dirs, 1, NULL, &tb, &err) == DEADPOS_OK, "open %s: %s", tables, err.message);
  if (!tb) return 1;
  CHECK(err.code == DEADPOS_OK && err.message[0] == '\0', "success clears the error struct");
  CHECK(deadpos_max_men(tb) == 4, "max_men %d", deadpos_max_men(tb));

  /* probing: arguments */
  deadpos_probe_result r;
  const char* krk = "8/2kr4/8/K7/8/8/8/8 w - - 0 1";
  check_error(deadpos_probe_fen(NULL, krk, &r, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "probe tb NULL");
  check_error(deadpos_probe_fen(tb, NULL, &r, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "probe fen NULL");
  check_error(deadpos_probe_fen(tb, krk, NULL, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "probe out NULL");
  check_error(deadpos_probe_bitboards(tb, NULL, &r, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "probe bitboards NULL");
  check_error(deadpos_probe_fen(tb, "not a fen", &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "probe 'not a fen'");
  CHECK(deadpos_probe_fen(tb, krk, &r, &err) == DEADPOS_OK, "probe %s: %s", krk, err.message);
  CHECK(r.black_can_mate == DEADPOS_YES && r.white_can_mate == DEADPOS_NO && r.dead == DEADPOS_NO &&
            r.dthm_white_mated_plies == 4 && r.dthm_black_mated_plies == DEADPOS_DTHM_NONE && !strcmp(r.table, "KRvK"),
        "KRvK answer");

  /* bitboards: inconsistent sets, out-of-range fields, and illegal positions as their FEN */
  deadpos_bitboards b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE);
  CHECK(deadpos_probe_bitboards(tb, &b, &r, &err) == DEADPOS_OK && r.dthm_white_mated_plies == 4, "bitboard KRvK");
  b.white |= (uint64_t)1 << 51; /* d7: the black rook's square */
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "both colours");
  CHECK(contains(err.message, "d7"), "names the square: %s", err.message);
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE);
  b.knights |= (uint64_t)1 << 51;
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "two piece types");
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE);
  b.rooks |= 1; /* a1: a type without a colour */
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "type without colour");
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE);
  b.white |= 2; /* b1: a colour without a type */
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "colour without type");
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", (deadpos_side)5, 0, DEADPOS_NO_SQUARE);
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "side to move 5");
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 16, DEADPOS_NO_SQUARE);
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "castling 16");
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 0, 64);
  check_error(deadpos_probe_bitboards(tb, &b, &r, &err), DEADPOS_ERR_INVALID_FEN, &err, "en passant 64");
  check_same_error(tb, "4k3/4K3/8/8/8/8/8/8 w - - 0 1", "4k3/4K3/8/8/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE,
                   "kings-adjacent");
  check_same_error(tb, "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", "4k3/8/8/8/8/8/4Q3/4K3", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE,
                   "opponent-in-check");
  check_same_error(tb, "8/8/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE,
                   "missing-king");
  check_same_error(tb, "4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "4k3/8/8/8/8/8/8/R3K3", DEADPOS_WHITE,
                   DEADPOS_CASTLE_WHITE_KING_SIDE, DEADPOS_NO_SQUARE, "castling");
  check_same_error(tb, "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "4k3/8/8/8/8/8/8/4K3", DEADPOS_WHITE, 0, 20, "en-passant");
  check_same_error(tb, "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "4k3/8/8/8/8/8/8/P3K3", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE,
                   "pawn");

  /* flag-fall arguments */
  deadpos_flag_result f;
  check_error(deadpos_flag_fen(tb, krk, (deadpos_side)7, &f, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "flagged 7");
  check_error(deadpos_flag_fen(tb, krk, DEADPOS_WHITE, NULL, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "flag out NULL");
  CHECK(deadpos_flag_fen(tb, krk, DEADPOS_SIDE_TO_MOVE, &f, &err) == DEADPOS_OK && f.flagged == DEADPOS_WHITE &&
            !strcmp(f.result, "0-1") && f.reason == DEADPOS_FLAG_OPPONENT_CAN_MATE,
        "White flags in KRvK: 0-1");

  /* lines: the size protocol */
  char buf[64];
  deadpos_line_info info;
  check_error(deadpos_line_fen(tb, krk, DEADPOS_WHITE, buf, sizeof buf, NULL, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "line info NULL");
  check_error(deadpos_line_fen(tb, krk, DEADPOS_WHITE, NULL, 8, &info, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "line buf NULL, size 8");
  check_error(deadpos_line_fen(tb, krk, (deadpos_side)3, buf, sizeof buf, &info, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "mated 3");
  check_error(deadpos_line_fen(tb, krk, DEADPOS_WHITE, NULL, 0, &info, &err), DEADPOS_ERR_BUFFER_TOO_SMALL, &err,
              "line size query");
  /* 4 plies of 4-character UCI moves, 3 spaces, the NUL */
  CHECK(info.needed == 4 * 4 + 3 + 1, "needed %zu", info.needed);
  memset(buf, 'x', sizeof buf);
  check_error(deadpos_line_fen(tb, krk, DEADPOS_WHITE, buf, 5, &info, &err), DEADPOS_ERR_BUFFER_TOO_SMALL, &err,
              "line buffer of 5");
  CHECK(buf[0] == '\0' && buf[5] == 'x', "a too-small buffer gets \"\" and nothing past its size");
  CHECK(info.needed == 20, "needed %zu after a too-small buffer", info.needed);
  CHECK(deadpos_line_fen(tb, krk, DEADPOS_WHITE, buf, info.needed, &info, &err) == DEADPOS_OK, "line: %s", err.message);
  CHECK(strlen(buf) + 1 == info.needed && info.plies == 4 && info.shortest == 1 && info.can_be_mated == DEADPOS_YES,
        "line '%s' plies %d", buf, info.plies);
  CHECK(deadpos_line_fen(tb, krk, DEADPOS_BLACK, buf, sizeof buf, &info, &err) == DEADPOS_OK &&
            info.can_be_mated == DEADPOS_NO && buf[0] == '\0' && info.needed == 1,
        "no line for a side that cannot be mated");
  /* The size query says BUFFER_TOO_SMALL exactly when there is a line to fetch (deadpos.h): not
   * for a side that cannot be mated (OK), but for a side checkmated already (KQvK, Black mated on
   * the board: the empty line, needed 1). */
  CHECK(deadpos_line_fen(tb, krk, DEADPOS_BLACK, NULL, 0, &info, &err) == DEADPOS_OK &&
            info.can_be_mated == DEADPOS_NO && info.needed == 1,
        "size query for a side that cannot be mated: %s", err.message);
  CHECK(deadpos_line_fen(tb, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", DEADPOS_BLACK, NULL, 0, &info, &err) ==
                DEADPOS_ERR_BUFFER_TOO_SMALL &&
            info.can_be_mated == DEADPOS_YES && info.plies == 0 && info.needed == 1,
        "size query for a side checkmated already: %s", err.message);

  /* can-mate and dead while the game is played: arguments (deadpos.h) */
  deadpos_tri t = DEADPOS_TRI_MAX_ENUM;
  check_error(deadpos_can_mate_fen(NULL, krk, DEADPOS_BLACK, 10, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "can_mate tb NULL");
  check_error(deadpos_can_mate_fen(tb, NULL, DEADPOS_BLACK, 10, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "can_mate fen NULL");
  check_error(deadpos_can_mate_fen(tb, krk, DEADPOS_BLACK, 10, NULL, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "can_mate out NULL");
  check_error(deadpos_can_mate_fen(tb, krk, (deadpos_side)4, 10, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "can_mate side 4");
  CHECK(contains(err.message, "side"), "names the argument: %s", err.message);
  check_error(deadpos_can_mate_fen(tb, krk, DEADPOS_BLACK, 86400001, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "can_mate max_ms too large");
  CHECK(contains(err.message, "max_ms"), "names the argument: %s", err.message);
  check_error(deadpos_can_mate_fen(tb, "not a fen", DEADPOS_BLACK, 10, &t, &err), DEADPOS_ERR_INVALID_FEN, &err,
              "can_mate 'not a fen'");
  check_error(deadpos_can_mate_bitboards(tb, NULL, DEADPOS_BLACK, 10, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "can_mate bitboards NULL");
  b = bitboards_of("8/2kr4/8/K7/8/8/8/8", DEADPOS_WHITE, 0, DEADPOS_NO_SQUARE);
  b.white |= (uint64_t)1 << 51;
  check_error(deadpos_can_mate_bitboards(tb, &b, DEADPOS_BLACK, 10, &t, &err), DEADPOS_ERR_INVALID_FEN, &err,
              "can_mate both colours");
  check_error(deadpos_is_dead_fen(NULL, krk, 10, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "is_dead tb NULL");
  check_error(deadpos_is_dead_fen(tb, krk, 10, NULL, &err), DEADPOS_ERR_BAD_ARGUMENT, &err, "is_dead out NULL");
  check_error(deadpos_is_dead_fen(tb, krk, 86400001, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "is_dead max_ms too large");
  check_error(deadpos_is_dead_fen(tb, "4k3/4K3/8/8/8/8/8/8 w - - 0 1", 10, &t, &err), DEADPOS_ERR_INVALID_FEN, &err,
              "is_dead kings adjacent");
  CHECK(contains(err.message, "kings-adjacent"), "says why: %s", err.message);
  check_error(deadpos_is_dead_bitboards(tb, NULL, 10, &t, &err), DEADPOS_ERR_BAD_ARGUMENT, &err,
              "is_dead bitboards NULL");
  CHECK(deadpos_can_mate_fen(tb, krk, DEADPOS_SIDE_TO_MOVE, 0, &t, &err) == DEADPOS_OK && t == DEADPOS_NO &&
            err.code == DEADPOS_OK && err.message[0] == '\0',
        "White (to move, lone king) cannot mate: %s", err.message);
  deadpos_close(tb);

  /* tables_only: a position without its table is an error, not an answer */
  deadpos_options_init(&opt);
  opt.tables_only = 1;
  CHECK(deadpos_open(dirs, 1, &opt, &tb, &err) == DEADPOS_OK, "open tables_only: %s", err.message);
  if (!tb) return 1;
  const char* five = "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1";
  check_error(deadpos_can_mate_fen(tb, five, DEADPOS_WHITE, 10, &t, &err), DEADPOS_ERR_TOO_MANY_MEN, &err,
              "tables_only can_mate, 5 men");
  check_error(deadpos_is_dead_fen(tb, five, 10, &t, &err), DEADPOS_ERR_TOO_MANY_MEN, &err,
              "tables_only is_dead, 5 men");
  CHECK(deadpos_can_mate_fen(tb, krk, DEADPOS_BLACK, 0, &t, &err) == DEADPOS_OK && t == DEADPOS_YES,
        "tables_only: Black (K+R) can mate: %s", err.message);
  deadpos_close(tb);

  printf("capi_errors: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
