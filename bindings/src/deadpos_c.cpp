// The C API (bindings/include/deadpos.h) over the C++ library: every entry point converts its
// arguments, calls answers::answer / analyze_side / analyze_dead (or probe / helpmate_line with tables_only),
// and converts the answer field by field as answers/src/probe_answer.cpp's probe_json renders it, so that the C
// answer and `deadpos probe --json` cannot drift apart in meaning. Nothing here prints or aborts;
// every C++ exception stops at the boundary (guarded()).
#include "deadpos.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/answers.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/table_directory.h"
#include "deadpos/tablebase.h"

#ifndef DEADPOS_VERSION
#error "DEADPOS_VERSION must be defined by the build (bindings/CMakeLists.txt)"
#endif

struct deadpos_tablebase {
  deadpos::Tablebase tb;
  deadpos::AnalysisOptions analysis;
  bool tables_only = false;
};

namespace {

using deadpos::Color;
using deadpos::ErrorCode;
using deadpos::Method;

// A failure of the C boundary: a status and its message.
struct Failure {
  deadpos_status code;
  std::string message;
};

deadpos_status status_of(ErrorCode c) {
  switch (c) {
    case ErrorCode::InvalidFen: return DEADPOS_ERR_INVALID_FEN;
    case ErrorCode::InvalidArgument: return DEADPOS_ERR_INVALID_ARGUMENT;
    case ErrorCode::InvalidMove: return DEADPOS_ERR_INVALID_MOVE;
    case ErrorCode::Io: return DEADPOS_ERR_IO;
    case ErrorCode::MissingTable: return DEADPOS_ERR_MISSING_TABLE;
    case ErrorCode::CorruptTable: return DEADPOS_ERR_CORRUPT_TABLE;
    case ErrorCode::OutOfMemory: return DEADPOS_ERR_OUT_OF_MEMORY;
    case ErrorCode::TooManyMen: return DEADPOS_ERR_TOO_MANY_MEN;
    case ErrorCode::VerificationFailed: return DEADPOS_ERR_VERIFICATION_FAILED;
  }
  return DEADPOS_ERR_INTERNAL;
}

Failure failure(const deadpos::Error& e) { return {status_of(e.code), e.message}; }

// Copies text into a fixed C buffer of `size` bytes: printable ASCII (deadpos::shown_text), cut
// with "..." to fit, NUL-terminated.
void copy_text(char* dst, std::size_t size, const std::string& text) {
  const std::string s = deadpos::shown_text(text, size - 4);
  std::memcpy(dst, s.data(), s.size());
  dst[s.size()] = '\0';
}

// Copies a value (FEN, material key, result) into its fixed C buffer, which the header sizes for
// every value the library makes; one that does not fit is an internal error, never cut.
void copy_value(char* dst, std::size_t size, const std::string& value) {
  if (value.size() >= size) {
    throw Failure{DEADPOS_ERR_INTERNAL, "internal error: '" + deadpos::shown_text(value) + "' does not fit in " +
                                            std::to_string(size) + " bytes"};
  }
  std::memcpy(dst, value.c_str(), value.size() + 1);
}

void set_error(deadpos_error* err, deadpos_status code, const std::string& message) {
  if (!err) return;
  err->code = code;
  copy_text(err->message, sizeof err->message, message);
}

// Runs f (returning void, throwing Failure for an error) and turns every outcome into a status.
template <typename F>
deadpos_status guarded(deadpos_error* err, F&& f) noexcept {
  try {
    try {
      f();
      if (err) {
        err->code = DEADPOS_OK;
        err->message[0] = '\0';
      }
      return DEADPOS_OK;
    } catch (const Failure& e) {
      set_error(err, e.code, e.message);
      return e.code;
    } catch (const std::bad_alloc&) {
      set_error(err, DEADPOS_ERR_OUT_OF_MEMORY, "out of memory");
      return DEADPOS_ERR_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
      set_error(err, DEADPOS_ERR_INTERNAL, std::string("internal error: ") + e.what());
      return DEADPOS_ERR_INTERNAL;
    } catch (...) {
      set_error(err, DEADPOS_ERR_INTERNAL, "internal error: unknown exception");
      return DEADPOS_ERR_INTERNAL;
    }
  } catch (...) {  // building a message failed (out of memory): the code alone
    if (err) {
      err->code = DEADPOS_ERR_OUT_OF_MEMORY;
      err->message[0] = '\0';
    }
    return DEADPOS_ERR_OUT_OF_MEMORY;
  }
}

[[noreturn]] void bad_argument(const std::string& what) { throw Failure{DEADPOS_ERR_BAD_ARGUMENT, what}; }

template <typename T>
T take(deadpos::Result<T>&& r) {
  if (!r) throw failure(r.error());
  return std::move(r).value();
}

void check_range(const char* name, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  if (v < lo || v > hi) {
    bad_argument(std::string("options.") + name + " = " + std::to_string(v) + " is out of range " + std::to_string(lo) +
                 ".." + std::to_string(hi));
  }
}

// ---- positions --------------------------------------------------------------------------------

deadpos::Position position_of_fen(const char* fen) {
  if (!fen) bad_argument("fen is NULL");
  return take(deadpos::Position::from_fen(fen));
}

deadpos::Error invalid_bitboards(const std::string& msg) {
  return deadpos::make_error(ErrorCode::InvalidFen, "bitboards: " + msg);
}

// The bitboards as a Placement, then the legality checks of a FEN (Position::from_placement).
deadpos::Position position_of_bitboards(const deadpos_bitboards* b) {
  using deadpos::PieceType;
  if (!b) bad_argument("bitboards are NULL");
  const std::uint64_t types[] = {b->pawns, b->knights, b->bishops, b->rooks, b->queens, b->kings};
  deadpos::Placement p;
  const std::uint64_t all = b->white | b->black;
  std::uint64_t typed = 0;
  for (const std::uint64_t t : types) typed |= t;
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (!((all | typed) & bit)) continue;
    const char* sq = deadpos::square_name(deadpos::square_at(i));
    if ((b->white & bit) && (b->black & bit)) throw failure(invalid_bitboards(std::string(sq) + " is white and black"));
    if (!(all & bit)) throw failure(invalid_bitboards(std::string(sq) + " has a piece type but no colour"));
    int n = 0, type = 0;
    for (int t = 0; t < 6; ++t) {
      if (types[t] & bit) {
        ++n;
        type = t;
      }
    }
    if (n == 0) throw failure(invalid_bitboards(std::string(sq) + " has a colour but no piece type"));
    if (n > 1) throw failure(invalid_bitboards(std::string(sq) + " is in more than one piece type"));
    p[deadpos::square_at(i)] =
        deadpos::make_piece((b->white & bit) ? Color::White : Color::Black, static_cast<PieceType>(type));
  }
  if (b->side_to_move != DEADPOS_WHITE && b->side_to_move != DEADPOS_BLACK) {
    throw failure(invalid_bitboards("side_to_move " + std::to_string(static_cast<int>(b->side_to_move)) +
                                    " is not DEADPOS_WHITE or DEADPOS_BLACK"));
  }
  p.side_to_move = b->side_to_move == DEADPOS_WHITE ? Color::White : Color::Black;
  if (b->castling > 15) throw failure(invalid_bitboards("castling " + std::to_string(b->castling) + " is not 0..15"));
  p.castling = static_cast<std::uint8_t>(b->castling);
  if (b->en_passant != DEADPOS_NO_SQUARE) {
    if (b->en_passant < 0 || b->en_passant > 63) {
      throw failure(
          invalid_bitboards("en_passant " + std::to_string(b->en_passant) + " is not 0..63 or DEADPOS_NO_SQUARE"));
    }
    p.en_passant = deadpos::square_at(b->en_passant);
  }
  return take(deadpos::Position::from_placement(p));
}

