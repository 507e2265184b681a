// Retrograde helpmate solver (docs/design.md, "Solver").
//
// State: one byte per index value per (side to move, side to be mated), codes of DthmCode.
// Phases:
//  1. init   - forward pass once over the domain: mark broken/illegal entries kInvalid, checkmates
//              0 (for the mated side), other terminals kNone, and seed every other position with
//              its best exit: 1 + subtable value over captures and promotions, and 2 + subtable
//              value over double pushes that give the opponent an en passant capture (the
//              position reached by such a push has the en passant right the table leaves out).
//  2. solve  - levels d = 0, 1, ...: every predecessor (position one quiet move before) of a
//              position whose value is d gets d + 1 if its value is larger. This is a
//              shortest-path search with integer buckets, so every value is final when its level
//              is expanded. The bulk is pulled row by row into the predecessors; the special
//              cases are pushed by un-moves per position ("Phase 2 (solve)" below).
//  3. kUnknown -> kNone.
#include <omp.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstring>

#include "common.h"
#include "deadpos/solver.h"
#include "rows.h"

namespace deadpos {

namespace {

constexpr std::uint8_t kNone = DthmCode::kNone;
constexpr std::uint8_t kUnknown = DthmCode::kUnknown;
constexpr std::uint8_t kInvalid = DthmCode::kInvalid;

bool is_capture_or_promotion(const Position& pos, Move m) {
  return m.kind() == Move::Kind::Promotion || m.kind() == Move::Kind::EnPassant || pos.piece_on(m.to()) != kNoPiece;
}

bool is_double_push(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from())) == PieceType::Pawn && (to_index(m.to()) ^ to_index(m.from())) == 16;
}

// Whether the side to move of `after` (just reached by a double push, so it has the en passant
// square set by make_move) has a legal en passant capture.
bool has_ep_capture(const Position& after) {
  if (!after.en_passant()) return false;
  for (Move m : after.legal_moves())
    if (m.kind() == Move::Kind::EnPassant) return true;
  return false;
}

// Cheap filter for the init pass: false only if no legal move of the side to move can capture,
// promote, or be a double push next to an enemy pawn (the moves whose value comes from outside
// the table). Conservative: true may still find no such move.
bool may_leave_table(const Position& pos) {
  const Color us = pos.side_to_move();
  const Bitboard occ = pos.pieces();
  const Bitboard targets = pos.pieces(~us) & ~pos.pieces(PieceType::King);
  if (!targets) {
    // No captures possible; only pawn moves can leave the table.
    if (!pos.pieces(us, PieceType::Pawn)) return false;
  }
  Bitboard attacks = 0;
  Bitboard b = pos.pieces(us) & ~pos.pieces(PieceType::Pawn);
  while (b) {
    const Square s = pop_lsb(b);
    attacks |= internal::attacks_of(type_of(pos.piece_on(s)), s, occ);
  }
  Bitboard pawns = pos.pieces(us, PieceType::Pawn);
  const Bitboard rank7 = us == Color::White ? rank_bb(6) : rank_bb(1);
  const Bitboard rank2 = us == Color::White ? rank_bb(1) : rank_bb(6);
  if (pawns & (rank7 | rank2)) return true;  // promotions; double pushes (ep checked later)
  while (pawns) attacks |= pawn_attacks(us, pop_lsb(pawns));
  return (attacks & targets) != 0;
}

// Men of colour `by` (slots of the index) attack square target given occupancy occ.
[[maybe_unused]] bool men_attack(const TableIndex& idx, const TableIndex::Squares& sq, Color by, Square target,
                                 Bitboard occ) {
  for (int j = 0; j < idx.men(); ++j) {
    const Piece p = idx.piece(j);
    if (color_of(p) != by) continue;
    const Square s = sq[static_cast<std::size_t>(j)];
    Bitboard a = 0;
    switch (type_of(p)) {
      case PieceType::Pawn: a = pawn_attacks(by, s); break;
      case PieceType::Knight: a = knight_attacks(s); break;
      case PieceType::Bishop: a = bishop_attacks(s, occ); break;
      case PieceType::Rook: a = rook_attacks(s, occ); break;
      case PieceType::Queen: a = queen_attacks(s, occ); break;
      case PieceType::King: a = king_attacks(s); break;
    }
    if (a & square_bb(target)) return true;
  }
  return false;
}

using internal::position_of;

// ---------------------------------------------------------------------------------------------
// Phase 1 (init), row by row. Per row (all men but the last fixed) and side to move, masks over
// the last man's square decide most entries at once:
//  - broken entries and "side not to move in check" (kInvalid);
//  - entries where the side to move has a safe king move (so a legal move: not terminal); their
//    exits (captures, promotions) are enumerated per row, each as a mask of the last man's
//    squares where it is legal, and valued from the subtables per entry;
//  - the rest (no safe king move: checkmates, stalemates, positions where only other men can
//    move; double pushes that may allow en passant) goes through init_entry(), the previous
//    per-entry code (Position and legal move generation), as does every entry in debug builds,
//    where both results must agree.

// The previous per-entry init: codes of entry sq (valid placement) with side to move stm.
void init_entry(const TableIndex& idx, const TableSet& subtables, const TableIndex::Squares& sq, Color stm,
                std::uint8_t& to_w, std::uint8_t& to_b) {
  const Position pos = position_of(idx, sq, stm);
  if (pos.attacked_by(stm, pos.king_square(~stm), pos.pieces())) {
    to_w = to_b = kInvalid;  // side not to move in check
    return;
  }
  if (!pos.has_legal_move()) {
    const bool mate = pos.in_check();
    to_w = (mate && stm == Color::White) ? 0 : kNone;
    to_b = (mate && stm == Color::Black) ? 0 : kNone;
    return;
  }
  if (!may_leave_table(pos)) {
    to_w = to_b = kUnknown;
    return;
  }
  MoveList moves;
  pos.legal_moves(moves);
  ByColor<int> best{{kUnknown, kUnknown}};
  for (Move mv : moves) {
    if (is_capture_or_promotion(pos, mv)) {
      const Position after = pos.after(mv);
      for (Color x : {Color::White, Color::Black}) {
        const std::uint8_t v = subtables.value(after, x);
        if (v <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v + 1);
      }
    } else if (is_double_push(pos, mv)) {
      const Position after = pos.after(mv);
      if (!has_ep_capture(after)) continue;
      for (Move ep : after.legal_moves()) {
        if (ep.kind() != Move::Kind::EnPassant) continue;
        const Position after2 = after.after(ep);
        for (Color x : {Color::White, Color::Black}) {
          const std::uint8_t v = subtables.value(after2, x);
          if (v <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v + 2);
        }
      }
    }
  }
  DEADPOS_CHECK(best[Color::White] <= DthmCode::kMaxDthm || best[Color::White] == kUnknown);
  DEADPOS_CHECK(best[Color::Black] <= DthmCode::kMaxDthm || best[Color::Black] == kUnknown);
  to_w = static_cast<std::uint8_t>(best[Color::White]);
  to_b = static_cast<std::uint8_t>(best[Color::Black]);
}

// The subtable entered by an exit: which of its slots each man goes to, and whether its
// canonical orientation is the colour-swapped one (TableSet::value, done once per exit kind).
struct SubMap {
  const LoadedTable* table = nullptr;
  const internal::RowGeometry* geo = nullptr;  // the subtable's king pairs and groups
  bool swapped = false;
  std::array<int, kMaxTableMen> slot{};  // sub slot of each man of the parent (-1: captured)
};

constexpr std::array<PieceType, 4> kPromotions = {PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                                                  PieceType::Knight};

