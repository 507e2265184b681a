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
//    (two stages with different orders, see Tablebase::analyze_side).
// If the queue runs empty, every position reachable from the root has been seen and none leads to a
// checkmate of X: "cannot mate", exhausted. The heuristic only orders the search: it can make an
// answer slower or undetermined, never wrong.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <new>

#include <unistd.h>

#include "castling_search.h"
#include "deadpos/analysis.h"
#include "deadpos/material.h"
#include "deadpos/tablebase.h"

namespace deadpos {

const char* method_name(Method m) {
  switch (m) {
    case Method::Table: return "table";
    case Method::Search: return "search";
    case Method::Exhausted: return "exhausted";
    case Method::Rule: return "rule";
    case Method::Undetermined: return "undetermined";
  }
  return "?";
}

const char* rule_name(AnalysisRule r) {
  switch (r) {
    case AnalysisRule::None: return "none";
    case AnalysisRule::LoneKing: return "lone-king";
    case AnalysisRule::SameColouredBishops: return "same-coloured-bishops";
    case AnalysisRule::NoCheckmatePlacement: return "no-checkmate-placement";
    case AnalysisRule::OneColourBishops: return "one-colour-bishops";
  }
  return "?";
}

const char* budget_name(BudgetKind b) {
  switch (b) {
    case BudgetKind::None: return "none";
    case BudgetKind::Nodes: return "nodes";
    case BudgetKind::Time: return "time";
    case BudgetKind::Memory: return "memory";
    case BudgetKind::OutOfMemory: return "out-of-memory";
  }
  return "?";
}

namespace {

// Whether some placement of the pawnless material m is a checkmate of `mated` (`mated` to move,
// the other side not in check). Enumerates every placement with the mated king on one of the 10
// squares of the a1-d1-d4 triangle: the 8 board symmetries map checkmates to checkmates when
// there are no pawns (and a checkmate never depends on castling rights). Placements in which no
// piece of the mating side attacks the mated king on an empty board are cut early (pieces placed
// later can only block lines). About 10 * 63 * 62 * 61 placements for 4 men: callers limit men.
bool has_checkmate_placement(const Material& m, Color mated) {
  const Color w = ~mated;
  std::vector<Piece> men{make_piece(mated, PieceType::King)};
  for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
    for (int k = 0; k < m.count[w][pt]; ++k) men.push_back(make_piece(w, pt));
  const std::size_t checkers_end = men.size();
  men.push_back(make_piece(w, PieceType::King));
  for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
    for (int k = 0; k < m.count[mated][pt]; ++k) men.push_back(make_piece(mated, pt));
  if (checkers_end == 1) return false;                                            // a lone king never gives check
  constexpr std::array<int, 10> kTriangle = {0, 1, 2, 3, 9, 10, 11, 18, 19, 27};  // a1 b1 c1 d1 b2 c2 d2 c3 d3 d4
  std::array<Square, 8> sq{};
  const int n = static_cast<int>(men.size());
  // Depth-first over the men; `used` holds the squares taken so far.
  auto place = [&](auto&& self, int i, Bitboard used) -> bool {
    if (i == n) {
      const Position p = Position::from_men(men.data(), sq.data(), n, mated);
      if (p.attacked_by(mated, p.king_square(w), p.pieces())) return false;  // the mater in check: illegal
      return p.in_check() && !p.has_legal_move();
    }
    if (static_cast<std::size_t>(i) == checkers_end) {
      // Every checking candidate is placed: one must attack the king square on an empty board.
      bool any = false;
      for (std::size_t j = 1; j < checkers_end; ++j)
        any = any || (piece_attacks(type_of(men[j]), sq[j], square_bb(sq[0])) & square_bb(sq[0]));
      if (!any) return false;
    }
    for (int s = 0; s < 64; ++s) {
      if (i == 0 && std::find(kTriangle.begin(), kTriangle.end(), s) == kTriangle.end()) continue;
      const Square q = square_at(s);
      if (used & square_bb(q)) continue;
      if (type_of(men[static_cast<std::size_t>(i)]) == PieceType::King && i > 0 && (king_attacks(sq[0]) & square_bb(q)))
        continue;
      sq[static_cast<std::size_t>(i)] = q;
      if (self(self, i + 1, used | square_bb(q))) return true;
    }
    return false;
  };
  return place(place, 0, 0);
}

// Whether no placement of m, nor of any material left from it by captures, is a checkmate of
// `mated` (pawnless materials of at most kMaxEnumeratedMen men only; nullopt otherwise). Computed
// once per material and side per process.
constexpr int kMaxEnumeratedMen = 4;
std::optional<bool> no_checkmate_placement(const Material& m, Color mated) {
  if (m.has_pawns() || m.men() > kMaxEnumeratedMen) return std::nullopt;
  static std::mutex mu;
  static std::map<std::uint64_t, bool> memo;
  std::uint64_t key = mated == Color::White ? 0 : 1;  // the counts, 4 bits each, and the side
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt : kMaterialOrder) key = (key << 4) | static_cast<std::uint64_t>(m.count[c][pt]);
  {
    std::lock_guard lock(mu);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
  }
  bool none = !has_checkmate_placement(m, mated);
  for (Color c : {Color::White, Color::Black}) {
    for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
      if (!none || m.count[c][pt] == 0) continue;
      Material sub = m;
      --sub.count[c][pt];
      none = *no_checkmate_placement(sub, mated);
    }
  }
  std::lock_guard lock(mu);
  memo.emplace(key, none);
  return none;
}