const deadpos_tablebase& handle(const deadpos_tablebase* tb) {
  if (!tb) bad_argument("tablebase handle is NULL");
  return *tb;
}

Color side_of(deadpos_side s, const deadpos::Position& pos, const char* name) {
  switch (s) {
    case DEADPOS_WHITE: return Color::White;
    case DEADPOS_BLACK: return Color::Black;
    case DEADPOS_SIDE_TO_MOVE: return pos.side_to_move();
    default: break;  // any other int (deadpos.h: *_MAX_ENUM)
  }
  bad_argument(std::string(name) + " = " + std::to_string(static_cast<int>(s)) +
               " is not DEADPOS_WHITE, DEADPOS_BLACK or DEADPOS_SIDE_TO_MOVE");
}

deadpos_side c_side(Color c) { return c == Color::White ? DEADPOS_WHITE : DEADPOS_BLACK; }

// ---- answers ----------------------------------------------------------------------------------

deadpos_tri tri(std::optional<bool> b) { return !b ? DEADPOS_UNDETERMINED : *b ? DEADPOS_YES : DEADPOS_NO; }

deadpos_method c_method(Method m) {
  switch (m) {
    case Method::Table: return DEADPOS_METHOD_TABLE;
    case Method::Search: return DEADPOS_METHOD_SEARCH;
    case Method::Exhausted: return DEADPOS_METHOD_EXHAUSTED;
    case Method::Rule: return DEADPOS_METHOD_RULE;
    case Method::Undetermined: return DEADPOS_METHOD_UNDETERMINED;
    case Method::NotAsked: return DEADPOS_METHOD_NOT_ASKED;
  }
  return DEADPOS_METHOD_UNDETERMINED;
}