class Exits {
 public:
  // Builds the maps of every capture (victim slot), promotion (pawn slot, piece) and capture with
  // promotion. Precondition: the successors of idx's material are in subtables.
  Exits(const TableIndex& idx, const TableSet& subtables) : men_(idx.men()) {
    for (int v = -1; v < men_; ++v) {
      if (v == 0 || v == 1) continue;
      for (int p = -1; p < men_; ++p) {
        if (v < 0 && p < 0) continue;  // not an exit
        if (p >= 0 && (p < 2 || p == v || type_of(idx.piece(p)) != PieceType::Pawn)) continue;
        if (p >= 0 && v >= 0 &&
            (color_of(idx.piece(v)) == color_of(idx.piece(p)) || type_of(idx.piece(v)) == PieceType::Pawn))
          continue;
        for (int x = 0; x < (p >= 0 ? 4 : 1); ++x) {
          std::array<Piece, kMaxTableMen> after{};
          Material sub{};
          for (int j = 0; j < men_; ++j) {
            if (j == v) continue;
            Piece pc = idx.piece(j);
            if (j == p) pc = make_piece(color_of(pc), kPromotions[static_cast<std::size_t>(x)]);
            after[static_cast<std::size_t>(j)] = pc;
            sub.count[color_of(pc)][type_of(pc)]++;
          }
          SubMap& sm = maps_[key(v, p, x)];
          sm.swapped = !sub.is_canonical();
          sm.table = subtables.find(sm.swapped ? sub.swapped() : sub);
          DEADPOS_CHECK(sm.table != nullptr);
          for (std::size_t g = 0; g < geos_.size() && !sm.geo; ++g)
            if (geo_tables_[g] == sm.table) sm.geo = geos_[g].get();
          if (!sm.geo) {
            geos_.push_back(std::make_unique<internal::RowGeometry>(sm.table->index));
            geo_tables_.push_back(sm.table);
            sm.geo = geos_.back().get();
          }
          const TableIndex& si = sm.table->index;
          std::array<bool, kMaxTableMen> used{};
          for (int j = 0; j < men_; ++j) {
            sm.slot[static_cast<std::size_t>(j)] = -1;
            if (j == v) continue;
            Piece pc = after[static_cast<std::size_t>(j)];
            if (sm.swapped) pc = make_piece(~color_of(pc), type_of(pc));
            for (int k = 0; k < si.men(); ++k)
              if (!used[static_cast<std::size_t>(k)] && si.piece(k) == pc) {
                used[static_cast<std::size_t>(k)] = true;
                sm.slot[static_cast<std::size_t>(j)] = k;
                break;
              }
            DEADPOS_CHECK(sm.slot[static_cast<std::size_t>(j)] >= 0);
          }
        }
      }
    }
  }
  // victim: captured slot or -1; promo: promoting pawn slot or -1, promoted piece kPromotions[x].
  const SubMap& map(int victim, int promo, int x) const { return maps_[key(victim, promo, x)]; }

  // Relaxes best_w/best_b with 1 + the values of the position after an exit (after: squares of
  // the parent's slots after the move; the captured slot is ignored), `us` having moved.
  static void relax(const SubMap& sm, const TableIndex::Squares& after, int men, Color us, std::uint8_t& best_w,
                    std::uint8_t& best_b) {
    TableIndex::Squares ss{};
    for (int j = 0; j < men; ++j) {
      const int k = sm.slot[static_cast<std::size_t>(j)];
      if (k < 0) continue;
      const Square s = after[static_cast<std::size_t>(j)];
      ss[static_cast<std::size_t>(k)] = sm.swapped ? flip_vertical(s) : s;
    }
    const std::uint64_t i = sm.table->index.encode(ss);
    // Arrays as TableSet::value picks them: (them to move, target) or, colour-swapped,
    // (us to move, other target).
    const Color them = ~us;
    const int aw = sm.swapped ? array_of(us, Color::Black) : array_of(them, Color::White);
    const int ab = sm.swapped ? array_of(us, Color::White) : array_of(them, Color::Black);
    const std::uint8_t vw = sm.table->arrays[static_cast<std::size_t>(aw)][i];
    const std::uint8_t vb = sm.table->arrays[static_cast<std::size_t>(ab)][i];
    if (vw <= DthmCode::kMaxDthm) best_w = std::min(best_w, static_cast<std::uint8_t>(vw + 1));
    if (vb <= DthmCode::kMaxDthm) best_b = std::min(best_b, static_cast<std::uint8_t>(vb + 1));
  }

 private:
  static std::size_t key(int v, int p, int x) {
    return static_cast<std::size_t>(((v + 1) * (kMaxTableMen + 1) + (p + 1)) * 4 + x);
  }
  int men_;
  std::array<SubMap, (kMaxTableMen + 1) * (kMaxTableMen + 1) * 4> maps_{};
  std::vector<std::unique_ptr<internal::RowGeometry>> geos_;  // one per subtable
  std::vector<const LoadedTable*> geo_tables_;
};

struct InitCtx {
  const TableIndex& idx;
  const internal::RowGeometry& geo;
  const TableSet& subtables;
  const Exits& exits;
};

// Attacks of a man of colour c and type pt on square s (pawns need the colour).
inline Bitboard man_attacks(Color c, PieceType pt, Square s, Bitboard occ) {
  switch (pt) {
    case PieceType::Pawn: return pawn_attacks(c, s);
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occ);
    case PieceType::Rook: return rook_attacks(s, occ);
    case PieceType::Queen: return queen_attacks(s, occ);
    case PieceType::King: return king_attacks(s);
  }
  return 0;
}

// One side to move on one row: the men of slots < last fixed (squares sq, occupancy occ).
class InitRow {
 public:
  InitRow(const InitCtx& c, Color us) : c_(c), us_(us), last_(c.geo.last()) {
    last_piece_ = c.geo.piece(last_);
    last_ours_ = color_of(last_piece_) == us;
  }

  // Mask over the last man's square l: square t is attacked by colour `by`, the men of slots
  // < last on sq (occupancy occ, slot `skip` captured) and the last man on l, which blocks lines
  // and attacks when it is of colour `by` and last_attacks.
  Bitboard attacked_mask(Square t, Color by, Bitboard occ, int skip, bool last_attacks) const {
    Bitboard m = 0;
    for (int j = 0; j < last_; ++j) {
      const Piece p = c_.geo.piece(j);
      if (j == skip || color_of(p) != by) continue;
      const Square s = sq_[static_cast<std::size_t>(j)];
      const PieceType pt = type_of(p);
      if (pt == PieceType::Pawn || pt == PieceType::Knight || pt == PieceType::King) {
        if (man_attacks(by, pt, s, 0) & square_bb(t)) return ~Bitboard{0};
        continue;
      }
      if (!(internal::attacks_of(pt, s, 0) & square_bb(t))) continue;
      const Bitboard between = internal::between(s, t);
      if (!(between & occ)) m |= ~between;  // attacked unless the last man stands in between
    }
    if (last_attacks && color_of(last_piece_) == by) {
      // Squares from which the last man attacks t (pawns: reversed colour).
      const PieceType pt = type_of(last_piece_);
      m |= pt == PieceType::Pawn ? pawn_attacks(~by, t) : internal::attacks_of(pt, t, occ);
    }
    return m;
  }
  // Whether square t is attacked by colour `by` with all men of the after-position on `after`
  // (slot `skip` captured), occupancy occ.
  bool attacked(const TableIndex::Squares& after, Square t, Color by, Bitboard occ, int skip) const {
    for (int j = 0; j <= last_; ++j) {
      const Piece p = c_.geo.piece(j);
      if (j == skip || color_of(p) != by) continue;
      if (man_attacks(by, type_of(p), after[static_cast<std::size_t>(j)], occ) & square_bb(t)) return true;
    }
    return false;
  }

  // Codes of the cursor's row (len bytes at ow, ob); max_seed gets the largest exit value.
  void run(internal::RowCursor& cur, std::uint8_t* ow, std::uint8_t* ob, int& max_seed);

 private:
  // Exit for the entries in mask: `apply` puts the move into a copy of the squares (last man on
  // l already placed) and returns the sub map.
  template <typename Apply>
  void exits_on(Bitboard mask, Apply apply) {
    while (mask) {
      const Square l = pop_lsb(mask);
      TableIndex::Squares after = sq_;
      after[static_cast<std::size_t>(last_)] = l;
      const auto k = static_cast<std::size_t>(to_index(l));
      apply(after, [&](const SubMap& sm, const TableIndex::Squares& a) {
        Exits::relax(sm, a, c_.geo.men(), us_, best_w_[k], best_b_[k]);
      });
    }
  }

