#include "deadpos/bitboard.h"

#include <algorithm>

namespace deadpos {

namespace detail {
Magic g_rook_magics[64];
Magic g_bishop_magics[64];
}  // namespace detail

namespace {

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard ray_attack(const int (*dirs)[2], Square s, Bitboard occupied) {
  Bitboard b = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_index(s) + dirs[d][0];
    int r = rank_index(s) + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Bitboard sq = Bitboard{1} << (r * 8 + f);
      b |= sq;
      if (occupied & sq) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return b;
}

// xorshift64* generator with a fixed seed: the magic search is deterministic, so every process
// builds the same tables.
class Prng {
 public:
  explicit Prng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ULL;
  }
  // Sparse numbers (about 1/8 of bits set) make good magic candidates.
  std::uint64_t sparse() { return next() & next() & next(); }

 private:
  std::uint64_t s_;
};

// Per-square PRNG seeds (multiplied by the golden-ratio constant) chosen by an offline search
// (tools-free: try seeds 1..300, keep the one needing the fewest candidates) so that start-up
// finds all magics in about a millisecond instead of ~0.3 s. Any seed would be correct: the
// search below verifies every candidate against the ray-walking reference.
constexpr std::uint16_t kRookSeeds[64] = {
    182, 79,  142, 205, 251, 31,  194, 123, 82,  156, 204, 126, 49,  150, 108, 185, 272, 156, 227, 286, 75,  13,
    46,  289, 195, 139, 41,  144, 103, 101, 144, 184, 248, 97,  184, 63,  78,  102, 108, 196, 82,  44,  156, 178,
    91,  227, 219, 243, 43,  44,  131, 19,  239, 101, 285, 40,  210, 229, 10,  269, 263, 267, 125, 4};
constexpr std::uint16_t kBishopSeeds[64] = {
    241, 103, 154, 63,  57,  202, 203, 86,  26, 46, 24, 135, 61,  53,  64,  113, 10,  74,  125, 72, 71, 129,
    172, 296, 94,  110, 145, 226, 261, 263, 9,  7,  30, 42,  150, 169, 205, 226, 6,   284, 37,  29, 41, 229,
    141, 83,  60,  161, 203, 62,  114, 50,  13, 41, 93, 103, 86,  113, 56,  164, 132, 136, 26,  241};

// Attack sets back to back: rook tables need 102,400 entries, bishop 5,248 in total. Fixed arrays,
// not heap vectors: they are filled before main() (static initialisation), where an allocation
// failure (e.g. under `ulimit -v`) could only terminate the program; a static array is mapped by
// the loader, whose failure is the operating system's refusal to start it.
constexpr std::size_t kRookTableSize = 102'400;
constexpr std::size_t kBishopTableSize = 5'248;
constexpr std::size_t kMaxSubsets = 4096;  // 2^12: the rook's mask has at most 12 squares
Bitboard g_rook_table[kRookTableSize];
Bitboard g_bishop_table[kBishopTableSize];

// Fills magics for one slider kind; table (table_size entries) receives all attack sets.
void init_magics(const int (*dirs)[2], const std::uint16_t* seeds, detail::Magic* magics, Bitboard* table,
                 std::size_t table_size) {
  std::size_t offsets[64];
  std::size_t total = 0;
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    const Bitboard edges =
        ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_index(s))) | ((file_bb(0) | file_bb(7)) & ~file_bb(file_index(s)));
    magics[i].mask = ray_attack(dirs, s, 0) & ~edges;
    magics[i].shift = static_cast<unsigned>(64 - popcount(magics[i].mask));
    offsets[static_cast<std::size_t>(i)] = total;
    total += std::size_t{1} << popcount(magics[i].mask);
  }
  DEADPOS_CHECK(total == table_size);

  static Bitboard occupancy[kMaxSubsets];
  static Bitboard reference[kMaxSubsets];
  static int epoch[kMaxSubsets];
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    detail::Magic& m = magics[i];
    // Carry-Rippler enumeration of all subsets of the mask.
    std::size_t size = 0;
    Bitboard b = 0;
    do {
      DEADPOS_CHECK(size < kMaxSubsets);
      occupancy[size] = b;
      reference[size] = ray_attack(dirs, s, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b != 0);
    Bitboard* attacks = table + offsets[static_cast<std::size_t>(i)];
    std::fill(epoch, epoch + size, 0);
    Prng rng(seeds[i] * 0x9E3779B97F4A7C15ULL);
    for (int attempt = 1;; ++attempt) {
      do {
        m.magic = rng.sparse();
      } while (popcount((m.magic * m.mask) >> 56) < 6);
      bool ok = true;
      for (std::size_t k = 0; k < size && ok; ++k) {
        const std::size_t idx = static_cast<std::size_t>(((occupancy[k] & m.mask) * m.magic) >> m.shift);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          attacks[idx] = reference[k];
        } else if (attacks[idx] != reference[k]) {
          ok = false;
        }
      }
      if (ok) break;
    }
    m.attacks = attacks;
  }
}