// A rule that proves `mated` can never be checkmated from p (docs/design.md, "Beyond the tables",
// gives each soundness argument). Men never increase, so each rule holds in every later position.
// The men counts of p by colour and type, 4 bits each: a cheap material identity.
std::uint64_t material_code(const Position& p) {
  std::uint64_t code = 0;
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < 5; ++t)
      code = (code << 4) | static_cast<std::uint64_t>(popcount(p.pieces(c, static_cast<PieceType>(t))));
  return code;
}

// Per search: the last material asked of no_checkmate_placement and its answer (a search meets
// few materials, and the process-wide memo takes a lock).
struct RuleCache {
  std::uint64_t code = ~std::uint64_t{0};
  bool none = false;
};

AnalysisRule cannot_mate_rule(const Position& p, Color mated, RuleCache* cache = nullptr) {
  const Color w = ~mated;
  // A king never gives check (kings never stand adjacent), and without a pawn the mating side
  // can never get another man.
  if (p.pieces(w) == p.pieces(w, PieceType::King)) return AnalysisRule::LoneKing;
  // Only kings and bishops, all bishops on one colour, no pawns: the squares next to the mated
  // king orthogonally are of the other colour, and only the mating king could cover them.
  const Bitboard men = p.pieces() & ~p.pieces(PieceType::King);
  if (men == p.pieces(PieceType::Bishop) && ((men & kLightSquares) == men || (men & kDarkSquares) == men)) {
    return AnalysisRule::SameColouredBishops;
  }
  // The mater has only bishops, all on one colour; the mated side only queens, rooks and bishops
  // of that colour; no pawns, no knights: the check is a single bishop check, and a queen or rook
  // next to the mated king can always take or block it.
  const Bitboard wb = p.pieces(w, PieceType::Bishop);
  if (wb && p.pieces(w) == (wb | p.pieces(w, PieceType::King)) && !p.pieces(PieceType::Pawn) &&
      !p.pieces(PieceType::Knight)) {
    const Bitboard colour = (wb & kLightSquares) ? kLightSquares : kDarkSquares;
    if (!(wb & ~colour) && !(p.pieces(mated, PieceType::Bishop) & ~colour)) return AnalysisRule::OneColourBishops;
  }
  if (p.men() <= kMaxEnumeratedMen && !p.pieces(PieceType::Pawn)) {
    bool none;
    const std::uint64_t code = cache ? material_code(p) : 0;
    if (cache && cache->code == code) {
      none = cache->none;
    } else {
      none = no_checkmate_placement(Material::of(p), mated) == true;
      if (cache) *cache = RuleCache{code, none};
    }
    if (none) return AnalysisRule::NoCheckmatePlacement;
  }
  return AnalysisRule::None;
}