  // Exit for the entries in mask whose position after differs along the row only in the square
  // of man u, which stands on the last man's square l (u is the last man, or the man that took
  // it); `after` holds the other men's squares after the move. The subtable index is then
  // base + field(h(l)) * stride, h = the colour swap's flip and the symmetry of the (fixed) king
  // pair: no encode() per entry, and consecutive entries of the row read nearby subtable bytes
  // (encode() and its cache misses were 40% of the init pass of KRPvKR).
  void exits_along(Bitboard mask, const SubMap& sm, TableIndex::Squares after, int u) {
    const internal::RowGeometry& sg = *sm.geo;
    const TableIndex& si = sm.table->index;
    const int su = sm.slot[static_cast<std::size_t>(u)];
    TableIndex::Squares ss{};
    for (int j = 0; j < c_.geo.men(); ++j) {
      const int k = sm.slot[static_cast<std::size_t>(j)];
      if (k < 0 || j == u) continue;
      const Square s = after[static_cast<std::size_t>(j)];
      ss[static_cast<std::size_t>(k)] = sm.swapped ? flip_vertical(s) : s;
    }
    const internal::KingPair& kp = sg.king_pair(ss[0], ss[1]);
    if (kp.diag || sg.grouped(su)) {
      exits_on(mask, [&](TableIndex::Squares& a, auto&& relax) {
        TableIndex::Squares b = after;
        b[static_cast<std::size_t>(u)] = a[static_cast<std::size_t>(last_)];
        relax(sm, b);
      });
      return;
    }
    TableIndex::Squares t{};
    for (int k = 2; k < si.men(); ++k)
      if (k != su) t[static_cast<std::size_t>(k)] = apply_symmetry(kp.g, ss[static_cast<std::size_t>(k)]);
    for (const auto& [a, b] : sg.groups())  // identical men in increasing square order
      for (int j = a + 1; j < b; ++j)
        for (int k = j; k > a && t[static_cast<std::size_t>(k - 1)] > t[static_cast<std::size_t>(k)]; --k)
          std::swap(t[static_cast<std::size_t>(k - 1)], t[static_cast<std::size_t>(k)]);
    std::uint64_t base = static_cast<std::uint64_t>(kp.slot) * si.stride(0);
    for (int k = 2; k < si.men(); ++k)
      if (k != su)
        base += static_cast<std::uint64_t>(to_index(t[static_cast<std::size_t>(k)]) - sg.field_base(k)) * si.stride(k);
    const std::uint64_t stride = si.stride(su);
    const int fb = sg.field_base(su);
    const Color them = ~us_;
    const std::uint8_t* aw =
        sm.table
            ->arrays[static_cast<std::size_t>(sm.swapped ? array_of(us_, Color::Black) : array_of(them, Color::White))]
            .data();
    const std::uint8_t* ab =
        sm.table
            ->arrays[static_cast<std::size_t>(sm.swapped ? array_of(us_, Color::White) : array_of(them, Color::Black))]
            .data();
    while (mask) {
      const Square l = pop_lsb(mask);
      const Square h = apply_symmetry(kp.g, sm.swapped ? flip_vertical(l) : l);
      const std::uint64_t i = base + static_cast<std::uint64_t>(to_index(h) - fb) * stride;
#ifndef NDEBUG
      TableIndex::Squares e = ss;
      e[static_cast<std::size_t>(su)] = sm.swapped ? flip_vertical(l) : l;
      assert(i == si.encode(e));
#endif
      const auto k = static_cast<std::size_t>(to_index(l));
      const std::uint8_t vw = aw[i];
      const std::uint8_t vb = ab[i];
      if (vw <= DthmCode::kMaxDthm) best_w_[k] = std::min(best_w_[k], static_cast<std::uint8_t>(vw + 1));
      if (vb <= DthmCode::kMaxDthm) best_b_[k] = std::min(best_b_[k], static_cast<std::uint8_t>(vb + 1));
    }
  }

  const InitCtx& c_;
  Color us_;
  int last_;
  Piece last_piece_;
  bool last_ours_;
  TableIndex::Squares sq_{};
  // Codes by square of the last man (kInvalid, kUnknown, or the best exit so far).
  std::array<std::uint8_t, 64> best_w_{};
  std::array<std::uint8_t, 64> best_b_{};
};

