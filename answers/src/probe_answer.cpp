// The answer of a position and its text and JSON renderings: see deadpos/answers.h.
#include <string>

#include "deadpos/answers.h"
#include "deadpos/notation.h"
#include "internal.h"

namespace deadpos::answers {

namespace {

using internal::side_id;
using internal::side_name;
using internal::tri;

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
    case Method::Rule: return w + " cannot checkmate (rule: " + cannot_mate_reason(m) + ")";
    case Method::Undetermined:
      if (m.budget == BudgetKind::OutOfMemory) {
        return w + ": undetermined (out of memory after " + count_of(m.positions, "position", "positions") + ")";
      }
      return w + ": undetermined (" + budget_name(m.budget) + " budget ran out after " +
             count_of(m.positions, "position", "positions") + ")";
    case Method::NotAsked: return w + ": not asked (the flag verdict does not need it)";
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
    case Method::NotAsked: break;
  }
  if (std::string reason = cannot_mate_reason(m); !reason.empty()) j["reason"] = std::move(reason);
  return j;
}

// The exact DTHM when it is known: from the tables, or a search line proven shortest.
std::optional<int> exact_dthm(const MateAnswer& m) {
  if (m.method == Method::Table) return m.dthm;
  if (m.method == Method::Search && m.shortest) return m.plies;
  return std::nullopt;
}

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
  for (PositionWarning w : r.warnings) out += std::string(" | warning: ") + warning_text(w);
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
    // How the questions asked were settled: by rules alone, by the search alone, or both.
    bool rule = false, search = false;
    for (Color c : {Color::White, Color::Black}) {
      const Method m = r.mate[c].method;
      if (m == Method::Rule) rule = true;
      if (m != Method::Rule && m != Method::NotAsked) search = true;
    }
    out += rule && search ? " [beyond the tables: rule and search]"
           : rule         ? " [beyond the tables: rules]"
                          : " [beyond the tables: search]";
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
  json w = json::array();
  for (PositionWarning x : r.warnings) w.push_back(warning_name(x));
  j["warnings"] = w;
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

Result<ProbeAnswer> answer(const Tablebase& tb, const Position& pos, const Request& req) {
  auto r = req.flagged && !req.both_sides ? analyze_flag(tb, pos, *req.flagged, req.options, req.want_lines)
                                          : analyze(tb, pos, req.options, req.want_lines);
  if (!r) return r.error();
  ProbeAnswer out{pos, std::move(*r), req.flagged, std::nullopt, req.want_lines};
  if (req.flagged) out.verdict = flag_verdict(out.analysis, pos.side_to_move(), *req.flagged);
  return out;
}

}  // namespace deadpos::answers
