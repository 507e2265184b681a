// The names and texts of the answers' vocabulary values: methods, rules and flag-fall reasons
// (budgets: deadpos/budget.h, beside the castling search that names them too) (deadpos/analysis.h). Identifiers are
// stable (JSON answers, the C API, the Python module: docs/cli.md); texts are for people.
#include <array>
#include <string>

#include "deadpos/analysis.h"

namespace deadpos {

const char* method_name(Method m) {
  switch (m) {
    case Method::Table: return "table";
    case Method::Search: return "search";
    case Method::Exhausted: return "exhausted";
    case Method::Rule: return "rule";
    case Method::Undetermined: return "undetermined";
    case Method::NotAsked: return "not-asked";
  }
  return "?";
}

namespace {

// The one table of the rules: each renderer (the command's text and JSON, the server, the C API,
// the Python module) reads its identifiers and texts from here. Indexed by AnalysisRule.
constexpr std::array<RuleInfo, 6> kRules = {{
    {AnalysisRule::None, "none", "none", ""},
    {AnalysisRule::LoneKing, "lone-king", "it has only its king and no pawn", "Beyond the tables: Rules"},
    {AnalysisRule::SameColouredBishops, "same-coloured-bishops", "only bishops on squares of one colour, no pawns",
     "Beyond the tables: Rules"},
    {AnalysisRule::NoCheckmatePlacement, "no-checkmate-placement",
     "no placement of this material or of any material left after captures is a checkmate", "Beyond the tables: Rules"},
    {AnalysisRule::OneColourBishops, "one-colour-bishops",
     "it has only bishops of one colour, the other side only queens, rooks and bishops of that colour",
     "Beyond the tables: Rules"},
    {AnalysisRule::LockedStructure, "locked-structure",
     "pawns that can never move or be taken wall the kings in, and no checkmate can ever be built behind them",
     "Beyond the tables: Locked structures"},
}};
static_assert(
    [] {
      for (std::size_t i = 0; i < kRules.size(); ++i)
        if (static_cast<std::size_t>(kRules[i].rule) != i) return false;
      return true;
    }(),
    "kRules is indexed by AnalysisRule");

}  // namespace

const RuleInfo& rule_info(AnalysisRule r) {
  const auto i = static_cast<std::size_t>(r);
  return kRules[i < kRules.size() ? i : 0];
}
const char* rule_name(AnalysisRule r) { return rule_info(r).id; }
const char* rule_text(AnalysisRule r) { return rule_info(r).text; }

const char* flag_reason_name(FlagVerdict::Reason r) {
  switch (r) {
    case FlagVerdict::Reason::Checkmate: return "checkmate";
    case FlagVerdict::Reason::Stalemate: return "stalemate";
    case FlagVerdict::Reason::DeadPosition: return "dead-position";
    case FlagVerdict::Reason::OpponentCannotMate: return "opponent-cannot-mate";
    case FlagVerdict::Reason::OpponentCanMate: return "opponent-can-mate";
    case FlagVerdict::Reason::Undetermined: return "undetermined";
  }
  return "?";
}

const char* flag_reason_text(FlagVerdict::Reason r) {
  switch (r) {
    case FlagVerdict::Reason::Checkmate: return "the position is checkmate: the game was already over";
    case FlagVerdict::Reason::Stalemate: return "the position is stalemate: the game was already drawn";
    case FlagVerdict::Reason::DeadPosition:
      return "dead position: neither side can checkmate by any sequence of legal moves (FIDE 5.2.2)";
    case FlagVerdict::Reason::OpponentCannotMate:
      return "the opponent cannot checkmate by any sequence of legal moves (FIDE 6.9)";
    case FlagVerdict::Reason::OpponentCanMate:
      return "the opponent can checkmate by a sequence of legal moves (FIDE 6.9)";
    case FlagVerdict::Reason::Undetermined:
      return "undetermined: the search budget ran out before the opponent's mate was found or refuted";
  }
  return "?";
}

std::string cannot_mate_reason(const MateAnswer& m) {
  const std::string mated = m.mated == Color::White ? "White" : "Black";
  switch (m.method) {
    case Method::Table:
      if (m.dthm) return "";
      return "the verified table holds no sequence of legal moves from here that checkmates " + mated;
    case Method::Exhausted: {
      const std::string n = std::to_string(m.positions);
      return "the " + n + (m.positions == 1 ? " position" : " positions") +
             " reachable from here beyond the tables and rules were all searched and none leads to a checkmate of " +
             mated;
    }
    case Method::Rule: return m.reason.empty() ? std::string(rule_text(m.rule)) : m.reason;
    case Method::Search:
    case Method::Undetermined:
    case Method::NotAsked: return "";
  }
  return "";
}

}  // namespace deadpos