void InitRow::run(internal::RowCursor& cur, std::uint8_t* ow, std::uint8_t* ob, int& max_seed) {
  const internal::RowGeometry& geo = c_.geo;
  const TableIndex& idx = c_.idx;
  const int len = geo.row_len();
  const int base = geo.row_base();
  const Color them = ~us_;
  Bitboard occ = 0;
  if (!cur.valid(occ)) {
    std::memset(ow, kInvalid, static_cast<std::size_t>(len));
    std::memset(ob, kInvalid, static_cast<std::size_t>(len));
    return;
  }
  sq_ = cur.squares();
  const std::uint64_t row = cur.row();
  const auto slot = static_cast<int>(row / geo.rows_per_slot());
  const std::uint64_t first = row * static_cast<std::uint64_t>(len);
  Bitboard valid = geo.row_squares() & ~occ;
  if (geo.last_grouped()) valid &= ~((square_bb(sq_[static_cast<std::size_t>(last_ - 1)]) << 1) - 1);
  if (geo.slot_diag(slot)) {
    // Both kings on the a1-h8 diagonal: the larger of two mirror-image indices is broken. The
    // mirror's index is rowflip * 64 + flip(l) when the last man has no twin (encode() per entry
    // was 2% of the init pass on KRBvKR).
    TableIndex::Squares m = sq_;
    for (int j = 2; j < last_; ++j) m[static_cast<std::size_t>(j)] = flip_diagonal(sq_[static_cast<std::size_t>(j)]);
    geo.sort_rest_groups(m);
    const std::uint64_t mirror_first = geo.row_of(slot, m) * static_cast<std::uint64_t>(len);
    for (Bitboard b = valid; b;) {
      const Square l = pop_lsb(b);
      const std::uint64_t i = first + static_cast<std::uint64_t>(to_index(l) - base);
      TableIndex::Squares q = sq_;
      q[static_cast<std::size_t>(last_)] = l;
      const std::uint64_t canonical =
          geo.last_grouped()
              ? idx.encode(q)
              : std::min(i, mirror_first + static_cast<std::uint64_t>(to_index(flip_diagonal(l)) - base));
      assert(canonical == idx.encode(q));
      if (canonical != i) valid &= ~square_bb(l);
    }
  }
  const int ku = us_ == Color::White ? 0 : 1;
  const Square king = sq_[static_cast<std::size_t>(ku)];
  const Square their_king = sq_[static_cast<std::size_t>(1 - ku)];
  const Bitboard legal = valid & ~attacked_mask(their_king, us_, occ, -1, true);
  // Safe king moves (the king leaves its square, so sliders see through it).
  Bitboard ours = 0;
  std::array<int, 64> man_on{};  // slot of the man on a square (slots < last)
  for (int j = 0; j < last_; ++j) {
    const Square s = sq_[static_cast<std::size_t>(j)];
    man_on[static_cast<std::size_t>(to_index(s))] = j;
    if (color_of(geo.piece(j)) == us_) ours |= square_bb(s);
  }
  const Bitboard occ_nk = occ ^ square_bb(king);
  Bitboard safe = 0;
  for (Bitboard dests = king_attacks(king) & ~ours; dests;) {
    const Square e = pop_lsb(dests);
    const int skip = (occ & square_bb(e)) ? man_on[static_cast<std::size_t>(to_index(e))] : -1;
    Bitboard unsafe = attacked_mask(e, them, occ_nk, skip, true);
    if (last_ours_) unsafe |= square_bb(e);
    safe |= ~unsafe;
  }
  const Bitboard fast = legal & safe;
  Bitboard slow = legal & ~safe;
  const int up = us_ == Color::White ? 8 : -8;
  const Bitboard rank2 = us_ == Color::White ? rank_bb(1) : rank_bb(6);
  const Bitboard rank7 = us_ == Color::White ? rank_bb(6) : rank_bb(1);
  const Bitboard last_rank = us_ == Color::White ? rank_bb(7) : rank_bb(0);
  // Double pushes next to an enemy pawn (en passant): per entry.
  if (idx.material().count[them][PieceType::Pawn] > 0 && idx.material().count[us_][PieceType::Pawn] > 0) {
    Bitboard their_pawns = 0;
    for (int j = 2; j < last_; ++j)
      if (geo.piece(j) == make_piece(them, PieceType::Pawn)) their_pawns |= square_bb(sq_[static_cast<std::size_t>(j)]);
    const bool last_their_pawn = last_piece_ == make_piece(them, PieceType::Pawn);
    auto beside = [](Square t) { return king_attacks(t) & rank_bb(rank_index(t)); };
    for (int j = 2; j <= last_; ++j) {
      if (geo.piece(j) != make_piece(us_, PieceType::Pawn)) continue;
      if (j < last_) {
        const Square sp = sq_[static_cast<std::size_t>(j)];
        if (!(square_bb(sp) & rank2)) continue;
        const Square t2 = square_at(to_index(sp) + 2 * up);
        if ((their_pawns & beside(t2)) != 0) slow |= fast;
        if (last_their_pawn) slow |= fast & beside(t2);
      } else {
        for (Bitboard b = fast & rank2; b;) {
          const Square l = pop_lsb(b);
          if (their_pawns & beside(square_at(to_index(l) + 2 * up))) slow |= square_bb(l);
        }
      }
    }
  }
  best_w_.fill(kInvalid);
  best_b_.fill(kInvalid);
  for (Bitboard b = fast & ~slow; b;) {
    const auto k = static_cast<std::size_t>(to_index(pop_lsb(b)));
    best_w_[k] = best_b_[k] = kUnknown;
  }
  const Bitboard ex = fast & ~slow;
  const Exits& exits = c_.exits;
  // (A) a man of slots < last (king included) takes an enemy man of slots < last.
  for (int cj = 0; cj < last_; ++cj) {
    const Piece cp = geo.piece(cj);
    if (color_of(cp) != us_) continue;
    const PieceType ct = type_of(cp);
    const Square sc = sq_[static_cast<std::size_t>(cj)];
    for (int v = 2; v < last_; ++v) {
      if (color_of(geo.piece(v)) != them) continue;
      const Square sv = sq_[static_cast<std::size_t>(v)];
      if (!(man_attacks(us_, ct, sc, occ) & square_bb(sv))) continue;
      Bitboard mask = ex & ~internal::between(sc, sv);
      if (ct == PieceType::King) {
        mask &= ~attacked_mask(sv, them, occ_nk, v, true);
      } else {
        mask &= ~attacked_mask(king, them, occ ^ square_bb(sc), v, true);
      }
      const bool promo = ct == PieceType::Pawn && (square_bb(sv) & last_rank);
      TableIndex::Squares a = sq_;
      a[static_cast<std::size_t>(cj)] = sv;
      for (int x = 0; x < (promo ? 4 : 1); ++x) exits_along(mask, exits.map(v, promo ? cj : -1, x), a, last_);
    }
  }
  // (B) a man of slots < last takes the last man.
  if (!last_ours_) {
    for (int cj = 0; cj < last_; ++cj) {
      const Piece cp = geo.piece(cj);
      if (color_of(cp) != us_) continue;
      const PieceType ct = type_of(cp);
      const Square sc = sq_[static_cast<std::size_t>(cj)];
      Bitboard mask = ex & man_attacks(us_, ct, sc, occ);
      if (ct == PieceType::King) {
        Bitboard defended = 0;
        for (int j = 0; j < last_; ++j)
          if (color_of(geo.piece(j)) == them)
            defended |= man_attacks(them, type_of(geo.piece(j)), sq_[static_cast<std::size_t>(j)], occ_nk);
        mask &= ~defended;
      } else {
        mask &= ~attacked_mask(king, them, occ ^ square_bb(sc), -1, false);
      }
      const Bitboard promo_mask = ct == PieceType::Pawn ? last_rank : 0;
      const SubMap& sm = exits.map(last_, -1, 0);
      if (ct == PieceType::King) {  // the king pair changes along the row
        exits_on(mask, [&](TableIndex::Squares& a, auto&& relax) {
          a[static_cast<std::size_t>(cj)] = a[static_cast<std::size_t>(last_)];
          relax(sm, a);
        });
      } else {
        exits_along(mask & ~promo_mask, sm, sq_, cj);
        if (mask & promo_mask) {
          for (int x = 0; x < 4; ++x) exits_along(mask & promo_mask, exits.map(last_, cj, x), sq_, cj);
        }
      }
    }
  }
  // (C) the last man takes an enemy man of slots < last: the position after does not depend on
  // where the last man came from.
  if (last_ours_) {
    const PieceType lt = type_of(last_piece_);
    for (int v = 2; v < last_; ++v) {
      if (color_of(geo.piece(v)) != them) continue;
      const Square sv = sq_[static_cast<std::size_t>(v)];
      const Bitboard from = lt == PieceType::Pawn ? pawn_attacks(them, sv) : internal::attacks_of(lt, sv, occ);
      const Bitboard mask = ex & from;
      if (!mask) continue;
      TableIndex::Squares a = sq_;
      a[static_cast<std::size_t>(last_)] = sv;
      if (attacked(a, king, them, occ, v)) continue;
      const bool promo = lt == PieceType::Pawn && (square_bb(sv) & last_rank);
      for (int x = 0; x < (promo ? 4 : 1); ++x) {
        const SubMap& sm = exits.map(v, promo ? last_ : -1, x);
        std::uint8_t bw = kUnknown;
        std::uint8_t bb = kUnknown;
        Exits::relax(sm, a, geo.men(), us_, bw, bb);
        for (Bitboard b = mask; b;) {
          const auto k = static_cast<std::size_t>(to_index(pop_lsb(b)));
          best_w_[k] = std::min(best_w_[k], bw);
          best_b_[k] = std::min(best_b_[k], bb);
        }
      }
    }
  }
  // (D) promotions by a push.
  for (int pj = 2; pj <= last_; ++pj) {
    if (geo.piece(pj) != make_piece(us_, PieceType::Pawn)) continue;
    if (pj < last_) {
      const Square sp = sq_[static_cast<std::size_t>(pj)];
      if (!(square_bb(sp) & rank7)) continue;
      const Square dest = square_at(to_index(sp) + up);
      if (occ & square_bb(dest)) continue;
      const Bitboard mask =
          ex & ~square_bb(dest) & ~attacked_mask(king, them, occ ^ square_bb(sp) ^ square_bb(dest), -1, true);
      TableIndex::Squares a = sq_;
      a[static_cast<std::size_t>(pj)] = dest;
      for (int x = 0; x < 4; ++x) exits_along(mask, exits.map(-1, pj, x), a, last_);
    } else {
      for (Bitboard b = ex & rank7; b;) {
        const Square l = pop_lsb(b);
        const Square dest = square_at(to_index(l) + up);
        if (occ & square_bb(dest)) continue;
        TableIndex::Squares a = sq_;
        a[static_cast<std::size_t>(last_)] = dest;
        if (attacked(a, king, them, occ | square_bb(dest), -1)) continue;
        const auto k = static_cast<std::size_t>(to_index(l));
        for (int x = 0; x < 4; ++x) Exits::relax(exits.map(-1, last_, x), a, geo.men(), us_, best_w_[k], best_b_[k]);
      }
    }
  }

  // Write the row: the codes by square (kInvalid where not legal), then the per-entry entries.
  std::memcpy(ow, best_w_.data() + base, static_cast<std::size_t>(len));
  std::memcpy(ob, best_b_.data() + base, static_cast<std::size_t>(len));
  std::uint8_t seed = 0;
  for (std::size_t k = 0; k < 64; ++k) {
    if (best_w_[k] <= DthmCode::kMaxDthm) seed = std::max(seed, best_w_[k]);
    if (best_b_[k] <= DthmCode::kMaxDthm) seed = std::max(seed, best_b_[k]);
  }
  max_seed = std::max<int>(max_seed, seed);
  for (Bitboard b = slow; b;) {
    const Square l = pop_lsb(b);
    const auto k = static_cast<std::size_t>(to_index(l) - base);
    TableIndex::Squares q = sq_;
    q[static_cast<std::size_t>(last_)] = l;
    init_entry(idx, c_.subtables, q, us_, ow[k], ob[k]);
    for (const std::uint8_t v : {ow[k], ob[k]})
      if (v <= DthmCode::kMaxDthm) max_seed = std::max<int>(max_seed, v);
  }
#ifndef NDEBUG
  for (Bitboard b = valid; b;) {
    const Square l = pop_lsb(b);
    const auto k = static_cast<std::size_t>(to_index(l) - base);
    TableIndex::Squares q = sq_;
    q[static_cast<std::size_t>(last_)] = l;
    std::uint8_t ew;
    std::uint8_t eb;
    init_entry(idx, c_.subtables, q, us_, ew, eb);
    assert(ew == ow[k] && eb == ob[k]);
  }
#endif
}

// ---------------------------------------------------------------------------------------------
// Phase 2 (solve). Every level d runs, for each side s to move in the expanded positions P
// (the frontier: value d), with one 64-bit mask per row and target of the frontier entries:
//  B. pull (the bulk, thread-owned rows, plain stores): for every row of predecessors Q (side ~s
//     to move) with entries still open (value > d + 1), the frontier masks of the rows the
//     mover's quiet moves lead to are brought back into Q's frame and OR-ed; open entries of the
//     result get d + 1. A move of a man other than the last changes the row, not the bit: one
//     mask operation handles the move for all 64 squares of the last man. A king move goes to
//     another slot through the symmetry that makes the new pair canonical (bitboard images of
//     the symmetries). With both kings of P on the a1-h8 diagonal, P has two raw images (itself
//     and its mirror in the diagonal); the non-canonical one is a broken entry, never in the
//     frontier, so OR-ing the masks of both images gives the canonical one's bit.
//     When the last man has one identical twin, P's twins may come in either order along the
//     row; transposed masks give the other order (Level::t).
//     The same pass writes the frontier masks of side ~s for level d + 1 (the row is loaded
//     anyway), so levels need no separate scan.
//  C. push (the special cases, per entry, atomic stores): the edges the pull leaves out are
//     generated from P by un-moves as before (design.md, "Solver"): double pushes into a
//     checkmate (en passant, d = 0) and, when the last man has two or more identical twins,
//     moves of that kind, king moves that need a symmetry, and all edges of P with both kings
//     on the diagonal (the order of the twins may change per entry).
// The edges of B and C together are exactly the un-moves of the previous per-entry solver
// (asserted level by level in debug builds: every update has an edge to level d, and every
// predecessor of every level-d position ends at most at d + 1), so the values are the same.
// Measured on KRBvKR, 2 threads: solve 75 s -> 12.5 s (the per-entry push decoded every expanded
// position and relaxed ~25 predecessors one random byte at a time).

