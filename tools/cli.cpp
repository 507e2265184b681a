// The deadpos command's output layer: see cli.h.
#include "cli.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <new>

#include "deadpos/notation.h"

namespace deadpos::cli {

namespace {

// The line of an allocation failure that no command caught (where: the whole command; why: the
// limits that cause it).
constexpr const char* kOutOfMemoryLine =
    "deadpos: out of memory: an allocation failed (too little free memory, or a limit such as ulimit -v or a "
    "cgroup's memory.max)\n";

// std::terminate's handler (guarded_main). Temporaries of an interrupted generate are removed by
// the next run; written tables are never touched.
[[noreturn]] void on_terminate() {
  int code = kExitInternal;
  const char* what = "deadpos: internal error: terminated\n";
  if (const std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      code = exit_code(ErrorCode::OutOfMemory);
      what = kOutOfMemoryLine;
    } catch (...) {
      what = "deadpos: internal error: uncaught exception\n";
    }
  }
  std::fflush(stdout);  // the lines answered so far
  std::fputs(what, stderr);
  ::_exit(code);
}

}  // namespace

int guarded_main(int (*run)(int, char**), int argc, char** argv) {
  std::set_terminate(on_terminate);
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs(kOutOfMemoryLine, stderr);
    return exit_code(ErrorCode::OutOfMemory);
  } catch (const std::exception& e) {
    std::fputs("deadpos: internal error: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
    return kExitInternal;
  }
}

int exit_code(ErrorCode c) {
  switch (c) {
    case ErrorCode::InvalidFen: return 3;
    case ErrorCode::InvalidArgument: return 4;
    case ErrorCode::Io: return 5;
    case ErrorCode::MissingTable: return 6;
    case ErrorCode::CorruptTable: return 7;
    case ErrorCode::VerificationFailed: return 8;
    case ErrorCode::OutOfMemory: return 9;
    case ErrorCode::InvalidMove: return 10;
    case ErrorCode::TooManyMen: return 11;
  }
  return kExitInternal;
}

namespace {

constexpr std::size_t kMaxEcho = 200;  // bytes of an input echoed back: a runaway line is cut

void append_u(std::string& out, std::uint32_t cp) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));  // lower case, as the JSON lines
  out += buf;
}

// Length of the valid UTF-8 sequence at s[i] and its code point, or 0 when the bytes there are
// not one (overlong forms, surrogates and code points above U+10FFFF are not valid).
std::size_t utf8_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, cp = c & 0x1Fu, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, cp = c & 0x0Fu, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, cp = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b(k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void escape_into(std::string& out, std::string_view s, bool quote) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      if (quote && (c == '\\' || c == '"')) out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n", ++i;
    } else if (c == '\r') {
      out += "\\r", ++i;
    } else if (c == '\t') {
      out += "\\t", ++i;
    } else if (c < 0x80) {
      append_u(out, c), ++i;
    } else {
      std::uint32_t cp = 0;
      if (const std::size_t n = utf8_at(s, i, cp)) {
        if (cp > 0xFFFF) {
          cp -= 0x10000;
          append_u(out, 0xD800 + (cp >> 10));
          append_u(out, 0xDC00 + (cp & 0x3FF));
        } else {
          append_u(out, cp);
        }
        i += n;
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
        out += buf;
        ++i;
      }
    }
  }
}

// The echoed part: at most kMaxEcho bytes, cut before a UTF-8 sequence rather than inside it.
std::string_view echoed(std::string_view input) {
  if (input.size() <= kMaxEcho) return input;
  std::size_t cut = kMaxEcho;
  for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(input[cut]) & 0xC0u) == 0x80u; ++k) --cut;
  return input.substr(0, cut);
}

std::string cut_note(std::string_view input) {
  return input.size() > kMaxEcho ? "... (" + std::to_string(input.size()) + " bytes)" : std::string();
}

}  // namespace

std::string one_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  escape_into(out, s, false);
  return out;
}

