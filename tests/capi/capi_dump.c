/* Test program of the C API (tests/capi/CMakeLists.txt): answers one FEN per line of standard input
 * through deadpos.h and prints each answer as one JSON object with the keys of
 * `deadpos probe --json` (docs/cli.md), so that compare_probe.py can compare the two field by field.
 * Built against the installed library only (pkg-config), like a user's program.
 *
 *   capi_dump TABLE_DIR [--flag white|black|stm] [--line] [--tables-only] [--budget-nodes N]
 *
 * Exit status: 0; 2 for a usage error or when the tables cannot be opened (message on stderr). */
#include <deadpos.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void json_string(const char* s) {
  putchar('"');
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') putchar('\\');
    putchar(*s);
  }
  putchar('"');
}

static void json_tri(deadpos_tri t) { fputs(t == DEADPOS_YES ? "true" : t == DEADPOS_NO ? "false" : "null", stdout); }

/* probe --json writes an exact DTHM or null (cannot be mated, or not known). */
static void json_dthm(int d) {
  if (d >= 0) {
    printf("%d", d);
  } else {
    fputs("null", stdout);
  }
}

static void json_how(const deadpos_how* h) {
  printf("{\"method\":\"%s\"", deadpos_method_name(h->method));
  switch (h->method) {
    case DEADPOS_METHOD_TABLE: break;
    case DEADPOS_METHOD_SEARCH:
      printf(",\"line_plies\":%d,\"shortest\":%s,\"positions\":%llu", h->line_plies, h->shortest ? "true" : "false",
             (unsigned long long)h->positions);
      break;
    case DEADPOS_METHOD_EXHAUSTED: printf(",\"positions\":%llu", (unsigned long long)h->positions); break;
    case DEADPOS_METHOD_RULE: printf(",\"rule\":\"%s\"", deadpos_rule_name(h->rule)); break;
    case DEADPOS_METHOD_UNDETERMINED:
      printf(",\"budget\":\"%s\",\"positions\":%llu", deadpos_budget_name(h->budget), (unsigned long long)h->positions);
      break;
    default: break;
  }
  if (h->reason[0]) {
    fputs(",\"reason\":", stdout);
    json_string(h->reason);
  }
  putchar('}');
}

static void json_error(const deadpos_error* e) {
  fputs("{\"error\":{\"category\":", stdout);
  json_string(deadpos_status_name(e->code));
  fputs(",\"message\":", stdout);
  json_string(e->message);
  fputs("}}\n", stdout);
}

static void json_probe(const deadpos_probe_result* p) {
  fputs("\"fen\":", stdout);
  json_string(p->fen);
  fputs(",\"table\":", stdout);
  if (p->table[0]) {
    json_string(p->table);
  } else {
    fputs("null", stdout);
  }
  printf(",\"checkmate\":%s,\"stalemate\":%s", p->checkmate ? "true" : "false", p->stalemate ? "true" : "false");
  fputs(",\"dead\":", stdout);
  json_tri(p->dead);
  fputs(",\"white_can_mate\":", stdout);
  json_tri(p->white_can_mate);
  fputs(",\"black_can_mate\":", stdout);
  json_tri(p->black_can_mate);
  fputs(",\"dthm_white_mated_plies\":", stdout);
  json_dthm(p->dthm_white_mated_plies);
  fputs(",\"dthm_black_mated_plies\":", stdout);
  json_dthm(p->dthm_black_mated_plies);
  fputs(",\"how\":{\"white_can_mate\":", stdout);
  json_how(&p->how_white_can_mate);
  fputs(",\"black_can_mate\":", stdout);
  json_how(&p->how_black_can_mate);
  printf("},\"castling_search\":%s,\"en_passant\":%s", p->castling_search ? "true" : "false",
         p->en_passant ? "true" : "false");
  fputs(",\"warnings\":[", stdout);
  int n = 0;
  for (unsigned bit = 1; bit; bit <<= 1) {
    if (!(p->warnings & bit)) continue;
    const char* name = deadpos_warning_name(bit);
    printf("%s\"%s\"", n++ ? "," : "", name ? name : "?unknown-bit?");
  }
  fputs("]", stdout);
}