// Masks of the row bytes (len 64 or 48 at p): == v, and open for value v (> v, neither kNone
// nor kInvalid). Bit k is byte k (the caller shifts by the row base).
#if defined(__SSE2__)
inline std::uint64_t bytes_equal(const std::uint8_t* p, int len, std::uint8_t v) {
  const __m128i x = _mm_set1_epi8(static_cast<char>(v));
  std::uint64_t m = 0;
  for (int k = 0; k < len; k += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    m |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, x)))) << k;
  }
  return m;
}
inline void row_masks(const std::uint8_t* p, int len, std::uint8_t v, std::uint64_t& eq, std::uint64_t& open) {
  const __m128i x = _mm_set1_epi8(static_cast<char>(v));
  const __m128i above = _mm_set1_epi8(static_cast<char>(v + 1));
  const __m128i none = _mm_set1_epi8(static_cast<char>(kNone));
  const __m128i invalid = _mm_set1_epi8(static_cast<char>(kInvalid));
  eq = open = 0;
  for (int k = 0; k < len; k += 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + k));
    const __m128i ge = _mm_cmpeq_epi8(_mm_max_epu8(b, above), b);
    const __m128i special = _mm_or_si128(_mm_cmpeq_epi8(b, none), _mm_cmpeq_epi8(b, invalid));
    open |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_andnot_si128(special, ge))))
            << k;
    eq |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(b, x)))) << k;
  }
}
#else
inline std::uint64_t bytes_equal(const std::uint8_t* p, int len, std::uint8_t v) {
  std::uint64_t m = 0;
  for (int k = 0; k < len; ++k) m |= static_cast<std::uint64_t>(p[k] == v) << k;
  return m;
}
inline void row_masks(const std::uint8_t* p, int len, std::uint8_t v, std::uint64_t& eq, std::uint64_t& open) {
  eq = open = 0;
  for (int k = 0; k < len; ++k) {
    eq |= static_cast<std::uint64_t>(p[k] == v) << k;
    open |= static_cast<std::uint64_t>(p[k] > v && p[k] != kNone && p[k] != kInvalid) << k;
  }
}
#endif

// Frontier masks of one side for one level: f[2 * row] (DTHM of White == d), f[2 * row + 1]
// (DTHM of Black == d), and what the termination test needs.
//
struct Frontier {
  std::vector<std::uint64_t> f;
  std::uint64_t entries = 0;  // entries with value d for either target
  bool any_w = false;
  bool any_b = false;
};

// One level d for one side s to move in P (the expanded positions).
struct Level {
  const TableIndex& idx;
  const internal::RowGeometry& geo;
  int d;
  Color s;
  const std::uint8_t* cw;  // side s arrays (P)
  const std::uint8_t* cb;
  std::uint8_t* pw;  // side ~s arrays (Q)
  std::uint8_t* pb;
  const Frontier* f = nullptr;  // side s, level d
  // When the last man has one twin (slot a = last - 1, fields in increasing square order), the
  // canonical entry of a placement with the twins on x < y is bit y of row (a = x). Where a pull
  // meets the twins in the other order, it reads bit x of row (a = y) "transposed": t holds, at
  // row (a = y), the mask of the x with bit y set in row (a = x) (64x64 bit transposes of the
  // rows that differ only in field a, which are consecutive). Same layout as f.
  const std::uint64_t* t = nullptr;
  Frontier* f_next = nullptr;  // side ~s, level d + 1 (written by the pull, patched by the push)

  Color mover() const { return ~s; }
  std::uint8_t next() const { return static_cast<std::uint8_t>(d + 1); }
  // Edges that the pull leaves to phase C: those of a last man with two or more twins (their
  // order may change per entry).
  bool pulled_twins() const { return !geo.last_grouped() || geo.last_pair(); }
  bool diag_in_pull() const { return pulled_twins(); }
};

// Lowers a predecessor's value to v; true if it stored. Predecessors are legal, non-terminal
// positions, so their entry is never kInvalid or kNone (asserted; skipped in release builds).
bool store_min(std::uint8_t& slot, std::uint8_t v) {
  std::atomic_ref<std::uint8_t> r(slot);
  // Within one level every writer stores the same value v, so check-then-store cannot lose a
  // smaller value; atomic_ref makes the concurrent access well-defined.
  const std::uint8_t cur = r.load(std::memory_order_relaxed);
  assert(cur != kInvalid && cur != kNone);
  if (cur > v && cur != kInvalid && cur != kNone) {
    r.store(v, std::memory_order_relaxed);
    return true;
  }
  return false;
}

// Adds entry qi of target x (0 White, 1 Black) to the next frontier (phase C; atomic).
void mark_next(const Level& l, std::uint64_t qi, int x) {
  if (!l.f_next) return;
  const auto len = static_cast<std::uint64_t>(l.geo.row_len());
  const std::uint64_t row = qi / len;
  const std::uint64_t bit = std::uint64_t{1} << (qi % len + static_cast<std::uint64_t>(l.geo.row_base()));
  std::atomic_ref<std::uint64_t>(l.f_next->f[2 * row + static_cast<std::uint64_t>(x)])
      .fetch_or(bit, std::memory_order_relaxed);
}

// Old-style un-move expansion of entry i (squares sq, canonical) of side l.s at level l.d.
// Mode kAll pushes every predecessor; kSpecial only the edges the pull of phase B leaves out;
// kCheck (debug builds) asserts that every predecessor is already at most d + 1. Returns the
// number of entries stored.
enum class PushMode { kAll, kSpecial, kCheck };

std::uint64_t push_entry(const Level& l, std::uint64_t i, const TableIndex::Squares& sq, bool ew, bool eb,
                         PushMode mode) {
  std::uint64_t stored = 0;
  const TableIndex& idx = l.idx;
  const internal::RowGeometry& geo = l.geo;
  const Color s = l.s;
  const Color mover = l.mover();
  const int up = mover == Color::White ? 8 : -8;
  const std::uint8_t next = l.next();
  Bitboard occ = 0;
  for (int j = 0; j < idx.men(); ++j) occ |= square_bb(sq[static_cast<std::size_t>(j)]);
  const Square king = sq[s == Color::White ? 0 : 1];  // king of the side to move in P
  // With both kings on the a1-h8 diagonal the canonical symmetry of Q depends on the other
  // men, so every un-move needs a full encode there.
  const bool diag_kings =
      !idx.has_pawns() && file_index(sq[0]) == rank_index(sq[0]) && file_index(sq[1]) == rank_index(sq[1]);
  for (int j = 0; j < idx.men(); ++j) {
    const Piece p = geo.piece(j);
    if (color_of(p) != mover) continue;
    const Square to = sq[static_cast<std::size_t>(j)];
    const PieceType pt = type_of(p);
    Bitboard from_set;
    Bitboard double_from = 0;
    if (pt == PieceType::Pawn) {
      from_set = 0;
      const int rr = relative_rank(mover, to);
      const Square one = square_at(to_index(to) - up);
      if (rr >= 2 && !(occ & square_bb(one))) {
        from_set |= square_bb(one);
        if (rr == 3) {
          const Square two = square_at(to_index(to) - 2 * up);
          if (!(occ & square_bb(two))) double_from = square_bb(two);
        }
      }
      from_set |= double_from;
    } else if (pt == PieceType::King) {
      from_set = king_attacks(to) & ~occ;
    } else {
      from_set = internal::attacks_of(pt, to, occ) & ~occ;
    }
    if (!from_set) continue;
    // Legality of the predecessor Q (man j back on `from`): the side to move in P is not to
    // move in Q, so it must not be in check there.
    //  (a) the man itself must not attack the king from `from` (its old square `to` is empty in
    //      Q; `from` never blocks its own line);
    const Bitboard occ_wo = occ ^ square_bb(to);
    switch (pt) {
      case PieceType::Pawn: from_set &= ~pawn_attacks(s, king); break;
      case PieceType::Knight: from_set &= ~knight_attacks(king); break;
      case PieceType::Bishop: from_set &= ~bishop_attacks(king, occ_wo); break;
      case PieceType::Rook: from_set &= ~rook_attacks(king, occ_wo); break;
      case PieceType::Queen: from_set &= ~queen_attacks(king, occ_wo); break;
      case PieceType::King: from_set &= ~king_attacks(king); break;
    }
    //  (b) another slider of the mover whose line to the king is open once `to` is empty must
    //      be blocked by the man on `from`; another pawn or knight of the mover giving check in
    //      P makes every un-move of man j illegal.
    for (int k = 0; k < idx.men(); ++k) {
      const Piece pk = geo.piece(k);
      if (k == j || color_of(pk) != mover) continue;
      const PieceType tk = type_of(pk);
      const Square sk = sq[static_cast<std::size_t>(k)];
      if (tk == PieceType::Pawn || tk == PieceType::Knight) {
        // A pawn or knight checking the king in P still checks it in Q.
        if ((tk == PieceType::Pawn ? pawn_attacks(mover, sk) : knight_attacks(sk)) & square_bb(king)) from_set = 0;
        continue;
      }
      if (tk == PieceType::King) continue;
      if (!(internal::attacks_of(tk, sk, 0) & square_bb(king))) continue;
      const Bitboard line = internal::between(sk, king);
      if (!(line & occ_wo)) from_set &= line;
    }
    while (from_set) {
      const Square from = pop_lsb(from_set);
      TableIndex::Squares q = sq;
      q[static_cast<std::size_t>(j)] = from;
      assert(!men_attack(idx, q, mover, king, occ_wo | square_bb(from)));
      const bool double_push = (double_from & square_bb(from)) != 0;
      if (mode == PushMode::kSpecial && !(diag_kings && !l.diag_in_pull()) && !(double_push && l.d == 0)) {
        // Phase B covers this edge unless the last man's twin order may change (section C).
        if (l.pulled_twins()) continue;
        if (pt == PieceType::King) {
          // With Q's kings on the diagonal, Q's canonical frame may be the mirror image of q.
          const internal::KingPair& kq = geo.king_pair(q[0], q[1]);
          if (kq.g == 0 && !kq.diag) continue;
        } else if (p != geo.piece(geo.last())) {
          continue;
        }
      }
      if (l.d == 0 && double_push) {
        // P is a checkmate reached by a double push: with its en passant right it may not be
        // mate (section "En passant" of docs/design.md). The edge's exact value was seeded in
        // init; skip it here when an en passant capture exists.
        std::array<Piece, kMaxTableMen> pcs{};
        for (int k = 0; k < idx.men(); ++k) pcs[static_cast<std::size_t>(k)] = geo.piece(k);
        const Position pe = Position::from_men(pcs.data(), sq.data(), idx.men(), s, square_at(to_index(to) - up));
        if (has_ep_capture(pe)) continue;
      }
      // Fast path: P is canonical, so moving a man that is alone of its kind changes only its
      // own field (kings fixed, so the symmetry stays the identity): the index moves by
      // (from - to) * stride.
      const std::uint64_t qi = (pt != PieceType::King && !geo.grouped(j) && !diag_kings)
                                   ? i + static_cast<std::uint64_t>(to_index(from) - to_index(to)) * idx.stride(j)
                                   : idx.encode(q);
      assert(qi == idx.encode(q));
      if (mode == PushMode::kCheck) {
        (void)qi;
        assert(!ew || l.pw[qi] <= next);
        assert(!eb || l.pb[qi] <= next);
        continue;
      }
      if (ew && store_min(l.pw[qi], next)) {
        mark_next(l, qi, 0);
        ++stored;
      }
      if (eb && store_min(l.pb[qi], next)) {
        mark_next(l, qi, 1);
        ++stored;
      }
    }
  }
  return stored;
}

