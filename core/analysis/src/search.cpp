// Answers beyond the tables (docs/design.md, "Beyond the tables"): can X be checkmated from a
// position with any number of men?
//
// One mechanism decides both ways: a best-first search over the positions reachable from the root,
// with an exact set of the positions seen (a transposition table that never merges two positions
// with different answers: without pawns and castling, one per class of board symmetry). Each
// generated position is
//  * a checkmate of X: found; the path to it is the certificate line;
//  * in the tables (at most table_men men, table present): the table decides it exactly; if X can be
//    mated there, the line is the path plus the table's shortest line; if not, the branch is closed;
//  * closed by a rule (cannot_mate_rule);
//  * otherwise stored once and expanded later, in the order of a heuristic that drives toward mate
//    (two stages with different orders, see analyze_side in analyze.cpp).
// If the queue runs empty, every position reachable from the root has been seen and none leads to a
// checkmate of X: "cannot mate", exhausted. The heuristic only orders the search: it can make an
// answer slower or undetermined, never wrong.
#include "search.h"

#include "locks.h"

#include <bit>
#include <new>

namespace deadpos::internal {

constexpr int kMenWeight = 6;
constexpr int kCaptureBonus = 6;

// Chebyshev distance (king moves) between two squares; square_distance's value, inlined here
// because the estimate runs once per stored position.
inline int king_distance(Square a, Square b) {
  const int df = static_cast<int>(file_of(a)) - static_cast<int>(file_of(b));
  const int dr = static_cast<int>(rank_of(a)) - static_cast<int>(rank_of(b));
  return std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr);
}

int Search::estimate(const Position& p) const {
  const Color x = mated_, w = ~mated_;
  const Square kx = p.king_square(x);
  const Square kw = p.king_square(w);
  const Bitboard occ = p.pieces() ^ square_bb(kx);
  // Flight squares of the mated king: neither held by its own men nor attacked by the mater.
  // The leapers' attacks are unions of table entries; only the squares they leave free need the
  // two slider lookups (what Position::attacked_by does square by square, in one pass).
  Bitboard zone = king_attacks(kx) & ~p.pieces(x);
  Bitboard leapers = king_attacks(kw);
  for (Bitboard b = p.pieces(w, PieceType::Knight); b;) leapers |= knight_attacks(pop_lsb(b));
  const Bitboard wp = p.pieces(w, PieceType::Pawn);
  leapers |= pawn_attacks_bb(w, wp);
  zone &= ~leapers;
  const Bitboard queens = p.pieces(w, PieceType::Queen);
  const Bitboard diagonal = p.pieces(w, PieceType::Bishop) | queens;
  const Bitboard straight = p.pieces(w, PieceType::Rook) | queens;
  int flights = 0;
  while (zone) {
    const Square s = pop_lsb(zone);
    if (!(straight && (rook_attacks(s, occ) & straight)) && !(diagonal && (bishop_attacks(s, occ) & diagonal)))
      ++flights;
  }
  // The nearest mating piece (pawns by their distance to promotion, as the queen they can become).
  int nearest = 16;
  Bitboard pieces = p.pieces(w) & ~p.pieces(w, PieceType::King) & ~p.pieces(w, PieceType::Pawn);
  while (pieces) nearest = std::min(nearest, king_distance(pop_lsb(pieces), kx));
  if (wp) {  // the most advanced pawn: the highest one of White's, the lowest one of Black's
    const Square s = w == Color::White ? square_at(63 - std::countl_zero(wp)) : lsb(wp);
    nearest = std::min(nearest, 2 + (7 - relative_rank(w, s)) + 1);
  }
  const int kings = king_distance(kw, kx);
  // Edge distance of the mated king: mates on the edge need fewer men.
  const int f = static_cast<int>(file_of(kx)), r = static_cast<int>(rank_of(kx));
  const int edge = std::min(std::min(f, 7 - f), std::min(r, 7 - r));
  int h = 6 * flights + 2 * nearest + kings + edge;
  if (p.side_to_move() == x && p.in_check()) h -= 3;
  // Fewer men: closer to the tables, where the rest is exact. One man above them, a capture by the
  // side to move reaches them: its answer is exact at once, so such positions go first.
  if (leaf_men_ > 0) {
    const int above = std::max(0, p.men() - leaf_men_);
    h += kMenWeight * above;
    if (above == 1 && can_capture(p)) h -= kCaptureBonus;
  }
  return std::max(h, 0);
}