deadpos_rule c_rule(deadpos::AnalysisRule r) {
  using deadpos::AnalysisRule;
  switch (r) {
    case AnalysisRule::None: return DEADPOS_RULE_NONE;
    case AnalysisRule::LoneKing: return DEADPOS_RULE_LONE_KING;
    case AnalysisRule::SameColouredBishops: return DEADPOS_RULE_SAME_COLOURED_BISHOPS;
    case AnalysisRule::NoCheckmatePlacement: return DEADPOS_RULE_NO_CHECKMATE_PLACEMENT;
    case AnalysisRule::OneColourBishops: return DEADPOS_RULE_ONE_COLOUR_BISHOPS;
    case AnalysisRule::LockedStructure: return DEADPOS_RULE_LOCKED_STRUCTURE;
  }
  return DEADPOS_RULE_NONE;
}

deadpos_budget c_budget(deadpos::BudgetKind b) {
  using deadpos::BudgetKind;
  switch (b) {
    case BudgetKind::None: return DEADPOS_BUDGET_NONE;
    case BudgetKind::Nodes: return DEADPOS_BUDGET_NODES;
    case BudgetKind::Time: return DEADPOS_BUDGET_TIME;
    case BudgetKind::Memory: return DEADPOS_BUDGET_MEMORY;
    case BudgetKind::OutOfMemory: return DEADPOS_BUDGET_OUT_OF_MEMORY;
  }
  return DEADPOS_BUDGET_NONE;
}

// `how` as answers/src/probe_answer.cpp's how_json fills it: only the fields its method defines.
deadpos_how c_how(const deadpos::MateAnswer& m) {
  deadpos_how h{};
  h.method = c_method(m.method);
  h.rule = DEADPOS_RULE_NONE;
  h.budget = DEADPOS_BUDGET_NONE;
  switch (m.method) {
    case Method::Table: break;
    case Method::Search:
      h.line_plies = m.plies;
      h.shortest = m.shortest ? 1 : 0;
      h.positions = m.positions;
      break;
    case Method::Exhausted: h.positions = m.positions; break;
    case Method::Rule: h.rule = c_rule(m.rule); break;
    case Method::Undetermined:
      h.budget = c_budget(m.budget);
      h.positions = m.positions;
      break;
    case Method::NotAsked: break;
  }
  copy_value(h.reason, sizeof h.reason, deadpos::cannot_mate_reason(m));
  return h;
}