/* The line of `mated` as probe --json --line writes it in "lines"; 0 when an error was printed. */
static int json_line(const deadpos_tablebase* tb, const char* fen, deadpos_side mated, int* first) {
  char buf[4096];
  deadpos_line_info info;
  deadpos_error err;
  if (deadpos_line_fen(tb, fen, mated, buf, sizeof buf, &info, &err) != DEADPOS_OK) {
    printf("%s{\"mated\":\"%s\",\"error\":{\"category\":", *first ? "" : ",",
           mated == DEADPOS_WHITE ? "white" : "black");
    json_string(deadpos_status_name(err.code));
    fputs(",\"message\":", stdout);
    json_string(err.message);
    fputs("}}", stdout);
    *first = 0;
    return 1;
  }
  if (info.can_be_mated != DEADPOS_YES) return 1; /* no line to show */
  printf("%s{\"mated\":\"%s\",\"plies\":%d,\"shortest\":%s,\"uci\":[", *first ? "" : ",",
         mated == DEADPOS_WHITE ? "white" : "black", info.plies, info.shortest ? "true" : "false");
  *first = 0;
  int n = 0;
  for (const char* m = buf; *m;) { /* the moves, separated by single spaces */
    const size_t len = strcspn(m, " ");
    printf("%s\"%.*s\"", n++ ? "," : "", (int)len, m);
    m += len + (m[len] == ' ');
  }
  fputs("]}", stdout);
  return n == info.plies;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: capi_dump TABLE_DIR [--flag white|black|stm] [--line] [--tables-only] [--budget-nodes N]\n");
    return 2;
  }
  deadpos_options opt;
  deadpos_options_init(&opt);
  int want_flag = 0, want_line = 0;
  deadpos_side flagged = DEADPOS_SIDE_TO_MOVE;
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--flag") && i + 1 < argc) {
      want_flag = 1;
      ++i;
      flagged = !strcmp(argv[i], "white")   ? DEADPOS_WHITE
                : !strcmp(argv[i], "black") ? DEADPOS_BLACK
                                            : DEADPOS_SIDE_TO_MOVE;
    } else if (!strcmp(argv[i], "--line")) {
      want_line = 1;
    } else if (!strcmp(argv[i], "--tables-only")) {
      opt.tables_only = 1;
    } else if (!strcmp(argv[i], "--budget-nodes") && i + 1 < argc) {
      opt.budget_nodes = strtoull(argv[++i], NULL, 10);
    } else {
      fprintf(stderr, "capi_dump: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  deadpos_tablebase* tb = NULL;
  deadpos_error err;
  const char* dirs[] = {argv[1]};
  if (deadpos_open(dirs, 1, &opt, &tb, &err) != DEADPOS_OK) {
    fprintf(stderr, "capi_dump: %s: %s\n", deadpos_status_name(err.code), err.message);
    return 2;
  }
  char fen[1024];
  int rc = 0;
  while (fgets(fen, sizeof fen, stdin)) {
    fen[strcspn(fen, "\r\n")] = '\0';
    if (fen[0] == '\0' || fen[0] == '#') continue;
    deadpos_flag_result f;
    deadpos_probe_result p;
    const deadpos_status s =
        want_flag ? deadpos_flag_fen(tb, fen, flagged, &f, &err) : deadpos_probe_fen(tb, fen, &p, &err);
    if (s != DEADPOS_OK) {
      if (s != err.code) rc = 1; /* the status and the error struct disagree */
      json_error(&err);
      continue;
    }
    const deadpos_probe_result* r = want_flag ? &f.probe : &p;
    putchar('{');
    json_probe(r);
    if (want_flag) {
      printf(",\"flag\":{\"flagged\":\"%s\",\"result\":", f.flagged == DEADPOS_WHITE ? "white" : "black");
      if (f.result[0]) {
        json_string(f.result);
      } else {
        fputs("null", stdout);
      }
      printf(",\"reason\":\"%s\"}", deadpos_flag_reason_name(f.reason));
    }
    if (want_line) {
      /* As probe --line: none for a checkmate; with a flag only the flagged side's mate. */
      fputs(",\"lines\":[", stdout);
      int first = 1;
      const deadpos_tri can[2] = {r->black_can_mate, r->white_can_mate}; /* indexed by the mated side */
      for (int side = 0; side < 2 && !r->checkmate; ++side) {
        if (can[side] != DEADPOS_YES) continue;
        if (want_flag && side != (int)f.flagged) continue;
        if (!json_line(tb, fen, side == 0 ? DEADPOS_WHITE : DEADPOS_BLACK, &first)) rc = 1;
      }
      putchar(']');
    }
    fputs("}\n", stdout);
  }
  deadpos_close(tb);
  return rc;
}
