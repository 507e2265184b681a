// The forward-values engine (forward_values.h; docs/design.md, "Verification"): forward legal
// move generation only.
//
// For every index value and side to move it computes, from the legal moves of the position (its
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
//   * work is split by (side to move, king-pair slot): slot_values() fills one slot, and its
//     callers (verify.cpp) run slots in parallel;
//   * a slot is walked row by row: the kings and every man but the last are fixed in a row, the
//     last man's field (64 or 48 consecutive entries) varies fastest;
//   * a row is checked by moves, not by entries (check_row): each move of another man is
//     generated once for the row, on bitboards without the last man; its legality for every
//     square of the last man is one 64-bit mask (the last man blocks a path or a line to a king,
//     or, being theirs, attacks or is captured); its successors for the whole row are a row of
//     this table shifted by the move's field difference (or a row of a subtable, or read through
//     the one symmetry the kings fix), folded in with byte minimums over the row. The domain and
//     check are masks as well. The last man's own quiet moves are shifted reads of the same row
//     of the other side's arrays; its captures and the captures of it are per square;
//   * in the two-symmetry slots (both kings on a1-h8) the index keeps the smaller of two
//     placements: there a successor whose kings stay on a1-h8 goes through TableIndex::encode,
//     and so do the last man's moves;
//   * entry by entry (entry()) remain: the last man's moves when it is one of identical men;
//     square by square: double pushes that allow en passant (through a Position), promotions,
//     and successors whose symmetry depends on the last man (TableIndex::encode).
// verify_reference.cpp keeps the first, per-entry verifier as the test oracle of this one.
#include "forward_values.h"

#include <algorithm>
#include <cstring>

#include "common.h"
#include "en_passant_rule.h"

namespace deadpos::internal {

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

// Where the successor of a capture or a promotion is looked up.
struct Target {
  const LoadedTable* table = nullptr;
  bool swapped = false;                          // colours swapped: squares mirrored vertically
  std::array<std::int8_t, kMaxTableMen> dest{};  // slot in table's index of our man k (-1: captured)
};

// Successor codes are folded into a running minimum per target: min(code, kNone), so that a
// successor without a helpmate (kNone, or a damaged code above kMaxDthm) still counts as a legal
// move; kNoMove (no legal move seen yet) is the identity of the fold.
constexpr std::uint8_t kNoMove = 0xFF;
constexpr std::uint8_t kNoneCode = DthmCode::kNone;
static_assert(DthmCode::kNone < kNoMove && DthmCode::kMaxDthm < DthmCode::kNone);

inline void fold(std::uint8_t& bw, std::uint8_t& bb, const Values& v) {
  bw = static_cast<std::uint8_t>(std::min<int>(bw, std::min<int>(v[Color::White], kNoneCode)));
  bb = static_cast<std::uint8_t>(std::min<int>(bb, std::min<int>(v[Color::Black], kNoneCode)));
}

// kByteMask[m]: bit k of m as byte k (0x00 or 0xFF) of a little-endian word.
constexpr std::array<std::uint64_t, 256> kByteMask = [] {
  std::array<std::uint64_t, 256> t{};
  for (std::size_t m = 0; m < 256; ++m)
    for (int k = 0; k < 8; ++k)
      if (m & (1U << k)) t[m] |= std::uint64_t{0xFF} << (8 * k);
  return t;
}();

// The fold of a whole row: for every field f whose bit is set in fmask, the successor codes
// sw[f], sb[f] (R consecutive entries of the successor's arrays) into bw[f], bb[f]. Written so
// that the compiler vectorises it (byte minimums over R = 48 or 64 lanes).
template <int R>
[[gnu::always_inline]] inline void fold_row(std::uint8_t* bw, std::uint8_t* bb, const std::uint8_t* sw,
                                            const std::uint8_t* sb, std::uint64_t fmask) {
  alignas(64) std::uint8_t keep[R];
  for (int k = 0; k < R / 8; ++k) {
    const std::uint64_t m = ~kByteMask[static_cast<std::size_t>((fmask >> (8 * k)) & 0xFF)];
    std::memcpy(keep + 8 * k, &m, 8);
  }
  for (int f = 0; f < R; ++f) {
    bw[f] = std::min(bw[f], static_cast<std::uint8_t>(std::min(sw[f], kNoneCode) | keep[f]));
    bb[f] = std::min(bb[f], static_cast<std::uint8_t>(std::min(sb[f], kNoneCode) | keep[f]));
  }
}

// Squares from which a piece p attacks t, with occupancy occ (p itself not in occ).
inline Bitboard attackers_from(Piece p, Square t, Bitboard occ) {
  switch (type_of(p)) {
    case PieceType::Pawn: return pawn_attacks(~color_of(p), t);
    case PieceType::Knight: return knight_attacks(t);
    case PieceType::Bishop: return bishop_attacks(t, occ);
    case PieceType::Rook: return rook_attacks(t, occ);
    case PieceType::Queen: return queen_attacks(t, occ);
    case PieceType::King: return king_attacks(t);
  }
  return 0;
}

// One step of a ray or a knight's jump on a set of squares: square s goes to s + d, squares
// whose step would leave the board dropped.
struct Step {
  int d;          // square difference
  Bitboard from;  // squares that may make the step
  Bitboard apply(Bitboard b) const { return d > 0 ? (b & from) << d : (b & from) >> -d; }
  static Bitboard back(Bitboard b, int d) { return d > 0 ? b >> d : b << -d; }
};
constexpr Bitboard kNotA = ~kFileABB, kNotH = ~(kFileABB << 7);
constexpr Bitboard kNotAB = ~(kFileABB | kFileABB << 1), kNotGH = ~(kFileABB << 6 | kFileABB << 7);
constexpr std::array<Step, 8> kKnightSteps{
    {{17, kNotH}, {15, kNotA}, {10, kNotGH}, {6, kNotAB}, {-6, kNotGH}, {-10, kNotAB}, {-15, kNotH}, {-17, kNotA}}};
constexpr std::array<Step, 4> kRookSteps{{{8, ~Bitboard{0}}, {-8, ~Bitboard{0}}, {1, kNotH}, {-1, kNotA}}};
constexpr std::array<Step, 4> kBishopSteps{{{9, kNotH}, {7, kNotA}, {-7, kNotH}, {-9, kNotA}}};

// Which moves entry() generates: all, or only the last man's own (check_row() folds the others a
// row at a time, and the last man's too when it has no identical men).
enum class Which { All, Last };
// What entry() found besides the fold: outside the domain, or the side to move in check or not.
enum class EntryState { Invalid, Check, NoCheck };

// The value an entry must have, from entry()'s state and fold.
Values finish_entry(EntryState state, Color us, std::uint8_t bw, std::uint8_t bb) {
  if (state == EntryState::Invalid) return kInvalidValues;
  if (bw == kNoMove) {  // no legal move (bb is then kNoMove too)
    Values v{{DthmCode::kNone, DthmCode::kNone}};
    if (state == EntryState::Check) v[us] = 0;  // checkmate of the side to move
    return v;
  }
  const auto plies = [](std::uint8_t c) { return c <= DthmCode::kMaxDthm ? c + 1 : int{DthmCode::kNone}; };
  return Values{{plies(bw), plies(bb)}};
}

}  // namespace