// The exact DTHM when known (the tables, or a search line proven shortest), else NONE (cannot be
// mated) or UNKNOWN.
int c_dthm(const deadpos::MateAnswer& m) {
  if (m.method == Method::Table) return m.dthm ? *m.dthm : DEADPOS_DTHM_NONE;
  if (m.method == Method::Search) return m.shortest ? m.plies : DEADPOS_DTHM_UNKNOWN;
  return m.can_mate() == false ? DEADPOS_DTHM_NONE : DEADPOS_DTHM_UNKNOWN;
}

unsigned c_warning(deadpos::PositionWarning w) {
  switch (w) {
    case deadpos::PositionWarning::ImpossibleCheck: return DEADPOS_WARNING_IMPOSSIBLE_CHECK;
    case deadpos::PositionWarning::ImpossibleMaterial: return DEADPOS_WARNING_IMPOSSIBLE_MATERIAL;
  }
  return 0;
}

void fill_probe(const deadpos::Position& pos, const deadpos::PositionAnalysis& a, deadpos_probe_result* out) {
  const deadpos::MateAnswer& white_mated = a.mate[Color::White];
  const deadpos::MateAnswer& black_mated = a.mate[Color::Black];
  *out = deadpos_probe_result{};
  out->checkmate = a.checkmate ? 1 : 0;
  out->stalemate = a.stalemate ? 1 : 0;
  out->dead = tri(a.dead());
  out->white_can_mate = tri(a.white_can_mate());
  out->black_can_mate = tri(a.black_can_mate());
  out->dthm_white_mated_plies = c_dthm(white_mated);
  out->dthm_black_mated_plies = c_dthm(black_mated);
  out->how_white_can_mate = c_how(black_mated);
  out->how_black_can_mate = c_how(white_mated);
  out->castling_search = a.castling_search ? 1 : 0;
  out->en_passant = a.en_passant ? 1 : 0;
  copy_value(out->table, sizeof out->table, a.table);
  copy_value(out->fen, sizeof out->fen, pos.to_fen());
  for (deadpos::PositionWarning w : a.warnings) out->warnings |= c_warning(w);
}

// tables_only: Tablebase::probe's answer in the shape of an analysis (both sides Method::Table).
deadpos::PositionAnalysis analysis_of_probe(const deadpos::Position& pos, const deadpos::ProbeResult& p) {
  deadpos::PositionAnalysis a;
  a.warnings = deadpos::reachability_warnings(pos);
  a.checkmate = p.checkmate;
  a.stalemate = p.stalemate;
  a.table = p.table;
  a.castling_search = p.castling_search;
  a.en_passant = p.en_passant;
  for (Color c : {Color::White, Color::Black}) {
    a.mate[c].mated = c;
    a.mate[c].method = Method::Table;
    a.mate[c].dthm = p.dthm[c];
  }
  return a;
}

// The answer of every surface (answers::answer) without lines; with tables_only, the tables'
// probe alone and the flag verdict from it.
deadpos::answers::ProbeAnswer answer(const deadpos_tablebase& h, const deadpos::Position& pos,
                                     std::optional<Color> flagged) {
  if (!h.tables_only) return take(deadpos::answers::answer(h.tb, pos, {flagged, false, h.analysis}));
  deadpos::answers::ProbeAnswer a{pos, analysis_of_probe(pos, take(h.tb.probe(pos))), flagged, std::nullopt, false};
  if (flagged) a.verdict = deadpos::flag_verdict(a.analysis, pos.side_to_move(), *flagged);
  return a;
}

void probe(const deadpos_tablebase* tb, const deadpos::Position& pos, deadpos_probe_result* out) {
  fill_probe(pos, answer(handle(tb), pos, std::nullopt).analysis, out);
}

