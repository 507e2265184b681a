// Whole-table scans and the filters of `deadpos query` (deadpos/query.h).
//
// Cost model: a scan is bound by zstd decompression of the blocks when the filter only reads the
// two bytes of an entry (side to move, dead, can-mate, DTHM ranges, checkmate, weaker side): those
// conditions are a conjunction of one condition per byte, so they compile into two 256-entry tables
// and an entry costs two lookups. Entries off the a1-h8 king diagonal all stand for 8 placements
// (2 with pawns), so they are counted without decoding. Only the conditions that need the
// placement (bishop colours, stalemate, dead by material, listing) decode the entries that pass
// the byte test.
#include "deadpos/query.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "deadpos/index.h"

namespace deadpos {

std::size_t scan_unit_count(const TableFile& t) {
  const TableHeader& h = t.header();
  const std::uint64_t per = (h.entries + h.block_entries - 1) / h.block_entries;
  return static_cast<std::size_t>(2 * per);
}

Status scan_table(const TableFile& t, int threads, const std::function<void(const ScanUnit&, std::size_t)>& map,
                  const std::function<bool(std::size_t)>& reduce, std::optional<Color> only_stm, std::size_t window) {
  const TableHeader& h = t.header();
  const std::size_t per = scan_unit_count(t) / 2;
  std::vector<std::size_t> order;
  for (Color stm : {Color::White, Color::Black}) {
    if (only_stm && *only_stm != stm) continue;
    for (std::size_t k = 0; k < per; ++k) order.push_back(static_cast<std::size_t>(to_index(stm)) * per + k);
  }
  const int team = threads > 0 ? threads : omp_get_max_threads();
  // A batch is mapped in parallel, then reduced in order on this thread: 4 units a thread keep
  // the team busy while one unit waits for the slowest, and bound the memory of pending results.
  // Each batch ends in a barrier, which costs a scheduler time slice whenever a thread of the team
  // is preempted (on a loaded machine two threads were 2.4x slower than one with 8-unit
  // batches); callers whose results are small map everything in one batch.
  const std::size_t batch = window ? std::max<std::size_t>(window, 1) : static_cast<std::size_t>(std::max(1, team)) * 4;
  std::vector<std::vector<std::uint8_t>> buf_w(static_cast<std::size_t>(team)), buf_b(static_cast<std::size_t>(team));
  std::vector<std::optional<Error>> errors(std::min(batch, order.size()));
  for (std::size_t start = 0; start < order.size(); start += batch) {
    const auto n = static_cast<std::int64_t>(std::min(batch, order.size() - start));
#pragma omp parallel for schedule(dynamic, 1) num_threads(team)
    for (std::int64_t i = 0; i < n; ++i) {
      const auto slot = static_cast<std::size_t>(i);
      const std::size_t u = order[start + slot];
      errors[slot].reset();
      const Color stm = u < per ? Color::White : Color::Black;
      const auto k = static_cast<std::uint32_t>(u % per);
      const auto tid = static_cast<std::size_t>(omp_get_thread_num());
      try {
        const std::uint64_t first = std::uint64_t{k} * h.block_entries;
        auto& bw = buf_w[tid];
        auto& bb = buf_b[tid];
        Status s = t.read_block(t.locate(stm, Color::White, first).first, bw);
        if (s) s = t.read_block(t.locate(stm, Color::Black, first).first, bb);
        if (!s) {
          errors[slot] = s.error();
          continue;
        }
        if (bw.size() != bb.size()) {
          errors[slot] = Error{ErrorCode::CorruptTable, t.name() + ": blocks of one range differ in length"};
          continue;
        }
        map(ScanUnit{stm, k, first, std::span<const std::uint8_t>(bw), std::span<const std::uint8_t>(bb)}, u);
      } catch (const std::bad_alloc&) {
        errors[slot] = Error{ErrorCode::OutOfMemory, t.name() + ": out of memory while scanning"};
      }
    }
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      if (errors[i]) return *errors[i];
      if (!reduce(order[start + i])) return Ok{};
    }
  }
  return Ok{};
}

int material_value(const Material& m, Color c) {
  const auto& n = m.count[c];
  return 9 * n[PieceType::Queen] + 5 * n[PieceType::Rook] + 3 * n[PieceType::Bishop] + 3 * n[PieceType::Knight] +
         n[PieceType::Pawn];
}

