// Independent verifier (docs/design.md, "Verification"): forward legal move generation only.
//
// For every index value and side to move it recomputes, from the legal moves of the position (its
// own bitboard move generator below, no un-move code), the value the entry must have:
//   kInvalid  iff the index value is broken (docs/format.md section 4) or the side not to move is
//             in check
//   0         iff the side to move is checkmated and it is the target side
//   kNone     for any other position without legal moves
//   min over legal moves m of 1 + V(position after m), else
// where V reads this table or a subtable, and gives a double push that allows an en passant
// capture the value of the position *with* the en passant right:
//   min(table value if that position has a legal move without the capture, 1 + value after each
//   en passant capture).
// Local consistency plus exact terminals proves every entry exact (see the proof in docs/design.md).
//
// Organised for speed (the whole <=5-man set in less time than generating it):
//   * work is split by (side to move, king-pair slot), in parallel; the mismatches of each slot
//     are kept apart and joined in index order, so counts and reports are the same for any
//     thread count;
//   * a slot is walked row by row: the kings and every man but the last are decoded once per
//     row, the last man's field (64 or 48 consecutive entries) varies fastest;
//   * moves are generated on bitboards, legality through attack sets and pin lines, without a
//     Position per entry (a Position is built only for a double push that allows en passant);
//   * a move of a man that is not a king and not one of several identical men, off the
//     two-symmetry diagonal slots, changes one field: its successor index is computed by adding
//     the field difference times the field's stride; other successors go through
//     TableIndex::encode.
// verify_reference.cpp keeps the first, per-entry verifier as the test oracle of this one.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <new>

#include "common.h"
#include "deadpos/generate.h"
#include "deadpos/verify.h"
#include "en_passant_rule.h"

