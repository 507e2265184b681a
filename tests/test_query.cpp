// run_query (core/scans/include/deadpos/query.h) against an independent enumeration.
//
// The oracle shares nothing with the solver, the table index or the tables: it enumerates every
// placement of a material's men itself (identical men in increasing square order, both sides to
// move), keeps those that Position::check_placement accepts, and builds the forward move graph
// with Position::legal_moves. DTHM of each side comes from a shortest-path search over that graph
// (edges reversed in memory), seeded with the checkmates and with the moves that leave the
// material (captures, promotions), whose values come from the oracle of the resulting material,
// built the same way. Board symmetries (8 without pawns, the left-right mirror with pawns) only
// merge placements that are images of each other; each class counts its distinct placements, so
// the counts are raw positions (docs/design.md, "Statistics"), computed without TableIndex.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/position.h"
#include "deadpos/query.h"
#include "deadpos/table.h"
#include "support/tables_dir.h"

namespace deadpos {
namespace {

constexpr std::uint8_t kNoMate = 255;
// Squares of the men in the oracle's order (room for more than the 4 men it takes, so that no
// index needs a bound the compiler cannot see).
using Sq8 = std::array<Square, 8>;

// The symmetry g of a square: bit 0 flip_diagonal (first), bit 1 flip_horizontal, bit 2
// flip_vertical, as a table (the oracle maps every successor through it).
const std::array<std::array<Square, 64>, 8> kImage = [] {
  std::array<std::array<Square, 64>, 8> t{};
  for (int g = 0; g < 8; ++g)
    for (int i = 0; i < 64; ++i) {
      Square s = square_at(i);
      if (g & 1) s = flip_diagonal(s);
      if (g & 2) s = flip_horizontal(s);
      if (g & 4) s = flip_vertical(s);
      t[static_cast<std::size_t>(g)][static_cast<std::size_t>(i)] = s;
    }
  return t;
}();
Square image(int g, Square s) { return kImage[static_cast<std::size_t>(g)][static_cast<std::size_t>(to_index(s))]; }

class Oracle;
Oracle& oracle_of(const std::string& key);

// Every position of one material (any orientation, at most 4 men).
class Oracle {
 public:
  explicit Oracle(const std::string& key) : key_(key) {
    const Material m = *Material::parse(key);
    for (Color c : {Color::White, Color::Black}) {
      men_.push_back(make_piece(c, PieceType::King));
    }
    for (Color c : {Color::White, Color::Black})
      for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn})
        for (int k = 0; k < m.count[c][pt]; ++k) men_.push_back(make_piece(c, pt));
    pawns_ = m.has_pawns();
    if (pawns_) {
      syms_ = {0, 2};
    } else {
      syms_ = {0, 1, 2, 3, 4, 5, 6, 7};
    }
    n_ = static_cast<int>(men_.size());
    if (n_ > 4) throw std::invalid_argument("the oracle takes at most 4 men: " + key);
    for (int j = n_ - 1; j >= 2; --j)
      if (type_of(men_[static_cast<std::size_t>(j)]) == PieceType::Bishop) first_bishop_ = j;
    id_of_.assign(std::size_t{1} << (6 * n_ + 1), -1);
    enumerate();
    solve();
  }

  struct Node {
    Sq8 sq{};
    Color stm = Color::White;
    std::uint8_t weight = 0;  // distinct placements of the class
    bool in_check = false, has_move = false;
    std::array<std::uint8_t, 2> dthm{{kNoMate, kNoMate}};  // [mated colour]
    std::array<std::uint8_t, 2> light_weight{};            // placements by colour of the first bishop
  };

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Piece>& men() const { return men_; }

  // DTHM of `mated` in a position of this material.
  std::uint8_t value(const Position& p, Color mated) const {
    const int id = id_of_[canonical_code(squares_of(p), p.side_to_move())];
    EXPECT_GE(id, 0) << "position missing from the oracle of " << key() << ": " << p.to_fen();
    return id < 0 ? kNoMate : nodes_[static_cast<std::size_t>(id)].dthm[static_cast<std::size_t>(to_index(mated))];
  }

  const std::string& key() const { return key_; }

 private:
  Sq8 squares_of(const Position& p) const {
    Sq8 sq{};
    int j = 0;
    while (j < n_) {
      const Piece pc = men_[static_cast<std::size_t>(j)];
      Bitboard b = p.pieces(color_of(pc), type_of(pc));
      while (j < n_ && men_[static_cast<std::size_t>(j)] == pc) {
        sq[static_cast<std::size_t>(j++)] = pop_lsb(b);
      }
    }
    return sq;
  }