class ForwardValues::Engine {
 public:
  Engine(const LoadedTable& t, const TableSet& subs) : t_(t), subs_(subs), idx_(t.index), n_(t.index.men()) {
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
    if (n_ > 2) last_by_row_ = one_field_[static_cast<std::size_t>(n_ - 1)];
    // slot_of_[w * 64 + b]: the king-pair slot of White king w, Black king b when the identity is
    // the one symmetry that brings them into canonical form (-1 otherwise: encode() decides).
    slot_of_.fill(-1);
    for (int w = 0; w < 64; ++w)
      for (int b = 0; b < 64; ++b) {
        const auto u = static_cast<std::size_t>(w * 64 + b);
        const Square ws = square_at(w), bs = square_at(b);
        unique_sym_[1][u] = -1;
        unique_sym_[0][u] = -1;
        if (square_distance(ws, bs) <= 1) continue;
        unique_sym_[1][u] = static_cast<std::int8_t>(file_index(ws) >= 4 ? 2 : 0);
        for (int g = 0; g < 8; ++g) {
          const Square tw = apply_symmetry(g, ws), tb = apply_symmetry(g, bs);
          const bool w_diag = file_index(tw) == rank_index(tw);
          if (file_index(tw) > 3 || rank_index(tw) > file_index(tw)) continue;  // triangle a1-d1-d4
          if (w_diag && file_index(tb) < rank_index(tb)) continue;
          if (w_diag && file_index(tb) == rank_index(tb)) break;  // two symmetries: -1
          unique_sym_[0][u] = static_cast<std::int8_t>(g);
          break;
        }
      }
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

  // ForwardValues::slot_values: out[x] holds the slot's entries from index kk * stride(0) on.
  int slots() const { return idx_.kk_slots(); }
  std::uint64_t slot_entries() const { return idx_.stride(0); }
  void slot_values(Color us, int kk, const ByColor<std::uint8_t*>& out) const {
    const std::uint64_t base = static_cast<std::uint64_t>(kk) * idx_.stride(0);
    walk_slot(us, kk, [&](std::uint64_t i, const Values& e) {
      out[Color::White][i - base] = static_cast<std::uint8_t>(e[Color::White]);
      out[Color::Black][i - base] = static_cast<std::uint8_t>(e[Color::Black]);
    });
  }

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
  Values values_in(const LoadedTable& t, std::uint64_t i, Color stm) const {
    DEADPOS_CHECK(t.has_side(stm));  // a subtable holds the sides its parent enters (SuccessorSides)
    return Values{{t.arrays(stm, Color::White)[i], t.arrays(stm, Color::Black)[i]}};
  }
  // Folds the successor codes of the moves `which` selects of the entry i (placement b) into bw,
  // bb; tells whether the entry is outside the domain and whether the side to move is in check.
  EntryState entry(Color us, std::uint64_t i, const Board& b, bool diagonal_kings, Which which, std::uint8_t& bw,
                   std::uint8_t& bb) const;
  // Checks the entries of one row (men before the last fixed in b, prefix occupancy by0; diagonal:
  // both kings on a1-h8): moves that do not involve the last man are folded for all its squares
  // at once, the rest entry by entry.
  template <int R, class Compare>
  void check_row(Color us, std::uint64_t row_base, Board& b, const ByColor<Bitboard>& by0, bool diagonal,
                 const Compare& compare) const;
  // check_row()'s state and steps.
  template <int R>
  struct Row;
  // Calls sink(i, values) with the value each entry i of king-pair slot kk, side to move us, must
  // have, in index order.
  template <class Sink>
  void walk_slot(Color us, int kk, const Sink& sink) const;
  // Index in t's table of the placement after man j moves to `to`, capturing slot cap (or -1).
  std::uint64_t target_index(const Target& t, const Board& b, int j, Square to, int cap) const;
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
  // The last man's own moves are folded by rows: it has no identical men.
  bool last_by_row_ = false;
  std::array<std::pair<Square, Square>, 462> pairs_{};
  std::array<std::int16_t, 64 * 64> slot_of_{};
  // unique_sym_[pawns][w * 64 + b]: the symmetry (docs/format.md section 4) that brings White king
  // w, Black king b into canonical form in the scheme with or without pawns, when one symmetry
  // does so whatever the other men (-1: adjacent kings, or both kings end on a1-h8, where
  // encode() compares two placements).
  std::array<std::array<std::int8_t, 64 * 64>, 2> unique_sym_{};
  std::vector<Target> targets_;
};

Target ForwardValues::Engine::make_target(int c, int p, int q) const {
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

Values ForwardValues::Engine::table_values(const Position& pos) const {
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

Values ForwardValues::Engine::position_values(const Position& after) const {
  return internal::values_honouring_en_passant(after, [this](const Position& p) { return table_values(p); });
}

std::uint64_t ForwardValues::Engine::target_index(const Target& t, const Board& b, int j, Square to, int cap) const {
  TableIndex::Squares s{};
  for (int k = 0; k < n_; ++k) {
    if (k == cap) continue;
    const auto u = static_cast<std::size_t>(k);
    const Square sk = k == j ? to : b.sq[u];
    s[static_cast<std::size_t>(t.dest[u])] = t.swapped ? flip_vertical(sk) : sk;
  }
  return t.table->index.encode(s);
}

Values ForwardValues::Engine::after_move(Color us, std::uint64_t i, const Board& b, bool diagonal_kings, int j,
                                         Square to, int cap, int q) const {
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
    return values_in(t_, next, them);
  }
  const Target& t = target(cap, q >= 0 ? j : -1, q);
  const std::uint64_t next = target_index(t, b, j, to, cap);
  if (!t.swapped) return values_in(*t.table, next, them);
  // In the swapped table the side to move is `us` and the targets swap.
  const Values v = values_in(*t.table, next, us);
  return Values{{v[Color::Black], v[Color::White]}};
}

EntryState ForwardValues::Engine::entry(Color us, std::uint64_t i, const Board& b, bool diagonal_kings, Which which,
                                        std::uint8_t& bw, std::uint8_t& bb) const {
  const Color them = ~us;
  const Square ksq = b.sq[static_cast<std::size_t>(to_index(us))];  // slot 0: White king, 1: Black
  const Square their_king = b.sq[static_cast<std::size_t>(to_index(them))];
  const int n_us = count_[us];
  const int n_them = count_[them];
  const auto& ours = slots_[us];
  const auto& theirs = slots_[them];
  const int last = n_ - 1;
  // Attacks of our men (the king's are not needed: the kings never touch).
  std::array<Bitboard, kMaxTableMen> att{};
  for (int a = 1; a < n_us; ++a) {
    const auto u = static_cast<std::size_t>(ours[static_cast<std::size_t>(a)]);
    att[u] = attacks_of(pc_[u], b.sq[u], b.occ);
    // Domain: the side not to move is not in check.
    if (att[u] & square_bb(their_king)) return EntryState::Invalid;
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
  const auto take = [&](const Values& v) { fold(bw, bb, v); };
  const int up = us == Color::White ? 8 : -8;
  for (int a = 0; a < n_us; ++a) {
    const int j = ours[static_cast<std::size_t>(a)];
    if (which == Which::Last && j != last) continue;
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
  return in_check ? EntryState::Check : EntryState::NoCheck;
}

template <int R, class Compare>
void ForwardValues::Engine::check_row(Color us, std::uint64_t row_base, Board& b, const ByColor<Bitboard>& by0,
                                      bool diagonal, const Compare& compare) const {
  Row<R> row(*this, us, row_base, b, by0, diagonal);
  row.fold_other_men();
  row.fold_last_man();
  row.finish(compare);
}

// One row of check_row(): the kings and every man but the last fixed in b (prefix occupancy by0;
// diagonal: both kings on a1-h8), the last man's field varying fastest over R squares (64, or 48
// for a pawn). The constructor finds the row's entries in the domain and in check, as masks of the
// last man's squares; the steps fold the successor codes of the moves into running minima per
// entry and target (bw, bb), and finish() gives each entry's value to the sink. The steps set
// b.sq[last] as they go; the other men of b stay as given.
template <int R>
struct ForwardValues::Engine::Row {
  Row(const Engine& engine, Color side_to_move, std::uint64_t first_entry, Board& board,
      const ByColor<Bitboard>& prefix, bool diagonal_kings);
  // 1. Moves of our other men. Generated without the last man: it blocks those whose path or
  // destination it stands on; where it is theirs and stands on the destination, it is captured.
  void fold_other_men();
  // 2. Moves of the last man when it is ours and has no identical men, off a1-h8 (else entry()
  // makes them entry by entry, in finish()).
  void fold_last_man();
  // 3. Entry by entry: the verdict (and the last man's moves when they were not folded by rows):
  // sink(i, values) for every entry i of the row, in index order.
  template <class Sink>
  void finish(const Sink& sink);

  // The squares s of the last man from which, the last man on s, one of colour by's men other
  // than slot cap attacks t (occupancy occ, without the last man): the attack of each man that
  // sees t unless the last man stands between, and, if with_last and the last man is by's, the
  // last man's own attack.
  Bitboard hits(Color by, Square t, Bitboard occ, int cap, bool with_last) const;
  // The slot of their man (not the last) on s. Precondition: one stands there (DEADPOS_CHECK).
  int slot_on(Square s) const;
  // Moves whose successor is not a shifted row: one entry at a time, the last man on each square
  // of `where`, values_of(i) giving the successor's values of entry i.
  template <class ValuesOf>
  void per_entry(Bitboard where, const ValuesOf& values_of);
  // values_of for per_entry: the position after man j moves to `to` (capturing cap, promoting to q).
  auto move_values(int j, Square to, int cap, int q) const {
    return [this, j, to, cap, q](std::uint64_t i) { return eng.after_move(us, i, b, diagonal, j, to, cap, q); };
  }
  // A successor placement whose index in table T is C + field(g(s)) for every square s of the last
  // man (the last man is T's last man, without identical men, and T's symmetry g is fixed by the
  // kings): found once through index_of(s0), then read for every s of `where`. false: not so.
  template <class IndexOf>
  bool fold_linear(const LoadedTable& T, int dest_last, Square wk, Square bkk, Bitboard where, const IndexOf& index_of);
  // The same for a capture or promotion (target t) of man j to `to`, capturing slot cap.
  bool fold_linear_target(const Target& t, int j, Square to, int cap, Bitboard where);

  const Engine& eng;
  const Color us;
  const Color them;
  const std::uint64_t row_base;  // index of the row's first entry
  Board& b;
  const ByColor<Bitboard>& by0;
  const bool diagonal;
  const int last;  // slot of the last man
  const std::size_t ul;
  const Piece last_pc;
  const PieceType last_type;
  const bool last_is_ours;
  const bool last_by_row;  // the last man's own moves are folded by rows (fold_last_man)
  const Bitboard occ0;
  const Bitboard ours0;
  const Bitboard theirs0;
  const Square ksq;
  const Square their_king;
  const int shift;  // square masks to field masks (a pawn's field is its square minus 8)
  const std::array<int, kMaxTableMen>& theirs;
  const int n_them;
  const std::uint8_t* const succ_w;  // this table's arrays of the side to move after our move
  const std::uint8_t* const succ_b;
  Bitboard their_pawns0 = 0;  // their pawns but the last man
  Bitboard ok = 0;            // the last man's squares of entries in the domain
  Bitboard check = 0;         // the last man's squares of entries where our king is in check
  alignas(64) std::uint8_t bw[R];
  alignas(64) std::uint8_t bb[R];
};

template <int R>
ForwardValues::Engine::Row<R>::Row(const Engine& engine, Color side_to_move, std::uint64_t first_entry, Board& board,
                                   const ByColor<Bitboard>& prefix, bool diagonal_kings)
    : eng(engine),
      us(side_to_move),
      them(~side_to_move),
      row_base(first_entry),
      b(board),
      by0(prefix),
      diagonal(diagonal_kings),
      last(engine.n_ - 1),
      ul(static_cast<std::size_t>(last)),
      last_pc(engine.pc_[ul]),
      last_type(engine.pt_[ul]),
      last_is_ours(color_of(last_pc) == us),
      last_by_row(engine.last_by_row_ && !diagonal),
      occ0(prefix[Color::White] | prefix[Color::Black]),
      ours0(prefix[us]),
      theirs0(prefix[them]),
      ksq(board.sq[static_cast<std::size_t>(to_index(us))]),
      their_king(board.sq[static_cast<std::size_t>(to_index(them))]),
      shift(last_type == PieceType::Pawn ? 8 : 0),
      theirs(engine.slots_[them]),
      n_them(engine.count_[them]),
      succ_w(engine.t_.arrays(them, Color::White).data()),
      succ_b(engine.t_.arrays(them, Color::Black).data()) {
  // Squares the last man may stand on: empty, ranks 2-7 for a pawn, after its identical
  // predecessor in square order.
  Bitboard room = ~occ0;
  if (last_type == PieceType::Pawn) room &= 0x00FFFFFFFFFFFF00ULL;
  if (eng.same_as_prev_[ul]) room &= ~((Bitboard{2} << to_index(b.sq[ul - 1])) - 1);
  for (int a = 1; a < n_them; ++a) {
    const int k = theirs[static_cast<std::size_t>(a)];
    if (k != last && eng.pt_[static_cast<std::size_t>(k)] == PieceType::Pawn)
      their_pawns0 |= square_bb(b.sq[static_cast<std::size_t>(k)]);
  }
  // Both kings on a1-h8: two symmetries reach the slot, the index keeps the smaller placement
  // (docs/format.md section 4); the other one is a broken entry.
  if (diagonal) {
    for (Bitboard w = room; w;) {
      const Square s = pop_lsb(w);
      b.sq[ul] = s;
      if (eng.idx_.encode(b.sq) != row_base + static_cast<std::uint64_t>(to_index(s) - shift)) room &= ~square_bb(s);
    }
  }
  // The domain: their king not attacked.
  ok = room & ~hits(us, their_king, occ0, -1, true);
  check = hits(them, ksq, occ0, -1, true);
  std::memset(bw, kNoMove, R);
  std::memset(bb, kNoMove, R);
}

template <int R>
Bitboard ForwardValues::Engine::Row<R>::hits(Color by, Square t, Bitboard occ, int cap, bool with_last) const {
  Bitboard m = 0;
  const Bitboard tb = square_bb(t);
  const auto& men = eng.slots_[by];
  for (int a = 0; a < eng.count_[by]; ++a) {
    const int k = men[static_cast<std::size_t>(a)];
    if (k == last || k == cap) continue;
    const auto u = static_cast<std::size_t>(k);
    if (attacks_of(eng.pc_[u], b.sq[u], occ) & tb) m |= is_slider(eng.pt_[u]) ? ~between_bb(b.sq[u], t) : ~Bitboard{0};
  }
  if (with_last && color_of(last_pc) == by) m |= attackers_from(last_pc, t, occ);
  return m;
}

template <int R>
int ForwardValues::Engine::Row<R>::slot_on(Square s) const {
  for (int a = 1; a < n_them; ++a) {
    const int k = theirs[static_cast<std::size_t>(a)];
    if (k != last && b.sq[static_cast<std::size_t>(k)] == s) return k;
  }
  DEADPOS_CHECK(false);
  return -1;
}

template <int R>
template <class ValuesOf>
void ForwardValues::Engine::Row<R>::per_entry(Bitboard where, const ValuesOf& values_of) {
  while (where) {
    const Square s = pop_lsb(where);
    const int f = to_index(s) - shift;
    b.sq[ul] = s;
    fold(bw[f], bb[f], values_of(row_base + static_cast<std::uint64_t>(f)));
  }
}

template <int R>
template <class IndexOf>
bool ForwardValues::Engine::Row<R>::fold_linear(const LoadedTable& T, int dest_last, Square wk, Square bkk,
                                                Bitboard where, const IndexOf& index_of) {
  const TableIndex& ti = T.index;
  if (dest_last != ti.men() - 1 || ti.piece(dest_last) != last_pc ||
      (dest_last > 2 && ti.piece(dest_last - 1) == last_pc))
    return false;
  const int g = eng.unique_sym_[ti.has_pawns() ? 1 : 0][static_cast<std::size_t>(to_index(wk) * 64 + to_index(bkk))];
  if (g < 0) return false;
  const Square s0 = lsb(where);
  b.sq[ul] = s0;
  const std::uint64_t c = index_of() - static_cast<std::uint64_t>(to_index(apply_symmetry(g, s0)) - shift);
  DEADPOS_CHECK(T.has_side(them));
  const std::uint8_t* aw = T.arrays(them, Color::White).data();
  const std::uint8_t* ab = T.arrays(them, Color::Black).data();
  if (g == 0) {
    fold_row<R>(bw, bb, aw + c, ab + c, where >> shift);
    return true;
  }
  while (where) {
    const Square s = pop_lsb(where);
    const int f = to_index(s) - shift;
    const std::uint64_t n = c + static_cast<std::uint64_t>(to_index(apply_symmetry(g, s)) - shift);
    fold(bw[f], bb[f], Values{{aw[n], ab[n]}});
  }
  return true;
}

template <int R>
bool ForwardValues::Engine::Row<R>::fold_linear_target(const Target& t, int j, Square to, int cap, Bitboard where) {
  if (t.swapped) return false;
  const Square wk = j == 0 ? to : b.sq[0];
  const Square bkk = j == 1 ? to : b.sq[1];
  return fold_linear(*t.table, t.dest[ul], wk, bkk, where, [&] { return eng.target_index(t, b, j, to, cap); });
}

template <int R>
void ForwardValues::Engine::Row<R>::fold_other_men() {
  const auto& ours = eng.slots_[us];
  const int up = us == Color::White ? 8 : -8;
  // Squares their men other than the last attack through our king's square (its capture of the
  // last man must not land there).
  Bitboard danger = 0;
  for (int a = 0; a < n_them; ++a) {
    const int k = theirs[static_cast<std::size_t>(a)];
    if (k != last)
      danger |=
          attacks_of(eng.pc_[static_cast<std::size_t>(k)], b.sq[static_cast<std::size_t>(k)], occ0 ^ square_bb(ksq));
  }
  const Target* capture_of_last_p = last_is_ours ? nullptr : &eng.target(last, -1, -1);
  for (int a = 0; a < eng.count_[us]; ++a) {
    const int j = ours[static_cast<std::size_t>(a)];
    if (j == last) continue;
    const auto uj = static_cast<std::size_t>(j);
    const Square from = b.sq[uj];
    const PieceType pt = eng.pt_[uj];
    Bitboard targets;
    Bitboard reach;  // squares whose man it may capture (the last man's when it is theirs)
    if (pt == PieceType::Pawn) {
      reach = pawn_attacks(us, from);
      targets = reach & theirs0;
      const Square one = square_at(to_index(from) + up);
      if (!(occ0 & square_bb(one))) {
        targets |= square_bb(one);
        if (relative_rank(us, from) == 1 && !(occ0 & square_bb(square_at(to_index(one) + up))))
          targets |= square_bb(square_at(to_index(one) + up));
      }
    } else {
      reach = pt == PieceType::King ? king_attacks(from) : attacks_of(eng.pc_[uj], from, occ0);
      targets = reach & ~ours0;
    }
    // Their king's square: where it is attacked the entry is outside the domain, or the last man
    // stands between.
    targets &= ~square_bb(their_king);
    if (!last_is_ours) {
      // Captures of the last man, on every square of reach.
      const Bitboard legal =
          reach & ok & ~(pt == PieceType::King ? danger : hits(them, ksq, occ0 ^ square_bb(from), -1, false));
      if (legal) {
        const Target& capture_of_last = *capture_of_last_p;
        const bool promotes = pt == PieceType::Pawn && relative_rank(us, lsb(legal)) == 7;
        // Man j captures the last man where per_entry() has put it.
        const auto captures_last = [&, j](int q) {
          return [&, j, q](std::uint64_t i) { return eng.after_move(us, i, b, false, j, b.sq[ul], last, q); };
        };
        if (promotes) {
          for (int q = 0; q < 4; ++q) per_entry(legal, captures_last(q));
        } else if (pt != PieceType::King && eng.one_field_[uj] && !diagonal && !capture_of_last.swapped &&
                   capture_of_last.table->index.has_pawns() == eng.idx_.has_pawns()) {
          // The subtable has our kings in the same slot (same scheme, identity symmetry: the row is
          // off the diagonal) and man j alone in its field: its index is linear in j's square.
          const TableIndex& sub = capture_of_last.table->index;
          const std::uint64_t stride_j = sub.stride(capture_of_last.dest[uj]);
          const Square s0 = lsb(legal);
          const std::uint64_t base0 = eng.target_index(capture_of_last, b, j, s0, last) -
                                      static_cast<std::uint64_t>(field_of(pt, s0)) * stride_j;
          DEADPOS_CHECK(capture_of_last.table->has_side(them));
          const std::uint8_t* cw = capture_of_last.table->arrays(them, Color::White).data();
          const std::uint8_t* cb = capture_of_last.table->arrays(them, Color::Black).data();
          per_entry(legal, [&](std::uint64_t) {
            const std::uint64_t n = base0 + static_cast<std::uint64_t>(field_of(pt, b.sq[ul])) * stride_j;
            return Values{{cw[n], cb[n]}};
          });
        } else {
          per_entry(legal, captures_last(-1));
        }
      }
    }
    while (targets) {
      const Square to = pop_lsb(targets);
      const int cap = (theirs0 & square_bb(to)) ? slot_on(to) : -1;
      const bool double_push = pt == PieceType::Pawn && (to_index(to) ^ to_index(from)) == 16;
      Bitboard blocked = square_bb(to);
      if (is_slider(pt) || double_push) blocked |= between_bb(from, to);
      const Bitboard illegal = pt == PieceType::King
                                   ? hits(them, to, occ0 ^ square_bb(from), cap, true)
                                   : hits(them, ksq, (occ0 ^ square_bb(from)) | square_bb(to), cap, true);
      Bitboard legal = ok & ~blocked & ~illegal;
      if (!legal) continue;
      if (pt == PieceType::Pawn && relative_rank(us, to) == 7) {
        for (int q = 0; q < 4; ++q)
          if (!fold_linear_target(eng.target(cap, j, q), j, to, cap, legal))
            per_entry(legal, move_values(j, to, cap, q));
        continue;
      }
      if (cap >= 0) {
        if (!fold_linear_target(eng.target(cap, -1, -1), j, to, cap, legal))
          per_entry(legal, move_values(j, to, cap, -1));
        continue;
      }
      if (double_push) {
        // Beside an enemy pawn the successor may carry an en passant right: through a Position.
        const Bitboard beside = pawn_attacks(us, square_at((to_index(from) + to_index(to)) / 2));
        Bitboard ep = 0;
        if (beside & their_pawns0) {
          ep = legal;
        } else if (!last_is_ours && last_type == PieceType::Pawn) {
          ep = legal & beside;
        }
        if (ep) {
          per_entry(ep, [&, from, to](std::uint64_t) {
            const Position pos = Position::from_men(eng.pc_.data(), b.sq.data(), eng.n_, us);
            return eng.position_values(pos.after(Move::make(from, to)));
          });
          legal &= ~ep;
          if (!legal) continue;
        }
      }
      // The successor row: a shifted row of this table when only the king-pair slot (a king move
      // keeping the identity symmetry) or only man j's field changes; else entry by entry.
      bool shifted = false;
      std::int64_t delta = 0;
      if (j < 2) {
        const Square w = j == 0 ? to : b.sq[0];
        const Square bk = j == 1 ? to : b.sq[1];
        const int slot = eng.slot_of_[static_cast<std::size_t>(to_index(w) * 64 + to_index(bk))];
        shifted = slot >= 0;
        delta = (slot - b.kk) * eng.stride_[0];
      } else if (eng.one_field_[uj] && !diagonal) {  // diagonal: the kings stay on a1-h8
        shifted = true;
        delta = (field_of(pt, to) - field_of(pt, from)) * eng.stride_[uj];
      }
      if (!shifted) {
        const Square wk = j == 0 ? to : b.sq[0];
        const Square bkk = j == 1 ? to : b.sq[1];
        const bool done = fold_linear(eng.t_, last, wk, bkk, legal, [&] {
          TableIndex::Squares sq = b.sq;
          sq[uj] = to;
          return eng.idx_.encode(sq);
        });
        if (!done) per_entry(legal, move_values(j, to, -1, -1));
        continue;
      }
      const std::uint64_t next = row_base + static_cast<std::uint64_t>(delta);
      fold_row<R>(bw, bb, succ_w + next, succ_b + next, legal >> shift);
    }
  }
}

template <int R>
void ForwardValues::Engine::Row<R>::fold_last_man() {
  if (!last_is_ours || !last_by_row) return;
  const int up = us == Color::White ? 8 : -8;
  // Quiet moves: the successor is the same row of the other side's arrays, shifted by the
  // move's field difference (padded copies, so that a shifted read stays inside).
  alignas(64) std::uint8_t pad_w[3 * 64];
  alignas(64) std::uint8_t pad_b[3 * 64];
  std::memset(pad_w, kNoMove, sizeof pad_w);
  std::memset(pad_b, kNoMove, sizeof pad_b);
  std::memcpy(pad_w + 64, succ_w + row_base, R);
  std::memcpy(pad_b + 64, succ_b + row_base, R);
  const auto fold_shifted = [&](Bitboard to, int d) {
    if (to) fold_row<R>(bw, bb, pad_w + 64 + d, pad_b + 64 + d, Step::back(to, d) >> shift);
  };
  // Destinations where the last man leaves our king attacked.
  const Bitboard quiet_ok = ~occ0 & ~hits(them, ksq, occ0, -1, false);
  const auto leap = [&](const auto& steps) {
    for (const Step& st : steps) fold_shifted(st.apply(ok) & quiet_ok, st.d);
  };
  const auto slide = [&](const auto& steps) {
    for (const Step& st : steps) {
      Bitboard cur = ok;
      for (int k = 1; k < 8; ++k) {
        cur = st.apply(cur);
        if (!cur) break;
        fold_shifted(cur & quiet_ok, k * st.d);
        cur &= ~occ0;
      }
    }
  };
  if (last_type == PieceType::Knight) leap(kKnightSteps);
  if (last_type == PieceType::Rook || last_type == PieceType::Queen) slide(kRookSteps);
  if (last_type == PieceType::Bishop || last_type == PieceType::Queen) slide(kBishopSteps);
  if (last_type == PieceType::Pawn) {
    const Step forward{up, ~Bitboard{0}};
    const Bitboard promotion_rank = rank_bb(us == Color::White ? 7 : 0);
    const Bitboard one = forward.apply(ok) & ~occ0;  // single pushes' destinations
    fold_shifted(one & quiet_ok & ~promotion_rank, up);
    // Promotions: a subtable per piece, square by square (at most 8 origins).
    const Bitboard promoting = Step::back(one & quiet_ok & promotion_rank, up);
    for (int q = 0; q < 4; ++q) {
      per_entry(promoting, [&, q](std::uint64_t i) {
        return eng.after_move(us, i, b, false, last, square_at(to_index(b.sq[ul]) + up), -1, q);
      });
    }
    // Double pushes; beside one of their pawns the successor may carry an en passant right
    // (through a Position).
    const Bitboard two = forward.apply(one & rank_bb(us == Color::White ? 2 : 5)) & ~occ0 & quiet_ok;
    Bitboard ep = 0;
    for (Bitboard w = two; w;) {
      const Square to = pop_lsb(w);
      if (pawn_attacks(us, square_at(to_index(to) - up)) & their_pawns0) ep |= square_bb(to);
    }
    fold_shifted(two & ~ep, 2 * up);
    per_entry(Step::back(ep, 2 * up), [&](std::uint64_t) {
      const Position pos = Position::from_men(eng.pc_.data(), b.sq.data(), eng.n_, us);
      return eng.position_values(pos.after(Move::make(b.sq[ul], square_at(to_index(b.sq[ul]) + 2 * up))));
    });
  }
  // Captures of their man c on cs: one successor (per promotion piece) for every square the
  // last man captures from; legal unless another of their men attacks our king (the last man's
  // square is vacated, cs stays occupied).
  for (int a = 1; a < n_them; ++a) {
    const int c = theirs[static_cast<std::size_t>(a)];
    const Square cs = b.sq[static_cast<std::size_t>(c)];
    const Bitboard from = attackers_from(last_pc, cs, occ0) & ok;
    if (!from || (hits(them, ksq, occ0, c, false) & square_bb(cs))) continue;
    b.sq[ul] = lsb(from);
    const bool promotes = last_type == PieceType::Pawn && relative_rank(us, cs) == 7;
    for (int q = promotes ? 0 : -1; q < (promotes ? 4 : 0); ++q) {
      const Values v = eng.after_move(us, row_base, b, false, last, cs, c, q);
      for (Bitboard w = from; w;) {
        const int f = to_index(pop_lsb(w)) - shift;
        fold(bw[f], bb[f], v);
      }
    }
  }
}

template <int R>
template <class Sink>
void ForwardValues::Engine::Row<R>::finish(const Sink& sink) {
  const bool last_by_entry = last_is_ours && !last_by_row;
  for (int f = 0; f < R; ++f) {
    const std::uint64_t i = row_base + static_cast<std::uint64_t>(f);
    const Square s = square_at(f + shift);
    const Bitboard sb = square_bb(s);
    if (!(ok & sb)) {
      sink(i, kInvalidValues);
      continue;
    }
    EntryState st = (check & sb) ? EntryState::Check : EntryState::NoCheck;
    if (last_by_entry) {
      b.sq[ul] = s;
      b.by_color = by0;
      b.by_color[color_of(last_pc)] |= sb;
      b.occ = occ0 | sb;
      st = eng.entry(us, i, b, diagonal, Which::Last, bw[f], bb[f]);
    }
    sink(i, finish_entry(st, us, bw[f], bb[f]));
  }
}

template <class Sink>
void ForwardValues::Engine::walk_slot(Color us, int kk, const Sink& compare) const {
  const std::uint64_t slot_size = idx_.stride(0);
  const std::uint64_t base = static_cast<std::uint64_t>(kk) * slot_size;
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
  if (n_ == 2) {  // KvK: one entry, through entry() with every move
    b.by_color[Color::White] = square_bb(b.sq[0]);
    b.by_color[Color::Black] = square_bb(b.sq[1]);
    b.occ = b.by_color[Color::White] | b.by_color[Color::Black];
    std::uint8_t bw = kNoMove, bb = kNoMove;
    const EntryState st = entry(us, base, b, diagonal_kings, Which::All, bw, bb);
    compare(base, finish_entry(st, us, bw, bb));
    return;
  }
  const int last = n_ - 1;
  const auto ul = static_cast<std::size_t>(last);
  const PieceType last_type = pt_[ul];
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
    if (range == 64) {
      check_row<64>(us, row_base, b, by_color, diagonal_kings, compare);
    } else {
      check_row<48>(us, row_base, b, by_color, diagonal_kings, compare);
    }
  }
}

ForwardValues::ForwardValues(const LoadedTable& t, const TableSet& subtables)
    : engine_(std::make_unique<const Engine>(t, subtables)) {}
ForwardValues::~ForwardValues() = default;

int ForwardValues::slots() const { return engine_->slots(); }
std::uint64_t ForwardValues::slot_entries() const { return engine_->slot_entries(); }

void ForwardValues::slot_values(Color us, int kk, const ByColor<std::uint8_t*>& out) const {
  engine_->slot_values(us, kk, out);
}

}  // namespace deadpos::internal