deadpos_flag_reason c_reason(deadpos::FlagVerdict::Reason r) {
  using R = deadpos::FlagVerdict::Reason;
  switch (r) {
    case R::Checkmate: return DEADPOS_FLAG_CHECKMATE;
    case R::Stalemate: return DEADPOS_FLAG_STALEMATE;
    case R::DeadPosition: return DEADPOS_FLAG_DEAD_POSITION;
    case R::OpponentCannotMate: return DEADPOS_FLAG_OPPONENT_CANNOT_MATE;
    case R::OpponentCanMate: return DEADPOS_FLAG_OPPONENT_CAN_MATE;
    case R::Undetermined: return DEADPOS_FLAG_UNDETERMINED;
  }
  return DEADPOS_FLAG_UNDETERMINED;
}

void flag(const deadpos_tablebase* tb, const deadpos::Position& pos, deadpos_side flagged, deadpos_flag_result* out) {
  const deadpos_tablebase& h = handle(tb);
  const Color f = side_of(flagged, pos, "flagged");
  const deadpos::answers::ProbeAnswer a = answer(h, pos, f);
  const deadpos::FlagVerdict& v = *a.verdict;
  *out = deadpos_flag_result{};
  out->flagged = c_side(f);
  out->reason = c_reason(v.reason);
  copy_value(out->result, sizeof out->result, v.result);
  fill_probe(pos, a.analysis, &out->probe);
}

// The handle's analysis options with the call's time cap (deadpos.h: 0 keeps the handle's budget_ms).
deadpos::AnalysisOptions capped(const deadpos_tablebase& h, std::uint64_t max_ms) {
  if (max_ms > 86'400'000) bad_argument("max_ms = " + std::to_string(max_ms) + " is out of range 0..86400000");
  deadpos::AnalysisOptions o = h.analysis;
  if (max_ms) o.budget.time_ms = max_ms;
  return o;
}

// Can `side` checkmate: is its opponent's question ("can it be mated?") yes?
deadpos_tri can_mate(const deadpos_tablebase* tb, const deadpos::Position& pos, deadpos_side side,
                     std::uint64_t max_ms) {
  const deadpos_tablebase& h = handle(tb);
  const Color mated = ~side_of(side, pos, "side");
  const deadpos::AnalysisOptions o = capped(h, max_ms);
  if (h.tables_only) return tri(take(h.tb.probe(pos)).dthm[mated].has_value());
  return tri(take(deadpos::analyze_side(h.tb, pos, mated, o, false)).can_mate());
}

deadpos_tri is_dead(const deadpos_tablebase* tb, const deadpos::Position& pos, std::uint64_t max_ms) {
  const deadpos_tablebase& h = handle(tb);
  const deadpos::AnalysisOptions o = capped(h, max_ms);
  if (h.tables_only) {
    const deadpos::ProbeResult p = take(h.tb.probe(pos));
    return tri(!p.dthm[Color::White] && !p.dthm[Color::Black]);
  }
  return tri(take(deadpos::analyze_dead(h.tb, pos, o)).dead());
}