struct MagicInit {
  MagicInit() {
    init_magics(kRookDirs, kRookSeeds, detail::g_rook_magics, g_rook_table, kRookTableSize);
    init_magics(kBishopDirs, kBishopSeeds, detail::g_bishop_magics, g_bishop_table, kBishopTableSize);
  }
};

struct LineTables {
  Bitboard between[64][64];
  Bitboard line[64][64];
  LineTables() {
    for (int a = 0; a < 64; ++a) {
      for (int b = 0; b < 64; ++b) {
        between[a][b] = 0;
        line[a][b] = 0;
        if (a == b) continue;
        const Square sa = square_at(a);
        const Square sb = square_at(b);
        for (PieceType pt : {PieceType::Bishop, PieceType::Rook}) {
          const int(*dirs)[2] = pt == PieceType::Rook ? kRookDirs : kBishopDirs;
          if (ray_attack(dirs, sa, 0) & square_bb(sb)) {
            line[a][b] = (ray_attack(dirs, sa, 0) & ray_attack(dirs, sb, 0)) | square_bb(sa) | square_bb(sb);
            between[a][b] = ray_attack(dirs, sa, square_bb(sb)) & ray_attack(dirs, sb, square_bb(sa));
          }
        }
      }
    }
  }
};

// Function-local statics avoid the static-initialisation-order problem for callers in other
// translation units that run during their own static initialisation.
const LineTables& line_tables() {
  static const LineTables t;
  return t;
}

// Magic tables must be ready before main(); this object runs in this TU's static init, and
// ensure_magics() guards callers that run earlier.
const MagicInit& ensure_magics() {
  static const MagicInit init;
  return init;
}
[[maybe_unused]] const MagicInit& g_magic_init = ensure_magics();

}  // namespace

Bitboard sliding_attack(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case PieceType::Bishop: return ray_attack(kBishopDirs, s, occupied);
    case PieceType::Rook: return ray_attack(kRookDirs, s, occupied);
    case PieceType::Queen: return ray_attack(kBishopDirs, s, occupied) | ray_attack(kRookDirs, s, occupied);
    case PieceType::Pawn:
    case PieceType::Knight:
    case PieceType::King: break;
  }
  assert(false && "sliding_attack: not a slider");
  return 0;
}