std::optional<Color> weaker_side(const Material& m) {
  const int w = material_value(m, Color::White), b = material_value(m, Color::Black);
  if (w == b) return std::nullopt;
  return w < b ? Color::White : Color::Black;
}

namespace {

constexpr bool finite(std::uint8_t v) { return v <= DthmCode::kMaxDthm; }

BishopShade swap_shade(BishopShade s) {
  switch (s) {
    case BishopShade::Light: return BishopShade::Dark;
    case BishopShade::Dark: return BishopShade::Light;
    case BishopShade::Any:
    case BishopShade::Mixed: return s;
  }
  return s;
}

// l of n bishops of one side on light squares.
bool shade_ok(BishopShade s, int l, int n) {
  switch (s) {
    case BishopShade::Any: return true;
    case BishopShade::Light: return n > 0 && l == n;
    case BishopShade::Dark: return n > 0 && l == 0;
    case BishopShade::Mixed: return l > 0 && l < n;
  }
  return false;
}

// A match waiting for its turn in the output: what rebuilds the QueryMatch on the calling thread.
struct Pending {
  std::uint64_t index;
  std::uint32_t positions;
  std::uint8_t w, b;
  bool mirrored;
};

struct UnitOut {
  std::uint64_t positions = 0, entries = 0;
  std::vector<Pending> matches;
  std::optional<Error> error;
};

// The query compiled for one table, in the table's colours.
class Plan {
 public:
  Plan(const TableFile& t, const Material& user, const QueryFilter& f, bool listing)
      : t_(t), idx_(t.index()), swapped_(!(user == t.material())), f_(f), listing_(listing) {
    for (int j = 2; j < idx_.men(); ++j)
      if (type_of(idx_.piece(j)) == PieceType::Bishop) {
        bishop_slots_.push_back(j);
        ++bishops_[color_of(idx_.piece(j))];
      }
    for (Color c : {Color::White, Color::Black}) {
      // Per-side bishop colours, in the table's colours: the colour swap also mirrors the ranks,
      // which exchanges light and dark squares.
      const Color tc = table_color(c);
      shade_[tc] = swapped_ ? swap_shade(f.bishop_shade[c]) : f.bishop_shade[c];
    }
    shade_filter_ = shade_[Color::White] != BishopShade::Any || shade_[Color::Black] != BishopShade::Any;
    decode_ = listing || f.stalemate || f.dead_not_by_material || f.bishops != BishopPair::Any || shade_filter_;
    bishops_only_ = decode_ && !listing && !f.stalemate && !f.dead_not_by_material;
    for (int j : bishop_slots_) {
      const std::uint64_t st = idx_.stride(j);
      bishop_stride_.push_back(st);
      bishop_shift_.push_back(std::has_single_bit(st) ? std::countr_zero(st) : -1);
    }
    for (Color stm : {Color::White, Color::Black}) build_tables(stm, user);
    weight_ = idx_.has_pawns() ? 2 : 8;
    if (!idx_.has_pawns()) {
      // King pairs on the a1-h8 diagonal: only there can an orbit have fewer than 8 placements.
      const std::uint64_t stride = idx_.stride(0);
      slot_diag_.assign(static_cast<std::size_t>(idx_.kk_slots()), 0);
      TableIndex::Squares sq{};
      for (int s = 0; s < idx_.kk_slots(); ++s) {
        for (std::uint64_t k = 0; k < stride; ++k) {
          if (!idx_.decode(static_cast<std::uint64_t>(s) * stride + k, sq)) continue;
          slot_diag_[static_cast<std::size_t>(s)] =
              file_index(sq[0]) == rank_index(sq[0]) && file_index(sq[1]) == rank_index(sq[1]);
          break;
        }
      }
    }
  }

  Color table_color(Color user) const { return swapped_ ? ~user : user; }
  bool swapped() const { return swapped_; }