void line(const deadpos_tablebase* tb, const deadpos::Position& pos, deadpos_side mated, char* buf,
          std::size_t buf_size, deadpos_line_info* info) {
  const deadpos_tablebase& h = handle(tb);
  if (!info) bad_argument("info is NULL");
  if (!buf && buf_size > 0) bad_argument("buf is NULL but buf_size is " + std::to_string(buf_size));
  const Color m = side_of(mated, pos, "mated");
  *info = deadpos_line_info{};
  info->can_be_mated = DEADPOS_UNDETERMINED;
  info->needed = 1;
  if (buf_size > 0) buf[0] = '\0';
  std::vector<deadpos::Move> moves;
  if (h.tables_only) {
    const deadpos::ProbeResult p = take(h.tb.probe(pos));
    if (!p.dthm[m]) {
      info->can_be_mated = DEADPOS_NO;
      return;
    }
    moves = take(h.tb.helpmate_line(pos, m));
    info->shortest = 1;
  } else {
    deadpos::MateAnswer a = take(deadpos::analyze_side(h.tb, pos, m, h.analysis, true));
    info->can_be_mated = tri(a.can_mate());
    if (a.can_mate() != true) return;
    if (a.line_error) throw failure(*a.line_error);
    moves = std::move(a.line);
    info->shortest = a.shortest || a.method == Method::Table ? 1 : 0;
  }
  info->can_be_mated = DEADPOS_YES;
  info->plies = static_cast<int>(moves.size());
  std::string text;
  for (const deadpos::Move mv : moves) {
    if (!text.empty()) text += ' ';
    text += deadpos::to_uci(mv);
  }
  info->needed = text.size() + 1;
  if (buf_size < info->needed) {
    throw Failure{DEADPOS_ERR_BUFFER_TOO_SMALL, "the line of " + std::to_string(moves.size()) + " plies needs " +
                                                    std::to_string(info->needed) + " bytes, the buffer has " +
                                                    std::to_string(buf_size)};
  }
  std::memcpy(buf, text.c_str(), info->needed);
}

}  // namespace

extern "C" {

const char* deadpos_status_name(deadpos_status s) {
  switch (s) {
    case DEADPOS_OK: return "ok";
    case DEADPOS_ERR_INVALID_FEN: return deadpos::error_code_name(ErrorCode::InvalidFen);
    case DEADPOS_ERR_INVALID_ARGUMENT: return deadpos::error_code_name(ErrorCode::InvalidArgument);
    case DEADPOS_ERR_INVALID_MOVE: return deadpos::error_code_name(ErrorCode::InvalidMove);
    case DEADPOS_ERR_IO: return deadpos::error_code_name(ErrorCode::Io);
    case DEADPOS_ERR_MISSING_TABLE: return deadpos::error_code_name(ErrorCode::MissingTable);
    case DEADPOS_ERR_CORRUPT_TABLE: return deadpos::error_code_name(ErrorCode::CorruptTable);
    case DEADPOS_ERR_OUT_OF_MEMORY: return deadpos::error_code_name(ErrorCode::OutOfMemory);
    case DEADPOS_ERR_TOO_MANY_MEN: return deadpos::error_code_name(ErrorCode::TooManyMen);
    case DEADPOS_ERR_VERIFICATION_FAILED: return deadpos::error_code_name(ErrorCode::VerificationFailed);
    case DEADPOS_ERR_BAD_ARGUMENT: return "bad argument";
    case DEADPOS_ERR_BUFFER_TOO_SMALL: return "buffer too small";
    case DEADPOS_ERR_INTERNAL: return "internal error";
    default: break;
  }
  return "?";
}

const char* deadpos_version(void) { return DEADPOS_VERSION; }

void deadpos_options_init(deadpos_options* opt) {
  if (!opt) return;
  const deadpos::AnalysisBudget b;
  *opt = deadpos_options{};
  opt->cache_mib = deadpos::Tablebase::default_cache_bytes() >> 20;  // the machine's, as `deadpos probe`
  opt->budget_nodes = b.nodes;
  opt->budget_ms = b.time_ms;
  opt->budget_mib = b.memory_bytes >> 20;
  opt->tables_only = 0;
}

deadpos_status deadpos_open(const char* const* dirs, std::size_t n_dirs, const deadpos_options* opt,
                            deadpos_tablebase** out, deadpos_error* err) {
  if (out) *out = nullptr;
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    if (!dirs || n_dirs == 0) bad_argument("no table directory given");
    deadpos_options o;
    deadpos_options_init(&o);
    if (opt) o = *opt;
    check_range("cache_mib", o.cache_mib, 0, std::uint64_t{1} << 20);
    check_range("budget_nodes", o.budget_nodes, 0, std::uint64_t{1} << 40);
    check_range("budget_ms", o.budget_ms, 0, 86'400'000);
    check_range("budget_mib", o.budget_mib, 1, std::uint64_t{1} << 20);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < n_dirs; ++i) {
      if (!dirs[i] || !*dirs[i]) bad_argument("table directory " + std::to_string(i) + " is NULL or empty");
      names.emplace_back(dirs[i]);
    }
    deadpos::Tablebase::Options topt;
    topt.cache_bytes = static_cast<std::size_t>(o.cache_mib) << 20;
    deadpos::Tablebase t = take(deadpos::Tablebase::open(names, topt));
    if (t.max_men() == 0) {  // as `deadpos probe` says it (tools/cmd_probe.cpp)
      throw Failure{DEADPOS_ERR_MISSING_TABLE, deadpos::no_tables_error(names).message};
    }
    auto h = std::make_unique<deadpos_tablebase>(deadpos_tablebase{std::move(t), {}, o.tables_only != 0});
    h->analysis.budget.nodes = o.budget_nodes;
    h->analysis.budget.time_ms = o.budget_ms;
    h->analysis.budget.memory_bytes = static_cast<std::size_t>(o.budget_mib) << 20;
    *out = h.release();
  });
}

