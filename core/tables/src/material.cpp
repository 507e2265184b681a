#include "deadpos/material.h"

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "deadpos/position.h"

namespace deadpos {

namespace {
// Piece types in material-key order without the king: Q R B N P.
constexpr PieceType kKeyOrder[5] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight,
                                    PieceType::Pawn};

// Strength tuple used for the canonical orientation.
std::tuple<int, int, int, int, int, int> strength(const Material& m, Color c) {
  const auto& k = m.count[c];
  const int men = m.men(c);
  return {men, k[PieceType::Queen], k[PieceType::Rook], k[PieceType::Bishop], k[PieceType::Knight], k[PieceType::Pawn]};
}
}  // namespace

Result<Material> Material::parse(std::string_view key) {
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::InvalidArgument, "material key '" + shown_text(key) + "': " + why);
  };
  const std::size_t v = key.find('v');
  if (v == std::string_view::npos || key.find('v', v + 1) != std::string_view::npos) {
    return bad("expected the form KxxvKyy with one 'v'");
  }
  Material m;
  for (Color c : {Color::White, Color::Black}) {
    const std::string_view side = c == Color::White ? key.substr(0, v) : key.substr(v + 1);
    if (side.empty() || side[0] != 'K') return bad("each side must start with its king 'K'");
    int last_rank = -1;  // position in K Q R B N P, to enforce the order
    for (char ch : side) {
      // The letters in key order: a man's rank in "KQRBNP" must not decrease along a side.
      constexpr std::string_view kLetters = "KQRBNP";
      constexpr PieceType kTypes[6] = {PieceType::King,   PieceType::Queen,  PieceType::Rook,
                                       PieceType::Bishop, PieceType::Knight, PieceType::Pawn};
      const std::size_t found = kLetters.find(ch);
      if (found == std::string_view::npos)
        return bad("unknown piece letter '" + shown_text(std::string_view(&ch, 1)) + "' (use K Q R B N P)");
      const int r = static_cast<int>(found);
      const PieceType pt = kTypes[found];
      if (r < last_rank) return bad("men must be listed in the order K Q R B N P");
      last_rank = r;
      m.count[c][pt]++;
    }
    if (m.count[c][PieceType::King] != 1) return bad("each side has exactly one king");
    if (m.count[c][PieceType::Pawn] > 8) return bad("more than 8 pawns for one side");
    if (m.men(c) > 16) return bad("more than 16 men for one side");
  }
  return m;
}

Material Material::of(const Position& pos) {
  Material m;
  for (Color c : {Color::White, Color::Black})
    for (int t = 0; t < kNumPieceTypes; ++t) {
      const auto pt = static_cast<PieceType>(t);
      m.count[c][pt] = popcount(pos.pieces(c, pt));
    }
  return m;
}

std::string Material::key() const {
  std::string s;
  for (Color c : {Color::White, Color::Black}) {
    if (c == Color::Black) s += 'v';
    for (PieceType pt : kMaterialOrder)
      for (int i = 0; i < count[c][pt]; ++i) s += piece_type_char(pt);
  }
  return s;
}

int Material::men(Color c) const {
  int n = 0;
  for (int v : count[c].v) n += v;
  return n;
}
int Material::men() const { return men(Color::White) + men(Color::Black); }

Material Material::swapped() const {
  Material m;
  m.count[Color::White] = count[Color::Black];
  m.count[Color::Black] = count[Color::White];
  return m;
}

bool Material::is_canonical() const { return strength(*this, Color::White) >= strength(*this, Color::Black); }

std::vector<Piece> Material::non_king_men() const {
  std::vector<Piece> out;
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt : kKeyOrder)
      for (int i = 0; i < count[c][pt]; ++i) out.push_back(make_piece(c, pt));
  return out;
}