  // Which bishop-colour classes have a position where some side can mate (a scan of the table).
  Status find_mateable_classes(int threads) {
    std::uint64_t all = 0;
    for (int lw = 0; lw <= bishops_[Color::White]; ++lw)
      for (int lb = 0; lb <= bishops_[Color::Black]; ++lb) all |= std::uint64_t{1} << class_key(lw, lb);
    std::atomic<std::uint64_t> found{0};
    std::vector<std::uint64_t> unit_found(scan_unit_count(t_), 0);
    std::vector<std::optional<Error>> unit_error(scan_unit_count(t_));
    auto map = [&](const ScanUnit& su, std::size_t u) {
      TableIndex::Squares sq{};
      std::uint64_t mask = 0;
      for (std::size_t k = 0; k < su.white_mated.size(); ++k) {
        if ((mask | found.load(std::memory_order_relaxed)) == all) break;
        const std::uint8_t w = su.white_mated[k], b = su.black_mated[k];
        if (w == DthmCode::kInvalid || !(finite(w) || finite(b))) continue;
        if (bishop_slots_.empty()) {
          mask |= 1;
          break;
        }
        if (!idx_.decode(su.first + k, sq)) {
          unit_error[u] = broken(su.first + k);
          return;
        }
        const auto [lw, lb] = light_counts(sq);
        mask |= std::uint64_t{1} << class_key(lw, lb);
      }
      unit_found[u] = mask;
      found.fetch_or(mask, std::memory_order_relaxed);
    };
    std::uint64_t seen = 0;
    std::optional<Error> err;
    auto reduce = [&](std::size_t u) {
      if (unit_error[u]) {
        err = unit_error[u];
        return false;
      }
      seen |= unit_found[u];
      return seen != all;
    };
    if (Status s = scan_table(t_, threads, map, reduce, std::nullopt, SIZE_MAX); !s) return s;
    if (err) return *err;
    mateable_ = seen;
    return Ok{};
  }

  // The matches of one unit.
  void run_unit(const ScanUnit& su, UnitOut& out) const {
    const auto& okw = ok_w_[su.stm];
    const auto& okb = ok_b_[su.stm];
    const std::size_t n = su.white_mated.size();
    const std::uint64_t stride = idx_.stride(0);
    std::size_t k = 0;
    while (k < n) {
      const std::uint64_t i = su.first + k;
      const std::uint64_t slot = i / stride;
      const std::size_t end = static_cast<std::size_t>(std::min<std::uint64_t>(n, (slot + 1) * stride - su.first));
      const bool diag = !slot_diag_.empty() && slot_diag_[static_cast<std::size_t>(slot)];
      if (bishops_only_ && !diag) {
        // Only bishop colours to check, all orbits of weight_ placements: no decoding.
        for (; k < end; ++k) {
          if (!(okw[su.white_mated[k]] & okb[su.black_mated[k]])) continue;
          const auto [lw, lb] = light_counts_of_index(su.first + k);
          bool mirrored = false;
          const std::uint64_t p = bishop_positions(lw, lb, static_cast<int>(weight_), mirrored);
          out.positions += p;
          out.entries += p != 0;
        }
        continue;
      }
      const bool per_entry = decode_ || diag;
      if (!per_entry) {
        const std::uint64_t c = simple_[su.stm] ? count_simple(su, k, end) : count_lut(su, k, end);
        k = end;
        out.positions += c * weight_;
        out.entries += c;
        continue;
      }
      while (k < end) {
        // 64 entries at a time: a chunk without a byte match (the common case of a selective
        // filter) is skipped after the vectorised test.
        const std::size_t stop = std::min(end, k + 64);
        if (simple_[su.stm] && stop - k == 64 && !any_match(su, k)) {
          k = stop;
          continue;
        }
        for (; k < stop; ++k) {
          const std::uint8_t w = su.white_mated[k], b = su.black_mated[k];
          if (!(okw[w] & okb[b])) continue;
          if (!entry(su.stm, su.first + k, w, b, out)) return;
        }
      }
    }
  }

  // Whether one of the 64 entries from k passes the byte conditions (simple_ only).
  bool any_match(const ScanUnit& su, std::size_t k) const {
    const ByteSet bw = set_w_[su.stm], bb = set_b_[su.stm];
    const std::uint8_t* w = su.white_mated.data() + k;
    const std::uint8_t* b = su.black_mated.data() + k;
    unsigned any = 0;
    for (std::size_t j = 0; j < 64; ++j) {
      const unsigned ow = (static_cast<std::uint8_t>(w[j] - bw.lo) <= bw.span) | (w[j] == bw.none);
      const unsigned ob = (static_cast<std::uint8_t>(b[j] - bb.lo) <= bb.span) | (b[j] == bb.none);
      any |= ow & ob;
    }
    return any != 0;
  }

  std::uint64_t count_lut(const ScanUnit& su, std::size_t k, std::size_t end) const {
    const auto& okw = ok_w_[su.stm];
    const auto& okb = ok_b_[su.stm];
    std::uint64_t c = 0;
    for (; k < end; ++k) c += okw[su.white_mated[k]] & okb[su.black_mated[k]];
    return c;
  }