#ifndef NDEBUG
// Debug: Q (squares q, the mover to move) has a quiet move into an entry of side s with
// DTHM_x == d (x = White if white_target), by forward legal move generation and encode().
bool has_edge_to_level(const Level& l, const TableIndex::Squares& q, bool white_target) {
  std::array<Piece, kMaxTableMen> pcs{};
  for (int k = 0; k < l.idx.men(); ++k) pcs[static_cast<std::size_t>(k)] = l.geo.piece(k);
  const Position pos = Position::from_men(pcs.data(), q.data(), l.idx.men(), l.mover());
  for (Move m : pos.legal_moves()) {
    if (is_capture_or_promotion(pos, m)) continue;
    const Position after = pos.after(m);
    if (l.d == 0 && is_double_push(pos, m) && has_ep_capture(after)) continue;
    const std::uint64_t pi = l.idx.encode(l.idx.squares_of(after));
    if ((white_target ? l.cw : l.cb)[pi] == l.d) return true;
  }
  return false;
}
#endif

// Transposes a 64x64 bit matrix: bit j of word i <-> bit i of word j.
inline void transpose64(std::array<std::uint64_t, 64>& a) {
  std::uint64_t m = 0x00000000FFFFFFFFULL;
  for (int j = 32; j != 0; j >>= 1, m ^= (m << j)) {
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const std::uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}

// The transposed masks of a twin table's frontier (Level::t).
void transpose_frontier(const internal::RowGeometry& geo, const Frontier& fr, std::vector<std::uint64_t>& out) {
  const int a = geo.last() - 1;
  const int base = geo.field_base(a);
  const int range = geo.field_range(a);
  const auto groups = static_cast<std::int64_t>(geo.rows() / static_cast<std::uint64_t>(range));
  const std::uint64_t* f = fr.f.data();
  std::uint64_t* t = out.data();
#pragma omp parallel for schedule(static, 256)
  for (std::int64_t g = 0; g < groups; ++g) {
    const std::uint64_t r0 = static_cast<std::uint64_t>(g) * static_cast<std::uint64_t>(range);
    for (std::uint64_t x = 0; x < 2; ++x) {
      std::array<std::uint64_t, 64> m{};
      for (int k = 0; k < range; ++k)
        m[static_cast<std::size_t>(k + base)] = f[2 * (r0 + static_cast<std::uint64_t>(k)) + x];
      transpose64(m);
      for (int k = 0; k < range; ++k)
        t[2 * (r0 + static_cast<std::uint64_t>(k)) + x] = m[static_cast<std::size_t>(k + base)];
    }
  }
}

// Frontier masks of side s (arrays cw, cb) at level d by a scan of every row: level 0, and a
// level whose pull was skipped (no frontier on the other side).
void scan_frontier(const internal::RowGeometry& geo, const std::uint8_t* cw, const std::uint8_t* cb, int d,
                   Frontier& out) {
  const int len = geo.row_len();
  const int base = geo.row_base();
  const auto v = static_cast<std::uint8_t>(d);
  const auto rows = static_cast<std::int64_t>(geo.rows());
  std::uint64_t entries = 0;
  std::uint64_t any_w = 0;
  std::uint64_t any_b = 0;
  std::uint64_t* f = out.f.data();
#pragma omp parallel for schedule(static, 4096) reduction(+ : entries) reduction(| : any_w, any_b)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::uint64_t off = static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(len);
    const std::uint64_t w = bytes_equal(cw + off, len, v) << base;
    const std::uint64_t b = bytes_equal(cb + off, len, v) << base;
    f[2 * r] = w;
    f[2 * r + 1] = b;
    any_w |= w;
    any_b |= b;
    entries += static_cast<std::uint64_t>(std::popcount(w | b));
  }
  out.entries = entries;
  out.any_w = any_w != 0;
  out.any_b = any_b != 0;
}

struct PullCount {
  std::uint64_t entries = 0;
  bool any_w = false;
  bool any_b = false;
};

