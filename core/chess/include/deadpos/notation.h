// Move notation: UCI (long algebraic, "e2e4", "e7e8q", castling as king move "e1g1") and SAN
// (FIDE Laws Appendix C: "Nbd7", "exd6", "O-O", "e8=Q+", "Qh7#").
// All functions are pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "deadpos/position.h"

namespace deadpos {

// UCI long algebraic text of a move ("e2e4", "e7e8q"); Move::none() gives "0000".
std::string to_uci(Move m);
// Parses a UCI move (promotion letter in lower case, as UCI writes it) and checks it is legal in
// pos. Errors: ErrorCode::InvalidMove.
Result<Move> parse_uci(const Position& pos, std::string_view uci);

// SAN of a legal move in pos, with minimal disambiguation (file, then rank, then both), 'x' for
// captures, "=Q" for promotions and '+'/'#' for check/checkmate. Precondition: m is legal in pos.
std::string to_san(const Position& pos, Move m);

// Parses SAN leniently: check marks, annotation suffixes (!, ?), "0-0" for "O-O", a missing '='
// before the promotion piece and redundant disambiguation are accepted. Errors
// (ErrorCode::InvalidMove): malformed text, no such legal move, or ambiguous text.
Result<Move> parse_san(const Position& pos, std::string_view san);

// SAN of a whole line from pos, e.g. {"e4", "e5", "Qh5"}. Precondition: each move is legal in
// the position the previous ones reach.
std::vector<std::string> line_to_san(Position pos, const std::vector<Move>& moves);
// The line as a reader writes it, with move numbers from pos's fullmove number:
// "1. e4 e5 2. Qh5", or "7... Kb8 8. Ra8#" when Black moves first. Precondition: as line_to_san.
std::string format_line(const Position& pos, const std::vector<Move>& moves);

// The FEN part of a line holding a FEN or an EPD record (4 fields followed by operations such as
// `bm Kxa8; id "x";`). EPD operations start with an opcode, which begins with a letter (EPD
// standard, PGN spec section 16.2), so: a line whose 5th field begins with a letter is EPD and
// gives its first 4 fields; any other line is returned whole (without leading and trailing
// blanks) as a FEN, so that malformed counters or trailing junk reach Position::from_fen and are
// reported, never silently dropped.
std::string fen_of_epd_line(std::string_view line);

}  // namespace deadpos