bool Search::insert(const Key& k, std::uint64_t h, std::uint32_t id) {
  if ((nodes_.size() + 1) * 2 > slot_count_) grow();
  const std::size_t mask = slot_count_ - 1;
  // A slot holds the high 32 bits of the hash and the node id: one cache line read per probe, the
  // node's key only read when the tags agree.
  const std::uint64_t tag = h & ~std::uint64_t{0xFFFFFFFFU};
  for (std::size_t i = static_cast<std::size_t>(h) & mask;; i = (i + 1) & mask) {
    const std::uint64_t s = slots_[i];
    if (s == kEmptySlot) {
      slots_[i] = tag | id;
      return true;
    }
    if ((s & ~std::uint64_t{0xFFFFFFFFU}) == tag && nodes_[static_cast<std::uint32_t>(s)].key == k) return false;
  }
}

void Search::grow() {
  const std::size_t old = slot_count_, n = old ? old * 2 : 1024;
  if (spare_.size() < old) spare_.resize(old);
  std::copy(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(old), spare_.begin());
  if (slots_.size() < n) slots_.resize(n);
  std::fill(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(n), kEmptySlot);
  slot_count_ = n;
  for (std::size_t j = 0; j < old; ++j) {
    const std::uint64_t s = spare_[j];
    if (s == kEmptySlot) continue;
    const std::uint64_t h = hash_of(nodes_[static_cast<std::uint32_t>(s)].key);
    for (std::size_t i = static_cast<std::size_t>(h) & (n - 1);; i = (i + 1) & (n - 1)) {
      if (slots_[i] == kEmptySlot) {
        slots_[i] = s;
        break;
      }
    }
  }
}

std::vector<Move> Search::path_to(std::uint32_t id, const std::vector<Move>& rest) const {
  std::vector<std::uint32_t> chain;
  for (; id != kNoParent && nodes_[id].parent != kNoParent; id = nodes_[id].parent) chain.push_back(id);
  std::reverse(chain.begin(), chain.end());
  // Each stored move is in its parent's frame (the stored key's orientation; the root's is the
  // real board). to_frame maps real squares to the current frame; moves map back through its
  // inverse. Without pawns or castling, every move is a plain from-to move.
  std::array<Square, 64> to_frame{}, to_real{};
  for (int s = 0; s < 64; ++s) to_frame[static_cast<std::size_t>(s)] = square_at(s);
  auto real = [&](Move m) {
    // The identity (the common case): of the 8 symmetries only it fixes a1, h1 and h8.
    if (to_frame[0] == square_at(0) && to_frame[7] == square_at(7) && to_frame[63] == square_at(63)) return m;
    for (int s = 0; s < 64; ++s)
      to_real[static_cast<std::size_t>(to_index(to_frame[static_cast<std::size_t>(s)]))] = square_at(s);
    return Move::make(to_real[static_cast<std::size_t>(to_index(m.from()))],
                      to_real[static_cast<std::size_t>(to_index(m.to()))], m.kind(),
                      m.kind() == Move::Kind::Promotion ? m.promotion() : PieceType::Knight);
  };
  std::vector<Move> line;
  for (std::uint32_t i : chain) {
    line.push_back(real(nodes_[i].move));
    const int t = nodes_[i].sym();
    for (auto& q : to_frame) q = sym_square(t, q);
  }
  for (Move m : rest) line.push_back(real(m));
  return line;
}

Result<MateAnswer> Search::found(const Position& root, std::uint32_t parent, const std::vector<Move>& rest,
                                 int table_dthm) {
  MateAnswer a;
  a.mated = mated_;
  a.method = Method::Search;
  a.positions = generated_;
  a.line = path_to(parent, rest);
  // The certificate is replayed by the move generator: every move legal, the end a checkmate of
  // `mated` (or, without a line asked for, a position whose table gives `mated` a finite DTHM).
  // A failure is a defect, reported as an error, never returned as an answer.
  const auto bad = [&](const char* what) {
    return make_error(ErrorCode::InvalidMove,
                      std::string("internal: helpmate line from ") + root.to_fen() + " " + what);
  };
  Position p = root;
  for (Move m : a.line) {
    if (!p.legal_moves().contains(m)) return bad("has an illegal move");
    p.make_move(m);
  }
  if (table_dthm != 0) {
    // The table's DTHM where the line enters it: a leaf found by its verdict (table_dthm < 0) reads
    // it here, once per answer.
    CastlingLimits again = whole_budget();
    auto t = ProbeDoor::probe(tb_, p, again);
    if (!t) return t.error();
    if (!t->dthm[mated_] || (table_dthm > 0 && *t->dthm[mated_] != table_dthm))
      return bad("does not reach the table position it was found in");
    table_dthm = *t->dthm[mated_];
  }
  if (table_dthm > 0) {
    a.plies = static_cast<int>(a.line.size()) + table_dthm;
    if (!want_line_) {
      a.shortest = a.plies <= 2;  // as for a printed line, below: the answer must not depend on --line
      return a;
    }
    // The table's shortest line from there, on the real board.
    CastlingLimits for_line = whole_budget();
    auto l = ProbeDoor::helpmate_line(tb_, p, mated_, for_line);
    if (!l) {
      // The helpmate is proven (its path replayed into a table that gives the rest); only its
      // printed tail is missing.
      a.line.clear();
      a.line_error = l.error();
      return a;
    }
    for (Move m : *l) {
      if (!p.legal_moves().contains(m)) return bad("has an illegal move");
      p.make_move(m);
      a.line.push_back(m);
    }
  }
  if (p.side_to_move() != mated_ || !p.is_checkmate()) return bad("does not end in mate");
  a.plies = static_cast<int>(a.line.size());
  // The root is not a checkmate (run() answers that before searching), so no helpmate is shorter
  // than one ply; and X is mated only with X to move, so a helpmate of X has an even number of
  // plies when X is to move at the root (a line ends with X to move): at least two. A line of one
  // ply, or of two, is therefore the DTHM.
  a.shortest = a.plies <= 2;
  return a;
}

