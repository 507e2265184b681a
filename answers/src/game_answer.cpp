// The text and JSON renderings of an adjudicated game: see deadpos/answers.h.
#include <string>

#include "deadpos/answers.h"
#include "deadpos/notation.h"
#include "internal.h"

namespace deadpos::answers {

namespace {

using internal::cut_note;
using internal::echoed;
using internal::side_id;
using internal::tri;

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

}  // namespace

bool played_on(const Adjudication& a) { return a.dead_ply_high && *a.dead_ply_high < a.plies; }

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

}  // namespace deadpos::answers