// The identity of a position for the rules of play (placement, side to move, castling rights,
// and the en passant square when a pawn of the side to move attacks it; FIDE 9.2.3), as 8 words.
struct Key {
  std::array<Bitboard, 7> bb;  // White, Black, Pawn, Knight, Bishop, Rook, Queen (kings: the rest)
  std::uint64_t state;
  bool operator==(const Key&) const = default;
};

Key key_of(const Position& p) {
  Key k{};
  k.bb[0] = p.pieces(Color::White);
  k.bb[1] = p.pieces(Color::Black);
  for (int t = 0; t < 5; ++t) k.bb[static_cast<std::size_t>(2 + t)] = p.pieces(static_cast<PieceType>(t));
  std::uint64_t ep = 0;
  if (const auto e = p.en_passant();
      e && (pawn_attacks(~p.side_to_move(), *e) & p.pieces(p.side_to_move(), PieceType::Pawn))) {
    ep = static_cast<std::uint64_t>(to_index(*e)) + 1;
  }
  k.state = static_cast<std::uint64_t>(p.side_to_move() == Color::White ? 0 : 1) |
            static_cast<std::uint64_t>(p.castling_rights()) << 1 | ep << 8;
  return k;
}

// The 8 symmetries of the board: t = diagonal flip (bit 2), then horizontal (bit 0), then
// vertical (bit 1). Without pawns and castling rights they map positions to positions with the
// same answers (the rules have no preferred side, file or rank then).
Square sym_square(int t, Square s) {
  if (t & 4) s = flip_diagonal(s);
  if (t & 1) s = flip_horizontal(s);
  if (t & 2) s = flip_vertical(s);
  return s;
}
Bitboard sym_bb(int t, Bitboard b) {
  if (t & 4) b = flip_diagonal(b);
  if (t & 1) b = flip_horizontal(b);
  if (t & 2) b = flip_vertical(b);
  return b;
}
bool key_less(const Key& a, const Key& b) {
  return std::lexicographical_compare(a.bb.begin(), a.bb.end(), b.bb.begin(), b.bb.end());
}

// The key under which p is stored, and in *sym the symmetry that maps p to it: for a position
// without pawns and castling rights, the least key among the symmetries that put White's king in
// the a1-d1-d4 triangle (the store then holds one position per orbit: up to 8 times fewer);
// otherwise p's own key and 0.
Key stored_key(const Position& p, int* sym) {
  Key k = key_of(p);
  *sym = 0;
  if (p.pieces(PieceType::Pawn) || p.castling_rights()) return k;
  const Square wk = p.king_square(Color::White);
  Key best{};
  bool any = false;
  for (int t = 0; t < 8; ++t) {
    const Square s = sym_square(t, wk);
    const int f = static_cast<int>(file_of(s)), r = static_cast<int>(rank_of(s));
    if (f > 3 || r > f) continue;
    Key c = k;
    for (Bitboard& b : c.bb) b = sym_bb(t, b);
    if (!any || key_less(c, best)) {
      best = c;
      *sym = t;
      any = true;
    }
  }
  return best;
}

// The position of a key (counters 0 and 1; they do not change which moves are legal).
Position position_of(const Key& k) {
  std::array<Piece, 32> pieces{};
  std::array<Square, 32> squares{};
  int n = 0;
  const Bitboard kings = (k.bb[0] | k.bb[1]) & ~(k.bb[2] | k.bb[3] | k.bb[4] | k.bb[5] | k.bb[6]);
  for (int t = 0; t < 6; ++t) {
    Bitboard b = t < 5 ? k.bb[static_cast<std::size_t>(2 + t)] : kings;
    while (b) {
      const Square s = pop_lsb(b);
      const Color c = (k.bb[0] & square_bb(s)) ? Color::White : Color::Black;
      pieces[static_cast<std::size_t>(n)] = make_piece(c, static_cast<PieceType>(t));
      squares[static_cast<std::size_t>(n++)] = s;
    }
  }
  const std::uint64_t ep = (k.state >> 8) & 127;
  return Position::from_men(pieces.data(), squares.data(), n, (k.state & 1) ? Color::Black : Color::White,
                            ep ? std::optional<Square>(square_at(static_cast<int>(ep - 1))) : std::nullopt,
                            static_cast<std::uint8_t>((k.state >> 1) & 15));
}

