// FEN input: a table of malformed and illegal FENs with the FenProblem each must be rejected with,
// the lenient forms that must be accepted, and round trips of accepted FENs.
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>

#include "deadpos/position.h"
#include "test_util.h"

namespace deadpos {

// Readable failure output for FenProblem values (found by gtest through argument-dependent lookup,
// so it lives in deadpos, not in the anonymous namespace).
void PrintTo(FenProblem p, std::ostream* os);
void PrintTo(FenProblem p, std::ostream* os) { *os << fen_problem_name(p); }

namespace {

struct BadFen {
  const char* fen;
  FenProblem problem;
  const char* why;  // the defect, for the reader and the failure message
};

using P = FenProblem;

// Each FEN has exactly one defect; everything else in it is valid, so the expected category does
// not depend on the order in which the checks run.
constexpr BadFen kBadFens[] = {
    // --- Syntax (Placement::parse_fen) ---------------------------------------------------------
    {"", P::FieldCount, "empty string"},
    {"4k3/8/8/8/8/8/8/4K3", P::FieldCount, "placement only"},
    {"4k3/8/8/8/8/8/8/4K3 w -", P::FieldCount, "3 fields"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", P::FieldCount, "7 fields"},
    {"4k3/8/8/8/8/8/8/4X3 w - - 0 1", P::BadPieceChar, "'X' is not a piece"},
    {"4k3/8/8/8/8/8/8/4K2x w - - 0 1", P::BadPieceChar, "'x' is not a piece"},
    {"4k3/9/8/8/8/8/8/4K3 w - - 0 1", P::BadPieceChar, "'9' is not a run length"},
    {"4k3/08/8/8/8/8/8/4K3 w - - 0 1", P::BadPieceChar, "'0' is not a run length"},
    {"4k3/7/8/8/8/8/8/4K3 w - - 0 1", P::RankLength, "rank 7 has 7 squares"},
    {"4k3/8/8/8/8/8/8/4K4 w - - 0 1", P::RankLength, "rank 1 has 9 squares"},
    {"4k3/ppppppppp/8/8/8/8/8/4K3 w - - 0 1", P::RankLength, "rank 7 has 9 pawns"},
    {"4k3/8/8/8/8/8/8/4K w - - 0 1", P::RankLength, "rank 1 has 5 squares"},
    {"4k3//8/8/8/8/8/4K3 w - - 0 1", P::RankLength, "empty rank between two slashes"},
    {"4k3/8/8/8/8/8/8/K1k41 w - - 0 1", P::RankLength, "two digits in a row (adds up to 8, not FEN)"},
    {"4k3/8/8/8/8/8/8/44 w - - 0 1", P::RankLength, "two digits in a row, no king on the rank"},
    {"4k3/8/8/8/8/8/8/4K2\xff w - - 0 1", P::BadPieceChar, "a non-ASCII byte"},
    {"4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", P::RankCount, "9 ranks"},
    {"4k3/8/8/8/8/8/4K3 w - - 0 1", P::RankCount, "7 ranks"},
    {"4k3/8/8/8/8/8/8/4K3/ w - - 0 1", P::RankCount, "trailing slash opens a 9th rank"},
    {"4k3/8/8/8/8/8/8/4K3 W - - 0 1", P::BadSideToMove, "upper-case side"},
    {"4k3/8/8/8/8/8/8/4K3 white - - 0 1", P::BadSideToMove, "word instead of letter"},
    {"4k3/8/8/8/8/8/8/4K3 - - - 0 1", P::BadSideToMove, "no side"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1", P::BadCastlingField, "repeated 'K'"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w Qkqq - 0 1", P::BadCastlingField, "repeated 'q'"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", P::BadCastlingField, "'x' in castling field"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", P::BadCastlingField, "'-' mixed with rights"},
    {"4k3/8/8/8/8/8/8/4K3 w - e9 0 1", P::BadEnPassantField, "no rank 9"},
    {"4k3/8/8/8/8/8/8/4K3 w - e 0 1", P::BadEnPassantField, "file only"},
    {"4k3/8/8/8/8/8/8/4K3 w - E6 0 1", P::BadEnPassantField, "upper-case file"},
    {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", P::BadCounter, "negative halfmove clock"},
    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", P::BadCounter, "non-numeric halfmove clock"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0.5 1", P::BadCounter, "fractional halfmove clock"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", P::BadCounter, "halfmove clock overflows int"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", P::BadCounter, "fullmove number 0"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 -3", P::BadCounter, "negative fullmove number"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1a", P::BadCounter, "junk after fullmove number"},
    // --- Legality (Position::check_placement) --------------------------------------------------
    {"4k3/8/8/8/8/8/8/8 w - - 0 1", P::MissingKing, "no white king"},
    {"8/8/8/8/8/8/8/4K3 w - - 0 1", P::MissingKing, "no black king"},
    {"8/8/8/8/8/8/8/8 w - - 0 1", P::MissingKing, "empty board"},
    {"4k3/8/8/8/8/8/8/K3K3 w - - 0 1", P::ExtraKing, "two white kings"},
    {"k3k3/8/8/8/8/8/8/4K3 w - - 0 1", P::ExtraKing, "two black kings"},
    {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", P::PawnOnBackRank, "white pawn on rank 1"},
    {"P3k3/8/8/8/8/8/8/4K3 b - - 0 1", P::PawnOnBackRank, "white pawn on rank 8"},
    {"p3k3/8/8/8/8/8/8/4K3 w - - 0 1", P::PawnOnBackRank, "black pawn on rank 8"},
    {"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", P::PawnOnBackRank, "black pawn on rank 1"},
    {"4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1", P::TooManyMen, "17 white men"},
    {"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", P::TooManyMen, "9 white pawns"},
    {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", P::TooManyMen, "9 black pawns"},
    {"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", P::OpponentInCheck, "black king on e8 in check from Re1, white to move"},
    {"4k3/8/3N4/8/8/8/8/4K3 w - - 0 1", P::OpponentInCheck, "black king in check from Nd6, white to move"},
    {"4k3/8/8/8/B7/8/8/4K3 w - - 0 1", P::OpponentInCheck, "black king in check from Ba4, white to move"},
    {"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", P::OpponentInCheck, "white king in check from pawn d2, black to move"},
    {"8/8/8/4k3/4K3/8/8/8 w - - 0 1", P::KingsAdjacent, "kings on e4 and e5"},
    {"8/8/8/5k2/4K3/8/8/8 b - - 0 1", P::KingsAdjacent, "kings on e4 and f5"},
    {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", P::CastlingInconsistent, "'K' without a rook on h1"},
    {"4k3/8/8/8/8/8/8/4K2r w K - 0 1", P::CastlingInconsistent, "'K' with a black rook on h1"},
    {"4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", P::CastlingInconsistent, "'Q' with the king on d1"},
    {"4k3/8/8/8/8/8/8/4K3 w k - 0 1", P::CastlingInconsistent, "'k' without a rook on h8"},
    {"1r2k3/8/8/8/8/8/8/4K3 w q - 0 1", P::CastlingInconsistent, "'q' with the rook on b8"},
    {"r4k2/8/8/8/8/8/8/4K3 w q - 0 1", P::CastlingInconsistent, "'q' with the king on f8"},
    {"4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", P::EnPassantImpossible, "e3 with White to move (wrong rank)"},
    {"4k3/8/8/4P3/8/8/8/4K3 w - e5 0 1", P::EnPassantImpossible, "e5 is on neither rank 3 nor 6"},
    {"4k3/8/8/8/8/8/8/4K3 b - e3 0 1", P::EnPassantImpossible, "no white pawn on e4"},
    {"4k3/8/8/8/4p3/8/8/4K3 b - e3 0 1", P::EnPassantImpossible, "the pawn on e4 is Black's"},
    {"4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", P::EnPassantImpossible, "e3 occupied"},
    {"4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", P::EnPassantImpossible, "e2 (the pawn's origin) occupied"},
    {"4k3/3n4/8/3p4/8/8/8/4K3 w - d6 0 1", P::EnPassantImpossible, "d7 (the pawn's origin) occupied"},
};

// The message must start with the category name and a colon (position.h).
::testing::AssertionResult has_problem(const Error& e, FenProblem p) {
  const std::string prefix = std::string(fen_problem_name(p)) + ":";
  if (e.code != ErrorCode::InvalidFen) return ::testing::AssertionFailure() << "error code is not InvalidFen";
  if (e.message.rfind(prefix, 0) != 0) {
    return ::testing::AssertionFailure() << "message '" << e.message << "' does not start with '" << prefix << "'";
  }
  if (e.message.size() <= prefix.size() + 1) return ::testing::AssertionFailure() << "message has no detail";
  return ::testing::AssertionSuccess();
}

TEST(Fen, RejectsEachMalformedOrIllegalFenWithItsCategory) {
  EXPECT_GE(std::size(kBadFens), 30U);
  for (const BadFen& c : kBadFens) {
    SCOPED_TRACE(std::string("FEN '") + c.fen + "' (" + c.why + ")");
    const Result<Position> r = Position::from_fen(c.fen);
    ASSERT_FALSE(r.ok()) << "accepted: " << r->to_fen();
    EXPECT_TRUE(has_problem(r.error(), c.problem));

    // Syntax problems already fail in Placement::parse_fen; legality problems pass it and are
    // found by check_placement/from_placement with the same category.
    const Result<Placement> pl = Placement::parse_fen(c.fen);
    const bool syntax = c.problem <= FenProblem::BadCounter;
    if (syntax) {
      ASSERT_FALSE(pl.ok());
      EXPECT_TRUE(has_problem(pl.error(), c.problem));
    } else {
      ASSERT_TRUE(pl.ok()) << pl.error().message;
      std::string message;
      EXPECT_EQ(Position::check_placement(*pl, &message), std::optional<FenProblem>(c.problem)) << message;
      EXPECT_FALSE(message.empty());
      const Result<Position> p = Position::from_placement(*pl);
      ASSERT_FALSE(p.ok());
      EXPECT_TRUE(has_problem(p.error(), c.problem));
    }
  }
}

TEST(Fen, ProblemNamesAreDistinct) {
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(FenProblem::EnPassantImpossible); ++i)
    names.insert(fen_problem_name(static_cast<FenProblem>(i)));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(FenProblem::EnPassantImpossible) + 1);
  EXPECT_STREQ(fen_problem_name(FenProblem::KingsAdjacent), "kings-adjacent");
}

TEST(Fen, AcceptsFourAndFiveFieldsWithDefaultCounters) {
  const Position four = test::position_from("4k3/8/8/8/8/8/8/4K3 w - -");
  EXPECT_EQ(four.halfmove_clock(), 0);
  EXPECT_EQ(four.fullmove_number(), 1);
  EXPECT_EQ(four.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");

  const Position five = test::position_from("4k3/8/8/8/8/8/8/4K3 b - - 7");
  EXPECT_EQ(five.halfmove_clock(), 7);
  EXPECT_EQ(five.fullmove_number(), 1);
  EXPECT_EQ(five.side_to_move(), Color::Black);

  const Result<Placement> pl = Placement::parse_fen("4k3/8/8/8/8/8/8/4K3 w - -");
  ASSERT_TRUE(pl.ok());
  EXPECT_EQ(pl->halfmove_clock, 0);
  EXPECT_EQ(pl->fullmove_number, 1);
}

TEST(Fen, AcceptsExtraSpaces) {
  const Position p = test::position_from("   4k3/8/8/8/8/8/8/4K3   w  -   -  3    42   ");
  EXPECT_EQ(p.halfmove_clock(), 3);
  EXPECT_EQ(p.fullmove_number(), 42);
  EXPECT_EQ(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 3 42");
}

TEST(Fen, AcceptsCastlingLettersInAnyOrder) {
  const Position p = test::position_from("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1");
  EXPECT_EQ(p.castling_rights(), kAllCastling);
  EXPECT_EQ(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

TEST(Fen, ReadsEveryField) {
  const Position p = test::position_from("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w Kq e6 0 2");
  EXPECT_EQ(p.side_to_move(), Color::White);
  EXPECT_EQ(p.castling_rights(), kWhiteOO | kBlackOOO);
  EXPECT_EQ(p.en_passant(), std::optional<Square>(Square::E6));
  EXPECT_EQ(p.halfmove_clock(), 0);
  EXPECT_EQ(p.fullmove_number(), 2);
  EXPECT_EQ(p.piece_on(Square::E5), make_piece(Color::Black, PieceType::Pawn));
  EXPECT_EQ(p.piece_on(Square::D1), make_piece(Color::White, PieceType::Queen));
  EXPECT_EQ(p.piece_on(Square::E4), make_piece(Color::White, PieceType::Pawn));
  EXPECT_EQ(p.piece_on(Square::E3), kNoPiece);
  EXPECT_EQ(p.men(), 32);
}

TEST(Fen, StartPositionRoundTrip) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(Position::startpos().to_fen(), start);
  EXPECT_TRUE(test::position_from(start) == Position::startpos());
  EXPECT_EQ(Position::startpos().to_diagram(),
            "8 r n b q k b n r\n"
            "7 p p p p p p p p\n"
            "6 . . . . . . . .\n"
            "5 . . . . . . . .\n"
            "4 . . . . . . . .\n"
            "3 . . . . . . . .\n"
            "2 P P P P P P P P\n"
            "1 R N B Q K B N R\n"
            "  a b c d e f g h\n");
}

TEST(Fen, CountersAtTheirLimitsRoundTrip) {
  const Position p = test::position_from("8/8/8/8/8/8/8/K1k5 b - - 100 9999");
  EXPECT_EQ(p.to_fen(), "8/8/8/8/8/8/8/K1k5 b - - 100 9999");
}

// Found by tests/fuzz/fuzz_fen.cpp: a field of control or non-ASCII bytes was quoted raw (and at
// any length) in the message, which is meant to be one printable line. Each field that messages
// quote, with bytes 0x81 (as in the fuzzer's input), a newline and an escape byte.
TEST(Fen, MessagesQuoteOutsideBytesAsPrintableAscii) {
  const std::string junk = std::string(150, '\x81') + "\n\x1b";
  const std::string base[6] = {"4k3/8/8/8/8/8/8/4K3", "w", "-", "-", "0", "1"};
  for (int field = 1; field < 6; ++field) {
    std::string fen;
    for (int i = 0; i < 6; ++i) fen += (i ? " " : "") + (i == field ? junk : base[i]);
    SCOPED_TRACE("junk in field " + std::to_string(field + 1));
    const Result<Position> r = Position::from_fen(fen);
    ASSERT_FALSE(r.ok());
    for (const char c : r.error().message) ASSERT_TRUE(c >= ' ' && c <= '~') << r.error().message;
    EXPECT_LT(r.error().message.size(), 120U) << r.error().message;
  }
  const Result<Position> r = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w -\x81 - 0 1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "bad-castling-field: castling field '-\\x81' has '-'; expected KQkq or '-'");
}

TEST(ShownText, EscapesAndCuts) {
  EXPECT_EQ(shown_text("e4"), "e4");
  EXPECT_EQ(shown_text(std::string_view("a\0\n\xff", 4)), "a\\x00\\x0A\\xFF");
  EXPECT_EQ(shown_text(std::string(70, 'x')), std::string(40, 'x') + "...");
  EXPECT_EQ(shown_text(std::string(40, 'x')), std::string(40, 'x'));
}

}  // namespace
}  // namespace deadpos