void deadpos_close(deadpos_tablebase* tb) { delete tb; }

int deadpos_max_men(const deadpos_tablebase* tb) { return tb ? tb->tb.max_men() : 0; }

const char* deadpos_method_name(deadpos_method m) {
  switch (m) {
    case DEADPOS_METHOD_TABLE: return deadpos::method_name(Method::Table);
    case DEADPOS_METHOD_SEARCH: return deadpos::method_name(Method::Search);
    case DEADPOS_METHOD_EXHAUSTED: return deadpos::method_name(Method::Exhausted);
    case DEADPOS_METHOD_RULE: return deadpos::method_name(Method::Rule);
    case DEADPOS_METHOD_UNDETERMINED: return deadpos::method_name(Method::Undetermined);
    case DEADPOS_METHOD_NOT_ASKED: return deadpos::method_name(Method::NotAsked);
    default: break;
  }
  return "?";
}

const char* deadpos_rule_name(deadpos_rule r) {
  using deadpos::AnalysisRule;
  switch (r) {
    case DEADPOS_RULE_NONE: return "none";
    case DEADPOS_RULE_LONE_KING: return deadpos::rule_name(AnalysisRule::LoneKing);
    case DEADPOS_RULE_SAME_COLOURED_BISHOPS: return deadpos::rule_name(AnalysisRule::SameColouredBishops);
    case DEADPOS_RULE_NO_CHECKMATE_PLACEMENT: return deadpos::rule_name(AnalysisRule::NoCheckmatePlacement);
    case DEADPOS_RULE_ONE_COLOUR_BISHOPS: return deadpos::rule_name(AnalysisRule::OneColourBishops);
    case DEADPOS_RULE_LOCKED_STRUCTURE: return deadpos::rule_name(AnalysisRule::LockedStructure);
    default: break;
  }
  return "?";
}

const char* deadpos_warning_name(unsigned warning_bit) {
  using deadpos::PositionWarning;
  switch (warning_bit) {
    case DEADPOS_WARNING_IMPOSSIBLE_CHECK: return deadpos::warning_name(PositionWarning::ImpossibleCheck);
    case DEADPOS_WARNING_IMPOSSIBLE_MATERIAL: return deadpos::warning_name(PositionWarning::ImpossibleMaterial);
    default: return nullptr;
  }
}

const char* deadpos_budget_name(deadpos_budget b) {
  using deadpos::BudgetKind;
  switch (b) {
    case DEADPOS_BUDGET_NONE: return "none";
    case DEADPOS_BUDGET_NODES: return deadpos::budget_name(BudgetKind::Nodes);
    case DEADPOS_BUDGET_TIME: return deadpos::budget_name(BudgetKind::Time);
    case DEADPOS_BUDGET_MEMORY: return deadpos::budget_name(BudgetKind::Memory);
    case DEADPOS_BUDGET_OUT_OF_MEMORY: return deadpos::budget_name(BudgetKind::OutOfMemory);
    default: break;
  }
  return "?";
}