namespace deadpos {

namespace {

// Values of both targets: v[x] is the byte code of DTHM of x.
using Values = ByColor<int>;
constexpr Values kInvalidValues{{DthmCode::kInvalid, DthmCode::kInvalid}};

[[gnu::always_inline]] inline Bitboard attacks_of(Piece p, Square s, Bitboard occ) {
  switch (type_of(p)) {
    case PieceType::Pawn: return pawn_attacks(color_of(p), s);
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occ);
    case PieceType::Rook: return rook_attacks(s, occ);
    case PieceType::Queen: return queen_attacks(s, occ);
    case PieceType::King: return king_attacks(s);
  }
  return 0;
}

bool is_slider(PieceType pt) { return pt == PieceType::Bishop || pt == PieceType::Rook || pt == PieceType::Queen; }

// Index field of a man on s (docs/format.md section 4): the square, a pawn's square minus 8.
int field_of(PieceType pt, Square s) { return to_index(s) - (pt == PieceType::Pawn ? 8 : 0); }
Square square_of_field(PieceType pt, int f) { return square_at(f + (pt == PieceType::Pawn ? 8 : 0)); }

// The 462 king pairs of the pawnless scheme in slot order, rebuilt from docs/format.md section 4
// (not taken from the index code): White king in the triangle a1-d1-d4 by square, then Black king
// by square, kings not touching, Black king on or below a1-h8 when the White king is on it.
std::array<std::pair<Square, Square>, 462> pawnless_king_pairs() {
  std::array<std::pair<Square, Square>, 462> pairs{};
  std::size_t n = 0;
  for (int w = 0; w < 64; ++w) {
    const Square ws = square_at(w);
    if (file_index(ws) > 3 || rank_index(ws) > file_index(ws)) continue;
    for (int b = 0; b < 64; ++b) {
      const Square bs = square_at(b);
      if (square_distance(ws, bs) <= 1) continue;
      if (file_index(ws) == rank_index(ws) && file_index(bs) < rank_index(bs)) continue;
      DEADPOS_CHECK(n < pairs.size());
      pairs[n++] = {ws, bs};
    }
  }
  DEADPOS_CHECK(n == pairs.size());
  return pairs;
}

// An entry's men: squares in slot order and occupancy.
struct Board {
  int kk = 0;  // king-pair slot
  TableIndex::Squares sq{};
  ByColor<Bitboard> by_color{};
  Bitboard occ = 0;
};

// A mismatch, as found: the report line is written after the run.
struct Mismatch {
  std::uint64_t index;
  Color target;
  std::uint8_t got;
  std::uint8_t expected;
};
// The outcome of one (side to move, king-pair slot): all its mismatches counted, the first
// max_report kept (in index order, then White's target before Black's).
struct SlotOutcome {
  std::uint64_t mismatches = 0;
  std::vector<Mismatch> first;
};

// Where the successor of a capture or a promotion is looked up.
struct Target {
  const LoadedTable* table = nullptr;
  bool swapped = false;                          // colours swapped: squares mirrored vertically
  std::array<std::int8_t, kMaxTableMen> dest{};  // slot in table's index of our man k (-1: captured)
};

class Verifier {
 public:
  Verifier(const LoadedTable& t, const TableSet& subs) : t_(t), subs_(subs), idx_(t.index), n_(t.index.men()) {
    for (int j = 0; j < n_; ++j) {
      const auto u = static_cast<std::size_t>(j);
      pc_[u] = idx_.piece(j);
      pt_[u] = type_of(pc_[u]);
      stride_[u] = static_cast<std::int64_t>(idx_.stride(j));
      const Color c = color_of(pc_[u]);
      slots_[c][static_cast<std::size_t>(count_[c]++)] = j;
    }
    for (int j = 2; j < n_; ++j) {
      const auto u = static_cast<std::size_t>(j);
      same_as_prev_[u] = j > 2 && pc_[u] == pc_[u - 1];
      const bool same_as_next = j + 1 < n_ && pc_[u + 1] == pc_[u];
      one_field_[u] = !same_as_prev_[u] && !same_as_next;
    }
    // slot_of_[w * 64 + b]: the king-pair slot of White king w, Black king b when the identity is
    // the one symmetry that brings them into canonical form (-1 otherwise: encode() decides).
    slot_of_.fill(-1);
    if (idx_.has_pawns()) {
      for (int w = 0; w < 64; ++w)
        for (int b = 0; b < 64; ++b)
          if (file_index(square_at(w)) < 4 && square_distance(square_at(w), square_at(b)) > 1)
            slot_of_[static_cast<std::size_t>(w * 64 + b)] =
                static_cast<std::int16_t>((rank_index(square_at(w)) * 4 + file_index(square_at(w))) * 64 + b);
    } else {
      pairs_ = pawnless_king_pairs();
      for (std::size_t k = 0; k < pairs_.size(); ++k) {
        const auto [w, b] = pairs_[k];
        if (file_index(w) == rank_index(w) && file_index(b) == rank_index(b)) continue;  // two symmetries
        slot_of_[static_cast<std::size_t>(to_index(w) * 64 + to_index(b))] = static_cast<std::int16_t>(k);
      }
    }
    const auto size = static_cast<std::int64_t>(idx_.size());
    for (Color stm : {Color::White, Color::Black}) {
      auto& own = own_[static_cast<std::size_t>(to_index(stm))];
      own.resize(static_cast<std::size_t>(size));
      const std::uint8_t* w = t.arrays[static_cast<std::size_t>(array_of(stm, Color::White))].data();
      const std::uint8_t* bl = t.arrays[static_cast<std::size_t>(array_of(stm, Color::Black))].data();
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < size; ++i)
        own[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(w[i] | (bl[i] << 8));
    }
    // Successor tables of every capture (slot c) and promotion (slot p to piece q).
    targets_.resize(static_cast<std::size_t>((n_ + 1) * (n_ + 1) * 5));
    for (int c = -1; c < n_; ++c)
      for (int p = -1; p < n_; ++p)
        for (int q = -1; q < 4; ++q) {
          if ((c == -1 && p == -1) || (c >= 0 && c < 2) || c == p) continue;
          if ((p == -1) != (q == -1)) continue;
          if (p >= 0 && pt_[static_cast<std::size_t>(p)] != PieceType::Pawn) continue;
          targets_[target_key(c, p, q)] = make_target(c, p, q);
        }
  }

  // Checks every entry of king-pair slot kk with side to move us.
  void check_slot(Color us, int kk, std::size_t max_report, SlotOutcome& out) const;

