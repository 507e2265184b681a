// capi.bitboards.*: a position given to the C API as bitboards (deadpos_bitboards, Fathom's shape)
// is answered exactly as the same position given as FEN: on random legal positions of the <=4-man
// materials (tests/support random_position), on random arbitrary placements (mostly illegal: the
// same error code and message), and on castling and en passant positions. The bitboards are built
// from the Position's own piece sets and the FENs by a writer of this test, independently of the
// conversion inside the C API. Reads DEADPOS_TABLES (the tables4 fixture); fails without it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "deadpos.h"
#include "deadpos/position.h"
#include "support/random_position.h"

namespace {

using deadpos::Color;
using deadpos::PieceType;

class Handle {
 public:
  Handle() {
    const char* dir = std::getenv("DEADPOS_TABLES");
    if (!dir) return;
    deadpos_options opt;
    deadpos_options_init(&opt);
    opt.budget_nodes = 5000;  // arbitrary placements of up to 6 men: short searches
    deadpos_error err;
    const char* dirs[] = {dir};
    if (deadpos_open(dirs, 1, &opt, &tb_, &err) != DEADPOS_OK) message_ = err.message;
  }
  ~Handle() { deadpos_close(tb_); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  const deadpos_tablebase* get() const { return tb_; }
  const std::string& message() const { return message_; }

 private:
  deadpos_tablebase* tb_ = nullptr;
  std::string message_ = "DEADPOS_TABLES is not set";
};

const Handle& handle() {
  static const Handle h;
  return h;
}

deadpos_bitboards bitboards_of(const deadpos::Position& p) {
  deadpos_bitboards b{};
  b.white = p.pieces(Color::White);
  b.black = p.pieces(Color::Black);
  b.kings = p.pieces(PieceType::King);
  b.queens = p.pieces(PieceType::Queen);
  b.rooks = p.pieces(PieceType::Rook);
  b.bishops = p.pieces(PieceType::Bishop);
  b.knights = p.pieces(PieceType::Knight);
  b.pawns = p.pieces(PieceType::Pawn);
  b.side_to_move = p.side_to_move() == Color::White ? DEADPOS_WHITE : DEADPOS_BLACK;
  b.castling = p.castling_rights();
  b.en_passant = p.en_passant() ? deadpos::to_index(*p.en_passant()) : DEADPOS_NO_SQUARE;
  return b;
}

// FEN of bitboards (this test's own writer): placement, side, castling, en passant, "0 1".
std::string fen_of(const deadpos_bitboards& b) {
  std::string s;
  const std::pair<std::uint64_t, char> types[] = {{b.kings, 'k'},   {b.queens, 'q'},  {b.rooks, 'r'},
                                                  {b.bishops, 'b'}, {b.knights, 'n'}, {b.pawns, 'p'}};
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const std::uint64_t bit = std::uint64_t{1} << (rank * 8 + file);
      char c = 0;
      for (const auto& [set, letter] : types)
        if (set & bit) c = letter;
      if (!c) {
        ++empty;
        continue;
      }
      if (empty) s += static_cast<char>('0' + empty);
      empty = 0;
      s += (b.white & bit) ? static_cast<char>(c - 'a' + 'A') : c;
    }
    if (empty) s += static_cast<char>('0' + empty);
    if (rank) s += '/';
  }
  s += b.side_to_move == DEADPOS_WHITE ? " w " : " b ";
  std::string castle;
  if (b.castling & DEADPOS_CASTLE_WHITE_KING_SIDE) castle += 'K';
  if (b.castling & DEADPOS_CASTLE_WHITE_QUEEN_SIDE) castle += 'Q';
  if (b.castling & DEADPOS_CASTLE_BLACK_KING_SIDE) castle += 'k';
  if (b.castling & DEADPOS_CASTLE_BLACK_QUEEN_SIDE) castle += 'q';
  s += castle.empty() ? "-" : castle;
  s += ' ';
  if (b.en_passant == DEADPOS_NO_SQUARE) {
    s += '-';
  } else {
    s += static_cast<char>('a' + b.en_passant % 8);
    s += static_cast<char>('1' + b.en_passant / 8);
  }
  return s + " 0 1";
}

void expect_same_how(const deadpos_how& a, const deadpos_how& b, const std::string& what) {
  EXPECT_EQ(a.method, b.method) << what;
  EXPECT_EQ(a.rule, b.rule) << what;
  EXPECT_EQ(a.budget, b.budget) << what;
  EXPECT_EQ(a.positions, b.positions) << what;
  EXPECT_EQ(a.line_plies, b.line_plies) << what;
  EXPECT_EQ(a.shortest, b.shortest) << what;
}

void expect_same_probe(const deadpos_probe_result& a, const deadpos_probe_result& b, const std::string& what) {
  EXPECT_EQ(a.checkmate, b.checkmate) << what;
  EXPECT_EQ(a.stalemate, b.stalemate) << what;
  EXPECT_EQ(a.dead, b.dead) << what;
  EXPECT_EQ(a.white_can_mate, b.white_can_mate) << what;
  EXPECT_EQ(a.black_can_mate, b.black_can_mate) << what;
  EXPECT_EQ(a.dthm_white_mated_plies, b.dthm_white_mated_plies) << what;
  EXPECT_EQ(a.dthm_black_mated_plies, b.dthm_black_mated_plies) << what;
  expect_same_how(a.how_white_can_mate, b.how_white_can_mate, what);
  expect_same_how(a.how_black_can_mate, b.how_black_can_mate, what);
  EXPECT_EQ(a.castling_search, b.castling_search) << what;
  EXPECT_EQ(a.en_passant, b.en_passant) << what;
  EXPECT_STREQ(a.table, b.table) << what;
  EXPECT_STREQ(a.fen, b.fen) << what;
}

