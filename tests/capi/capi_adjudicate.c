/* capi.adjudicate: the calls a tournament manager makes while the game is played,
 * deadpos_can_mate_* (FIDE 6.9) and deadpos_is_dead_* (FIDE 5.2.2), on positions whose answers the
 * Laws give (docs/rules.md; the reason is written beside each), as FEN and as bitboards; then the
 * per-call time cap: a search that needs far more than 1 ms answers UNDETERMINED within the cap and
 * some slack, both with the call's max_ms and with the handle's budget_ms (max_ms 0).
 *   capi_adjudicate TABLES            (TABLES: the <=4-man tables)
 * Exit status: 0 when every check holds, 1 otherwise (each failed check printed). */
#define _POSIX_C_SOURCE 200809L
#include <deadpos.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "capi_test_util.h"

#define Y DEADPOS_YES
#define N DEADPOS_NO

/* Each answer from the Laws, not from a run of the library. */
typedef struct lawful {
  const char* fen;
  deadpos_tri white_can_mate, black_can_mate, dead;
  const char* why;
} lawful;

static const lawful kPositions[] = {
    {"8/8/8/4k3/8/8/4K3/8 w - - 0 1", N, N, Y, "K v K: always dead (5.2.2)"},
    {"8/8/8/4k3/8/8/4K3/5B2 w - - 0 1", N, N, Y, "K+B v K: always dead"},
    {"8/8/8/4k3/8/8/4K3/6N1 b - - 0 1", N, N, Y, "K+N v K: always dead"},
    {"5b2/8/8/4k3/8/8/4K3/2B5 w - - 0 1", N, N, Y, "K+B v K+B, both bishops on dark squares: always dead"},
    {"8/2kr4/8/K7/8/8/8/8 w - - 0 1", N, Y, N, "K v K+R: a lone king never mates; K+R mates (6.9)"},
    {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", Y, N, N, "K+P v K: the pawn promotes; a lone king never mates"},
    {"8/8/8/4k3/8/8/4K3/3NN3 w - - 0 1", Y, N, N, "K+N+N v K: a helpmate exists; a lone king never mates"},
    {"r7/K1k5/8/8/8/8/8/8 w - - 4 3", N, N, Y, "the only move Kxa8 leaves K v K (lichess-org/lila#7039)"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Y, Y, N,
     "the initial position: 1.e4 f6 2.d4 g5 3.Qh5# and 1.f3 e5 2.g4 Qh4#"},
    {"4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1", N, N, Y,
     "a locked pawn wall no king can pass or break: no mate is ever possible"},
};

/* The bitboards of a whole FEN: the placement by placement_bitboards.h, then side and castling. */
static deadpos_bitboards fen_bitboards(const char* fen) {
  const char* c = strchr(fen, ' ');
  const deadpos_side stm = c && c[1] == 'b' ? DEADPOS_BLACK : DEADPOS_WHITE;
  unsigned castling = 0;
  for (c = c ? c + 3 : ""; *c && *c != ' '; ++c) {
    if (*c == 'K') castling |= DEADPOS_CASTLE_WHITE_KING_SIDE;
    if (*c == 'Q') castling |= DEADPOS_CASTLE_WHITE_QUEEN_SIDE;
    if (*c == 'k') castling |= DEADPOS_CASTLE_BLACK_KING_SIDE;
    if (*c == 'q') castling |= DEADPOS_CASTLE_BLACK_QUEEN_SIDE;
  }
  /* none of the positions above has an en passant square */
  return bitboards_of(fen, stm, castling, DEADPOS_NO_SQUARE);
}

static const char* tri_name(deadpos_tri t) {
  return t == DEADPOS_YES ? "yes" : t == DEADPOS_NO ? "no" : t == DEADPOS_UNDETERMINED ? "undetermined" : "?";
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void check_lawful(const deadpos_tablebase* tb, const lawful* p) {
  const deadpos_bitboards b = fen_bitboards(p->fen);
  deadpos_error err;
  deadpos_tri t;
  for (int s = 0; s < 2; ++s) {
    const deadpos_side side = s == 0 ? DEADPOS_WHITE : DEADPOS_BLACK;
    const deadpos_tri want = s == 0 ? p->white_can_mate : p->black_can_mate;
    CHECK(deadpos_can_mate_fen(tb, p->fen, side, 10000, &t, &err) == DEADPOS_OK && t == want,
          "%s: %s can mate: %s, the Laws: %s (%s) %s", p->fen, s ? "Black" : "White", tri_name(t), tri_name(want),
          p->why, err.message);
    CHECK(deadpos_can_mate_bitboards(tb, &b, side, 10000, &t, &err) == DEADPOS_OK && t == want,
          "%s as bitboards: %s can mate: %s, the Laws: %s %s", p->fen, s ? "Black" : "White", tri_name(t),
          tri_name(want), err.message);
  }
  /* DEADPOS_SIDE_TO_MOVE is the side to move's question */
  const deadpos_tri stm_want = b.side_to_move == DEADPOS_WHITE ? p->white_can_mate : p->black_can_mate;
  CHECK(deadpos_can_mate_fen(tb, p->fen, DEADPOS_SIDE_TO_MOVE, 10000, &t, &err) == DEADPOS_OK && t == stm_want,
        "%s: the side to move can mate: %s, the Laws: %s", p->fen, tri_name(t), tri_name(stm_want));
  CHECK(deadpos_is_dead_fen(tb, p->fen, 10000, &t, &err) == DEADPOS_OK && t == p->dead,
        "%s: dead: %s, the Laws: %s (%s) %s", p->fen, tri_name(t), tri_name(p->dead), p->why, err.message);
  CHECK(deadpos_is_dead_bitboards(tb, &b, 10000, &t, &err) == DEADPOS_OK && t == p->dead,
        "%s as bitboards: dead: %s, the Laws: %s %s", p->fen, tri_name(t), tri_name(p->dead), err.message);
}

/* A 1 ms cap on Black's question, which the search cannot settle in 1 ms (no node limit): UNDETERMINED, and back
 * within the cap plus slack (the clock is read every 256 positions; the slack also covers a loaded
 * machine and sanitizers). */
static void check_cap(const deadpos_tablebase* tb, const char* fen, uint64_t max_ms, const char* what) {
  deadpos_error err;
  deadpos_tri t = DEADPOS_TRI_MAX_ENUM;
  double t0 = now_ms();
  deadpos_status st = deadpos_can_mate_fen(tb, fen, DEADPOS_BLACK, max_ms, &t, &err);
  double took = now_ms() - t0;
  CHECK(st == DEADPOS_OK && t == DEADPOS_UNDETERMINED, "%s: can_mate %s past the cap (%s)", what, tri_name(t),
        err.message);
  CHECK(took < 250.0, "%s: can_mate took %.1f ms for a cap of 1 ms", what, took);
  t0 = now_ms();
  st = deadpos_is_dead_fen(tb, fen, max_ms, &t, &err);
  took = now_ms() - t0;
  CHECK(st == DEADPOS_OK && t == DEADPOS_UNDETERMINED, "%s: is_dead %s past the cap (%s)", what, tri_name(t),
        err.message);
  CHECK(took < 250.0, "%s: is_dead took %.1f ms for a cap of 1 ms (both questions share it)", what, took);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: capi_adjudicate TABLES\n");
    return 2;
  }
  const char* dirs[] = {argv[1]};
  deadpos_options opt;
  deadpos_options_init(&opt);
  deadpos_tablebase* tb = NULL;
  deadpos_error err;
  if (deadpos_open(dirs, 1, &opt, &tb, &err) != DEADPOS_OK) {
    fprintf(stderr, "capi_adjudicate: %s: %s\n", deadpos_status_name(err.code), err.message);
    return 1;
  }
  for (size_t i = 0; i < sizeof kPositions / sizeof kPositions[0]; ++i) check_lawful(tb, &kPositions[i]);
  deadpos_close(tb);

  /* The cap. Black has only its king and a pawn wall that White's pieces can break; whether Black
   * can still mate (it can: White's men may open the wall and let a pawn promote) takes the search
   * some 22,000 positions, about 100 ms, without a node limit; it is the question deadpos_is_dead
   * asks first (whether White can be mated). */
  const char* hard = "8/1k6/8/p1p1p1p1/PpPpPpPp/1P1P1P1P/8/RNBQKBNR b - - 0 1";
  deadpos_options_init(&opt);
  opt.budget_nodes = 0;
  CHECK(deadpos_open(dirs, 1, &opt, &tb, &err) == DEADPOS_OK, "open: %s", err.message);
  if (!tb) return 1;
  check_cap(tb, hard, 1, "max_ms 1");
  deadpos_close(tb);
  opt.budget_ms = 1;
  CHECK(deadpos_open(dirs, 1, &opt, &tb, &err) == DEADPOS_OK, "open: %s", err.message);
  if (!tb) return 1;
  check_cap(tb, hard, 0, "max_ms 0, the handle's budget_ms 1");
  /* a larger cap overrides the handle's 1 ms: White (K+Q+R) can mate a lone king's side with pawns */
  deadpos_tri t = DEADPOS_TRI_MAX_ENUM;
  CHECK(deadpos_can_mate_fen(tb, "4k3/8/8/8/8/8/8/R2QK3 w - - 0 1", DEADPOS_WHITE, 10000, &t, &err) == DEADPOS_OK &&
            t == DEADPOS_YES,
        "K+Q+R v K with a cap of 10 s: %s", tri_name(t));
  deadpos_close(tb);

  printf("capi_adjudicate: %d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