 private:
  static PieceType promotion_type(int q) { return static_cast<PieceType>(to_index(PieceType::Knight) + q); }
  std::size_t target_key(int c, int p, int q) const {
    return static_cast<std::size_t>(((c + 1) * (n_ + 1) + (p + 1)) * 5 + (q + 1));
  }
  Target make_target(int c, int p, int q) const;
  const Target& target(int c, int p, int q) const {
    const Target& t = targets_[target_key(c, p, q)];
    DEADPOS_CHECK(t.table != nullptr);  // precondition of verify(): every subtable present
    return t;
  }
  // This table's values with side to move stm at i (from the interleaved copy).
  Values own_values(std::uint64_t i, Color stm) const {
    const std::uint16_t v = own_[static_cast<std::size_t>(to_index(stm))][i];
    return Values{{v & 0xFF, v >> 8}};
  }
  Values values_in(const LoadedTable& t, std::uint64_t i, Color stm) const {
    return Values{{t.arrays[static_cast<std::size_t>(array_of(stm, Color::White))][i],
                   t.arrays[static_cast<std::size_t>(array_of(stm, Color::Black))][i]}};
  }
  // The value an entry must have (kInvalidValues for a position outside the domain).
  Values expected(Color us, std::uint64_t i, const Board& b, bool diagonal_kings) const;
  // Values of the position after man j moves to `to` (capturing slot cap, or -1), promoting to
  // promotion_type(q) (q = -1: no promotion); no en passant right follows.
  Values after_move(Color us, std::uint64_t i, const Board& b, bool diagonal_kings, int j, Square to, int cap,
                    int q) const;
  // Values of a position given as a Position (en passant rights honoured).
  Values position_values(const Position& after) const;
  Values table_values(const Position& pos) const;