std::uint64_t hash_of(const Key& k) {
  std::uint64_t h = k.state * 0x9E3779B97F4A7C15ULL;
  for (Bitboard b : k.bb) {
    h ^= b + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  return h;
}

// Whether a man of the side to move attacks a man of the other side (pseudo-legal: a pinned
// attacker counts; en passant does not). A cheap filter before generating the captures.
bool can_capture(const Position& p) {
  const Color us = p.side_to_move();
  Bitboard them = p.pieces(~us) & ~p.pieces(~us, PieceType::King);
  while (them) {
    if (p.attackers_to(pop_lsb(them), p.pieces()) & p.pieces(us)) return true;
  }
  return false;
}

// A stored position: its key (the position is rebuilt from it when expanded), 72 bytes.
struct Node {
  Key key;
  std::uint32_t parent;
  Move move;            // the move from the parent, in the parent's stored frame
  std::uint16_t g_sym;  // plies from the root << 3 | the symmetry from the parent's child to this key
  int g() const { return g_sym >> 3; }
  int sym() const { return g_sym & 7; }
};

// The position store of one thread's searches, reused: a small search then allocates nothing
// (page faults, zeroing and malloc were about 15% of the time on the lichess positions). After a
// search that grew it past kKeepBytes it is released, so no thread keeps a big search's memory.
struct Scratch {
  std::vector<Node> nodes;
  std::vector<std::uint64_t> slots;
  std::vector<std::vector<std::uint32_t>> buckets;
};
constexpr std::size_t kKeepBytes = std::size_t{8} << 20;
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace

namespace internal {

// The root's table answer, shared by the stages and both questions of one analysis: computed once
// (the castling search of a root with rights can be the largest part of the work).
struct RootTable {
  bool done = false;
  std::optional<ProbeResult> answer;  // nullopt: beyond the tables (or castling search out of budget)
};

// One question: can `mated` be checkmated from the root?
class Search {
 public:
  // One stage of the search: at most opt.budget.nodes positions (0: no limit), the plies so far
  // weighing 1 / plies_divisor in the priority, the clock stopping at `deadline`. whole_nodes: the
  // caller's node budget (0: no limit), of which a stage may have only a part; the lines of table
  // answers get all of it (whole_budget()).
  Search(const Tablebase& tb, const AnalysisOptions& opt, Color mated, int plies_divisor,
         std::optional<std::chrono::steady_clock::time_point> deadline, std::uint64_t whole_nodes)
      : tb_(tb),
        opt_(opt),
        whole_nodes_(whole_nodes),
        mated_(mated),
        table_men_(std::min(opt.table_men, tb.max_men())),
        leaf_men_(std::min(table_men_, opt.leaf_table_men)),
        plies_divisor_(plies_divisor),
        deadline_(deadline) {
    // Never more than half the physical memory, whatever the caller asked: on Linux an allocation
    // past it does not fail but gets the process killed, which would be a crash, not an answer.
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) {
      opt_.budget.memory_bytes =
          std::min(opt_.budget.memory_bytes, static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page));
    }
  }

  ~Search() {
    if (nodes_.capacity() * sizeof(Node) > kKeepBytes) std::vector<Node>().swap(nodes_);
    if (slots_.size() * sizeof(std::uint64_t) > kKeepBytes) std::vector<std::uint64_t>().swap(slots_);
    std::size_t queued = 0;
    for (const auto& b : buckets_) queued += b.capacity();
    if (queued * sizeof(std::uint32_t) > kKeepBytes) std::vector<std::vector<std::uint32_t>>().swap(buckets_);
  }
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // Fills root_table (once) with the root's table answer, the castling search held to this
  // search's whole budget; running out of memory there leaves the root to the search.
  Status fill_root_table(const Position& root, RootTable& root_table);
  // Answers the question; root_table as filled by fill_root_table.
  Result<MateAnswer> run(const Position& root, bool want_line, const RootTable& root_table);
  std::uint64_t generated() const { return generated_; }

 private:
  static constexpr std::uint32_t kNoParent = 0xFFFFFFFFU;
  static constexpr std::uint64_t kEmptySlot = ~std::uint64_t{0};

  // The tables' answer for p, or nullopt when p has more than `men` men, its table is absent, or
  // its castling rights need a castling search larger than what is left of the budget: the search
  // then expands p like any other position, exactly. The positions a castling search stores count
  // as generated (AnalysisBudget::nodes).
  Result<std::optional<ProbeResult>> table_answer(const Position& p, int men) {
    if (p.men() > men) return std::optional<ProbeResult>{};
    CastlingLimits limits = left_for_castling();
    auto r = tb_.probe(p, limits);
    generated_ += limits.stored;
    if (!r) {
      if (r.error().code == ErrorCode::MissingTable || r.error().code == ErrorCode::TooManyMen ||
          limits.ran_out != BudgetKind::None) {
        return std::optional<ProbeResult>{};
      }
      return r.error();
    }
    return std::optional<ProbeResult>{std::move(*r)};
  }

  // What is left of the budget for a castling search now: the nodes not yet generated, the memory
  // the store does not hold, the deadline.
  CastlingLimits left_for_castling() const {
    CastlingLimits l;
    if (opt_.budget.nodes) l.nodes = opt_.budget.nodes > generated_ ? opt_.budget.nodes - generated_ : 1;
    const std::size_t held = store_bytes();
    l.memory_bytes = opt_.budget.memory_bytes > held ? opt_.budget.memory_bytes - held : 1;
    l.deadline = deadline_;
    return l;
  }
  // The caller's whole budget, without the clock: for re-reading a table answer already obtained
  // within it (the certificate's replay and its line), which the clock must not turn into an
  // error. Not the stage's nodes: the first stage's 200,000 ran out on the castling searches along
  // a KRRvKR line whose root the whole budget had answered.
  CastlingLimits whole_budget() const {
    CastlingLimits l;
    l.nodes = whole_nodes_;
    l.memory_bytes = opt_.budget.memory_bytes;
    return l;
  }

  // The store's bytes: nodes and hash slots as allocated, a queue entry per node.
  std::size_t store_bytes() const {
    return nodes_.capacity() * sizeof(Node) + slots_.size() * sizeof(std::uint64_t) +
           nodes_.size() * sizeof(std::uint32_t);
  }

  // Heuristic distance to a checkmate of mated_ (smaller is closer; only orders the search).
  int estimate(const Position& p) const;

  // Inserts p if it is new: true when inserted. Open addressing over node ids.
  bool insert(const Key& k, std::uint64_t h, std::uint32_t id);
  void grow();

  // The moves from the root to node id, then `rest` (moves in node id's frame), on the real board.
  std::vector<Move> path_to(std::uint32_t id, const std::vector<Move>& rest) const;
  // Builds and replays the certificate: path to `parent`, then `last`, then `tail`.
  // A mate of mated_ found: the path to node `parent`, then `rest` (moves in its frame), then, when
  // table_dthm > 0, the table's line of that many plies from there (computed only if a line was
  // asked for). Replays what it returns.
  Result<MateAnswer> found(const Position& root, std::uint32_t parent, const std::vector<Move>& rest, int table_dthm);

  bool out_of_budget(BudgetKind& why);

  const Tablebase& tb_;
  AnalysisOptions opt_;
  std::uint64_t whole_nodes_;  // see the constructor
  Color mated_;
  int table_men_;  // tables used for the root
  int leaf_men_;   // tables used inside the search
  int plies_divisor_;
  bool want_line_ = false;
  std::optional<std::chrono::steady_clock::time_point> deadline_;

  std::vector<Node>& nodes_ = scratch().nodes;
  std::vector<std::uint64_t>& slots_ = scratch().slots;  // hash tag << 32 | node id; kEmptySlot when free
  std::vector<std::vector<std::uint32_t>>& buckets_ = scratch().buckets;  // open nodes by priority (LIFO)
  std::uint64_t generated_ = 0;
  std::uint64_t checks_ = 0;  // calls of out_of_budget, for the clock
  RuleCache rule_cache_;
};

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
  for (Bitboard b = p.pieces(w, PieceType::Pawn); b;) leapers |= pawn_attacks(w, pop_lsb(b));
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
  Bitboard pawns = p.pieces(w, PieceType::Pawn);
  while (pawns) {
    const Square s = pop_lsb(pawns);
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
  if ((nodes_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
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
  const std::size_t n = slots_.empty() ? 1024 : slots_.size() * 2;
  std::vector<std::uint64_t> old = std::move(slots_);
  slots_.assign(n, kEmptySlot);
  for (std::uint64_t s : old) {
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
  if (table_dthm > 0) {
    CastlingLimits again = whole_budget();
    auto t = tb_.probe(p, again);
    if (!t) return t.error();
    if (t->dthm[mated_] != table_dthm) return bad("does not reach the table position it was found in");
    a.plies = static_cast<int>(a.line.size()) + table_dthm;
    if (!want_line_) return a;
    // The table's shortest line from there, on the real board.
    CastlingLimits for_line = whole_budget();
    auto l = tb_.helpmate_line(p, mated_, for_line);
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
  const std::size_t slot_bytes = slots_.size() * sizeof(std::uint64_t);
  const std::size_t next = (nodes_.size() == nodes_.capacity() ? 2 * node_bytes : 0) +
                           ((nodes_.size() + 1) * 2 > slots_.size() ? 2 * slot_bytes : 0);
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
      auto l = tb_.helpmate_line(root, mated_, for_line);
      if (l) {
        a.line = std::move(*l);
      } else {
        a.line_error = l.error();  // the table's answer stands without its line
      }
    }
    return a;
  }
  if (const AnalysisRule r = cannot_mate_rule(root, mated_); r != AnalysisRule::None) {
    a.method = Method::Rule;
    a.rule = r;
    return a;
  }
  if (!root.has_legal_move()) {
    // Checkmate or stalemate on the board: no table needed.
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
  // The root is expanded as given (its frame is the real board); its key is only for duplicates.
  int root_sym = 0;
  nodes_.clear();
  // Start small: clearing a table kept from a big search would cost more than most searches.
  if (slots_.size() > 4096) slots_.assign(4096, kEmptySlot);
  std::fill(slots_.begin(), slots_.end(), kEmptySlot);
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
      auto tc = table_answer(c, leaf_men_);
      if (!tc) return tc.error();
      if (*tc) {
        if (!(*tc)->dthm[mated_]) continue;  // the table proves no mate from here
        return found(root, u, {m}, *(*tc)->dthm[mated_]);
      }
      if (cannot_mate_rule(c, mated_, &rule_cache_) != AnalysisRule::None) continue;
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
          auto tcc = table_answer(cc, leaf_men_);
          if (!tcc) return tcc.error();
          if (!*tcc || !(*tcc)->dthm[mated_]) continue;
          return found(root, u, {m, mc}, *(*tcc)->dthm[mated_]);
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

}  // namespace internal

namespace {

using internal::RootTable;
using internal::Search;
using Deadline = std::optional<std::chrono::steady_clock::time_point>;

Deadline deadline_of(const AnalysisOptions& opt) {
  if (!opt.budget.time_ms) return std::nullopt;
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(opt.budget.time_ms);
}

}  // namespace

Result<MateAnswer> Tablebase::analyze_side(const Position& pos, Color mated, const AnalysisOptions& opt,
                                           bool want_line) const {
  RootTable root;
  return analyze_side(pos, mated, opt, want_line, deadline_of(opt), root);
}

Result<MateAnswer> Tablebase::analyze_side(const Position& pos, Color mated, const AnalysisOptions& opt, bool want_line,
                                           Deadline deadline, RootTable& root) const {
  {
    Search s(*this, opt, mated, 1, deadline, opt.budget.nodes);
    if (Status st = s.fill_root_table(pos, root); !st) return st.error();
  }
  // One stage; running out of memory (std::bad_alloc, e.g. under ulimit -v) is undetermined too,
  // with the positions generated until then.
  auto stage = [&](const AnalysisOptions& o, int plies_divisor) -> Result<MateAnswer> {
    Search s(*this, o, mated, plies_divisor, deadline, opt.budget.nodes);
    try {
      return s.run(pos, want_line, root);
    } catch (const std::bad_alloc&) {
      MateAnswer a;
      a.mated = mated;
      a.method = Method::Undetermined;
      a.budget = BudgetKind::OutOfMemory;
      a.positions = s.generated();
      return a;
    }
  };
  // Two stages that differ only in the order of the queue: a greedy one over the first
  // kFirstStageNodes positions, then, if it ran out of them, a broader one with the rest of the
  // budget. Each order finds helpmates the other misses: of the 9 lichess 30k positions the greedy
  // order leaves undetermined with the <=4-man tables, the two stages leave 2; the broad order
  // alone searches twice the positions on the rest of the lichess positions and 3.6 times on the
  // 4-man oracle, where no question needs more than 200,000 positions with the greedy order.
  // Each stage is a complete search: either one running out of positions proves "cannot mate".
  constexpr std::uint64_t kFirstStageNodes = 200'000;
  AnalysisOptions first = opt;
  if (!opt.budget.nodes || opt.budget.nodes > kFirstStageNodes) first.budget.nodes = kFirstStageNodes;
  auto a = stage(first, 16);
  if (!a || a->method != Method::Undetermined || a->budget != BudgetKind::Nodes ||
      first.budget.nodes == opt.budget.nodes) {
    return a;
  }
  AnalysisOptions rest = opt;
  if (opt.budget.nodes) rest.budget.nodes = opt.budget.nodes - a->positions;
  const std::uint64_t used = a->positions;
  a = stage(rest, 1);
  if (a && a->method != Method::Exhausted) a->positions += used;
  return a;
}

Result<PositionAnalysis> Tablebase::analyze(const Position& pos, const AnalysisOptions& opt, bool want_lines) const {
  PositionAnalysis r;
  if (!pos.has_legal_move()) {
    r.checkmate = pos.in_check();
    r.stalemate = !r.checkmate;
  }
  // The root's table answer (with its castling search, if any) is read once for both questions;
  // each question has its own clock.
  RootTable root;
  for (Color x : {Color::White, Color::Black}) {
    auto a = analyze_side(pos, x, opt, want_lines, deadline_of(opt), root);
    if (!a) return a.error();
    r.mate[x] = std::move(*a);
  }
  if (r.mate[Color::White].method == Method::Table) {
    // The table answer of the root: its material key and how castling / en passant were handled.
    const ProbeResult p = describe(pos);
    r.table = p.table;
    r.castling_search = p.castling_search;
    r.en_passant = p.en_passant;
  }
  return r;
}

FlagVerdict flag_verdict(const PositionAnalysis& a, Color side_to_move, Color flagged) {
  FlagVerdict v{};
  const auto opp = a.mate[flagged].can_mate();  // can the flagged side be mated?
  if (a.checkmate) {
    v.reason = FlagVerdict::Reason::Checkmate;
    v.result = side_to_move == Color::White ? "0-1" : "1-0";
  } else if (a.stalemate) {
    v.reason = FlagVerdict::Reason::Stalemate;
    v.result = "1/2-1/2";
  } else if (a.dead() == true) {
    v.reason = FlagVerdict::Reason::DeadPosition;
    v.result = "1/2-1/2";
  } else if (opp == false) {
    v.reason = FlagVerdict::Reason::OpponentCannotMate;
    v.result = "1/2-1/2";
  } else if (opp == true) {
    v.reason = FlagVerdict::Reason::OpponentCanMate;
    v.result = flagged == Color::White ? "0-1" : "1-0";
  } else {
    v.reason = FlagVerdict::Reason::Undetermined;
    v.result.clear();
  }
  return v;
}

}  // namespace deadpos