  // The same count when both byte conditions are a ByteSet: compares that the compiler
  // vectorises (the table lookups cost as much as the decompression on KRBvKR).
  std::uint64_t count_simple(const ScanUnit& su, std::size_t k, std::size_t end) const {
    const ByteSet bw = set_w_[su.stm], bb = set_b_[su.stm];
    const std::uint8_t* w = su.white_mated.data();
    const std::uint8_t* b = su.black_mated.data();
    std::uint64_t c = 0;
    while (k < end) {
      // Chunks whose count fits the 32-bit lanes of the vectorised sum.
      const std::size_t stop = std::min(end, k + (std::size_t{1} << 20));
      std::uint32_t part = 0;
      for (; k < stop; ++k) {
        const unsigned ow = (static_cast<std::uint8_t>(w[k] - bw.lo) <= bw.span) | (w[k] == bw.none);
        const unsigned ob = (static_cast<std::uint8_t>(b[k] - bb.lo) <= bb.span) | (b[k] == bb.none);
        part += ow & ob;
      }
      c += part;
    }
    return c;
  }

  QueryMatch match_of(Color stm, const Pending& p) const {
    TableIndex::Squares sq{};
    idx_.decode(p.index, sq);  // succeeded in run_unit
    if (p.mirrored)
      for (int j = 0; j < idx_.men(); ++j)
        sq[static_cast<std::size_t>(j)] = flip_horizontal(sq[static_cast<std::size_t>(j)]);
    QueryMatch m;
    m.index = p.index;
    m.position = position_of(sq, stm);
    if (swapped_) m.position = m.position.color_swapped();
    for (Color c : {Color::White, Color::Black}) {
      const std::uint8_t v = table_color(c) == Color::White ? p.w : p.b;
      if (finite(v)) m.dthm_mated[c] = v;
    }
    m.positions = p.positions;
    return m;
  }

 private:
  int class_key(int lw, int lb) const {
    const int nb1 = bishops_[Color::Black] + 1;
    const int a = lw * nb1 + lb;
    const int b = (bishops_[Color::White] - lw) * nb1 + (bishops_[Color::Black] - lb);
    return std::min(a, b);
  }

  std::pair<int, int> light_counts(const TableIndex::Squares& sq) const {
    int lw = 0, lb = 0;
    for (int j : bishop_slots_) {
      if (!is_light_square(sq[static_cast<std::size_t>(j)])) continue;
      (color_of(idx_.piece(j)) == Color::White ? lw : lb)++;
    }
    return {lw, lb};
  }

  Position position_of(const TableIndex::Squares& sq, Color stm) const {
    std::array<Piece, kMaxTableMen> pieces{};
    for (int j = 0; j < idx_.men(); ++j) pieces[static_cast<std::size_t>(j)] = idx_.piece(j);
    return Position::from_men(pieces.data(), sq.data(), idx_.men(), stm);
  }

  Error broken(std::uint64_t i) const {
    return Error{ErrorCode::CorruptTable,
                 t_.name() + ": entry " + std::to_string(i) + " is not a position but holds a value"};
  }

  // Raw positions of an orbit of mult placements whose canonical placement has lw / lb light
  // bishops that pass the bishop filters (0: none); mirrored: only the complement half passes.
  std::uint64_t bishop_positions(int lw, int lb, int mult, bool& mirrored) const {
    const int nw = bishops_[Color::White], nb = bishops_[Color::Black];
    if (f_.bishops != BishopPair::Any) {
      const int light = lw + lb, all = nw + nb;
      const bool same = all >= 2 && (light == 0 || light == all);
      const bool opposite = light > 0 && light < all;
      if (f_.bishops == BishopPair::Same ? !same : !opposite) return 0;
    }
    if (!shade_filter_) return static_cast<std::uint64_t>(mult);
    // Half of the orbit has the canonical placement's colours, half the complement.
    const bool own = shade_ok(shade_[Color::White], lw, nw) && shade_ok(shade_[Color::Black], lb, nb);
    const bool other = shade_ok(shade_[Color::White], nw - lw, nw) && shade_ok(shade_[Color::Black], nb - lb, nb);
    mirrored = !own;
    return static_cast<std::uint64_t>(mult / 2) * ((own ? 1U : 0U) + (other ? 1U : 0U));
  }