  std::uint32_t code(Sq8 sq, Color stm) const {
    // Identical men in increasing order.
    for (int j = 1; j < n_; ++j)
      for (int k = j; k > 0 && men_[static_cast<std::size_t>(k)] == men_[static_cast<std::size_t>(k - 1)] &&
                      sq[static_cast<std::size_t>(k)] < sq[static_cast<std::size_t>(k - 1)];
           --k)
        std::swap(sq[static_cast<std::size_t>(k)], sq[static_cast<std::size_t>(k - 1)]);
    std::uint32_t c = 0;
    // The White king in the highest field: the enumeration (White king outermost) writes codes in
    // increasing order.
    for (int j = 0; j < n_; ++j)
      c |= static_cast<std::uint32_t>(to_index(sq[static_cast<std::size_t>(j)])) << (6 * (n_ - 1 - j));
    return (c << 1) | static_cast<std::uint32_t>(to_index(stm));
  }

  Sq8 transformed(int g, const Sq8& sq) const {
    Sq8 t{};
    for (int j = 0; j < n_; ++j) t[static_cast<std::size_t>(j)] = image(g, sq[static_cast<std::size_t>(j)]);
    return t;
  }

  // The smallest code of the images. The White king's field is the highest, so only the
  // symmetries that bring the White king to its smallest image can give it (one, or two when
  // it stands on a diagonal).
  std::uint32_t canonical_code(const Sq8& sq, Color stm) const {
    int king = 64;
    for (int g : syms_) king = std::min(king, to_index(image(g, sq[0])));
    std::uint32_t best = ~0U;
    for (int g : syms_)
      if (to_index(image(g, sq[0])) == king) best = std::min(best, code(transformed(g, sq), stm));
    return best;
  }

  void enumerate() {
    Sq8 sq{};
    place(0, sq);
  }

  void place(int j, Sq8& sq) {
    if (j >= n_ || j >= 4) {
      add(sq);
      return;
    }
    const Piece pc = men_[static_cast<std::size_t>(j)];
    int from = 0;
    if (j > 0 && men_[static_cast<std::size_t>(j - 1)] == pc) from = to_index(sq[static_cast<std::size_t>(j - 1)]) + 1;
    for (int s = from; s < 64; ++s) {
      const Square q = square_at(s);
      if (type_of(pc) == PieceType::Pawn && (rank_index(q) == 0 || rank_index(q) == 7)) continue;
      // The smallest image of a square under the symmetries (the White king's field is the
      // highest of the code) lies in a1-d1-d4 (file <= 3, rank <= file), or on files a-d with
      // pawns: other White king squares have no representative.
      if (j == 0 && (file_index(q) > 3 || (!pawns_ && rank_index(q) > file_index(q)))) continue;
      bool used = false;
      for (int k = 0; k < j; ++k) used = used || sq[static_cast<std::size_t>(k)] == q;
      if (used) continue;
      sq[static_cast<std::size_t>(j)] = q;
      place(j + 1, sq);
    }
  }

  void add(const Sq8& sq) {
    if (square_distance(sq[0], sq[1]) <= 1) return;  // kings adjacent (from_placement checks it too)
    for (Color stm : {Color::White, Color::Black}) {
      const std::uint32_t own = code(sq, stm);
      if (canonical_code(sq, stm) != own) return;  // not the representative
      std::array<std::uint32_t, 8> images{};
      std::size_t distinct = 0;
      std::uint8_t light_first = 0;
      for (int g : syms_) {
        const auto t = transformed(g, sq);
        const std::uint32_t c = code(t, stm);
        if (std::find(images.begin(), images.begin() + static_cast<std::ptrdiff_t>(distinct), c) !=
            images.begin() + static_cast<std::ptrdiff_t>(distinct))
          continue;
        images[distinct++] = c;
        if (first_bishop_ >= 0 && is_light_square(t[static_cast<std::size_t>(first_bishop_)])) ++light_first;
      }
      Placement p;
      for (int j = 0; j < n_; ++j) p[sq[static_cast<std::size_t>(j)]] = men_[static_cast<std::size_t>(j)];
      p.side_to_move = stm;
      auto pos = Position::from_placement(p);
      if (!pos) continue;  // kings adjacent, the side not to move in check
      Node nd;
      nd.sq = sq;
      nd.stm = stm;
      nd.weight = static_cast<std::uint8_t>(distinct);
      nd.light_weight = {static_cast<std::uint8_t>(distinct - light_first), light_first};
      id_of_[own] = static_cast<int>(nodes_.size());
      nodes_.push_back(nd);
    }
  }

