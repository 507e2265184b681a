/* capi.threads: several POSIX threads probe one deadpos_tablebase handle at once (FEN and
 * bitboard-free paths: probe, flag-fall, line, can-mate and dead), each in its own order, with a 1 MiB block cache so
 * that blocks are evicted and reloaded while others read them; every answer must equal the one the
 * main thread got alone first. Built and run under ThreadSanitizer in scripts/test.sh's TSan stage
 * (label tsan), where a data race fails the test.
 *   capi_threads TABLES POSITIONS.tsv
 * Exit status: 0 when every answer agrees, 1 otherwise. */
#include <deadpos.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POS 256
#define THREADS 4
#define ROUNDS 2

typedef struct answer {
  deadpos_status probe_status, flag_status, line_status[2], can_mate_status[2], dead_status;
  deadpos_tri can_mate[2], dead;
  deadpos_probe_result probe;
  deadpos_flag_result flag;
  deadpos_line_info line_info[2];
  char line[2][512];
  char message[DEADPOS_MESSAGE_SIZE];
} answer;

static const deadpos_tablebase* g_tb;
static char g_fens[MAX_POS][256];
static int g_n;
static answer g_want[MAX_POS];

static int same_how(const deadpos_how* a, const deadpos_how* b) {
  return a->method == b->method && a->rule == b->rule && a->budget == b->budget && a->positions == b->positions &&
         a->line_plies == b->line_plies && a->shortest == b->shortest;
}

static int same_probe(const deadpos_probe_result* a, const deadpos_probe_result* b) {
  return a->checkmate == b->checkmate && a->stalemate == b->stalemate && a->dead == b->dead &&
         a->white_can_mate == b->white_can_mate && a->black_can_mate == b->black_can_mate &&
         a->dthm_white_mated_plies == b->dthm_white_mated_plies &&
         a->dthm_black_mated_plies == b->dthm_black_mated_plies &&
         same_how(&a->how_white_can_mate, &b->how_white_can_mate) &&
         same_how(&a->how_black_can_mate, &b->how_black_can_mate) && a->castling_search == b->castling_search &&
         a->en_passant == b->en_passant && !strcmp(a->table, b->table) && !strcmp(a->fen, b->fen);
}

static void compute(const char* fen, answer* out) {
  deadpos_error err;
  memset(out, 0, sizeof *out);
  out->probe_status = deadpos_probe_fen(g_tb, fen, &out->probe, &err);
  if (out->probe_status != DEADPOS_OK) {
    strcpy(out->message, err.message);
    return;
  }
  out->flag_status = deadpos_flag_fen(g_tb, fen, DEADPOS_SIDE_TO_MOVE, &out->flag, &err);
  for (int s = 0; s < 2; ++s) {
    out->line_status[s] = deadpos_line_fen(g_tb, fen, s == 0 ? DEADPOS_WHITE : DEADPOS_BLACK, out->line[s],
                                           sizeof out->line[s], &out->line_info[s], &err);
    /* max_ms 0: the handle's node budget alone, so that the answer does not depend on the load */
    out->can_mate_status[s] =
        deadpos_can_mate_fen(g_tb, fen, s == 0 ? DEADPOS_WHITE : DEADPOS_BLACK, 0, &out->can_mate[s], &err);
  }
  out->dead_status = deadpos_is_dead_fen(g_tb, fen, 0, &out->dead, &err);
}

static int same(const answer* a, const answer* b) {
  if (a->probe_status != b->probe_status) return 0;
  if (a->probe_status != DEADPOS_OK) return !strcmp(a->message, b->message);
  if (!same_probe(&a->probe, &b->probe) || a->flag_status != b->flag_status) return 0;
  if (a->flag.reason != b->flag.reason || strcmp(a->flag.result, b->flag.result) ||
      !same_probe(&a->flag.probe, &b->flag.probe)) {
    return 0;
  }
  for (int s = 0; s < 2; ++s) {
    if (a->line_status[s] != b->line_status[s] || strcmp(a->line[s], b->line[s]) ||
        a->line_info[s].plies != b->line_info[s].plies ||
        a->line_info[s].can_be_mated != b->line_info[s].can_be_mated) {
      return 0;
    }
    if (a->can_mate_status[s] != b->can_mate_status[s] || a->can_mate[s] != b->can_mate[s]) return 0;
  }
  return a->dead_status == b->dead_status && a->dead == b->dead;
}

typedef struct job {
  int id, mismatches, answered;
} job;

