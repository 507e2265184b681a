/* What the C API test programs capi_errors.c and capi_adjudicate.c share: the CHECK macro with
 * its counters (each failed check printed with its file and line), and the bitboards of a FEN
 * placement field (up to its end or the first space), parsed here independently of the library.
 * C99, header only: one copy per program. */
#ifndef DEADPOS_TESTS_CAPI_TEST_UTIL_H
#define DEADPOS_TESTS_CAPI_TEST_UTIL_H
#include <deadpos.h>
#include <stdio.h>
#include <string.h>

static int failures = 0, checks = 0;

#define CHECK(cond, ...)                                     \
  do {                                                       \
    ++checks;                                                \
    if (!(cond)) {                                           \
      ++failures;                                            \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      printf(__VA_ARGS__);                                   \
      printf("\n");                                          \
    }                                                        \
  } while (0)

static deadpos_bitboards bitboards_of(const char* placement, deadpos_side stm, unsigned castling, int ep) {
  deadpos_bitboards b;
  memset(&b, 0, sizeof b);
  int rank = 7, file = 0;
  for (const char* c = placement; *c && *c != ' '; ++c) {
    if (*c == '/') {
      --rank;
      file = 0;
    } else if (*c >= '1' && *c <= '8') {
      file += *c - '0';
    } else {
      const uint64_t bit = (uint64_t)1 << (rank * 8 + file++);
      if (*c >= 'a') {
        b.black |= bit;
      } else {
        b.white |= bit;
      }
      switch (*c | 0x20) {
        case 'k': b.kings |= bit; break;
        case 'q': b.queens |= bit; break;
        case 'r': b.rooks |= bit; break;
        case 'b': b.bishops |= bit; break;
        case 'n': b.knights |= bit; break;
        case 'p': b.pawns |= bit; break;
      }
    }
  }
  b.side_to_move = stm;
  b.castling = castling;
  b.en_passant = ep;
  return b;
}

#endif
