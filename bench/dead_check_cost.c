/* What the per-move dead-position check of a patched tournament manager costs (issue 30):
 * deadpos_is_dead_fen (the call integrations/cutechess and integrations/fastchess make after each
 * move) on every FEN of standard input, one per line, on one handle with the given cap, timed with
 * CLOCK_MONOTONIC. Prints the positions, the answers (yes / no / undetermined / error), and the
 * total, mean, p99 and maximum time in ms; bench/managers_overhead.sh divides the total by the
 * wall time of the games the positions come from.
 *   deadpos_dead_check_cost TABLES MAX_MS < fens.txt
 * Exit status 0, 2 on bad arguments, 1 when the tables cannot be opened. */
#define _POSIX_C_SOURCE 200809L
#include <deadpos.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: deadpos_dead_check_cost TABLES MAX_MS < fens.txt\n");
    return 2;
  }
  const char* dirs[] = {argv[1]};
  const uint64_t max_ms = strtoull(argv[2], NULL, 10);
  deadpos_tablebase* tb = NULL;
  deadpos_error err;
  if (deadpos_open(dirs, 1, NULL, &tb, &err) != DEADPOS_OK) {
    fprintf(stderr, "deadpos_dead_check_cost: %s: %s\n", deadpos_status_name(err.code), err.message);
    return 1;
  }
  size_t n = 0, cap = 1024, counts[4] = {0, 0, 0, 0};
  double* t = malloc(cap * sizeof *t);
  char line[512];
  while (t && fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) continue;
    if (n == cap) {
      double* bigger = realloc(t, (cap *= 2) * sizeof *t);
      if (!bigger) break;
      t = bigger;
    }
    deadpos_tri dead = DEADPOS_UNDETERMINED;
    const double t0 = now_ms();
    const deadpos_status st = deadpos_is_dead_fen(tb, line, max_ms, &dead, NULL);
    t[n++] = now_ms() - t0;
    ++counts[st != DEADPOS_OK ? 3 : dead == DEADPOS_YES ? 0 : dead == DEADPOS_NO ? 1 : 2];
  }
  double total = 0;
  for (size_t i = 0; i < n; ++i) total += t[i];
  if (n) qsort(t, n, sizeof *t, by_value);
  printf(
      "positions %zu yes %zu no %zu undetermined %zu errors %zu total_ms %.1f mean_ms %.3f p99_ms %.3f max_ms %.3f\n",
      n, counts[0], counts[1], counts[2], counts[3], total, n ? total / (double)n : 0.0,
      n ? t[(size_t)((double)(n - 1) * 0.99)] : 0.0, n ? t[n - 1] : 0.0);
  free(t);
  deadpos_close(tb);
  return 0;
}