 private:
  void solve() {
    const std::size_t nn = nodes_.size();
    std::vector<std::uint32_t> offs(nn + 1, 0), kids;
    std::array<std::vector<std::uint8_t>, 2> seed;
    for (auto& s : seed) s.assign(nn, kNoMate);
    for (std::size_t u = 0; u < nn; ++u) {
      Node& nd = nodes_[u];
      const Position pos = Position::from_men(men_.data(), nd.sq.data(), n_, nd.stm);  // add() checked it
      nd.in_check = pos.in_check();
      const MoveList moves = pos.legal_moves();
      nd.has_move = !moves.empty();
      if (!nd.has_move && nd.in_check) seed[static_cast<std::size_t>(to_index(nd.stm))][u] = 0;
      for (const Move m : moves) {
        const Position c = pos.after(m);
        if (c.men() == n_ && m.kind() != Move::Kind::Promotion) {
          kids.push_back(canonical_code(squares_of(c), c.side_to_move()));  // an id below
        } else {
          const Oracle& sub = oracle_of(Material::of(c).key());
          for (Color x : {Color::White, Color::Black}) {
            const std::uint8_t v = sub.value(c, x);
            auto& s = seed[static_cast<std::size_t>(to_index(x))][u];
            if (v != kNoMate) s = std::min<std::uint8_t>(s, static_cast<std::uint8_t>(v + 1));
          }
        }
      }
      offs[u + 1] = static_cast<std::uint32_t>(kids.size());
    }
    // Codes to node ids: random reads of a large array, so prefetched ahead.
    for (std::size_t e = 0; e < kids.size(); ++e) {
      if (e + 16 < kids.size()) __builtin_prefetch(&id_of_[kids[e + 16]]);
      const int id = id_of_[kids[e]];
      if (id < 0) {
        ADD_FAILURE() << key_ << ": a successor is not in the enumeration (code " << kids[e] << ")";
        return;
      }
      kids[e] = static_cast<std::uint32_t>(id);
    }
    // Reverse edges: parents of each node.
    std::vector<std::uint32_t> roff(nn + 1, 0), parents(kids.size());
    for (std::uint32_t c : kids) ++roff[c + 1];
    for (std::size_t u = 0; u < nn; ++u) roff[u + 1] += roff[u];
    std::vector<std::uint32_t> fill(roff.begin(), roff.end() - 1);
    for (std::size_t u = 0; u < nn; ++u)
      for (std::uint32_t e = offs[u]; e < offs[u + 1]; ++e) parents[fill[kids[e]]++] = static_cast<std::uint32_t>(u);
    kids.clear();
    kids.shrink_to_fit();
    for (int x = 0; x < 2; ++x) {
      std::vector<std::uint8_t>& dist = seed[static_cast<std::size_t>(x)];
      std::vector<std::vector<std::uint32_t>> bucket(256);
      for (std::size_t u = 0; u < nn; ++u)
        if (dist[u] != kNoMate) bucket[dist[u]].push_back(static_cast<std::uint32_t>(u));
      for (int d = 0; d < 254; ++d) {
        for (std::size_t i = 0; i < bucket[static_cast<std::size_t>(d)].size(); ++i) {
          const std::uint32_t u = bucket[static_cast<std::size_t>(d)][i];
          if (dist[u] != d) continue;
          for (std::uint32_t e = roff[u]; e < roff[u + 1]; ++e) {
            const std::uint32_t p = parents[e];
            if (dist[p] > d + 1) {
              dist[p] = static_cast<std::uint8_t>(d + 1);
              bucket[static_cast<std::size_t>(d + 1)].push_back(p);
            }
          }
        }
        bucket[static_cast<std::size_t>(d)].clear();
      }
      for (std::size_t u = 0; u < nn; ++u) nodes_[u].dthm[static_cast<std::size_t>(x)] = dist[u];
    }
  }

  std::string key_;
  std::vector<Piece> men_;
  int first_bishop_ = -1;  // slot of the first bishop, -1 without bishops
  bool pawns_ = false;
  std::vector<int> syms_;
  int n_ = 0;
  std::vector<int> id_of_;
  std::vector<Node> nodes_;
};

Oracle& oracle_of(const std::string& key) {
  static std::map<std::string, std::unique_ptr<Oracle>> cache;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, std::make_unique<Oracle>(key)).first;
  return *it->second;
}