// Phase B for the rows of one kk slot (the calling thread owns them and their words of the next
// frontier). Returns the count of the next frontier in these rows.
PullCount pull_slot(const Level& l, int slot) {
  const internal::RowGeometry& geo = l.geo;
  const std::uint64_t rps = geo.rows_per_slot();
  const std::uint64_t first = static_cast<std::uint64_t>(slot) * rps;
  std::uint64_t* fn = l.f_next->f.data();
  PullCount out;
  if (geo.slot_broken(slot)) {
    std::fill(fn + 2 * first, fn + 2 * (first + rps), std::uint64_t{0});
    return out;
  }
  const std::uint64_t* f = l.f->f.data();
  const std::uint64_t* tr = l.t;
  const bool pair = geo.last_pair();
  const auto ta = static_cast<std::size_t>(geo.last() - 1);  // the last man's twin, if pair
  const Color mover = l.mover();
  const int last = geo.last();
  const int len = geo.row_len();
  const int base = geo.row_base();
  const bool diag = geo.slot_diag(slot);
  const bool diag_pull = l.diag_in_pull();
  const bool last_mine = color_of(geo.piece(last)) == mover;
  const PieceType last_type = type_of(geo.piece(last));
  const int up = mover == Color::White ? 8 : -8;
  const Bitboard rank2 = mover == Color::White ? rank_bb(1) : rank_bb(6);
  const Bitboard rank4 = mover == Color::White ? rank_bb(3) : rank_bb(4);
  const Bitboard promo_rank = mover == Color::White ? rank_bb(7) : rank_bb(0);
  const std::uint8_t next = l.next();
  // The mover's king moves from this slot, with the slot and symmetry of the new pair.
  struct KingMove {
    Square t;
    internal::KingPair kp;
  };
  std::array<KingMove, 8> kmoves{};
  int nk = 0;
  {
    const Square kf = geo.slot_king(slot, mover);
    const Square ko = geo.slot_king(slot, ~mover);
    for (Bitboard b = king_attacks(kf) & ~king_attacks(ko); b;) {
      const Square t = pop_lsb(b);
      const internal::KingPair& kp = mover == Color::White ? geo.king_pair(t, ko) : geo.king_pair(ko, t);
      if (kp.diag && !diag_pull) continue;           // phase C
      if (kp.g != 0 && !l.pulled_twins()) continue;  // phase C
      kmoves[static_cast<std::size_t>(nk++)] = {t, kp};
    }
  }
  internal::RowCursor cur(geo, slot);
  for (std::uint64_t row = first; row < first + rps; ++row, cur.next()) {
    std::uint64_t* fr = fn + 2 * row;
    Bitboard occ_rest = 0;
    if (!cur.valid(occ_rest)) {
      fr[0] = fr[1] = 0;
      continue;
    }
    const TableIndex::Squares& sq = cur.squares();
    const std::uint64_t off = row * static_cast<std::uint64_t>(len);
    std::uint64_t eq_w;
    std::uint64_t eq_b;
    std::uint64_t open_w;
    std::uint64_t open_b;
    row_masks(l.pw + off, len, next, eq_w, open_w);
    row_masks(l.pb + off, len, next, eq_b, open_b);
    eq_w <<= base;
    eq_b <<= base;
    open_w = l.f->any_w ? open_w << base : 0;
    open_b = l.f->any_b ? open_b << base : 0;
    if (open_w | open_b) {
      std::uint64_t cw = 0;
      std::uint64_t cb = 0;
      // P's image with squares a (slots < last, canonical king pair pslot), seen from Q's frame
      // through g (bit l of Q is bit g(l) of the image); keep: Q's entries the move allows.
      // With `mirrored`, the image is the mirror in the diagonal of g's image.
      auto pull_image = [&](int pslot, int g, bool mirrored, TableIndex::Squares& a, Bitboard keep) {
        geo.sort_rest_groups(a);
        const std::uint64_t src = geo.row_of(pslot, a);
        std::uint64_t mw = f[2 * src];
        std::uint64_t mb = f[2 * src + 1];
        if (pair) {
          // The last man below its twin (on a[ta]): the transposed masks (Frontier::t).
          const Bitboard below = square_bb(a[ta]) - 1;
          mw = (mw & ~below) | (tr[2 * src] & below);
          mb = (mb & ~below) | (tr[2 * src + 1] & below);
        }
        if (mirrored) {
          mw = internal::mirror_diagonal(mw);
          mb = internal::mirror_diagonal(mb);
        }
        cw |= internal::symmetry_preimage(g, mw) & keep;
        cb |= internal::symmetry_preimage(g, mb) & keep;
      };
      // Both images of P when its kings are on the diagonal (pdiag), else the one.
      auto pull_p = [&](int pslot, int g, const TableIndex::Squares& ts, bool pdiag, Bitboard keep) {
        TableIndex::Squares a = ts;
        for (int j = 2; j < last; ++j)
          a[static_cast<std::size_t>(j)] = apply_symmetry(g, ts[static_cast<std::size_t>(j)]);
        pull_image(pslot, g, false, a, keep);
        if (!pdiag) return;
        for (int j = 2; j < last; ++j) {
          a[static_cast<std::size_t>(j)] = flip_diagonal(apply_symmetry(g, ts[static_cast<std::size_t>(j)]));
        }
        pull_image(pslot, g, true, a, keep);
      };
      // Candidates, move by move; stops once every open entry is one (in the middle levels most
      // rows are covered by the first men's moves).
      auto covered = [&] { return (cw & open_w) == open_w && (cb & open_b) == open_b; };
      [&] {
        for (int k = 0; k < nk; ++k) {
          const KingMove& km = kmoves[static_cast<std::size_t>(k)];
          if (occ_rest & square_bb(km.t)) continue;
          if (km.kp.g == 0 && !km.kp.diag) {
            const std::uint64_t src = static_cast<std::uint64_t>(km.kp.slot) * rps + (row - first);
            cw |= f[2 * src];
            cb |= f[2 * src + 1];
          } else {
            pull_p(km.kp.slot, km.kp.g, sq, km.kp.diag, ~Bitboard{0});
          }
        }
        if (covered()) return;
        if (!diag || diag_pull) {
          // Men other than the kings and the last man: the row changes, the bit does not. The
          // last man must not stand on the path (between f and t).
          auto pull_move = [&](int j, Square t, Bitboard keep) {
            if (!diag && !geo.in_rest_group(j) && !(pair && j == static_cast<int>(ta))) {
              const std::uint64_t src =
                  row + static_cast<std::uint64_t>(to_index(t) - to_index(sq[static_cast<std::size_t>(j)])) *
                            geo.row_stride(j);
              cw |= f[2 * src] & keep;
              cb |= f[2 * src + 1] & keep;
              return;
            }
            TableIndex::Squares ts = sq;
            ts[static_cast<std::size_t>(j)] = t;
            pull_p(slot, 0, ts, diag, keep);
          };
          for (int j = 2; j < last; ++j) {
            const Piece p = geo.piece(j);
            if (color_of(p) != mover) continue;
            if (!l.pulled_twins() && p == geo.piece(last)) continue;  // phase C
            const Square fs = sq[static_cast<std::size_t>(j)];
            const PieceType pt = type_of(p);
            if (pt == PieceType::Pawn) {
              const Square t = square_at(to_index(fs) + up);
              if ((occ_rest | promo_rank) & square_bb(t)) continue;
              pull_move(j, t, ~Bitboard{0});
              if (l.d != 0 && (square_bb(fs) & rank2)) {  // double pushes at d = 0: phase C
                const Square t2 = square_at(to_index(t) + up);
                if (!(occ_rest & square_bb(t2))) pull_move(j, t2, ~square_bb(t));
              }
              continue;
            }
            for (Bitboard targets = internal::attacks_of(pt, fs, occ_rest) & ~occ_rest; targets;) {
              const Square t = pop_lsb(targets);
              pull_move(j, t, ~internal::between(fs, t));
            }
            if (covered()) return;
          }
          // The last man: the row stays, the bit moves. Piece moves are symmetric (f reaches t iff
          // t reaches f with the same other men), so the sources' bits are dilated by the moves.
          if (last_mine && l.pulled_twins()) {
            // The sources' bits: P with the last man moved to t, canonical (both images on the
            // diagonal; the twins in either order).
            std::uint64_t fw = 0;
            std::uint64_t fb = 0;
            auto add_image = [&](TableIndex::Squares& a, bool mirrored) {
              geo.sort_rest_groups(a);
              const std::uint64_t src = geo.row_of(slot, a);
              std::uint64_t mw = f[2 * src];
              std::uint64_t mb = f[2 * src + 1];
              if (pair) {
                const Bitboard below = square_bb(a[ta]) - 1;
                mw = (mw & ~below) | (tr[2 * src] & below);
                mb = (mb & ~below) | (tr[2 * src + 1] & below);
              }
              fw |= mirrored ? internal::mirror_diagonal(mw) : mw;
              fb |= mirrored ? internal::mirror_diagonal(mb) : mb;
            };
            if (!pair) {
              fw = f[2 * row];
              fb = f[2 * row + 1];
            } else {
              TableIndex::Squares a = sq;
              add_image(a, false);
            }
            if (diag) {
              TableIndex::Squares a = sq;
              for (int j = 2; j < last; ++j)
                a[static_cast<std::size_t>(j)] = flip_diagonal(sq[static_cast<std::size_t>(j)]);
              add_image(a, true);
            }
            if (last_type == PieceType::Pawn) {
              // Single push f -> f + up (f on ranks 2-7); double push from the second rank.
              const Bitboard ok = geo.row_squares() & ~occ_rest;
              const Bitboard mid_free = mover == Color::White ? ~(occ_rest >> 8) : ~(occ_rest << 8);
              auto back = [&](std::uint64_t m) {
                Bitboard r = mover == Color::White ? m >> 8 : m << 8;
                if (l.d != 0) r |= (mover == Color::White ? (m & rank4) >> 16 : (m & rank4) << 16) & mid_free;
                return r & ok;
              };
              cw |= back(fw);
              cb |= back(fb);
            } else {
              auto dilate = [&](std::uint64_t m) {
                Bitboard r = 0;
                while (m) r |= internal::attacks_of(last_type, pop_lsb(m), occ_rest);
                return r & ~occ_rest;
              };
              cw |= dilate(fw);
              cb |= dilate(fb);
            }
          }
        }
      }();
      const std::uint64_t upd_w = cw & open_w;
      const std::uint64_t upd_b = cb & open_b;
      for (int x = 0; x < 2; ++x) {
        std::uint64_t upd = (x == 0 ? upd_w : upd_b) >> base;
        std::uint8_t* q = (x == 0 ? l.pw : l.pb) + off;
        while (upd) {
          const int k = std::countr_zero(upd);
          upd &= upd - 1;
#ifndef NDEBUG
          TableIndex::Squares qs = sq;
          qs[static_cast<std::size_t>(last)] = square_at(k + base);
          assert(has_edge_to_level(l, qs, x == 0));
#endif
          q[k] = next;
        }
      }
      eq_w |= upd_w;
      eq_b |= upd_b;
    }
    fr[0] = eq_w;
    fr[1] = eq_b;
    out.entries += static_cast<std::uint64_t>(std::popcount(eq_w | eq_b));
    out.any_w |= eq_w != 0;
    out.any_b |= eq_b != 0;
  }
  return out;
}