static void* worker(void* arg) {
  job* j = (job*)arg;
  answer* got = malloc(sizeof *got);
  if (!got) {
    j->mismatches = -1;
    return NULL;
  }
  for (int round = 0; round < ROUNDS; ++round) {
    for (int k = 0; k < g_n; ++k) {
      const int i = (k * (2 * j->id + 1) + j->id * 7 + round) % g_n; /* a different order per thread */
      compute(g_fens[i], got);
      ++j->answered;
      if (!same(got, &g_want[i])) {
        ++j->mismatches;
        printf("FAIL thread %d: %s answered differently\n", j->id, g_fens[i]);
      }
    }
  }
  free(got);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: capi_threads TABLES POSITIONS.tsv\n");
    return 2;
  }
  FILE* in = fopen(argv[2], "r");
  if (!in) {
    fprintf(stderr, "capi_threads: cannot open %s\n", argv[2]);
    return 2;
  }
  char line[2048];
  int header = 1;
  while (fgets(line, sizeof line, in) && g_n < MAX_POS) {
    if (line[0] == '#') continue;
    if (header) { /* the column names */
      header = 0;
      continue;
    }
    char* tab = strchr(line, '\t');
    if (!tab) continue;
    char* end = strchr(tab + 1, '\t');
    if (!end || end - tab - 1 >= 256) continue;
    memcpy(g_fens[g_n], tab + 1, (size_t)(end - tab - 1));
    g_fens[g_n][end - tab - 1] = '\0';
    ++g_n;
  }
  fclose(in);
  /* Two more: an invalid FEN and castling rights (the castling search). */
  strcpy(g_fens[g_n++], "4k3/4K3/8/8/8/8/8/8 w - - 0 1");
  strcpy(g_fens[g_n++], "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");

  deadpos_options opt;
  deadpos_options_init(&opt);
  opt.cache_mib = 1;        /* evictions while other threads read */
  opt.budget_nodes = 20000; /* the 5-man position: a short search (its answer may be undetermined) */
  deadpos_tablebase* tb = NULL;
  deadpos_error err;
  const char* dirs[] = {argv[1]};
  if (deadpos_open(dirs, 1, &opt, &tb, &err) != DEADPOS_OK) {
    fprintf(stderr, "capi_threads: %s: %s\n", deadpos_status_name(err.code), err.message);
    return 1;
  }
  g_tb = tb;
  int ok_answers = 0, disagree = 0;
  for (int i = 0; i < g_n; ++i) {
    compute(g_fens[i], &g_want[i]);
    ok_answers += g_want[i].probe_status == DEADPOS_OK;
    /* can-mate and dead agree with the probe's fields wherever both are decided */
    const answer* w = &g_want[i];
    if (w->probe_status != DEADPOS_OK) continue;
    const deadpos_tri probe_can[2] = {w->probe.white_can_mate, w->probe.black_can_mate};
    for (int s = 0; s < 2; ++s) {
      if (w->can_mate_status[s] != DEADPOS_OK ||
          (w->can_mate[s] != probe_can[s] && w->can_mate[s] != DEADPOS_UNDETERMINED &&
           probe_can[s] != DEADPOS_UNDETERMINED)) {
        ++disagree;
        printf("FAIL %s: %s can mate %d, the probe says %d\n", g_fens[i], s ? "Black" : "White", (int)w->can_mate[s],
               (int)probe_can[s]);
      }
    }
    if (w->dead_status != DEADPOS_OK ||
        (w->dead != w->probe.dead && w->dead != DEADPOS_UNDETERMINED && w->probe.dead != DEADPOS_UNDETERMINED)) {
      ++disagree;
      printf("FAIL %s: dead %d, the probe says %d\n", g_fens[i], (int)w->dead, (int)w->probe.dead);
    }
  }
  pthread_t t[THREADS];
  job jobs[THREADS];
  for (int i = 0; i < THREADS; ++i) {
    jobs[i].id = i;
    jobs[i].mismatches = 0;
    jobs[i].answered = 0;
    if (pthread_create(&t[i], NULL, worker, &jobs[i]) != 0) {
      fprintf(stderr, "capi_threads: pthread_create failed\n");
      return 1;
    }
  }
  int mismatches = 0, answered = 0;
  for (int i = 0; i < THREADS; ++i) {
    pthread_join(t[i], NULL);
    mismatches += jobs[i].mismatches;
    answered += jobs[i].answered;
  }
  deadpos_close(tb);
  printf("capi_threads: %d positions (%d answered), %d threads x %d rounds: %d answers, %d differ\n", g_n, ok_answers,
         THREADS, ROUNDS, answered, mismatches);
  return mismatches != 0 || disagree != 0 || ok_answers < 20 || answered != THREADS * ROUNDS * g_n ? 1 : 0;
}
