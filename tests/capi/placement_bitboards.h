/* The bitboards of a FEN placement field (up to its end or the first space), parsed here
 * independently of the library, for the C API tests that compare bitboard calls with FEN calls
 * (capi_errors.c, capi_adjudicate.c). C99, header only. */
#ifndef DEADPOS_TESTS_CAPI_PLACEMENT_BITBOARDS_H
#define DEADPOS_TESTS_CAPI_PLACEMENT_BITBOARDS_H
#include <deadpos.h>
#include <string.h>

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