// Probe, flag-fall (side to move) and White's line: bitboards vs FEN. Returns the probe status.
deadpos_status expect_same(const deadpos_bitboards& b, const std::string& fen) {
  const deadpos_tablebase* tb = handle().get();
  deadpos_probe_result rf{}, rb{};
  deadpos_error ef{}, eb{};
  const deadpos_status sf = deadpos_probe_fen(tb, fen.c_str(), &rf, &ef);
  const deadpos_status sb = deadpos_probe_bitboards(tb, &b, &rb, &eb);
  EXPECT_EQ(sf, sb) << fen << ": " << ef.message << " / " << eb.message;
  EXPECT_STREQ(ef.message, eb.message) << fen;
  if (sf != DEADPOS_OK || sb != DEADPOS_OK) return sf;
  expect_same_probe(rf, rb, fen);
  deadpos_flag_result ff{}, fb{};
  EXPECT_EQ(deadpos_flag_fen(tb, fen.c_str(), DEADPOS_SIDE_TO_MOVE, &ff, &ef), DEADPOS_OK) << fen << ef.message;
  EXPECT_EQ(deadpos_flag_bitboards(tb, &b, DEADPOS_SIDE_TO_MOVE, &fb, &eb), DEADPOS_OK) << fen << eb.message;
  EXPECT_EQ(ff.flagged, fb.flagged) << fen;
  EXPECT_EQ(ff.reason, fb.reason) << fen;
  EXPECT_STREQ(ff.result, fb.result) << fen;
  expect_same_probe(ff.probe, fb.probe, fen + " (flag)");
  char lf[512], lb[512];
  deadpos_line_info inf{}, inb{};
  EXPECT_EQ(deadpos_line_fen(tb, fen.c_str(), DEADPOS_WHITE, lf, sizeof lf, &inf, &ef),
            deadpos_line_bitboards(tb, &b, DEADPOS_WHITE, lb, sizeof lb, &inb, &eb))
      << fen;
  EXPECT_STREQ(lf, lb) << fen;
  EXPECT_EQ(inf.can_be_mated, inb.can_be_mated) << fen;
  EXPECT_EQ(inf.plies, inb.plies) << fen;
  return sf;
}

TEST(CApiBitboards, RandomLegalPositions) {
  ASSERT_NE(handle().get(), nullptr) << handle().message();
  std::mt19937_64 rng(20261201);
  const char* keys[] = {"KvK",   "KQvK",  "KRvK",  "KBvK",  "KNvK",  "KPvK",  "KBvKB", "KBvKN", "KNvKN",
                        "KPvKP", "KRvKB", "KQvKR", "KBBvK", "KBNvK", "KNNvK", "KRvKP", "KNvKP"};
  int n = 0;
  for (int round = 0; round < 60; ++round) {
    for (const char* key : keys) {
      const deadpos::Position p = deadpos::test::random_position(key, rng);
      EXPECT_EQ(expect_same(bitboards_of(p), p.to_fen()), DEADPOS_OK) << p.to_fen();
      ++n;
    }
  }
  EXPECT_EQ(n, 60 * 17);
}

// Random men on random squares with random side, castling and en passant fields: mostly illegal,
// a few legal; the bitboard probe must fail (or succeed) exactly as the FEN probe.
TEST(CApiBitboards, RandomArbitraryPlacements) {
  ASSERT_NE(handle().get(), nullptr) << handle().message();
  std::mt19937_64 rng(7);
  int legal = 0, illegal = 0;
  for (int i = 0; i < 3000; ++i) {
    deadpos_bitboards b{};
    std::uint64_t* types[] = {&b.kings, &b.queens, &b.rooks, &b.bishops, &b.knights, &b.pawns};
    // Two kings mostly (so that the legality checks past missing-king are reached).
    const int men = 2 + static_cast<int>(rng() % 4);
    for (int m = 0; m < men; ++m) {
      const int sq = static_cast<int>(rng() % 64);
      const std::uint64_t bit = std::uint64_t{1} << sq;
      if ((b.white | b.black) & bit) continue;
      // Man 0: the white king, man 1: the black king, then random men of either colour.
      const bool white = m == 0 || (m > 1 && rng() % 2 == 0);
      (white ? b.white : b.black) |= bit;
      *types[m < 2 ? 0 : 1 + rng() % 5] |= bit;
    }
    b.side_to_move = rng() % 2 ? DEADPOS_WHITE : DEADPOS_BLACK;
    b.castling = rng() % 4 == 0 ? static_cast<unsigned>(rng() % 16) : 0;
    b.en_passant = rng() % 4 == 0 ? static_cast<int>(rng() % 64) : DEADPOS_NO_SQUARE;
    (expect_same(b, fen_of(b)) == DEADPOS_OK ? legal : illegal)++;
  }
  EXPECT_GT(legal, 100);
  EXPECT_GT(illegal, 100);
}

TEST(CApiBitboards, CastlingAndEnPassant) {
  ASSERT_NE(handle().get(), nullptr) << handle().message();
  for (const char* fen : {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
                          "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1"}) {
    const auto p = deadpos::Position::from_fen(fen);
    ASSERT_TRUE(p.ok()) << fen;
    const deadpos_bitboards b = bitboards_of(*p);
    EXPECT_EQ(fen_of(b), std::string(fen));
    EXPECT_EQ(expect_same(b, fen), DEADPOS_OK) << fen;
    deadpos_probe_result r{};
    ASSERT_EQ(deadpos_probe_bitboards(handle().get(), &b, &r, nullptr), DEADPOS_OK);
    EXPECT_EQ(r.castling_search || r.en_passant, 1) << fen;
  }
}

}  // namespace