  const LoadedTable& t_;
  const TableSet& subs_;
  const TableIndex& idx_;
  int n_;
  std::array<Piece, kMaxTableMen> pc_{};
  std::array<PieceType, kMaxTableMen> pt_{};
  std::array<std::int64_t, kMaxTableMen> stride_{};
  ByColor<std::array<int, kMaxTableMen>> slots_{};  // slots of each colour's men, king first
  ByColor<int> count_{};
  std::array<bool, kMaxTableMen> same_as_prev_{};  // slot j holds the same piece as slot j - 1
  std::array<bool, kMaxTableMen> one_field_{};     // a move of slot j changes its field only
  std::array<std::pair<Square, Square>, 462> pairs_{};
  std::array<std::int16_t, 64 * 64> slot_of_{};
  std::vector<Target> targets_;
  // own_[stm][i]: DTHM of White | DTHM of Black << 8 of this table: the successors' two values
  // in one load (one cache line instead of two: about 1.3x faster on 5-man tables).
  std::array<std::vector<std::uint16_t>, 2> own_;
};

Target Verifier::make_target(int c, int p, int q) const {
  Material m = idx_.material();
  if (c >= 0) m.count[color_of(pc_[static_cast<std::size_t>(c)])][pt_[static_cast<std::size_t>(c)]]--;
  if (p >= 0) {
    const Color pc = color_of(pc_[static_cast<std::size_t>(p)]);
    m.count[pc][PieceType::Pawn]--;
    m.count[pc][promotion_type(q)]++;
  }
  Target t;
  t.swapped = !m.is_canonical();
  const Material canonical = t.swapped ? m.swapped() : m;
  t.table = subs_.find(canonical);
  if (t.table == nullptr) return t;  // an impossible combination (or a missing subtable)
  std::array<bool, kMaxTableMen> used{};
  for (int k = 0; k < n_; ++k) {
    const auto u = static_cast<std::size_t>(k);
    t.dest[u] = -1;
    if (k == c) continue;
    Piece pk = k == p ? make_piece(color_of(pc_[u]), promotion_type(q)) : pc_[u];
    if (t.swapped) pk = make_piece(~color_of(pk), type_of(pk));
    int s = 0;
    while (s < t.table->index.men() && (used[static_cast<std::size_t>(s)] || t.table->index.piece(s) != pk)) ++s;
    if (s == t.table->index.men()) {
      t.table = nullptr;  // the material does not match: an impossible combination
      return t;
    }
    used[static_cast<std::size_t>(s)] = true;
    t.dest[u] = static_cast<std::int8_t>(s);
  }
  return t;
}

Values Verifier::table_values(const Position& pos) const {
  const Material m = Material::of(pos);
  const LoadedTable* t = m == idx_.material() ? &t_ : subs_.find(m);
  if (t != nullptr) return values_in(*t, t->index.encode(t->index.squares_of(pos)), pos.side_to_move());
  // The swapped material's table: colours swapped, so the target swaps too.
  const Position sw = pos.color_swapped();
  t = subs_.find(m.swapped());
  DEADPOS_CHECK(t != nullptr);
  const Values v = values_in(*t, t->index.encode(t->index.squares_of(sw)), sw.side_to_move());
  return Values{{v[Color::Black], v[Color::White]}};
}

Values Verifier::position_values(const Position& after) const {
  return internal::values_honouring_en_passant(after, [this](const Position& p) { return table_values(p); });
}

Values Verifier::after_move(Color us, std::uint64_t i, const Board& b, bool diagonal_kings, int j, Square to, int cap,
                            int q) const {
  const Color them = ~us;
  const auto uj = static_cast<std::size_t>(j);
  if (cap < 0 && q < 0) {
    std::uint64_t next;
    int slot = -1;
    if (j < 2 && !diagonal_kings) {
      const Square w = j == 0 ? to : b.sq[0];
      const Square bk = j == 1 ? to : b.sq[1];
      slot = slot_of_[static_cast<std::size_t>(to_index(w) * 64 + to_index(bk))];
    }
    if (slot >= 0) {
      // A king move that keeps the identity symmetry: only the king-pair slot changes.
      next = i + static_cast<std::uint64_t>((slot - b.kk) * stride_[0]);
    } else if (one_field_[uj] && !diagonal_kings) {
      // Same symmetry, same order of identical men: only field j changes.
      next = i + static_cast<std::uint64_t>((field_of(pt_[uj], to) - field_of(pt_[uj], b.sq[uj])) * stride_[uj]);
    } else {
      TableIndex::Squares s = b.sq;
      s[uj] = to;
      next = idx_.encode(s);
    }
    return own_values(next, them);
  }
  const Target& t = target(cap, q >= 0 ? j : -1, q);
  TableIndex::Squares s{};
  for (int k = 0; k < n_; ++k) {
    if (k == cap) continue;
    const auto u = static_cast<std::size_t>(k);
    const Square sk = k == j ? to : b.sq[u];
    s[static_cast<std::size_t>(t.dest[u])] = t.swapped ? flip_vertical(sk) : sk;
  }
  const std::uint64_t next = t.table->index.encode(s);
  if (!t.swapped) return values_in(*t.table, next, them);
  // In the swapped table the side to move is `us` and the targets swap.
  const Values v = values_in(*t.table, next, us);
  return Values{{v[Color::Black], v[Color::White]}};
}

Values Verifier::expected(Color us, std::uint64_t i, const Board& b, bool diagonal_kings) const {
  const Color them = ~us;
  const Square ksq = b.sq[static_cast<std::size_t>(to_index(us))];  // slot 0: White king, 1: Black
  const Square their_king = b.sq[static_cast<std::size_t>(to_index(them))];
  const int n_us = count_[us];
  const int n_them = count_[them];
  const auto& ours = slots_[us];
  const auto& theirs = slots_[them];
  // Attacks of our men (the king's are not needed: the kings never touch).
  std::array<Bitboard, kMaxTableMen> att{};
  for (int a = 1; a < n_us; ++a) {
    const auto u = static_cast<std::size_t>(ours[static_cast<std::size_t>(a)]);
    att[u] = attacks_of(pc_[u], b.sq[u], b.occ);
    // Domain: the side not to move is not in check.
    if (att[u] & square_bb(their_king)) return kInvalidValues;
  }
  // Their attacks through our king's square (where our king may not go), check, and the lines
  // along which a move of one of our men may uncover the king.
  std::array<Bitboard, kMaxTableMen> danger{};
  Bitboard danger_all = 0;
  Bitboard pin_lines = 0;
  Bitboard their_pawns = 0;
  const Bitboard occ_no_king = b.occ ^ square_bb(ksq);
  for (int a = 0; a < n_them; ++a) {
    const auto u = static_cast<std::size_t>(theirs[static_cast<std::size_t>(a)]);
    danger[u] = attacks_of(pc_[u], b.sq[u], occ_no_king);
    danger_all |= danger[u];
    if (is_slider(pt_[u]) && (attacks_of(pc_[u], b.sq[u], 0) & square_bb(ksq))) pin_lines |= between_bb(ksq, b.sq[u]);
    if (pt_[u] == PieceType::Pawn) their_pawns |= square_bb(b.sq[u]);
  }
  const bool in_check = (danger_all & square_bb(ksq)) != 0;
  // Whether our king is attacked after a move of another man (occupancy occ2, slot cap captured).
  const auto attacked = [&](Bitboard occ2, int cap) {
    for (int a = 1; a < n_them; ++a) {
      const int k = theirs[static_cast<std::size_t>(a)];
      if (k == cap) continue;
      const auto u = static_cast<std::size_t>(k);
      if (attacks_of(pc_[u], b.sq[u], occ2) & square_bb(ksq)) return true;
    }
    return false;
  };
  // Whether our king may go to `to`, capturing slot cap (or -1): the occupancy after the move is
  // occ_no_king either way (a capture leaves `to` occupied), so `danger` answers.
  const auto king_safe = [&](Square to, int cap) {
    if (cap < 0) return !(danger_all & square_bb(to));
    for (int a = 0; a < n_them; ++a) {
      const int k = theirs[static_cast<std::size_t>(a)];
      if (k != cap && (danger[static_cast<std::size_t>(k)] & square_bb(to))) return false;
    }
    return true;
  };
  const auto slot_on = [&](Square s) {
    for (int a = 1; a < n_them; ++a) {
      const int k = theirs[static_cast<std::size_t>(a)];
      if (b.sq[static_cast<std::size_t>(k)] == s) return k;
    }
    DEADPOS_CHECK(false);  // a capture of the king: the position would be outside the domain
    return -1;
  };

  Values best{{DthmCode::kUnknown, DthmCode::kUnknown}};
  bool any_move = false;
  const auto take = [&](const Values& v) {
    any_move = true;
    for (Color x : {Color::White, Color::Black})
      if (v[x] <= DthmCode::kMaxDthm) best[x] = std::min(best[x], v[x] + 1);
  };
  const int up = us == Color::White ? 8 : -8;
  for (int a = 0; a < n_us; ++a) {
    const int j = ours[static_cast<std::size_t>(a)];
    const auto u = static_cast<std::size_t>(j);
    const Square from = b.sq[u];
    const PieceType pt = pt_[u];
    Bitboard targets;
    if (pt == PieceType::Pawn) {
      targets = pawn_attacks(us, from) & b.by_color[them];
      const Square one = square_at(to_index(from) + up);
      if (!(b.occ & square_bb(one))) {
        targets |= square_bb(one);
        if (relative_rank(us, from) == 1 && !(b.occ & square_bb(square_at(to_index(one) + up))))
          targets |= square_bb(square_at(to_index(one) + up));
      }
    } else if (pt == PieceType::King) {
      targets = king_attacks(from) & ~b.by_color[us];
    } else {
      targets = att[u] & ~b.by_color[us];
    }
    while (targets) {
      const Square to = pop_lsb(targets);
      const int cap = (b.by_color[them] & square_bb(to)) ? slot_on(to) : -1;
      if (pt == PieceType::King) {
        if (!king_safe(to, cap)) continue;
      } else if ((in_check || (pin_lines & square_bb(from))) &&
                 attacked((b.occ ^ square_bb(from)) | square_bb(to), cap)) {
        continue;
      }
      if (pt == PieceType::Pawn && relative_rank(us, to) == 7) {
        for (int q = 0; q < 4; ++q) take(after_move(us, i, b, diagonal_kings, j, to, cap, q));
      } else if (pt == PieceType::Pawn && (to_index(to) ^ to_index(from)) == 16 &&
                 (pawn_attacks(us, square_at((to_index(from) + to_index(to)) / 2)) & their_pawns)) {
        // A double push beside an enemy pawn: the successor may carry an en passant right.
        const Position pos = Position::from_men(pc_.data(), b.sq.data(), n_, us);
        take(position_values(pos.after(Move::make(from, to))));
      } else {
        take(after_move(us, i, b, diagonal_kings, j, to, cap, -1));
      }
    }
  }
  if (!any_move) {
    Values v{{DthmCode::kNone, DthmCode::kNone}};
    if (in_check) v[us] = 0;  // checkmate of the side to move
    return v;
  }
  for (Color x : {Color::White, Color::Black})
    if (best[x] == DthmCode::kUnknown) best[x] = DthmCode::kNone;
  return best;
}

void Verifier::check_slot(Color us, int kk, std::size_t max_report, SlotOutcome& out) const {
  const std::uint64_t slot_size = idx_.stride(0);
  const std::uint64_t base = static_cast<std::uint64_t>(kk) * slot_size;
  const auto& got_w = t_.arrays[static_cast<std::size_t>(array_of(us, Color::White))];
  const auto& got_b = t_.arrays[static_cast<std::size_t>(array_of(us, Color::Black))];
  const auto compare = [&](std::uint64_t i, const Values& e) {
    const std::uint8_t gw = got_w[i];
    const std::uint8_t gb = got_b[i];
    if (gw == e[Color::White] && gb == e[Color::Black]) return;
    for (Color x : {Color::White, Color::Black}) {
      const std::uint8_t g = x == Color::White ? gw : gb;
      if (g == e[x]) continue;
      ++out.mismatches;
      if (out.first.size() < max_report) out.first.push_back(Mismatch{i, x, g, static_cast<std::uint8_t>(e[x])});
    }
  };
  Board b;
  b.kk = kk;
  if (idx_.has_pawns()) {
    b.sq[0] = make_square(static_cast<File>((kk / 64) % 4), static_cast<Rank>(kk / 256));
    b.sq[1] = square_at(kk % 64);
  } else {
    b.sq[0] = pairs_[static_cast<std::size_t>(kk)].first;
    b.sq[1] = pairs_[static_cast<std::size_t>(kk)].second;
  }
  const bool diagonal_kings =
      !idx_.has_pawns() && file_index(b.sq[0]) == rank_index(b.sq[0]) && file_index(b.sq[1]) == rank_index(b.sq[1]);
  if (square_distance(b.sq[0], b.sq[1]) <= 1) {  // a broken slot of the pawn scheme
    for (std::uint64_t i = base; i < base + slot_size; ++i) compare(i, kInvalidValues);
    return;
  }
  if (n_ == 2) {
    b.by_color[Color::White] = square_bb(b.sq[0]);
    b.by_color[Color::Black] = square_bb(b.sq[1]);
    b.occ = b.by_color[Color::White] | b.by_color[Color::Black];
    compare(base, expected(us, base, b, diagonal_kings));
    return;
  }
  const int last = n_ - 1;
  const auto ul = static_cast<std::size_t>(last);
  const PieceType last_type = pt_[ul];
  const Color last_color = color_of(pc_[ul]);
  const int range = last_type == PieceType::Pawn ? 48 : 64;
  const std::uint64_t rows = slot_size / static_cast<std::uint64_t>(range);
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::uint64_t row_base = base + r * static_cast<std::uint64_t>(range);
    // The men before the last one, their fields peeled off r (the last one first).
    std::uint64_t rest = r;
    for (int j = last - 1; j >= 2; --j) {
      const auto u = static_cast<std::size_t>(j);
      const int range_j = pt_[u] == PieceType::Pawn ? 48 : 64;
      b.sq[u] = square_of_field(pt_[u], static_cast<int>(rest % static_cast<std::uint64_t>(range_j)));
      rest /= static_cast<std::uint64_t>(range_j);
    }
    bool broken = false;
    ByColor<Bitboard> by_color{};
    for (int j = 0; j < last; ++j) {
      const auto u = static_cast<std::size_t>(j);
      const Bitboard bb = square_bb(b.sq[u]);
      if ((by_color[Color::White] | by_color[Color::Black]) & bb) broken = true;
      if (same_as_prev_[u] && b.sq[u - 1] > b.sq[u]) broken = true;
      by_color[color_of(pc_[u])] |= bb;
    }
    if (broken) {  // two men on one square or identical men out of order, whatever the last man
      for (int f = 0; f < range; ++f) compare(row_base + static_cast<std::uint64_t>(f), kInvalidValues);
      continue;
    }
    const Bitboard prefix_occ = by_color[Color::White] | by_color[Color::Black];
    for (int f = 0; f < range; ++f) {
      const std::uint64_t i = row_base + static_cast<std::uint64_t>(f);
      const Square s = square_of_field(last_type, f);
      b.sq[ul] = s;
      if ((prefix_occ & square_bb(s)) || (same_as_prev_[ul] && b.sq[ul - 1] > s) ||
          (diagonal_kings && idx_.encode(b.sq) != i)) {
        compare(i, kInvalidValues);
        continue;
      }
      b.by_color = by_color;
      b.by_color[last_color] |= square_bb(s);
      b.occ = prefix_occ | square_bb(s);
      compare(i, expected(us, i, b, diagonal_kings));
    }
  }
}

}  // namespace