bool Search::out_of_budget(BudgetKind& why) {
  if (opt_.budget.nodes && generated_ >= opt_.budget.nodes) {
    why = BudgetKind::Nodes;
    return true;
  }
  // The store's bytes and the next doubling of either vector (old and new are held at once while
  // it moves).
  const std::size_t node_bytes = nodes_.capacity() * sizeof(Node);
  const std::size_t slot_bytes = slot_count_ * sizeof(std::uint64_t);
  const std::size_t next = (nodes_.size() == nodes_.capacity() ? 2 * node_bytes : 0) +
                           ((nodes_.size() + 1) * 2 > slot_count_ ? 2 * slot_bytes : 0);
  if (store_bytes() + next >= opt_.budget.memory_bytes) {
    why = BudgetKind::Memory;
    return true;
  }
  // The clock is read every 256 checks (one check per generated position).
  if (deadline_ && (++checks_ & 255) == 0 && std::chrono::steady_clock::now() >= *deadline_) {
    why = BudgetKind::Time;
    return true;
  }
  return false;
}

Status Search::fill_root_table(const Position& root, RootTable& root_table) {
  if (root_table.done) return Ok{};
  // The tables answer a checkmate or stalemate by the rules alone (Tablebase::probe), whether or
  // not its material's table is loaded; such a root is credited to the board, not to a table that
  // is absent (docs/cli.md: `[table KEY]` only when its material has a table).
  if (!root.has_legal_move() && !ProbeDoor::has_table(tb_, root)) {
    root_table = RootTable{true, std::nullopt};
    return Ok{};
  }
  try {
    auto t = table_answer(root, table_men_);
    if (!t) return t.error();
    root_table = RootTable{true, std::move(*t)};
  } catch (const std::bad_alloc&) {
    root_table = RootTable{true, std::nullopt};
  }
  return Ok{};
}