// The oracle's count of a filter, from its own definitions (query.h states them).
std::uint64_t oracle_count(const Oracle& o, const Material& m, const QueryFilter& f) {
  // Bishop-colour classes with a mate (for dead_not_by_material); at most one bishop in the
  // materials tested here, so the class is "has a bishop" (its colour is exchanged by a symmetry).
  bool material_can_mate = false;
  for (const auto& nd : o.nodes())
    material_can_mate = material_can_mate || nd.dthm[0] != kNoMate || nd.dthm[1] != kNoMate;
  const auto weak = weaker_side(m);
  std::uint64_t total = 0;
  for (const auto& nd : o.nodes()) {
    const bool w_mated = nd.dthm[0] != kNoMate, b_mated = nd.dthm[1] != kNoMate;
    const ByColor<bool> can{{b_mated, w_mated}};
    if (f.side_to_move && *f.side_to_move != nd.stm) continue;
    if (f.dead && (w_mated || b_mated)) continue;
    bool ok = true;
    for (Color c : {Color::White, Color::Black}) {
      if (f.can_mate[c] && *f.can_mate[c] != can[c]) ok = false;
      if (const auto& r = f.dthm_mated[c]) {
        const std::uint8_t v = nd.dthm[static_cast<std::size_t>(to_index(c))];
        if (v == kNoMate || v < r->lo || v > r->hi) ok = false;
      }
    }
    if (!ok) continue;
    if (f.checkmate && !(nd.in_check && !nd.has_move)) continue;
    if (f.stalemate && !(!nd.in_check && !nd.has_move)) continue;
    if (f.dead_not_by_material && (w_mated || b_mated || !material_can_mate)) continue;
    if (f.only_weaker_side_can_mate && !(weak && can[*weak] && !can[~*weak])) continue;
    std::uint64_t w = nd.weight;
    if (f.bishop_shade[Color::White] == BishopShade::Light) w = nd.light_weight[1];
    if (f.bishop_shade[Color::White] == BishopShade::Dark) w = nd.light_weight[0];
    total += w;
  }
  return total;
}

std::vector<std::pair<std::string, QueryFilter>> filters(bool bishop) {
  std::vector<std::pair<std::string, QueryFilter>> out;
  auto add = [&](const std::string& name, auto set) {
    QueryFilter f;
    set(f);
    out.emplace_back(name, f);
  };
  add("all", [](QueryFilter&) {});
  add("stm white", [](QueryFilter& f) { f.side_to_move = Color::White; });
  add("stm black", [](QueryFilter& f) { f.side_to_move = Color::Black; });
  add("dead", [](QueryFilter& f) { f.dead = true; });
  add("dead, black to move", [](QueryFilter& f) {
    f.dead = true;
    f.side_to_move = Color::Black;
  });
  add("checkmate", [](QueryFilter& f) { f.checkmate = true; });
  add("stalemate", [](QueryFilter& f) { f.stalemate = true; });
  add("white can mate", [](QueryFilter& f) { f.can_mate[Color::White] = true; });
  add("white cannot mate", [](QueryFilter& f) { f.can_mate[Color::White] = false; });
  add("black can mate", [](QueryFilter& f) { f.can_mate[Color::Black] = true; });
  add("black cannot mate, white to move", [](QueryFilter& f) {
    f.can_mate[Color::Black] = false;
    f.side_to_move = Color::White;
  });
  add("dthm black 5..9", [](QueryFilter& f) { f.dthm_mated[Color::Black] = PlyRange{5, 9}; });
  add("dthm white 0..3, white can mate", [](QueryFilter& f) {
    f.dthm_mated[Color::White] = PlyRange{0, 3};
    f.can_mate[Color::White] = true;
  });
  add("dthm black 12..", [](QueryFilter& f) { f.dthm_mated[Color::Black] = PlyRange{12, DthmCode::kMaxDthm}; });
  add("dead not by material", [](QueryFilter& f) { f.dead_not_by_material = true; });
  add("only weaker side can mate", [](QueryFilter& f) { f.only_weaker_side_can_mate = true; });
  if (bishop) {
    add("white bishop light", [](QueryFilter& f) { f.bishop_shade[Color::White] = BishopShade::Light; });
    add("white bishop dark, dead", [](QueryFilter& f) {
      f.bishop_shade[Color::White] = BishopShade::Dark;
      f.dead = true;
    });
    add("white bishop light, black can mate, black to move", [](QueryFilter& f) {
      f.bishop_shade[Color::White] = BishopShade::Light;
      f.can_mate[Color::Black] = true;
      f.side_to_move = Color::Black;
    });
  }
  return out;
}