  // Light-squared bishops of each side of entry i, read from its index fields (a bishop's field
  // is its square, docs/format.md section 4) without decoding the placement.
  std::pair<int, int> light_counts_of_index(std::uint64_t i) const {
    int lw = 0, lb = 0;
    for (std::size_t k = 0; k < bishop_slots_.size(); ++k) {
      const std::uint64_t field = (bishop_shift_[k] >= 0 ? i >> bishop_shift_[k] : i / bishop_stride_[k]) & 63;
      if (!is_light_square(square_at(static_cast<int>(field)))) continue;
      (color_of(idx_.piece(bishop_slots_[k])) == Color::White ? lw : lb)++;
    }
    return {lw, lb};
  }

  // One entry that passed the byte tables; false on an error (stored in out).
  bool entry(Color stm, std::uint64_t i, std::uint8_t w, std::uint8_t b, UnitOut& out) const {
    TableIndex::Squares sq{};
    if (!idx_.decode(i, sq)) {
      out.error = broken(i);
      return false;
    }
    const int mult = idx_.multiplicity(sq);
    const auto [lw, lb] = light_counts(sq);
    bool mirrored = false;
    const std::uint64_t positions = bishop_positions(lw, lb, mult, mirrored);
    if (positions == 0) return true;
    if (f_.dead_not_by_material && !((mateable_ >> class_key(lw, lb)) & 1)) return true;
    if (f_.stalemate) {
      const Position pos = position_of(sq, stm);
      if (pos.in_check() || pos.has_legal_move()) return true;
    }
    out.positions += positions;
    ++out.entries;
    if (listing_) out.matches.push_back(Pending{i, static_cast<std::uint32_t>(positions), w, b, mirrored});
    return true;
  }

  // The byte conditions for side to move stm (table colours).
  void build_tables(Color stm, const Material& user) {
    auto& okw = ok_w_[stm];
    auto& okb = ok_b_[stm];
    // ok[X][v]: the condition on the byte of DTHM of X (table colours).
    ByColor<std::array<bool, 256>> ok{};
    for (Color x : {Color::White, Color::Black})
      for (int v = 0; v < 256; ++v) ok[x][static_cast<std::size_t>(v)] = v != DthmCode::kInvalid;
    auto require = [&](Color x, auto pred) {
      for (int v = 0; v < 256; ++v) {
        auto& e = ok[x][static_cast<std::size_t>(v)];
        e = e && pred(static_cast<std::uint8_t>(v));
      }
    };
    const auto none = [](std::uint8_t v) { return v == DthmCode::kNone; };
    if (f_.dead || f_.stalemate || f_.dead_not_by_material) {
      require(Color::White, none);
      require(Color::Black, none);
    }
    for (Color c : {Color::White, Color::Black}) {
      const Color tc = table_color(c);
      if (f_.can_mate[c]) {
        const bool want = *f_.can_mate[c];
        require(~tc, [want](std::uint8_t v) { return finite(v) == want; });
      }
      if (f_.dthm_mated[c]) {
        const PlyRange r = *f_.dthm_mated[c];
        require(tc, [r](std::uint8_t v) { return finite(v) && v >= r.lo && v <= r.hi; });
      }
    }
    if (f_.checkmate) require(stm, [](std::uint8_t v) { return v == 0; });
    if (f_.only_weaker_side_can_mate) {
      if (const auto weak = weaker_side(user)) {
        const Color wt = table_color(*weak);
        require(~wt, finite);  // the weaker side mates the stronger one
        require(wt, none);     // the stronger side cannot mate
      } else {
        require(Color::White, [](std::uint8_t) { return false; });
      }
    }
    for (int v = 0; v < 256; ++v) {
      okw[static_cast<std::size_t>(v)] = ok[Color::White][static_cast<std::size_t>(v)] ? 1 : 0;
      okb[static_cast<std::size_t>(v)] = ok[Color::Black][static_cast<std::size_t>(v)] ? 1 : 0;
    }
    const auto sw = byte_set(ok[Color::White]), sb = byte_set(ok[Color::Black]);
    simple_[stm] = sw && sb;
    if (simple_[stm]) {
      set_w_[stm] = *sw;
      set_b_[stm] = *sb;
    }
  }

