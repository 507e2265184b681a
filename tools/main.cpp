// The `deadpos` command. Parses arguments, calls core/ and generator/, prints results and maps
// errors to exit codes (docs/cli.md). No chess logic lives here.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <omp.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iomanip>

#include "deadpos/material.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/solver.h"
#include "deadpos/tablebase.h"

namespace {

using namespace deadpos;

// Exit codes: one per error category (docs/cli.md).
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
  return 1;
}

// One JSON line. Input lines may hold any bytes: invalid UTF-8 is replaced (U+FFFD), never thrown.
std::string json_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// An input line as echoed in answers: at most 200 bytes (a runaway line is not printed back whole).
std::string shown_input(const std::string& input) {
  constexpr std::size_t kMax = 200;
  if (input.size() <= kMax) return input;
  return input.substr(0, kMax) + "... (" + std::to_string(input.size()) + " bytes)";
}

int report(const Error& e) {
  std::cerr << "deadpos: " << error_code_name(e.code) << ": " << e.message << '\n';
  return exit_code(e.code);
}

int cmd_perft(const std::string& fen, int depth, bool divide) {
  auto pos = Position::from_fen(fen);
  if (!pos) return report(pos.error());
  if (depth < 0 || depth > 20) {
    return report(make_error(ErrorCode::InvalidArgument, "depth " + std::to_string(depth) + " is outside 0..20"));
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (divide && depth >= 1) {
    for (Move m : pos->legal_moves()) {
      const std::uint64_t n = perft(pos->after(m), depth - 1);
      std::cout << to_uci(m) << ": " << n << '\n';
      total += n;
    }
    std::cout << '\n';
  } else {
    total = perft(*pos, depth);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "Nodes searched: " << total << '\n';
  std::fprintf(stderr, "time %.3f s, %.0f nodes/s\n", secs, secs > 0 ? static_cast<double>(total) / secs : 0.0);
  return 0;
}

int cmd_fen(const std::string& fen) {
  auto pos = Position::from_fen(fen);
  if (!pos) return report(pos.error());
  std::cout << pos->to_fen() << '\n' << pos->to_diagram();
  const MoveList moves = pos->legal_moves();
  const char* side = pos->side_to_move() == Color::White ? "White" : "Black";
  if (pos->is_checkmate()) {
    std::cout << side << " to move is checkmated\n";
  } else if (pos->is_stalemate()) {
    std::cout << side << " to move is stalemated\n";
  } else {
    std::cout << side << " to move" << (pos->in_check() ? ", in check" : "") << ", " << moves.size()
              << " legal moves:";
    for (Move m : moves) std::cout << ' ' << to_san(*pos, m);
    std::cout << '\n';
  }
  return 0;
}

// Progress: a rewritten line with percent and ETA on a terminal; otherwise one plain line per table
// (or per verified table) with the time of each phase.
ProgressFn make_progress() {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  struct State {
    std::string key, phase;
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
      std::fprintf(stderr, "\r\033[K%s %s %3d%% ETA %.0fs", p.material.c_str(), p.phase.c_str(), pct, eta);
      if (p.fraction >= 1.0) std::fprintf(stderr, "\n");
    } else if (p.fraction >= 1.0 && st->last_pct != 100) {
      // One line per table for logs: the phases' times, printed when the last phase ends.
      st->last_pct = 100;
      const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - st->start).count();
      char part[64];
      std::snprintf(part, sizeof part, "%s%s %.1f s", st->done.empty() ? "" : ", ", p.phase.c_str(), el);
      st->done += part;
      if (p.phase == "write" || p.phase == "verify") {
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
                                                        " men; tables exist for at most " + std::to_string(kMaxGenerateMen));
    }
    out.push_back(m->canonical());
  }
  return out;
}