namespace {

constexpr Bitboard kNotFileA = ~file_bb(0), kNotFileH = ~file_bb(7);
constexpr Bitboard kNotFilesAB = ~(file_bb(0) | file_bb(1)), kNotFilesGH = ~(file_bb(6) | file_bb(7));

// One direction's occluded fill (Kogge-Stone): gen extended along the direction through the squares
// of `open` (already cleared of the squares a step in this direction would wrap onto), in three
// doubling steps instead of up to seven single ones.
template <int Shift>
Bitboard fill(Bitboard gen, Bitboard open) {
  const auto step = [](Bitboard b, int n) { return Shift > 0 ? b << (Shift * n) : b >> (-Shift * n); };
  gen |= open & step(gen, 1);
  open &= step(open, 1);
  gen |= open & step(gen, 2);
  open &= step(open, 2);
  gen |= open & step(gen, 4);
  return gen;
}

Bitboard rook_fill(Bitboard gen, Bitboard open) {
  return fill<8>(gen, open) | fill<-8>(gen, open) | fill<1>(gen, open & kNotFileA) | fill<-1>(gen, open & kNotFileH);
}
Bitboard bishop_fill(Bitboard gen, Bitboard open) {
  return fill<9>(gen, open & kNotFileA) | fill<7>(gen, open & kNotFileH) | fill<-7>(gen, open & kNotFileA) |
         fill<-9>(gen, open & kNotFileH);
}
Bitboard rook_step(Bitboard b) { return (b << 8) | (b >> 8) | ((b << 1) & kNotFileA) | ((b >> 1) & kNotFileH); }
Bitboard bishop_step(Bitboard b) {
  return ((b << 9) & kNotFileA) | ((b << 7) & kNotFileH) | ((b >> 7) & kNotFileA) | ((b >> 9) & kNotFileH);
}
Bitboard knight_step(Bitboard b) {
  const Bitboard one = ((b << 1) & kNotFileA) | ((b >> 1) & kNotFileH);
  const Bitboard two = ((b << 2) & kNotFilesAB) | ((b >> 2) & kNotFilesGH);
  return (one << 16) | (one >> 16) | (two << 8) | (two >> 8);
}

}  // namespace

Flood flood(Bitboard start, Bitboard walls, unsigned moves) {
  const Bitboard open = ~walls;
  Bitboard region = start;
  // Each round extends every line of the region to its end; a region of one slider needs one
  // round per turn its paths take, a knight's one per jump.
  for (;;) {
    Bitboard next = region;
    if (moves & kFloodRook) next |= rook_fill(region, open);
    if (moves & kFloodBishop) next |= bishop_fill(region, open);
    if (moves & kFloodKnight) next |= knight_step(region) & open;
    if (next == region) break;
    region = next;
  }
  // A square of the region attacks along each line up to the first wall; every square before it is
  // in the region and the wall is one step from the last of them. So the attack set is exactly the
  // squares one move step from the region.
  Bitboard attacks = 0;
  if (moves & kFloodRook) attacks |= rook_step(region);
  if (moves & kFloodBishop) attacks |= bishop_step(region);
  if (moves & kFloodKnight) attacks |= knight_step(region);
  return Flood{region, attacks};
}

Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occupied);
    case PieceType::Rook: return rook_attacks(s, occupied);
    case PieceType::Queen: return queen_attacks(s, occupied);
    case PieceType::King: return king_attacks(s);
    case PieceType::Pawn: break;
  }
  assert(false && "piece_attacks: pawns need a colour");
  return 0;
}

Bitboard between_bb(Square a, Square b) { return line_tables().between[to_index(a)][to_index(b)]; }
Bitboard line_bb(Square a, Square b) { return line_tables().line[to_index(a)][to_index(b)]; }

int square_distance(Square a, Square b) {
  const int df = file_index(a) - file_index(b);
  const int dr = rank_index(a) - rank_index(b);
  const int adf = df < 0 ? -df : df;
  const int adr = dr < 0 ? -dr : dr;
  return adf > adr ? adf : adr;
}

Bitboard flip_horizontal(Bitboard b) {
  Bitboard r = 0;
  while (b) r |= square_bb(flip_horizontal(pop_lsb(b)));
  return r;
}

Bitboard flip_diagonal(Bitboard b) {
  Bitboard r = 0;
  while (b) r |= square_bb(flip_diagonal(pop_lsb(b)));
  return r;
}

std::string to_diagram(Bitboard b) {
  std::string out;
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f) {
      out += (b >> (r * 8 + f)) & 1 ? 'X' : '.';
      if (f < 7) out += ' ';
    }
    out += '\n';
  }
  return out;
}

const char* square_name(Square s) {
  static constexpr const char* kNames[64] = {
      "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
      "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
      "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
      "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"};
  return kNames[to_index(s)];
}

char piece_type_char(PieceType pt) { return "PNBRQK"[to_index(pt)]; }

char piece_char(Piece p) {
  const char c = piece_type_char(type_of(p));
  return color_of(p) == Color::White ? c : static_cast<char>(c - 'A' + 'a');
}

}  // namespace deadpos