const char* deadpos_flag_reason_name(deadpos_flag_reason r) {
  using R = deadpos::FlagVerdict::Reason;
  switch (r) {
    case DEADPOS_FLAG_CHECKMATE: return deadpos::flag_reason_name(R::Checkmate);
    case DEADPOS_FLAG_STALEMATE: return deadpos::flag_reason_name(R::Stalemate);
    case DEADPOS_FLAG_DEAD_POSITION: return deadpos::flag_reason_name(R::DeadPosition);
    case DEADPOS_FLAG_OPPONENT_CANNOT_MATE: return deadpos::flag_reason_name(R::OpponentCannotMate);
    case DEADPOS_FLAG_OPPONENT_CAN_MATE: return deadpos::flag_reason_name(R::OpponentCanMate);
    case DEADPOS_FLAG_UNDETERMINED: return deadpos::flag_reason_name(R::Undetermined);
    default: break;
  }
  return "?";
}

deadpos_status deadpos_probe_fen(const deadpos_tablebase* tb, const char* fen, deadpos_probe_result* out,
                                 deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    probe(tb, position_of_fen(fen), out);
  });
}

deadpos_status deadpos_probe_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                       deadpos_probe_result* out, deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    probe(tb, position_of_bitboards(pos), out);
  });
}

deadpos_status deadpos_flag_fen(const deadpos_tablebase* tb, const char* fen, deadpos_side flagged,
                                deadpos_flag_result* out, deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    flag(tb, position_of_fen(fen), flagged, out);
  });
}

deadpos_status deadpos_flag_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos, deadpos_side flagged,
                                      deadpos_flag_result* out, deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    flag(tb, position_of_bitboards(pos), flagged, out);
  });
}

deadpos_status deadpos_can_mate_fen(const deadpos_tablebase* tb, const char* fen, deadpos_side side,
                                    std::uint64_t max_ms, deadpos_tri* out, deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    *out = can_mate(tb, position_of_fen(fen), side, max_ms);
  });
}

deadpos_status deadpos_can_mate_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos, deadpos_side side,
                                          std::uint64_t max_ms, deadpos_tri* out, deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    *out = can_mate(tb, position_of_bitboards(pos), side, max_ms);
  });
}

deadpos_status deadpos_is_dead_fen(const deadpos_tablebase* tb, const char* fen, std::uint64_t max_ms, deadpos_tri* out,
                                   deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    *out = is_dead(tb, position_of_fen(fen), max_ms);
  });
}

deadpos_status deadpos_is_dead_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos,
                                         std::uint64_t max_ms, deadpos_tri* out, deadpos_error* err) {
  return guarded(err, [&] {
    if (!out) bad_argument("out is NULL");
    handle(tb);
    *out = is_dead(tb, position_of_bitboards(pos), max_ms);
  });
}

deadpos_status deadpos_line_fen(const deadpos_tablebase* tb, const char* fen, deadpos_side mated, char* buf,
                                std::size_t buf_size, deadpos_line_info* info, deadpos_error* err) {
  return guarded(err, [&] {
    if (!info) bad_argument("info is NULL");
    handle(tb);
    line(tb, position_of_fen(fen), mated, buf, buf_size, info);
  });
}

deadpos_status deadpos_line_bitboards(const deadpos_tablebase* tb, const deadpos_bitboards* pos, deadpos_side mated,
                                      char* buf, std::size_t buf_size, deadpos_line_info* info, deadpos_error* err) {
  return guarded(err, [&] {
    if (!info) bad_argument("info is NULL");
    handle(tb);
    line(tb, position_of_bitboards(pos), mated, buf, buf_size, info);
  });
}

}  // extern "C"