std::vector<SuccessorSides> Material::successor_sides() const {
  std::vector<SuccessorSides> out;
  // m: the material after a move of ~next (next is to move). The canonical table holds it as it is,
  // or colour-swapped, where the side to move swaps too.
  auto add = [&](const Material& m, Color next) {
    const Material cm = m.canonical();
    const Color stm = m.is_canonical() ? next : ~next;
    auto it = std::find_if(out.begin(), out.end(), [&](const SuccessorSides& s) { return s.material == cm; });
    if (it == out.end()) it = out.insert(out.end(), SuccessorSides{cm, {}});
    it->side_to_move[stm] = true;
  };
  for (Color c : {Color::White, Color::Black}) {
    // Captures of a man of colour c (by ~c: c is to move after them).
    for (PieceType pt : kKeyOrder) {
      if (count[c][pt] == 0) continue;
      Material m = *this;
      m.count[c][pt]--;
      add(m, c);
      // Capture by a promoting pawn of the other side (pawn becomes Q/R/B/N, man of c removed).
      if (count[~c][PieceType::Pawn] > 0 && pt != PieceType::Pawn) {
        for (PieceType promo : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
          Material m2 = m;
          m2.count[~c][PieceType::Pawn]--;
          m2.count[~c][promo]++;
          add(m2, c);
        }
      }
    }
    // Promotions of c without capture (~c is to move after them).
    if (count[c][PieceType::Pawn] > 0) {
      for (PieceType promo : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight}) {
        Material m = *this;
        m.count[c][PieceType::Pawn]--;
        m.count[c][promo]++;
        add(m, ~c);
      }
    }
  }
  return out;
}

std::vector<Material> Material::successors() const {
  std::vector<Material> out;
  for (const SuccessorSides& s : successor_sides()) out.push_back(s.material);
  return out;
}

std::vector<Material> build_order(const std::vector<Material>& targets) {
  std::vector<Material> order;
  std::function<void(const Material&)> visit = [&](const Material& m) {
    if (std::find(order.begin(), order.end(), m) != order.end()) return;
    for (const Material& s : m.successors()) visit(s);
    order.push_back(m);
  };
  for (const Material& t : targets) visit(t.canonical());
  return order;
}

std::vector<Material> all_materials(int max_men) {
  std::vector<Material> all;
  // Enumerate multisets of non-king men per side: counts of Q R B N P summing to k.
  std::vector<ByPieceType<int>> sides[17];
  const int max_extra = std::max(0, max_men - 2);
  std::function<void(ByPieceType<int>&, int, int, int)> rec = [&](ByPieceType<int>& cur, int idx, int left, int total) {
    if (idx == 5) {
      if (left == 0) sides[total].push_back(cur);
      return;
    }
    for (int n = 0; n <= left; ++n) {
      if (kKeyOrder[idx] == PieceType::Pawn && n > 8) break;
      cur[kKeyOrder[idx]] = n;
      rec(cur, idx + 1, left - n, total);
    }
    cur[kKeyOrder[idx]] = 0;
  };
  for (int k = 0; k <= max_extra; ++k) {
    ByPieceType<int> cur{};
    rec(cur, 0, k, k);
  }
  std::vector<Material> targets;
  for (int w = 0; w <= max_extra; ++w)
    for (int b = 0; w + b <= max_extra; ++b)
      for (const auto& ws : sides[w])
        for (const auto& bs : sides[b]) {
          Material m;
          m.count[Color::White] = ws;
          m.count[Color::Black] = bs;
          m.count[Color::White][PieceType::King] = 1;
          m.count[Color::Black][PieceType::King] = 1;
          if (!m.is_canonical()) continue;
          targets.push_back(m);
        }
  // Sort by men count then key for a deterministic, readable order; build_order keeps subtables first.
  std::sort(targets.begin(), targets.end(), [](const Material& a, const Material& b) {
    if (a.men() != b.men()) return a.men() < b.men();
    return a.key() < b.key();
  });
  return build_order(targets);
}

}  // namespace deadpos