std::string quoted_input(std::string_view input) {
  std::string out = "\"";
  escape_into(out, echoed(input), true);
  out += '"';
  return out + cut_note(input);
}

std::string json_input(std::string_view input) { return std::string(echoed(input)) + cut_note(input); }

std::string json_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

std::string plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

std::string count_of(std::uint64_t n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

int report(const Error& e) {
  std::cerr << "deadpos: " << error_code_name(e.code) << ": " << one_line(e.message) << '\n';
  return exit_code(e.code);
}

bool output_ok() {
  // std::cout is synchronised with stdio (the default): its bytes go to C's stdout buffer, where a
  // failed write shows as ferror after the flush.
  std::cout.flush();
  return std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
}

int finish_output() {
  if (output_ok()) return 0;
  return report(make_error(ErrorCode::Io, "standard output: write error"));
}

ProgressFn make_progress() {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  struct State {
    std::string key;
    Phase phase = Phase::Init;
    std::chrono::steady_clock::time_point start;
    int last_pct = -1;
    std::string done;  // non-tty: finished phases of the current table with their times
  };
  auto st = std::make_shared<State>();
  return [tty, st](const Progress& p) {
    if (p.material != st->key || p.phase != st->phase) {
      if (p.material != st->key) st->done.clear();
      st->key = p.material;
      st->phase = p.phase;
      st->start = std::chrono::steady_clock::now();
      st->last_pct = -1;
    }
    const int pct = static_cast<int>(p.fraction * 100.0);
    if (tty) {
      if (pct == st->last_pct) return;
      st->last_pct = pct;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
      const double eta = p.fraction > 0.01 ? el * (1.0 - p.fraction) / p.fraction : 0.0;
      std::fprintf(stderr, "\r\033[K%s %s %3d%% ETA %.0fs", p.material.c_str(), std::string(to_string(p.phase)).c_str(),
                   pct, eta);
      if (p.fraction >= 1.0) std::fprintf(stderr, "\n");
    } else if (p.fraction >= 1.0 && st->last_pct != 100) {
      // One line per table for logs: the phases' times, printed when the last phase ends.
      st->last_pct = 100;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
      char part[64];
      std::snprintf(part, sizeof part, "%s%s %.1f s", st->done.empty() ? "" : ", ",
                    std::string(to_string(p.phase)).c_str(), el);
      st->done += part;
      if (p.phase == Phase::Write || p.phase == Phase::Verify) {
        std::fprintf(stderr, "%s: %s\n", p.material.c_str(), st->done.c_str());
        st->done.clear();
      }
    }
  };
}

Result<std::vector<Material>> parse_materials(const std::vector<std::string>& keys) {
  std::vector<Material> out;
  for (const auto& k : keys) {
    auto m = Material::parse(k);
    if (!m) return m.error();
    if (m->men() > kMaxGenerateMen) {
      return make_error(ErrorCode::InvalidArgument, "material " + k + " has " + std::to_string(m->men()) +
                                                        " men; tables exist for at most " +
                                                        std::to_string(kMaxGenerateMen));
    }
    out.push_back(m->canonical());
  }
  return out;
}

// ---- probe answers ----------------------------------------------------------------------------

namespace {

const char* side_name(Color c) { return c == Color::White ? "White" : "Black"; }
const char* side_id(Color c) { return c == Color::White ? "white" : "black"; }

const char* rule_text(AnalysisRule r) {
  switch (r) {
    case AnalysisRule::None: return "none";
    case AnalysisRule::LoneKing: return "it has only its king and no pawn";
    case AnalysisRule::SameColouredBishops: return "only bishops on squares of one colour, no pawns";
    case AnalysisRule::OneColourBishops:
      return "it has only bishops of one colour, the other side only queens, rooks and bishops of that colour";
    case AnalysisRule::NoCheckmatePlacement:
      return "no placement of this material or of any material left after captures is a checkmate";
  }
  return "?";
}

// "White can checkmate (...)", "White cannot checkmate (...)" or "White: undetermined (...)".
std::string side_text(Color winner, const MateAnswer& m) {
  const std::string w = side_name(winner);
  switch (m.method) {
    case Method::Table:
      return m.dthm ? w + " can checkmate (shortest helpmate " + plies(*m.dthm) + ")" : w + " cannot checkmate";
    case Method::Search:
      return w + " can checkmate (helpmate of " + plies(m.plies) + " found by search" +
             (m.shortest ? "" : ", not proven shortest") + ")";
    case Method::Exhausted:
      return w + " cannot checkmate (all " + count_of(m.positions, "reachable position", "reachable positions") +
             " searched)";
    case Method::Rule: return w + " cannot checkmate (rule: " + rule_text(m.rule) + ")";
    case Method::Undetermined:
      if (m.budget == BudgetKind::OutOfMemory) {
        return w + ": undetermined (out of memory after " + count_of(m.positions, "position", "positions") + ")";
      }
      return w + ": undetermined (" + budget_name(m.budget) + " budget ran out after " +
             count_of(m.positions, "position", "positions") + ")";
  }
  return w + ": ?";
}

nlohmann::json how_json(const MateAnswer& m) {
  nlohmann::json j;
  j["method"] = method_name(m.method);
  switch (m.method) {
    case Method::Table: break;
    case Method::Search:
      j["line_plies"] = m.plies;
      j["shortest"] = m.shortest;
      j["positions"] = m.positions;
      break;
    case Method::Exhausted: j["positions"] = m.positions; break;
    case Method::Rule: j["rule"] = rule_name(m.rule); break;
    case Method::Undetermined:
      j["budget"] = budget_name(m.budget);
      j["positions"] = m.positions;
      break;
  }
  return j;
}

// The exact DTHM when it is known: from the tables, or a search line proven shortest.
std::optional<int> exact_dthm(const MateAnswer& m) {
  if (m.method == Method::Table) return m.dthm;
  if (m.method == Method::Search && m.shortest) return m.plies;
  return std::nullopt;
}

nlohmann::json tri(std::optional<bool> b) { return b ? nlohmann::json(*b) : nlohmann::json(nullptr); }

}  // namespace

std::vector<std::pair<Color, const MateAnswer*>> shown_lines(const ProbeAnswer& a) {
  std::vector<std::pair<Color, const MateAnswer*>> lines;
  if (!a.want_lines || a.analysis.checkmate) return lines;
  for (Color mated : {Color::White, Color::Black}) {
    if (a.analysis.mate[mated].can_mate() != true) continue;
    if (a.flagged && mated != *a.flagged) continue;
    lines.emplace_back(mated, &a.analysis.mate[mated]);
  }
  return lines;
}

std::string probe_text(const ProbeAnswer& a) {
  const PositionAnalysis& r = a.analysis;
  const Position& pos = a.pos;
  std::string text;
  if (r.checkmate) {
    text = std::string(side_name(pos.side_to_move())) + " is checkmated";
  } else if (r.stalemate) {
    text = std::string(side_name(pos.side_to_move())) + " is stalemated: draw";
  } else if (r.dead() == true && !r.table.empty()) {
    text = "dead position: neither side can checkmate by any sequence of legal moves (FIDE 5.2.2)";
  } else {
    if (r.dead() == true) text = "dead position (FIDE 5.2.2): ";
    text += side_text(Color::White, r.mate[Color::Black]) + "; " + side_text(Color::Black, r.mate[Color::White]);
  }
  std::string out = pos.to_fen() + ": " + text;
  if (a.verdict) {
    out += std::string(" | ") + side_name(*a.flagged) + "'s flag fell: ";
    if (a.verdict->result.empty()) {
      out += flag_reason_text(a.verdict->reason);  // "undetermined: ..."
    } else {
      out += a.verdict->result + ", " + flag_reason_text(a.verdict->reason);
    }
  }
  for (const auto& [mated, m] : shown_lines(a)) {
    if (m->line_error) {
      out += std::string(" | mate of ") + side_name(mated) +
             ": line not available: " + error_code_name(m->line_error->code) + ": " + one_line(m->line_error->message);
      continue;
    }
    out += std::string(" | mate of ") + side_name(mated) + " in " + plies(static_cast<int>(m->line.size())) +
           (m->shortest ? "" : " (not proven shortest)") + ": " + format_line(pos, m->line) + " (UCI:";
    for (Move mv : m->line) out += ' ' + to_uci(mv);
    out += ')';
  }
  if (!r.table.empty()) {
    out += " [table " + r.table + (r.castling_search ? ", castling search" : "") +
           (r.en_passant ? ", en passant" : "") + "]";
  } else if (r.checkmate || r.stalemate) {
    out += " [by the rules: no legal move]";
  } else {
    out += " [beyond the tables: search]";
  }
  return out;
}

nlohmann::json probe_json(std::string_view input, const ProbeAnswer& a) {
  using nlohmann::json;
  const PositionAnalysis& r = a.analysis;
  const MateAnswer& white_mated = r.mate[Color::White];
  const MateAnswer& black_mated = r.mate[Color::Black];
  json j;
  j["input"] = json_input(input);
  j["fen"] = a.pos.to_fen();
  j["table"] = r.table.empty() ? json(nullptr) : json(r.table);
  j["checkmate"] = r.checkmate;
  j["stalemate"] = r.stalemate;
  j["dead"] = tri(r.dead());
  j["white_can_mate"] = tri(r.white_can_mate());
  j["black_can_mate"] = tri(r.black_can_mate());
  const auto dw = exact_dthm(white_mated), db = exact_dthm(black_mated);
  j["dthm_white_mated_plies"] = dw ? json(*dw) : json(nullptr);
  j["dthm_black_mated_plies"] = db ? json(*db) : json(nullptr);
  j["how"] = {{"white_can_mate", how_json(black_mated)}, {"black_can_mate", how_json(white_mated)}};
  j["castling_search"] = r.castling_search;
  j["en_passant"] = r.en_passant;
  if (a.verdict) {
    j["flag"] = {{"flagged", side_id(*a.flagged)},
                 {"result", a.verdict->result.empty() ? json(nullptr) : json(a.verdict->result)},
                 {"reason", flag_reason_name(a.verdict->reason)},
                 {"text", flag_reason_text(a.verdict->reason)}};
  }
  if (a.want_lines) {
    json arr = json::array();
    for (const auto& [mated, m] : shown_lines(a)) {
      if (m->line_error) {
        arr.push_back(
            {{"mated", side_id(mated)},
             {"error", {{"category", error_code_name(m->line_error->code)}, {"message", m->line_error->message}}}});
        continue;
      }
      json u = json::array();
      for (Move mv : m->line) u.push_back(to_uci(mv));
      arr.push_back({{"mated", side_id(mated)},
                     {"plies", m->line.size()},
                     {"shortest", m->shortest},
                     {"san", line_to_san(a.pos, m->line)},
                     {"uci", u}});
    }
    j["lines"] = arr;
  }
  return j;
}

std::string probe_error_text(std::string_view input, const Error& e) {
  return quoted_input(input) + ": error: " + error_code_name(e.code) + ": " + one_line(e.message);
}

nlohmann::json probe_error_json(std::string_view input, const Error& e) {
  nlohmann::json j;
  j["input"] = json_input(input);
  j["error"] = {{"category", error_code_name(e.code)}, {"message", e.message}};
  return j;
}

void ProbeTally::add(const ProbeAnswer& a) {
  const PositionAnalysis& r = a.analysis;
  ++answered;
  // A line asked for and not given: the verdict stands, but the exit code says what is missing.
  for (const auto& [mated, m] : shown_lines(a))
    if (m->line_error && !first_error_code) first_error_code = exit_code(m->line_error->code);
  if (r.dead() == true) ++dead;
  if (!r.white_can_mate() || !r.black_can_mate()) ++undetermined;
  if (!a.verdict) return;
  const auto why = a.verdict->reason;
  if (why == FlagVerdict::Reason::Checkmate || why == FlagVerdict::Reason::Stalemate) {
    ++flag_decided;
  } else if (why == FlagVerdict::Reason::Undetermined) {
    ++flag_undetermined;
  } else {
    (a.verdict->result == "1/2-1/2" ? flag_draws : flag_wins)++;
  }
}

void ProbeTally::add(const Error& e) {
  ++errors;
  if (!first_error_code) first_error_code = exit_code(e.code);
}

std::string summary_text(const ProbeTally& t, bool flag) {
  std::string s = "summary: " + std::to_string(t.answered) + " answered, " + std::to_string(t.errors) +
                  " not answered; " + std::to_string(t.answered - t.undetermined) + " decided, " +
                  std::to_string(t.undetermined) + " undetermined; " +
                  count_of(t.dead, "dead position", "dead positions");
  if (flag) {
    s += "; flag-falls: " + std::to_string(t.flag_draws) + " drawn (FIDE 5.2.2 / 6.9), " + std::to_string(t.flag_wins) +
         " won by the opponent";
    if (t.flag_undetermined) s += ", " + std::to_string(t.flag_undetermined) + " undetermined";
    if (t.flag_decided) s += ", " + std::to_string(t.flag_decided) + " already checkmate or stalemate";
  }
  return s;
}

// ---- adjudicate answers -----------------------------------------------------------------------

namespace {

// A tag value in JSON: at most 200 bytes, then "... (N bytes)", as probe's "input".
nlohmann::json tag_json(const PgnGame& g, std::string_view name) {
  const PgnTag* t = g.tag(name);
  return t ? nlohmann::json(json_input(t->value)) : nlohmann::json(nullptr);
}

// A tag value in text: one_line of at most 200 bytes, then "... (N bytes)", as probe's echo.
std::string tag_text(const PgnTag* t) { return t ? one_line(echoed(t->value)) + cut_note(t->value) : std::string("?"); }

nlohmann::json opt_json(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

nlohmann::json opt_json(const std::optional<int>& s) { return s ? nlohmann::json(*s) : nlohmann::json(nullptr); }

bool played_on(const Adjudication& a) { return a.dead_ply_high && *a.dead_ply_high < a.plies; }

}  // namespace

nlohmann::json game_json(const GameReport& r) {
  using nlohmann::json;
  const PgnGame& g = *r.game;
  json j;
  j["game"] = g.number;
  j["file"] = r.file;
  j["line"] = g.line;
  j["site"] = tag_json(g, "Site");
  j["white"] = tag_json(g, "White");
  j["black"] = tag_json(g, "Black");
  j["recorded_result"] = opt_json(recorded_result(g));
  j["termination"] = tag_json(g, "Termination");
  if (r.replay->status == ReplayedGame::Status::Unsupported) {
    j["unsupported"] = r.replay->problem;
    j["result"] = nullptr;
    return j;
  }
  if (r.replay->status == ReplayedGame::Status::Unreadable) {
    j["error"] = {{"category", "unreadable game"}, {"message", r.replay->problem}};
    return j;
  }
  j["plies"] = r.replay->plies();
  j["final_fen"] = r.replay->positions.back().to_fen();
  if (r.error || !r.adj) {
    j["error"] = {{"category", r.error ? error_code_name(r.error->code) : "internal"},
                  {"message", r.error ? r.error->message : std::string("not adjudicated")}};
    return j;
  }
  const Adjudication& a = *r.adj;
  j["dead"] = tri(a.final_dead);
  j["dead_ply"] = opt_json(a.dead_ply);
  if (a.final_dead == true && !a.dead_ply) j["dead_ply_range"] = {*a.dead_ply_low, *a.dead_ply_high};
  j["flagged"] = a.flagged ? json(side_id(*a.flagged)) : json(nullptr);
  if (a.flag) {
    j["flag"] = {{"result", a.flag->result.empty() ? json(nullptr) : json(a.flag->result)},
                 {"reason", flag_reason_name(a.flag->reason)}};
  }
  j["result"] = opt_json(a.result);
  j["changed"] = a.changed;
  j["rule"] = result_rule_name(a.rule);
  j["reason"] = a.reason;
  return j;
}

std::string game_text(const GameReport& r) {
  const PgnGame& g = *r.game;
  std::string head = r.file + ": game " + std::to_string(g.number) + " (line " + std::to_string(g.line);
  const PgnTag* w = g.tag("White");
  const PgnTag* b = g.tag("Black");
  if (w || b) head += ", " + tag_text(w) + " - " + tag_text(b);
  head += ")";
  if (r.replay->status == ReplayedGame::Status::Unsupported) return head + ": unsupported: " + r.replay->problem;
  if (r.replay->status == ReplayedGame::Status::Unreadable) return head + ": unreadable: " + r.replay->problem;
  if (r.error) return head + ": error: " + error_code_name(r.error->code) + ": " + one_line(r.error->message);
  if (!r.adj) return head + ": error: not adjudicated";
  const Adjudication& a = *r.adj;
  if (!a.changed && !played_on(a) && a.rule != ResultRule::Undetermined) return {};
  const std::string rec = a.recorded ? *a.recorded : std::string("none");
  std::string verdict;
  if (a.changed) {
    verdict = "recorded " + rec + ", the Laws give " + *a.result;
  } else if (a.result) {
    verdict = "recorded " + rec + " stands";
  } else {
    verdict = "recorded " + rec + ", result undetermined";
  }
  return head + ": " + verdict + ": " + a.reason;
}

void AdjudicateTally::add(const GameReport& r) {
  ++games;
  if (r.replay->status == ReplayedGame::Status::Unsupported) {
    ++unsupported;
    return;
  }
  if (r.replay->status == ReplayedGame::Status::Unreadable) {
    ++unreadable;
    return;
  }
  ++read;
  if (r.error || !r.adj) {
    ++failed;
    if (!first_error_code) first_error_code = r.error ? exit_code(r.error->code) : kExitInternal;
    return;
  }
  const Adjudication& a = *r.adj;
  if (a.changed) ++changed;
  if (played_on(a)) ++dead_played_on;
  if (a.final_dead == true) ++dead;
  if (a.rule == ResultRule::Undetermined) ++undetermined;
  if (a.flagged) ++time_forfeits;
}

std::string adjudicate_summary_text(const AdjudicateTally& t) {
  std::string s = "summary: " + count_of(t.games, "game", "games") + " in " + count_of(t.files, "file", "files") +
                  (t.files_unreadable ? " (" + std::to_string(t.files_unreadable) + " unreadable)" : std::string()) +
                  ": " + std::to_string(t.read) + " read, " + std::to_string(t.unreadable) + " unreadable, " +
                  std::to_string(t.unsupported) + " unsupported (variants); " + std::to_string(t.changed) +
                  " with a wrong recorded result, " + std::to_string(t.dead_played_on) +
                  " played on in a dead position, " + std::to_string(t.dead) + " ending in a dead position, " +
                  std::to_string(t.time_forfeits) + " lost on time, " + std::to_string(t.undetermined) +
                  " undetermined";
  if (t.failed) s += "; " + std::to_string(t.failed) + " not adjudicated (table errors)";
  return s;
}

nlohmann::json adjudicate_summary_json(const AdjudicateTally& t) {
  return {{"summary",
           {{"files", t.files},
            {"files_unreadable", t.files_unreadable},
            {"games", t.games},
            {"read", t.read},
            {"unreadable", t.unreadable},
            {"unsupported", t.unsupported},
            {"not_adjudicated", t.failed},
            {"changed", t.changed},
            {"dead_played_on", t.dead_played_on},
            {"dead", t.dead},
            {"time_forfeits", t.time_forfeits},
            {"undetermined", t.undetermined}}}};
}

}  // namespace deadpos::cli