void print_stats(const TableStats& s) {
  auto dthm = [](int d) { return d < 0 ? std::string("none") : std::to_string(d) + " plies"; };
  for (int stm = 0; stm < 2; ++stm) {
    const SideStats& x = s.side[static_cast<std::size_t>(stm)];
    std::printf("%-8s %s to move: %llu positions, %llu checkmates, %llu stalemates, White can mate %llu, Black can mate %llu, dead %llu, longest DTHM (White mated) %s, (Black mated) %s\n",
                s.material.c_str(), stm == 0 ? "White" : "Black", static_cast<unsigned long long>(x.positions),
                static_cast<unsigned long long>(x.checkmates), static_cast<unsigned long long>(x.stalemates),
                static_cast<unsigned long long>(x.white_can_mate), static_cast<unsigned long long>(x.black_can_mate),
                static_cast<unsigned long long>(x.dead), dthm(x.max_dthm[Color::White]).c_str(),
                dthm(x.max_dthm[Color::Black]).c_str());
  }
  for (const auto& c : s.bishop_classes) {
    std::printf("%-8s   bishops %s: White to move dead %llu of %llu, Black to move dead %llu of %llu\n", s.material.c_str(),
                c.colours.c_str(), static_cast<unsigned long long>(c.side[0].dead),
                static_cast<unsigned long long>(c.side[0].positions), static_cast<unsigned long long>(c.side[1].dead),
                static_cast<unsigned long long>(c.side[1].positions));
  }
  std::printf("%-8s   %.2f s, peak memory %.1f MiB\n", s.material.c_str(), s.seconds,
              static_cast<double>(s.peak_rss_bytes) / (1024.0 * 1024.0));
}

int cmd_generate(int max_men, const std::vector<std::string>& keys, const std::string& out, int threads) {
  if (threads > 0) omp_set_num_threads(threads);
  std::vector<Material> targets;
  if (!keys.empty()) {
    auto m = parse_materials(keys);
    if (!m) return report(m.error());
    targets = *m;
  } else {
    if (max_men < 2 || max_men > 5) {
      return report(make_error(ErrorCode::InvalidArgument, "--max-men " + std::to_string(max_men) + " is outside 2..5"));
    }
    targets = all_materials(max_men);
  }
  GenerateOptions opt;
  opt.out_dir = out;
  opt.progress = make_progress();
  auto r = generate(targets, opt);
  if (!r) return report(r.error());
  for (const auto& s : r->built) print_stats(s);
  for (const auto& f : r->removed_temporaries) std::printf("removed %s (left by an interrupted run)\n", f.c_str());
  std::printf("built %zu tables, %zu already present in %s\n", r->built.size(), r->skipped.size(), out.c_str());
  return 0;
}

int cmd_verify(const std::string& dir, const std::vector<std::string>& keys, int threads) {
  if (threads > 0) omp_set_num_threads(threads);
  std::vector<Material> mats;
  std::vector<std::string> not_tables;  // *.dpt files in dir whose name is not a canonical material key
  if (!keys.empty()) {
    auto m = parse_materials(keys);
    if (!m) return report(m.error());
    mats = *m;
  } else {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec); !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
      const std::filesystem::directory_entry& e = *it;
      if (e.path().extension() != ".dpt") continue;
      auto m = Material::parse(e.path().stem().string());
      if (m && m->is_canonical() && m->men() <= kMaxGenerateMen) {
        mats.push_back(*m);
      } else {
        not_tables.push_back(e.path().filename().string());
      }
    }
    if (ec) return report(make_error(ErrorCode::Io, dir + ": " + ec.message()));
    std::sort(mats.begin(), mats.end(), [](const Material& a, const Material& b) {
      return a.men() != b.men() ? a.men() < b.men() : a.key() < b.key();
    });
  }
  TableSet set(dir);
  std::uint64_t bad = 0;
  const ProgressFn progress = make_progress();
  for (const Material& m : mats) {
    auto t = load_table(dir + "/" + table_file_name(m), m);
    if (!t) return report(t.error().code == ErrorCode::Io
                              ? make_error(ErrorCode::MissingTable, "table " + m.key() + ": " + t.error().message)
                              : t.error());
    set.retain_only(m.successors());
    for (const Material& s : m.successors())
      if (Status st = set.require(s); !st) return report(st.error());
    const VerifyResult v = verify(**t, set, progress);
    std::printf("%-8s %s: %llu entries checked, %llu mismatches\n", m.key().c_str(), v.mismatches ? "FAILED" : "ok",
                static_cast<unsigned long long>(v.checked), static_cast<unsigned long long>(v.mismatches));
    for (const auto& line : v.report) std::printf("  %s\n", line.c_str());
    bad += v.mismatches;
  }
  std::sort(not_tables.begin(), not_tables.end());
  for (const auto& f : not_tables) {
    std::printf("%-8s FAILED: not a table name (<KEY>.dpt with a canonical material key of at most %d men)\n", f.c_str(), kMaxGenerateMen);
  }
  if (bad) return report(make_error(ErrorCode::VerificationFailed, std::to_string(bad) + " entries disagree with their successors"));
  if (!not_tables.empty()) {
    return report(make_error(ErrorCode::CorruptTable, dir + ": " + std::to_string(not_tables.size()) +
                                                          " .dpt file(s) with names that are not tables: " + not_tables.front() +
                                                          (not_tables.size() > 1 ? ", ..." : "")));
  }
  std::printf("verified %zu tables\n", mats.size());
  return 0;
}