  // A byte condition of the form "lo <= v <= lo + span (within 0..kMaxDthm), or v == none": what
  // every filter of QueryFilter gives (intersections of finite ranges and "none or not"). An empty
  // range is lo = 251 (a code no valid block holds), span 0. nullopt: another shape.
  struct ByteSet {
    std::uint8_t lo = 251, span = 0;
    std::uint8_t none = 252;  // kNone when accepted, else 252 (a code no valid block holds)
    bool operator==(const ByteSet&) const = default;
  };
  static std::optional<ByteSet> byte_set(const std::array<bool, 256>& ok) {
    ByteSet s;
    int lo = -1, hi = -1;
    for (int v = 0; v <= DthmCode::kMaxDthm; ++v) {
      if (!ok[static_cast<std::size_t>(v)]) continue;
      if (lo < 0) lo = v;
      if (hi >= 0 && hi != v - 1) return std::nullopt;  // two ranges
      hi = v;
    }
    for (int v = DthmCode::kMaxDthm + 1; v < 256; ++v)
      if (ok[static_cast<std::size_t>(v)] && v != DthmCode::kNone) return std::nullopt;
    if (lo >= 0) {
      s.lo = static_cast<std::uint8_t>(lo);
      s.span = static_cast<std::uint8_t>(hi - lo);
    }
    s.none = ok[DthmCode::kNone] ? DthmCode::kNone : std::uint8_t{252};
    return s;
  }

  const TableFile& t_;
  const TableIndex& idx_;
  bool swapped_;
  QueryFilter f_;
  bool listing_;
  bool decode_ = false;
  bool bishops_only_ = false;  // the placement is needed for the bishop colours only
  std::vector<std::uint64_t> bishop_stride_;
  std::vector<int> bishop_shift_;  // log2 of the stride when it is a power of two, else -1
  bool shade_filter_ = false;
  std::vector<int> bishop_slots_;
  ByColor<int> bishops_{{0, 0}};
  ByColor<BishopShade> shade_{{BishopShade::Any, BishopShade::Any}};
  ByColor<std::array<std::uint8_t, 256>> ok_w_{}, ok_b_{};
  ByColor<bool> simple_{{false, false}};
  ByColor<ByteSet> set_w_{}, set_b_{};
  std::uint64_t weight_ = 8;
  std::vector<std::uint8_t> slot_diag_;
  std::uint64_t mateable_ = 0;
};

}  // namespace

Result<QueryCounts> run_query(const TableFile& t, const Material& material, const QueryFilter& f, int threads,
                              const std::function<bool(const QueryMatch&)>& on_match) {
  if (!(material.canonical() == t.material())) {
    return make_error(ErrorCode::InvalidArgument,
                      t.name() + " holds the table " + t.material().key() + ", not one of " + material.key());
  }
  for (Color c : {Color::White, Color::Black}) {
    if (const auto& r = f.dthm_mated[c]; r && !(0 <= r->lo && r->lo <= r->hi && r->hi <= DthmCode::kMaxDthm)) {
      return make_error(ErrorCode::InvalidArgument, "DTHM range " + std::to_string(r->lo) + ".." +
                                                        std::to_string(r->hi) + " is not within 0.." +
                                                        std::to_string(DthmCode::kMaxDthm));
    }
  }
  const bool listing = static_cast<bool>(on_match);
  Plan plan(t, material, f, listing);
  if (f.dead_not_by_material)
    if (Status s = plan.find_mateable_classes(threads); !s) return s.error();
  QueryCounts counts;
  std::vector<UnitOut> outs(scan_unit_count(t));
  bool stopped = false;
  for (Color user_stm : {Color::White, Color::Black}) {
    if (stopped) break;
    if (f.side_to_move && *f.side_to_move != user_stm) continue;
    const Color stm = plan.table_color(user_stm);
    std::optional<Error> err;
    auto map = [&](const ScanUnit& su, std::size_t u) { plan.run_unit(su, outs[u]); };
    auto reduce = [&](std::size_t u) {
      UnitOut& o = outs[u];
      if (o.error) {
        err = o.error;
        return false;
      }
      if (!listing) {
        counts.positions[user_stm] += o.positions;
        counts.entries[user_stm] += o.entries;
      } else {
        for (const Pending& p : o.matches) {
          counts.positions[user_stm] += p.positions;
          ++counts.entries[user_stm];
          if (!on_match(plan.match_of(stm, p))) {
            stopped = true;
            break;
          }
        }
      }
      o = UnitOut{};  // release the unit's matches
      return !stopped;
    };
    // Counting keeps two numbers a unit: every unit in one batch. Listings keep their matches
    // until they are printed: the default window bounds that memory.
    if (Status s = scan_table(t, threads, map, reduce, stm, listing ? 0 : SIZE_MAX); !s) return s.error();
    if (err) return *err;
  }
  return counts;
}

}  // namespace deadpos