VerifyResult verify(const LoadedTable& t, const TableSet& subtables, const ProgressFn& progress,
                    std::size_t max_report) {
  const TableIndex& idx = t.index;
  const Verifier verifier(t, subtables);
  const int slots = idx.kk_slots();
  const std::string key = idx.material().key();
  // outcome[s * slots + kk]: side to move s (0 White, 1 Black), king-pair slot kk.
  std::vector<SlotOutcome> outcome(static_cast<std::size_t>(2 * slots));
  std::atomic<int> done{0};
#pragma omp parallel for schedule(dynamic, 1)
  for (int w = 0; w < 2 * slots; ++w) {
    verifier.check_slot(w < slots ? Color::White : Color::Black, w % slots, max_report,
                        outcome[static_cast<std::size_t>(w)]);
    const int d = done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (progress && omp_get_thread_num() == 0 && (d & 15) == 0)
      progress(Progress{key, Phase::Verify, static_cast<double>(d) / static_cast<double>(2 * slots)});
  }
  if (progress) progress(Progress{key, Phase::Verify, 1.0});
  VerifyResult res;
  res.checked = 2 * idx.size();
  for (int w = 0; w < 2 * slots; ++w) {
    const SlotOutcome& o = outcome[static_cast<std::size_t>(w)];
    res.mismatches += o.mismatches;
    const Color stm = w < slots ? Color::White : Color::Black;
    for (const Mismatch& m : o.first) {
      if (res.report.size() >= max_report) break;
      std::string where = "(not a position)";
      TableIndex::Squares sq;
      if (m.expected != DthmCode::kInvalid && idx.decode(m.index, sq))
        where = internal::position_of(idx, sq, stm).to_fen();
      res.report.push_back(key + " index " + std::to_string(m.index) + " " + where + ": DTHM of " +
                           (m.target == Color::White ? "White" : "Black") + " is " + std::to_string(m.got) +
                           ", successors give " + std::to_string(m.expected));
    }
  }
  return res;
}