std::string plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }

const char* side_name(Color c) { return c == Color::White ? "White" : "Black"; }

const char* flag_reason_id(FlagVerdict::Reason r) {
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

const char* rule_text(AnalysisRule r) {
  switch (r) {
    case AnalysisRule::None: return "none";
    case AnalysisRule::LoneKing: return "it has only its king and no pawn";
    case AnalysisRule::SameColouredBishops: return "only bishops on squares of one colour, no pawns";
    case AnalysisRule::OneColourBishops:
      return "it has only bishops of one colour, the other side only queens, rooks and bishops of that colour";
    case AnalysisRule::NoCheckmatePlacement: return "no placement of this material or of any material left after captures is a checkmate";
  }
  return "?";
}

struct ProbeOptions {
  bool json = false;
  bool line = false;
  std::string flag;  // "", "white", "black", "stm"
  AnalysisOptions analysis;
};

struct ProbeTally {
  int answered = 0, errors = 0, dead = 0;
  int undetermined = 0;  // answered positions with at least one side's question undetermined
  int flag_draws = 0;    // drawn although a flag fell (dead position, or the opponent cannot mate)
  int flag_wins = 0;     // won by the flagged side's opponent (who can mate)
  int flag_decided = 0;  // already checkmate or stalemate on the board: the flag does not matter
  int flag_undetermined = 0;  // the opponent's question undetermined within the budget
  int first_error_code = 0;
};

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
      return w + " cannot checkmate (all " + std::to_string(m.positions) + " reachable positions searched)";
    case Method::Rule: return w + " cannot checkmate (rule: " + rule_text(m.rule) + ")";
    case Method::Undetermined:
      if (m.budget == BudgetKind::OutOfMemory) {
        return w + ": undetermined (out of memory after " + std::to_string(m.positions) + " positions)";
      }
      return w + ": undetermined (" + budget_name(m.budget) + " budget ran out after " + std::to_string(m.positions) +
             " positions)";
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

nlohmann::json tri(std::optional<bool> b) { return b ? nlohmann::json(*b) : nlohmann::json(nullptr); }

// Answers one input line; prints exactly one output line.
void probe_one(const Tablebase& tb, const std::string& input, const ProbeOptions& o, ProbeTally& tally) {
  using nlohmann::json;
  const std::string fen = fen_of_epd_line(input);
  auto fail = [&](const Error& e) {
    ++tally.errors;
    if (!tally.first_error_code) tally.first_error_code = exit_code(e.code);
    if (o.json) {
      json j;
      j["input"] = shown_input(input);
      j["error"] = {{"category", error_code_name(e.code)}, {"message", e.message}};
      std::cout << json_line(j) << '\n';
    } else {
      std::cout << shown_input(input) << ": error: " << error_code_name(e.code) << ": " << e.message << '\n';
    }
  };
  auto pos = Position::from_fen(fen);
  if (!pos) return fail(pos.error());
  auto r = tb.analyze(*pos, o.analysis, o.line);
  if (!r) return fail(r.error());
  std::optional<FlagVerdict> verdict;
  std::optional<Color> flagged;
  if (!o.flag.empty()) {
    flagged = o.flag == "white" ? Color::White : o.flag == "black" ? Color::Black : pos->side_to_move();
    verdict = flag_verdict(*r, pos->side_to_move(), *flagged);
  }
  // Certificate lines: the opponent's mate for a flag, else every side that can be mated.
  std::vector<std::pair<Color, const MateAnswer*>> lines;
  if (o.line) {
    for (Color mated : {Color::White, Color::Black}) {
      if (r->mate[mated].can_mate() != true || r->checkmate) continue;
      if (flagged && mated != *flagged) continue;
      lines.emplace_back(mated, &r->mate[mated]);
    }
  }
  ++tally.answered;
  if (r->dead() == true) ++tally.dead;
  if (!r->white_can_mate() || !r->black_can_mate()) ++tally.undetermined;
  if (verdict) {
    const bool decided = verdict->reason == FlagVerdict::Reason::Checkmate || verdict->reason == FlagVerdict::Reason::Stalemate;
    if (decided) {
      ++tally.flag_decided;
    } else if (verdict->reason == FlagVerdict::Reason::Undetermined) {
      ++tally.flag_undetermined;
    } else {
      (verdict->result == "1/2-1/2" ? tally.flag_draws : tally.flag_wins)++;
    }
  }
  const MateAnswer& white_mated = r->mate[Color::White];
  const MateAnswer& black_mated = r->mate[Color::Black];
  if (o.json) {
    json j;
    j["input"] = shown_input(input);
    j["fen"] = pos->to_fen();
    j["table"] = r->table.empty() ? json(nullptr) : json(r->table);
    j["checkmate"] = r->checkmate;
    j["stalemate"] = r->stalemate;
    j["dead"] = tri(r->dead());
    j["white_can_mate"] = tri(r->white_can_mate());
    j["black_can_mate"] = tri(r->black_can_mate());
    j["dthm_white_mated_plies"] = white_mated.dthm ? json(*white_mated.dthm) : json(nullptr);
    j["dthm_black_mated_plies"] = black_mated.dthm ? json(*black_mated.dthm) : json(nullptr);
    j["how"] = {{"white_can_mate", how_json(black_mated)}, {"black_can_mate", how_json(white_mated)}};
    j["castling_search"] = r->castling_search;
    j["en_passant"] = r->en_passant;
    if (verdict) {
      j["flag"] = {{"flagged", *flagged == Color::White ? "white" : "black"},
                   {"result", verdict->result.empty() ? json(nullptr) : json(verdict->result)},
                   {"reason", flag_reason_id(verdict->reason)},
                   {"text", flag_reason_text(verdict->reason)}};
    }
    if (o.line) {
      json arr = json::array();
      for (const auto& [mated, m] : lines) {
        json u = json::array();
        for (Move mv : m->line) u.push_back(to_uci(mv));
        arr.push_back({{"mated", mated == Color::White ? "white" : "black"},
                       {"plies", m->line.size()},
                       {"shortest", m->shortest},
                       {"san", line_to_san(*pos, m->line)},
                       {"uci", u}});
      }
      j["lines"] = arr;
    }
    std::cout << json_line(j) << '\n';
    return;
  }
  std::string text;
  if (r->checkmate) {
    text = std::string(side_name(pos->side_to_move())) + " is checkmated";
  } else if (r->stalemate) {
    text = std::string(side_name(pos->side_to_move())) + " is stalemated: draw";
  } else if (r->dead() == true && !r->table.empty()) {
    text = "dead position: neither side can checkmate by any sequence of legal moves (FIDE 5.2.2)";
  } else {
    if (r->dead() == true) text = "dead position (FIDE 5.2.2): ";
    text += side_text(Color::White, black_mated) + "; " + side_text(Color::Black, white_mated);
  }
  std::cout << pos->to_fen() << ": " << text;
  if (verdict) {
    std::cout << " | " << side_name(*flagged) << "'s flag fell: ";
    if (verdict->result.empty()) {
      std::cout << flag_reason_text(verdict->reason);  // "undetermined: ..."
    } else {
      std::cout << verdict->result << ", " << flag_reason_text(verdict->reason);
    }
  }
  for (const auto& [mated, m] : lines) {
    std::cout << " | mate of " << side_name(mated) << " in " << plies(static_cast<int>(m->line.size()))
              << (m->shortest ? "" : " (not proven shortest)") << ": " << format_line(*pos, m->line) << " (UCI:";
    for (Move mv : m->line) std::cout << ' ' << to_uci(mv);
    std::cout << ')';
  }
  if (!r->table.empty()) {
    std::cout << " [table " << r->table << (r->castling_search ? ", castling search" : "")
              << (r->en_passant ? ", en passant" : "") << "]\n";
  } else {
    std::cout << " [beyond the tables: search]\n";
  }
}

int cmd_probe(const std::vector<std::string>& dirs, const std::vector<std::string>& fens, const std::string& epd,
              const ProbeOptions& o, std::size_t cache_mb) {
  Tablebase::Options topt;
  topt.cache_bytes = cache_mb << 20;
  auto tb = Tablebase::open(dirs, topt);
  if (!tb) return report(tb.error());
  if (tb->max_men() == 0) {
    std::string d;
    for (const auto& x : dirs) d += (d.empty() ? "" : ", ") + x;
    return report(make_error(ErrorCode::MissingTable, "no tables (*.dpt) in " + d + "; build them with 'deadpos generate'"));
  }
  ProbeTally tally;
  auto run_stream = [&](std::istream& in) {
    std::string line;
    while (std::getline(in, line)) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      const auto last = line.find_last_not_of(" \t\r");
      probe_one(*tb, line.substr(first, last - first + 1), o, tally);
    }
  };
  for (const auto& f : fens) probe_one(*tb, f, o, tally);
  if (!epd.empty()) {
    if (epd == "-") {
      run_stream(std::cin);
    } else {
      std::error_code ec;
      if (std::filesystem::is_directory(epd, ec)) return report(make_error(ErrorCode::Io, epd + ": is a directory, not an EPD file"));
      std::ifstream in(epd);
      if (!in) return report(make_error(ErrorCode::Io, epd + ": cannot open"));
      run_stream(in);
      if (in.bad()) return report(make_error(ErrorCode::Io, epd + ": read error"));
    }
  } else if (fens.empty()) {
    run_stream(std::cin);
  }
  if (!o.json && tally.answered + tally.errors > 1) {
    std::cout << "summary: " << tally.answered << " answered, " << tally.errors << " not answered; "
              << tally.answered - tally.undetermined << " decided, " << tally.undetermined << " undetermined; "
              << tally.dead << " dead positions";
    if (!o.flag.empty()) {
      std::cout << "; flag-falls: " << tally.flag_draws << " drawn (FIDE 5.2.2 / 6.9), " << tally.flag_wins
                << " won by the opponent";
      if (tally.flag_undetermined) std::cout << ", " << tally.flag_undetermined << " undetermined";
      if (tally.flag_decided) std::cout << ", " << tally.flag_decided << " already checkmate or stalemate";
    }
    std::cout << '\n';
  }
  return tally.first_error_code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"deadpos: exact dead-position and helpmate tablebases for chess endings"};
  app.require_subcommand(1);

  std::string fen;
  int depth = 0;
  bool divide = false;
  auto* perft_cmd = app.add_subcommand("perft", "Count leaf nodes of the legal move tree (perft)");
  perft_cmd->add_option("fen", fen, "position in FEN (quote it)")->required();
  perft_cmd->add_option("depth", depth, "depth in plies")->required();
  perft_cmd->add_flag("--divide", divide, "print the count below each legal move");

  std::string fen2;
  auto* fen_cmd = app.add_subcommand("fen", "Validate a FEN, print it normalised with a diagram");
  fen_cmd->add_option("fen", fen2, "position in FEN (quote it)")->required();

  int max_men = 0;
  std::vector<std::string> gen_keys;
  std::string out_dir = "tables";
  int threads = 0;
  auto* gen_cmd = app.add_subcommand("generate", "Build helpmate tables (missing subtables first)");
  auto* max_men_opt =
      gen_cmd->add_option("--max-men", max_men, "build every material with up to N men (2..5)")->check(CLI::Range(2, kMaxGenerateMen));
  gen_cmd->add_option("materials", gen_keys, "material keys such as KRvK KBvKN")->excludes(max_men_opt);
  gen_cmd->add_option("--out", out_dir, "table directory (default: tables)");
  gen_cmd->add_option("--threads", threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));

  std::vector<std::string> ver_keys;
  std::string ver_dir = "tables";
  int ver_threads = 0;
  auto* ver_cmd = app.add_subcommand("verify", "Re-derive every entry of tables from their successors");
  ver_cmd->add_option("materials", ver_keys, "material keys (default: every table in --tables)");
  ver_cmd->add_option("--tables", ver_dir, "table directory (default: tables)");
  ver_cmd->add_option("--threads", ver_threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));

  std::vector<std::string> probe_dirs;
  std::vector<std::string> probe_fens;
  std::string probe_epd;
  ProbeOptions popt;
  std::int64_t cache_mb = 256;
  std::int64_t budget_mb = 512;
  auto* probe_cmd = app.add_subcommand("probe", "Answer positions: dead?, who can mate, flag-fall verdict (FIDE 5.2.2, 6.9)");
  probe_cmd->add_option("fens", probe_fens, "positions in FEN (quote each); none: read --epd or standard input");
  probe_cmd->add_option("--tables", probe_dirs, "table directory (repeatable; default: tables)")->allow_extra_args(false);
  probe_cmd->add_option("--epd", probe_epd, "file with one FEN or EPD per line ('-': standard input)");
  probe_cmd->add_flag("--json", popt.json, "one JSON object per line");
  probe_cmd->add_option("--flag", popt.flag, "whose flag fell: white, black or stm (the side to move)")
      ->check(CLI::IsMember({"white", "black", "stm"}));
  probe_cmd->add_flag("--line", popt.line, "print a shortest helpmate line (SAN and UCI) for each side that can be mated (with --flag: the flagged side's opponent's mate)");
  probe_cmd->add_option("--budget-nodes", popt.analysis.budget.nodes,
                        "beyond the tables: positions the search may generate per side, 0 = no limit (default 2000000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  probe_cmd->add_option("--budget-ms", popt.analysis.budget.time_ms,
                        "beyond the tables: milliseconds the search may take per side, 0 = no limit (default 0)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{86'400'000}));
  probe_cmd->add_option("--budget-mb", budget_mb, "beyond the tables: MiB the search may store per side, 1..1048576 (default 512)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  probe_cmd->add_option("--cache-mb", cache_mb, "decompressed-block cache limit in MiB, 0..1048576 (default 256)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "deadpos: usage: " << e.what() << " (see deadpos --help)\n";
    return 2;
  }
  // Anything thrown below is a defect or an exhausted resource (e.g. std::bad_alloc outside the
  // places that report OutOfMemory): one line and exit code 1, never an uncaught abort.
  try {
    if (*perft_cmd) return cmd_perft(fen, depth, divide);
    if (*fen_cmd) return cmd_fen(fen2);
    if (*gen_cmd) {
      if (max_men == 0 && gen_keys.empty()) {
        std::cerr << "deadpos: usage: generate needs --max-men N or material keys (see deadpos --help)\n";
        return 2;
      }
      return cmd_generate(max_men, gen_keys, out_dir, threads);
    }
    if (*ver_cmd) return cmd_verify(ver_dir, ver_keys, ver_threads);
    if (*probe_cmd) {
      if (probe_dirs.empty()) probe_dirs.push_back("tables");
      popt.analysis.budget.memory_bytes = static_cast<std::size_t>(budget_mb) << 20;
      return cmd_probe(probe_dirs, probe_fens, probe_epd, popt, static_cast<std::size_t>(cache_mb));
    }
  } catch (const std::bad_alloc&) {
    return report(make_error(ErrorCode::OutOfMemory, "out of memory"));
  } catch (const std::exception& e) {
    std::cerr << "deadpos: internal error: " << e.what() << '\n';
    return 1;
  }
  return 2;
}
