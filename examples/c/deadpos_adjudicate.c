/* A tournament manager's use of the deadpos C API (docs/api.md, "C API"): for each position, is the
 * game over (checkmate, stalemate, dead position: FIDE 5.2.2), and what is the result if either
 * player's flag falls now (FIDE 6.9)? With a helpmate line (UCI) for each side that can be mated.
 *
 *   deadpos_adjudicate TABLE_DIR [FEN...]      (no FEN: one FEN per line on standard input)
 *
 * One output line per position, tab-separated:
 *   <FEN> dead=<yes|no|undetermined> white_flag=<result> <reason> black_flag=<result> <reason>
 *   mate_of_white=<UCI moves|-> mate_of_black=<UCI moves|->
 * (<result> is 1-0, 0-1, 1/2-1/2 or "undetermined"), or "<input> error=<category>: <message>".
 * Exit status: 0, or 1 when a position could not be answered, 2 for a usage or open error.
 *
 * Build: cc deadpos_adjudicate.c $(pkg-config --cflags --libs deadpos) -o deadpos_adjudicate
 * (or CMake: find_package(deadpos) and deadpos::deadpos, see CMakeLists.txt next to this file). */
#include <deadpos.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* tri_text(deadpos_tri t) {
  return t == DEADPOS_YES ? "yes" : t == DEADPOS_NO ? "no" : "undetermined";
}

static void print_flag(const char* key, const deadpos_flag_result* f) {
  printf("\t%s=%s %s", key, f->result[0] ? f->result : "undetermined", deadpos_flag_reason_name(f->reason));
}

/* Prints "\t<key>=<line>"; the line's size is asked for first, then the buffer allocated. */
static int print_line(const deadpos_tablebase* tb, const char* fen, deadpos_side mated, const char* key) {
  deadpos_line_info info;
  deadpos_error err;
  if (deadpos_line_fen(tb, fen, mated, NULL, 0, &info, &err) == DEADPOS_ERR_BUFFER_TOO_SMALL) {
    char* buf = malloc(info.needed);
    if (!buf) {
      printf("\t%s=(out of memory)", key);
      return 1;
    }
    const deadpos_status s = deadpos_line_fen(tb, fen, mated, buf, info.needed, &info, &err);
    if (s == DEADPOS_OK) printf("\t%s=%s", key, buf);
    free(buf);
    if (s == DEADPOS_OK) return 0;
  }
  if (err.code == DEADPOS_OK) { /* no line: the side cannot be mated, or it is undetermined */
    printf("\t%s=%s", key, info.can_be_mated == DEADPOS_NO ? "-" : "undetermined");
    return 0;
  }
  printf("\t%s=(%s: %s)", key, deadpos_status_name(err.code), err.message);
  return 1;
}

/* One position; returns 0 when it was answered. */
static int adjudicate(const deadpos_tablebase* tb, const char* fen) {
  deadpos_flag_result white_flag, black_flag;
  deadpos_error err;
  if (deadpos_flag_fen(tb, fen, DEADPOS_WHITE, &white_flag, &err) != DEADPOS_OK ||
      deadpos_flag_fen(tb, fen, DEADPOS_BLACK, &black_flag, &err) != DEADPOS_OK) {
    printf("%s\terror=%s: %s\n", fen, deadpos_status_name(err.code), err.message);
    return 1;
  }
  const deadpos_probe_result* p = &white_flag.probe;
  printf("%s\tdead=%s", p->fen, tri_text(p->dead));
  print_flag("white_flag", &white_flag);
  print_flag("black_flag", &black_flag);
  int failed = print_line(tb, fen, DEADPOS_WHITE, "mate_of_white");
  failed |= print_line(tb, fen, DEADPOS_BLACK, "mate_of_black");
  printf("\n");
  return failed;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s TABLE_DIR [FEN...]\n", argv[0]);
    return 2;
  }
  deadpos_options opt;
  deadpos_options_init(&opt);
  opt.cache_mib = 64; /* decompressed blocks kept in memory */
  deadpos_tablebase* tb = NULL;
  deadpos_error err;
  const char* dirs[] = {argv[1]};
  if (deadpos_open(dirs, 1, &opt, &tb, &err) != DEADPOS_OK) {
    fprintf(stderr, "deadpos_adjudicate: %s: %s\n", deadpos_status_name(err.code), err.message);
    return 2;
  }
  int failed = 0;
  if (argc > 2) {
    for (int i = 2; i < argc; ++i) failed |= adjudicate(tb, argv[i]);
  } else {
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
      line[strcspn(line, "\r\n")] = '\0';
      if (line[0] == '\0' || line[0] == '#') continue;
      failed |= adjudicate(tb, line);
    }
  }
  deadpos_close(tb);
  return failed ? 1 : 0;
}