Result<std::vector<TableVerdict>> verify_tables(const VerifyTablesOptions& opt) {
  using State = TableVerdict::State;
  std::vector<Material> mats = opt.materials;
  std::vector<std::string> not_tables;  // *.dpt files whose name is not a canonical material key
  if (mats.empty()) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(opt.dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
      const std::filesystem::path& f = it->path();
      if (f.extension() != ".dpt") continue;
      const std::string key = f.stem().string();
      auto m = Material::parse(key);
      if (m && m->is_canonical() && m->key() == key && m->men() <= kMaxGenerateMen) {
        mats.push_back(*m);
      } else {
        not_tables.push_back(f.filename().string());
      }
    }
    if (ec) return make_error(ErrorCode::Io, opt.dir + ": cannot list the table directory: " + ec.message());
    if (mats.empty() && not_tables.empty()) {
      return make_error(ErrorCode::MissingTable,
                        "no tables (*.dpt) in " + opt.dir + "; build them with: deadpos generate --out " + opt.dir);
    }
  }
  // Dependency order: build_order puts every successor first; keep only the tables asked for.
  std::vector<Material> order;
  for (const Material& m : build_order(mats))
    if (std::find(mats.begin(), mats.end(), m) != mats.end()) order.push_back(m);

  std::vector<TableVerdict> out;
  std::map<std::string, std::size_t> verdict_of;  // key -> index in out
  std::map<std::string, Error> unloadable;        // subtables outside `order` that failed to load
  auto finish = [&](TableVerdict v) {
    if (opt.on_table) opt.on_table(v);
    verdict_of[v.name] = out.size();
    out.push_back(std::move(v));
  };
  TableSet set(opt.dir);
  for (const Material& m : order) {
    TableVerdict v;
    v.name = m.key();
    auto t = load_table(opt.dir + "/" + table_file_name(m), m);
    if (!t) {
      v.state = State::Failed;
      v.error = t.error();
      finish(std::move(v));
      continue;
    }
    // A damaged subtable makes this table's check meaningless: find the first one.
    set.retain_only(m.successors());
    // How a subtable that could not be used is described: absent, unreadable for lack of memory
    // (the file may be intact), or damaged.
    const auto state_word = [](ErrorCode c) {
      return c == ErrorCode::MissingTable  ? "missing"
             : c == ErrorCode::OutOfMemory ? "not loadable (out of memory)"
                                           : "damaged";
    };
    for (const Material& s : m.successors()) {
      const std::string sk = s.key();
      if (auto it = verdict_of.find(sk); it != verdict_of.end() && out[it->second].state != State::Ok) {
        const TableVerdict& sv = out[it->second];
        v.state = State::NotChecked;
        v.damaged = sv.state == State::NotChecked ? sv.damaged : sk;
        const std::string what = sv.state == State::NotChecked
                                     ? "was not checked (" + sv.damaged + " is " + state_word(sv.error->code) + ")"
                                     : std::string("is ") + state_word(sv.error->code);
        v.error = make_error(sv.error->code, "subtable " + sk + " " + what);
        break;
      }
      auto bad = unloadable.find(sk);
      if (bad == unloadable.end()) {
        const Status st = set.require(s);
        if (st) continue;
        bad = unloadable.emplace(sk, st.error()).first;
      }
      v.state = State::NotChecked;
      v.damaged = sk;
      v.error = make_error(bad->second.code,
                           "subtable " + sk + " is " + state_word(bad->second.code) + " (" + bad->second.message + ")");
      break;
    }
    if (v.state == State::Ok) {
      try {
        v.result = verify(**t, set, opt.progress, opt.max_report);
      } catch (const std::bad_alloc&) {
        // The verifier's own memory (allocated before its parallel loops): a value-copy of 2 bytes
        // per entry and side to move beside the table's 4 bytes per entry, its subtables loaded.
        const std::uint64_t mib = ((*t)->index.size() * 8 + (1u << 20) - 1) >> 20;
        v.state = State::Failed;
        v.error = make_error(ErrorCode::OutOfMemory,
                             "the verifier's memory could not be allocated (about " + std::to_string(mib) +
                                 " MiB for the table and its copy of it, beside the subtables)");
        finish(std::move(v));
        continue;
      }
      if (v.result.mismatches != 0) {
        v.state = State::Failed;
        v.error = make_error(ErrorCode::VerificationFailed, std::to_string(v.result.mismatches) + " of " +
                                                                std::to_string(v.result.checked) +
                                                                " entries disagree with their successors");
      }
    }
    finish(std::move(v));
  }
  std::sort(not_tables.begin(), not_tables.end());
  for (const std::string& f : not_tables) {
    TableVerdict v;
    v.name = f;
    v.state = State::Failed;
    v.error = make_error(ErrorCode::CorruptTable,
                         opt.dir + "/" + f + ": not a table name (<KEY>.dpt with a canonical material key of at most " +
                             std::to_string(kMaxGenerateMen) + " men)");
    finish(std::move(v));
  }
  return out;
}

}  // namespace deadpos