void check_material(const std::string& key, bool bishop) {
  const Oracle& o = oracle_of(key);
  const Material m = *Material::parse(key);
  auto t =
      TableFile::open(test::tables_dir() + "/" + table_file_name(m.canonical()), m.canonical(), FileCheck::HeaderOnly);
  ASSERT_TRUE(t) << t.error().message;
  for (const auto& [name, f] : filters(bishop)) {
    const auto r = run_query(*t, m, f, 2);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->total_positions(), oracle_count(o, m, f)) << key << ", filter: " << name;
  }
}

// The oracles are built once per program (the cache), on first use.
TEST(QueryOracle, KQvK) { check_material("KQvK", false); }
TEST(QueryOracle, KRvK) { check_material("KRvK", false); }
TEST(QueryOracle, KPvK) { check_material("KPvK", false); }
TEST(QueryOracle, KvKP) { check_material("KvKP", false); }
TEST(QueryOracle, KBvKN) { check_material("KBvKN", true); }

// A colour-swapped key is the canonical answer with colours swapped.
TEST(QuerySwap, KNvKBMirrorsKBvKN) {
  const Material canon = *Material::parse("KBvKN");
  const Material swapped = *Material::parse("KNvKB");
  auto t = TableFile::open(test::tables_dir() + "/KBvKN.dpt", canon, FileCheck::HeaderOnly);
  ASSERT_TRUE(t) << t.error().message;
  for (const auto& [name, f] : filters(true)) {
    QueryFilter g = f;  // the same question in the other colours
    if (f.side_to_move) g.side_to_move = ~*f.side_to_move;
    for (Color c : {Color::White, Color::Black}) {
      g.can_mate[~c] = f.can_mate[c];
      g.dthm_mated[~c] = f.dthm_mated[c];
      // The colour swap mirrors the ranks: light squares become dark ones.
      const BishopShade s = f.bishop_shade[c];
      g.bishop_shade[~c] = s == BishopShade::Light  ? BishopShade::Dark
                           : s == BishopShade::Dark ? BishopShade::Light
                                                    : s;
    }
    const auto a = run_query(*t, canon, f, 1);
    const auto b = run_query(*t, swapped, g, 2);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->positions[Color::White], b->positions[Color::Black]) << name;
    EXPECT_EQ(a->positions[Color::Black], b->positions[Color::White]) << name;
  }
}

// Listings are identical for 1 and 2 threads, and --limit-style stops keep the order.
TEST(QueryThreads, ListingIndependentOfThreads) {
  const Material m = *Material::parse("KRvKN");
  auto t = TableFile::open(test::tables_dir() + "/KRvKN.dpt", m, FileCheck::HeaderOnly);
  ASSERT_TRUE(t) << t.error().message;
  QueryFilter f;
  f.dthm_mated[Color::Black] = PlyRange{0, 4};
  std::array<std::vector<std::string>, 2> out;
  for (int th = 1; th <= 2; ++th) {
    const auto r = run_query(*t, m, f, th, [&](const QueryMatch& q) {
      out[static_cast<std::size_t>(th - 1)].push_back(std::to_string(q.index) + " " + q.position.to_fen() + " " +
                                                      std::to_string(q.positions));
      return true;
    });
    ASSERT_TRUE(r);
  }
  EXPECT_FALSE(out[0].empty());
  EXPECT_EQ(out[0], out[1]);
  std::vector<std::string> first;
  const auto r = run_query(*t, m, f, 2, [&](const QueryMatch& q) {
    first.push_back(std::to_string(q.index) + " " + q.position.to_fen() + " " + std::to_string(q.positions));
    return first.size() < 1000;
  });
  ASSERT_TRUE(r);
  ASSERT_EQ(first.size(), 1000U);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), out[0].begin()));
}

TEST(QueryErrors, WrongTable) {
  auto t = TableFile::open(test::tables_dir() + "/KQvK.dpt", FileCheck::HeaderOnly);
  ASSERT_TRUE(t);
  const auto r = run_query(*t, *Material::parse("KRvK"), QueryFilter{});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
  QueryFilter bad;
  bad.dthm_mated[Color::White] = PlyRange{9, 3};
  const auto r2 = run_query(*t, *Material::parse("KQvK"), bad);
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().code, ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace deadpos