// Phase C over the entries of one kk slot (atomic stores; runs after phase B). Returns the
// number of entries stored.
std::uint64_t push_slot(const Level& l, int slot, PushMode mode) {
  const std::uint64_t s0 = l.idx.stride(0);
  const auto d = static_cast<std::uint8_t>(l.d);
  std::uint64_t stored = 0;
  TableIndex::Squares sq{};
  for (std::uint64_t i = static_cast<std::uint64_t>(slot) * s0; i < static_cast<std::uint64_t>(slot + 1) * s0; ++i) {
    const bool ew = l.cw[i] == d;
    const bool eb = l.cb[i] == d;
    if (!(ew || eb)) continue;
    const bool ok = l.idx.decode(i, sq);
    assert(ok);
    (void)ok;
    stored += push_entry(l, i, sq, ew, eb, mode);
  }
  return stored;
}

}  // namespace

Result<LoadedTable> solve(const Material& m, const TableSet& subtables, const ProgressFn& progress) {
  auto index_r = TableIndex::make(m);
  if (!index_r) return index_r.error();
  LoadedTable out;
  out.index = *index_r;
  const TableIndex& idx = out.index;
  const std::uint64_t n = idx.size();
  for (auto& a : out.arrays) {
    try {
      a.assign(n, kUnknown);
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::OutOfMemory, m.key() + ": cannot allocate " + std::to_string(n * 4) + " bytes");
    }
  }
  for (const Material& s : m.successors()) {
    if (!subtables.find(s))
      return make_error(ErrorCode::MissingTable, "subtable " + s.key() + " of " + m.key() + " is not loaded");
  }
  const std::string key = m.key();
  auto report = [&](const char* phase, double f) {
    if (progress) progress(Progress{key, phase, f});
  };

  // Phase 1: init (see "Phase 1 (init)" above).
  const internal::RowGeometry geo(idx);
  const Exits exits(idx, subtables);
  const InitCtx ictx{idx, geo, subtables, exits};
  std::atomic<std::uint64_t> done{0};
  int max_seed = 0;
  for (Color stm : {Color::White, Color::Black}) {
    std::uint8_t* to_w = out.arrays[static_cast<std::size_t>(array_of(stm, Color::White))].data();
    std::uint8_t* to_b = out.arrays[static_cast<std::size_t>(array_of(stm, Color::Black))].data();
    if (!geo.has_rows()) {  // KvK
      TableIndex::Squares sq{};
      for (std::uint64_t i = 0; i < n; ++i) {
        if (!idx.decode(i, sq)) {
          to_w[i] = to_b[i] = kInvalid;
          continue;
        }
        init_entry(idx, subtables, sq, stm, to_w[i], to_b[i]);
      }
      continue;
    }
    const auto len = static_cast<std::uint64_t>(geo.row_len());
#pragma omp parallel for schedule(dynamic, 1) reduction(max : max_seed)
    for (int slot = 0; slot < geo.slots(); ++slot) {
      InitRow r(ictx, stm);
      internal::RowCursor cur(geo, slot);
      for (std::uint64_t k = 0; k < geo.rows_per_slot(); ++k, cur.next()) {
        r.run(cur, to_w + cur.row() * len, to_b + cur.row() * len, max_seed);
      }
      const std::uint64_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (omp_get_thread_num() == 0 && (d & 15) == 0) {
        report("init", static_cast<double>(d) / static_cast<double>(2 * geo.slots()));
      }
    }
  }
  report("init", 1.0);

  // Phase 2: level-by-level expansion (see "Phase 2 (solve)" above). frontier[s][d & 1]: the
  // frontier of side s at level d (written during level d - 1 by the other side's pull).
  std::array<std::array<Frontier, 2>, 2> frontier;
  std::vector<std::uint64_t> twins;  // Level::t
  auto arrays_of = [&](Color s, Color x) { return out.arrays[static_cast<std::size_t>(array_of(s, x))].data(); };
  if (geo.has_rows()) {
    try {
      for (auto& fs : frontier)
        for (Frontier& fr : fs) fr.f.resize(2 * geo.rows());
      if (geo.last_pair()) twins.resize(2 * geo.rows());
    } catch (const std::bad_alloc&) {
      return make_error(ErrorCode::OutOfMemory, m.key() + ": cannot allocate the frontier masks");
    }
    for (Color s : {Color::White, Color::Black})
      scan_frontier(geo, arrays_of(s, Color::White), arrays_of(s, Color::Black), 0,
                    frontier[static_cast<std::size_t>(to_index(s))][0]);
  }
  bool finished = false;  // a level with nothing to expand was reached
  for (int d = 0; d < DthmCode::kMaxDthm; ++d) {
    const auto cur = static_cast<std::size_t>(d & 1);
    const auto nxt = cur ^ 1;
    std::uint64_t expanded = 0;
    for (Color s : {Color::White, Color::Black}) {
      Level l{idx,
              geo,
              d,
              s,
              arrays_of(s, Color::White),
              arrays_of(s, Color::Black),
              arrays_of(~s, Color::White),
              arrays_of(~s, Color::Black)};
      if (geo.has_rows()) {
        l.f = &frontier[static_cast<std::size_t>(to_index(s))][cur];
        l.f_next = &frontier[static_cast<std::size_t>(to_index(~s))][nxt];
        expanded += l.f->entries;
        if (!l.f->any_w && !l.f->any_b) {
          scan_frontier(geo, l.pw, l.pb, d + 1, *l.f_next);
          continue;
        }
        if (geo.last_pair()) {
          transpose_frontier(geo, *l.f, twins);
          l.t = twins.data();
        }
        std::uint64_t entries = 0;
        bool any_w = false;
        bool any_b = false;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : entries) reduction(|| : any_w, any_b)
        for (int slot = 0; slot < geo.slots(); ++slot) {
          const PullCount c = pull_slot(l, slot);
          entries += c.entries;
          any_w = any_w || c.any_w;
          any_b = any_b || c.any_b;
        }
        l.f_next->entries = entries;
        l.f_next->any_w = any_w;
        l.f_next->any_b = any_b;
      } else {
        for (std::uint64_t i = 0; i < n; ++i) expanded += (l.cw[i] == d || l.cb[i] == d) ? 1 : 0;
      }
      // Phase C: the pushed edges, and their entries added to the next frontier.
      const bool special = !l.pulled_twins() || (idx.has_pawns() && d == 0);
      std::uint64_t stored = 0;
      // Without special cases there is nothing to push (no parallel region: each costs a barrier,
      // which is dear on a loaded machine).
      const bool any_push = !geo.has_rows() || special;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : stored) if (any_push)
      for (int slot = 0; slot < (any_push ? geo.slots() : 0); ++slot) {
        if (!geo.has_rows() || (geo.slot_diag(slot) && !l.diag_in_pull())) {
          stored += push_slot(l, slot, PushMode::kAll);
        } else if (special) {
          stored += push_slot(l, slot, PushMode::kSpecial);
        }
      }
      if (stored && l.f_next) {
        // Only zero matters for the count (an entry stored for both targets counts twice), and
        // the flags only let the pull skip work.
        l.f_next->entries += stored;
        l.f_next->any_w = l.f_next->any_b = true;
      }
#ifndef NDEBUG
#pragma omp parallel for schedule(dynamic, 1)
      for (int slot = 0; slot < geo.slots(); ++slot) push_slot(l, slot, PushMode::kCheck);
#endif
    }
    report("solve", std::min(1.0, static_cast<double>(d + 1) / 64.0));
    if (expanded == 0 && d >= max_seed) {
      finished = true;
      break;
    }
  }
  if (!finished) {
    // Values past the format's 250-ply limit would otherwise read as "none" (no helpmate): never
    // reached by <= 5 men (longest DTHM under 60), so this guards larger materials.
    return make_error(ErrorCode::InvalidArgument, m.key() + ": a DTHM exceeds the format's limit of " +
                                                      std::to_string(DthmCode::kMaxDthm) + " plies");
  }
  for (auto& a : out.arrays) {
    std::uint8_t* p = a.data();
#pragma omp parallel for schedule(static)
    for (std::uint64_t i = 0; i < n; ++i)
      if (p[i] == kUnknown) p[i] = kNone;
  }
  report("solve", 1.0);
  return out;
}

}  // namespace deadpos
