#include "support/forward_search.h"

#include <algorithm>
#include <bit>

#include "deadpos/result.h"

namespace deadpos::test {
namespace {

// transformed(g, s) as a table (symmetry_key is a fifth of the oracle test's time).
constexpr std::array<std::array<std::uint8_t, 64>, 8> kTransformed = [] {
  std::array<std::array<std::uint8_t, 64>, 8> t{};
  for (int g = 0; g < 8; ++g)
    for (int s = 0; s < 64; ++s)
      t[static_cast<std::size_t>(g)][static_cast<std::size_t>(s)] =
          static_cast<std::uint8_t>(to_index(transformed(g, static_cast<Square>(s))));
  return t;
}();

// For each square, the symmetries g that map it into the triangle a1-d1-d4 (file <= 3, rank <=
// file): one for a square off the diagonals, two for a square on one (the triangle's 10 squares
// are 4 orbits of 4 squares and 6 orbits of 8).
constexpr std::array<std::uint8_t, 64> kToTriangle = [] {
  std::array<std::uint8_t, 64> t{};
  for (int s = 0; s < 64; ++s)
    for (int g = 0; g < 8; ++g) {
      const Square x = transformed(g, static_cast<Square>(s));
      if (file_index(x) <= 3 && rank_index(x) <= file_index(x))
        t[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(t[static_cast<std::size_t>(s)] | (1U << g));
    }
  return t;
}();

}  // namespace

std::string rules_key(const Position& p) {
  std::string k(67, '\0');
  for (int i = 0; i < 64; ++i) k[static_cast<std::size_t>(i)] = static_cast<char>(p.piece_on(square_at(i)));
  k[64] = static_cast<char>(p.side_to_move());
  k[65] = static_cast<char>(p.castling_rights());
  k[66] = static_cast<char>(p.en_passant() ? to_index(*p.en_passant()) : 64);
  return k;
}

// Two positions get one key iff their candidate sets of g give the same images. A later field is
// never 0 (its square is above an earlier one), so keys of 3 and 4 men differ.
std::uint64_t symmetry_key(const Position& pos) {
  std::array<int, 4> sq{}, pc{};
  int n = 0;
  Bitboard b = pos.pieces();
  DEADPOS_CHECK(popcount(b) <= 4);
  while (b) {
    const Square s = pop_lsb(b);
    sq[static_cast<std::size_t>(n)] = to_index(s);
    pc[static_cast<std::size_t>(n)] = static_cast<int>(pos.piece_on(s));
    ++n;
  }
  const Square wk = pos.king_square(Color::White);
  unsigned candidates;
  if (pos.pieces(PieceType::Pawn) != 0) {
    candidates = file_index(wk) <= 3 ? 1U : 4U;  // g = 0 or g = 2 (flip_horizontal)
  } else {
    candidates = kToTriangle[static_cast<std::size_t>(to_index(wk))];
  }
  std::uint64_t best = ~std::uint64_t{0};
  while (candidates) {
    const int g = std::countr_zero(candidates);
    candidates &= candidates - 1;
    const auto& tg = kTransformed[static_cast<std::size_t>(g)];
    std::array<std::uint64_t, 4> f{};
    for (int i = 0; i < n; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      f[ui] = static_cast<std::uint64_t>(tg[static_cast<std::size_t>(sq[ui])] << 4 | pc[ui]);
      for (std::size_t j = ui; j > 0 && f[j - 1] > f[j]; --j) std::swap(f[j - 1], f[j]);
    }
    std::uint64_t k = pos.side_to_move() == Color::White ? 0U : 1U;
    if (pos.en_passant())
      k |= static_cast<std::uint64_t>(tg[static_cast<std::size_t>(to_index(*pos.en_passant()))] + 1) << 1;
    for (int i = 0; i < n; ++i) k |= f[static_cast<std::size_t>(i)] << (8 + 10 * i);
    best = std::min(best, k);
  }
  return best;
}

// A move checks directly (the moved man attacks the king from its new square) or by discovery (its
// old square lies on a line through the king); promotions, en passant and castling are always let
// through.
bool may_give_check(const Position& pos, Move m) {
  if (m.kind() != Move::Kind::Normal) return true;
  const Color us = pos.side_to_move();
  const Square ksq = pos.king_square(~us);
  const Square from = m.from(), to = m.to();
  if (line_bb(from, ksq) != 0) return true;
  const Bitboard occ = (pos.pieces() ^ square_bb(from)) | square_bb(to);
  const Bitboard k = square_bb(ksq);
  switch (type_of(pos.piece_on(from))) {
    case PieceType::Pawn: return (pawn_attacks(us, to) & k) != 0;
    case PieceType::Knight: return (knight_attacks(to) & k) != 0;
    case PieceType::Bishop: return (bishop_attacks(to, occ) & k) != 0;
    case PieceType::Rook: return (rook_attacks(to, occ) & k) != 0;
    case PieceType::Queen: return (queen_attacks(to, occ) & k) != 0;
    case PieceType::King: return false;
  }
  return true;
}

bool FlatSet::insert(std::uint64_t k) {
  const std::uint64_t stored = k + 1;  // 0 marks an empty slot
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = home(k);
  while (slots_[i] != 0) {
    if (slots_[i] == stored) return false;
    i = (i + 1) & mask;
  }
  DEADPOS_CHECK(used_.size() < slots_.size() / 2);
  slots_[i] = stored;
  used_.push_back(static_cast<std::uint32_t>(i));
  return true;
}

void FlatSet::clear() {
  for (std::uint32_t i : used_) slots_[i] = 0;
  used_.clear();
}

SymmetryKeys::Set::Set(std::uint64_t max_nodes) : FlatSet(static_cast<int>(std::bit_width(2 * max_nodes + 4096))) {}

template <typename Keys>
SearchResult ForwardSearch<Keys>::run(const Position& start, const Options& o) {
  using Key = typename Keys::Key;
  SearchResult r;
  seen_.clear();
  frontier_.clear();
  const ByColor<std::uint64_t>& budget = o.budget;
  const ByColor<int>& horizon = o.horizon;
  const auto* closed = o.closed;
  const bool prune = o.prune;
  DEADPOS_CHECK(budget[Color::White] < seen_.capacity() - 256 && budget[Color::Black] < seen_.capacity() - 256);
  for (Color x : {Color::White, Color::Black}) r.impossible[x] = prune && bare_king(start, ~x);
  auto active = [&] {
    for (Color x : {Color::White, Color::Black})
      if (r.first_mate[x] < 0 && !r.impossible[x] && r.nodes < budget[x]) return true;
    return false;
  };
  // Whether a position may still lead to a mate the search looks for.
  auto relevant = [&](const Position& p) {
    if (!prune) return true;
    for (Color x : {Color::White, Color::Black})
      if (r.first_mate[x] < 0 && !bare_king(p, ~x)) return true;
    return false;
  };
  // The legal moves of p that the search follows.
  auto moves_of = [&](const Position& p, MoveList& moves) {
    p.legal_moves(moves);
    if (o.skip == nullptr) return;
    MoveList kept;
    for (Move m : moves)
      if (!o.skip(p, m)) kept.push(m);
    moves = kept;
  };
  const Key k0 = Keys::key(start);
  seen_.insert(k0);
  r.nodes = 1;
  if (!(closed && closed->count(k0))) {
    if (!start.has_legal_move()) {
      if (start.in_check()) {
        r.first_mate[start.side_to_move()] = 0;
        r.nodes_at_find[start.side_to_move()] = 1;
      }
    } else if (relevant(start)) {
      frontier_.push_back(start);
    }
  }
  int depth = 0;
  MoveList moves;
  std::vector<Key> keys(MoveList::kCapacity);
  while (true) {
    if (frontier_.empty()) {
      r.exhausted = true;
      break;
    }
    if (!active() || depth >= o.max_plies) break;
    bool last = true;
    for (Color x : {Color::White, Color::Black})
      if (r.first_mate[x] < 0 && !r.impossible[x] && r.nodes < budget[x] && horizon[x] != depth + 1) last = false;
    if (last) {
      for (const Position& p : frontier_) {
        if (!active()) return r;  // level depth + 1 only partly examined: completed = depth
        moves_of(p, moves);
        for (Move m : moves) {
          if (!may_give_check(p, m)) continue;
          const Position c = p.after(m);
          ++r.nodes;
          if (c.in_check() && !c.has_legal_move() && r.first_mate[c.side_to_move()] < 0) {
            r.first_mate[c.side_to_move()] = depth + 1;
            r.nodes_at_find[c.side_to_move()] = r.nodes;
          }
        }
      }
      r.completed = depth + 1;
      return r;
    }
    next_.clear();
    bool stopped = false;
    for (const Position& p : frontier_) {
      if (!active()) {
        stopped = true;  // level depth + 1 only partly generated
        break;
      }
      moves_of(p, moves);
      // Keys of all children first, their slots prefetched; then the probes (make/undo: no copy
      // of the children already seen).
      Position c = p;
      for (int i = 0; i < moves.size(); ++i) {
        const UndoInfo u = c.make_move(moves[i]);
        keys[static_cast<std::size_t>(i)] = Keys::key(c);
        seen_.prefetch(keys[static_cast<std::size_t>(i)]);
        c.undo_move(moves[i], u);
      }
      for (int i = 0; i < moves.size(); ++i) {
        const Move m = moves[i];
        const Key& k = keys[static_cast<std::size_t>(i)];
        if ((closed && closed->count(k)) || !seen_.insert(k)) continue;
        const UndoInfo u = c.make_move(m);
        ++r.nodes;
        if (c.in_check() && !c.has_legal_move()) {
          const Color x = c.side_to_move();
          if (r.first_mate[x] < 0) {
            r.first_mate[x] = depth + 1;
            r.nodes_at_find[x] = r.nodes;
          }
        } else if (relevant(c)) {
          next_.push_back(c);  // stalemates go on too: they have no move to expand
        }
        c.undo_move(m, u);
      }
    }
    if (stopped) break;
    ++depth;
    r.completed = depth;
    frontier_.swap(next_);
  }
  return r;
}

template class ForwardSearch<SymmetryKeys>;
template class ForwardSearch<ExactKeys>;

ForwardMates forward_mates(const Position& root, int max_plies, std::size_t max_nodes,
                           bool (*skip)(const Position&, Move)) {
  ForwardSearch<ExactKeys> search(max_nodes);
  ForwardSearch<ExactKeys>::Options o;
  o.budget = ByColor<std::uint64_t>{{max_nodes, max_nodes}};
  o.max_plies = max_plies;
  o.skip = skip;
  const SearchResult r = search.run(root, o);
  ForwardMates out;
  for (Color x : {Color::White, Color::Black})
    if (r.first_mate[x] >= 0) out.plies[x] = r.first_mate[x];
  if (out.plies[Color::White] && out.plies[Color::Black]) {
    out.searched_plies = std::max(*out.plies[Color::White], *out.plies[Color::Black]);
  } else {
    out.searched_plies = r.exhausted ? max_plies : std::min(r.completed, max_plies);
  }
  out.nodes = r.nodes;
  return out;
}

}  // namespace deadpos::test