Result<MateAnswer> Search::run(const Position& root, bool want_line, const RootTable& root_table) {
  want_line_ = want_line;
  MateAnswer a;
  a.mated = mated_;
  // The tables answer exactly (and with the shortest line) whatever they cover. A castling search
  // at the root that ran out of the budget left the root to the search below, which then has the
  // budget again (AnalysisBudget: at most twice the nodes in all).
  if (const auto& t = root_table.answer) {
    a.method = Method::Table;
    a.dthm = t->dthm[mated_];
    a.shortest = true;
    if (want_line && a.dthm) {
      CastlingLimits for_line = whole_budget();
      auto l = ProbeDoor::helpmate_line(tb_, root, mated_, for_line);
      if (l) {
        a.line = std::move(*l);
      } else {
        a.line_error = l.error();  // the table's answer stands without its line
      }
    }
    return a;
  }
  // The board first (docs/cli.md, "Invariants"): a checkmate or stalemate on the board is decided
  // by the rules of play alone, before any rule of the analysis, whose proofs may assume more.
  if (!root.has_legal_move()) {
    if (root.in_check() && root.side_to_move() == mated_) {
      a.method = Method::Search;
      a.shortest = true;
      a.positions = 1;
      return a;
    }
    a.method = Method::Exhausted;
    a.positions = 1;
    return a;
  }
  // The rules speak only of positions after a move (every rule's proof in docs/design.md, "Beyond
  // the tables", is about the positions a move can produce, whatever the position before it), and
  // the root itself was decided just above: so they close the root of a position no game can reach
  // (deadpos/reachability.h) as soundly as any other.
  if (const AnalysisRule r = cannot_mate_rule(root, mated_); r != AnalysisRule::None) {
    a.method = Method::Rule;
    a.rule = r;
    a.reason = rule_text(r);
    return a;
  }
  if (locked_cannot_mate(root, mated_, &a.reason)) {
    a.method = Method::Rule;
    a.rule = AnalysisRule::LockedStructure;
    return a;
  }
  // The root is expanded as given (its frame is the real board); its key is only for duplicates.
  int root_sym = 0;
  nodes_.clear();
  // Start small: clearing a table kept from a big search would cost more than most searches.
  slot_count_ = 4096;
  if (slots_.size() < slot_count_) slots_.resize(slot_count_);
  std::fill(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(slot_count_), kEmptySlot);
  for (auto& b : buckets_) b.clear();
  nodes_.push_back(Node{stored_key(root, &root_sym), kNoParent, Move::none(), 0});
  insert(nodes_[0].key, hash_of(nodes_[0].key), 0);
  generated_ = 1;
  if (buckets_.empty()) buckets_.resize(1);
  buckets_[0].push_back(0);
  std::size_t lowest = 0;
  BudgetKind why = BudgetKind::None;
  for (;;) {
    while (lowest < buckets_.size() && buckets_[lowest].empty()) ++lowest;
    if (lowest == buckets_.size()) break;  // every reachable position seen: exhausted
    const std::uint32_t u = buckets_[lowest].back();
    buckets_[lowest].pop_back();
    const Position pu = u == 0 ? root : position_of(nodes_[u].key);
    const int g = nodes_[u].g();
    const MoveList moves = pu.legal_moves();
    for (Move m : moves) {
      if (out_of_budget(why)) {
        a.method = Method::Undetermined;
        a.budget = why;
        a.positions = generated_;
        return a;
      }
      Position c = pu.after(m);
      ++generated_;
      if (c.side_to_move() == mated_ && c.in_check() && !c.has_legal_move()) return found(root, u, {m}, 0);
      auto tc = table_verdict(c, leaf_men_);
      if (!tc) return tc.error();
      if (*tc) {
        if (!(*tc)->can_be_mated(mated_)) continue;  // the table proves no mate from here
        return found(root, u, {m}, kFromVerdict);
      }
      if (cannot_mate_rule(c, mated_, &rule_cache_) != AnalysisRule::None) continue;
      // The locked-structure rule is tried only where the pawns or the men changed (or the
      // parent had an en passant square, where it declines): after a quiet piece or king move
      // the regions under the parent's frozen set are the parent's, so the test fails as it did
      // there. Skipping it never changes an answer (docs/design.md, "Locked structures").
      if ((c.pieces(PieceType::Pawn) != pu.pieces(PieceType::Pawn) || c.men() != pu.men() || pu.en_passant()) &&
          locked_cannot_mate(c, mated_)) {
        continue;
      }
      int sym = 0;
      const Key k = stored_key(c, &sym);
      const std::uint64_t h = hash_of(k);
      const auto id = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(Node{k, u, m, static_cast<std::uint16_t>(std::min(g + 1, 8191) << 3 | sym)});
      if (!insert(k, h, id)) {
        nodes_.pop_back();
        continue;
      }
      // One man above the tables: every capture from c lands in them and is answered exactly, so
      // look one capture ahead now (a mate found here needs no expansion of c; c stays queued,
      // so the search still covers everything reachable).
      if (c.men() == leaf_men_ + 1 && can_capture(c)) {
        for (Move mc : c.legal_moves()) {
          if (c.piece_on(mc.to()) == kNoPiece && mc.kind() != Move::Kind::EnPassant) continue;
          const Position cc = c.after(mc);
          ++generated_;
          auto tcc = table_verdict(cc, leaf_men_);
          if (!tcc) return tcc.error();
          if (!*tcc || !(*tcc)->can_be_mated(mated_)) continue;
          return found(root, u, {m, mc}, kFromVerdict);
        }
      }
      // Priority: twice the estimate plus the plies so far over the stage's divisor (16: greedy with
      // a weak pull toward short lines; 1: broader).
      const std::size_t f = static_cast<std::size_t>(2 * estimate(c) + (g + 1) / plies_divisor_);
      if (f >= buckets_.size()) buckets_.resize(f + 1);
      buckets_[f].push_back(id);
      lowest = std::min(lowest, f);
    }
  }
  a.method = Method::Exhausted;
  a.positions = nodes_.size();  // the distinct positions of the reachable set beyond tables and rules
  return a;
}

}  // namespace deadpos::internal
