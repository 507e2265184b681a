// Scripted measurements of the analyzer beyond the tables (bench/bench_analyze.sh runs them):
//
//   deadpos_analyze_compare positions FILE --tables DIR [--table-men N] [--leaf-men N] [--nodes N] [--ms N] [--lines 1]
//   [--flag 1]
//     One question per position of FILE (FEN or EPD lines, '#' comments): can the side that just
//     moved (not the side to move) still checkmate? Prints decided / undetermined counts and the
//     time per position on one thread: mean, 99th percentile, max (microseconds). With --lines 1
//     every certificate line is asked for (the tables' tails included) and replayed here. With
//     --flag 1 the time is that of the whole flag answer (analyze_flag, the side to move flagged,
//     as `deadpos probe --flag stm`), which also asks the side to move's own question when the
//     answer is "cannot".
//
//   deadpos_analyze_compare oracle --tables DIR --men M --table-men T [--count N] [--seed S] [--nodes N]
//     N random legal positions spread over every material of M men (both orientations), both
//     sides: the analyzer limited to tables of at most T < M men against the M-man tables, which
//     are the oracle. Prints decided share, disagreements (must be 0) and time per question.
//
// Exit status 0 when every decided answer agrees with the oracle and every line replays; 1 otherwise.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/notation.h"
#include "deadpos/stats.h"
#include "deadpos/table_set.h"
#include "deadpos/tablebase.h"
#include "deadpos/verify.h"
#include "support/random_position.h"

using namespace deadpos;

namespace {

struct Args {
  std::string mode, file, tables = "tables";
  int men = 4, table_men = 7, leaf_men = 4;
  long count = 20000;
  unsigned long seed = 1;
  std::uint64_t nodes = 2'000'000;
  std::uint64_t ms = 0;  // positions mode: the time budget per question (0: none), milliseconds
  double slow_us = 0;    // positions mode: print every position slower than this (0: none)
  bool lines = false;    // positions mode: ask for the certificate lines and replay them (--lines 1)
  bool flag = false;     // positions mode: time the whole flag answer (--flag 1)
};

bool replays(const Position& root, const std::vector<Move>& line, Color mated) {
  Position p = root;
  for (Move m : line) {
    if (!p.legal_moves().contains(m)) return false;
    p.make_move(m);
  }
  return p.side_to_move() == mated && p.is_checkmate();
}

void print_times(std::vector<double>& us) {
  if (us.empty()) return;
  std::sort(us.begin(), us.end());
  double sum = 0;
  for (double t : us) sum += t;
  const std::size_t p99 = std::min(us.size() - 1, static_cast<std::size_t>(0.99 * static_cast<double>(us.size())));
  std::printf("time per question (one thread): mean %.1f us, median %.1f us, p99 %.1f us, max %.1f us\n",
              sum / static_cast<double>(us.size()), us[us.size() / 2], us[p99], us.back());
}

int run_positions(const Tablebase& tb, const Args& a) {
  std::ifstream in(a.file);
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", a.file.c_str());
    return 2;
  }
  AnalysisOptions opt;
  opt.table_men = a.table_men;
  opt.leaf_table_men = a.leaf_men;
  opt.budget.nodes = a.nodes;
  opt.budget.time_ms = a.ms;
  std::vector<double> us;
  long decided = 0, undetermined = 0, cannot = 0, bad = 0;
  unsigned long long total_positions = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto pos = Position::from_fen(fen_of_epd_line(line));
    if (!pos) {
      // The lichess file carries a game id after the FEN: drop the last field.
      pos = Position::from_fen(fen_of_epd_line(line.substr(0, line.rfind(' '))));
    }
    if (!pos) {
      std::fprintf(stderr, "bad FEN: %s\n", line.c_str());
      return 2;
    }
    const Color mated = pos->side_to_move();  // the side that just moved mates the side to move
    const auto t0 = std::chrono::steady_clock::now();
    Result<MateAnswer> r = MateAnswer{};
    if (a.flag) {
      // The whole flag answer (analyze_flag: the flagged side's question, the other when the
      // verdict needs it), timed as one; the verdict's question is what is counted.
      auto f = deadpos::analyze_flag(tb, *pos, mated, opt, a.lines);
      r = f ? Result<MateAnswer>(std::move(f->mate[mated])) : Result<MateAnswer>(f.error());
    } else {
      r = deadpos::analyze_side(tb, *pos, mated, opt, a.lines);
    }
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (!r) {
      std::fprintf(stderr, "error: %s: %s\n", line.c_str(), r.error().message.c_str());
      return 2;
    }
    total_positions += r->positions;
    if (a.slow_us > 0 && us.back() > a.slow_us) {
      std::printf("slow: %.0f us, %llu positions, %s: %s\n", us.back(), static_cast<unsigned long long>(r->positions),
                  method_name(r->method), pos->to_fen().c_str());
    }
    const auto c = r->can_mate();
    if (!c) {
      ++undetermined;
      std::printf("undetermined: %s (%s budget)\n", pos->to_fen().c_str(), budget_name(r->budget));
      continue;
    }
    ++decided;
    if (!*c) {
      ++cannot;
      std::printf("cannot mate: %s (%s)\n", pos->to_fen().c_str(), method_name(r->method));
    } else if (a.lines && r->method == Method::Search && !replays(*pos, r->line, mated)) {
      ++bad;
      std::printf("LINE DOES NOT REPLAY: %s\n", pos->to_fen().c_str());
    }
  }
  std::printf(
      "%ld positions: %ld decided (%ld cannot mate), %ld undetermined; tables up to %d men; %llu positions searched\n",
      decided + undetermined, decided, cannot, undetermined, std::min(a.table_men, tb.max_men()), total_positions);
  print_times(us);
  return bad ? 1 : 0;
}

int run_oracle(const Tablebase& tb, const Args& a) {
  std::vector<Material> mats;
  for (const Material& m : all_materials(a.men)) {
    if (m.men() != a.men) continue;
    mats.push_back(m);
    if (!m.is_symmetric()) mats.push_back(m.swapped());
  }
  AnalysisOptions opt;
  opt.table_men = a.table_men;
  opt.leaf_table_men = a.leaf_men;
  opt.budget.nodes = a.nodes;
  std::mt19937_64 rng(a.seed);
  std::vector<double> us;
  long questions = 0, decided = 0, wrong = 0, bad_lines = 0;
  unsigned long long total_positions = 0;
  for (long i = 0; i < a.count; ++i) {
    const Material& m = mats[static_cast<std::size_t>(i) % mats.size()];
    const Position pos = test::random_position(m, rng);
    auto truth = tb.probe(pos);
    if (!truth) {
      std::fprintf(stderr, "oracle: %s: %s\n", pos.to_fen().c_str(), truth.error().message.c_str());
      return 2;
    }
    for (Color mated : {Color::White, Color::Black}) {
      ++questions;
      const auto t0 = std::chrono::steady_clock::now();
      auto r = deadpos::analyze_side(tb, pos, mated, opt, true);  // lines asked for: each is replayed below
      us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
      if (!r) {
        std::fprintf(stderr, "error: %s: %s\n", pos.to_fen().c_str(), r.error().message.c_str());
        return 2;
      }
      total_positions += r->positions;
      const auto c = r->can_mate();
      if (!c) {
        std::printf("undetermined: %s %s mated=%s table=%d\n", m.key().c_str(), pos.to_fen().c_str(),
                    mated == Color::White ? "white" : "black", truth->dthm[mated].has_value() ? 1 : 0);
        continue;
      }
      ++decided;
      if (*c != truth->dthm[mated].has_value()) {
        ++wrong;
        std::printf("DISAGREES: %s mated=%s analyzer=%d (%s) table=%d\n", pos.to_fen().c_str(),
                    mated == Color::White ? "white" : "black", *c ? 1 : 0, method_name(r->method),
                    truth->dthm[mated].has_value() ? 1 : 0);
      }
      if (*c && r->method == Method::Search && !replays(pos, r->line, mated)) ++bad_lines;
    }
  }
  std::printf(
      "%ld questions on %ld random %d-man positions (%zu materials), tables up to %d men: %ld decided (%.3f%%), "
      "%ld disagree with the %d-man tables, %ld lines fail to replay; %llu positions searched\n",
      questions, a.count, a.men, mats.size(), a.table_men, decided,
      100.0 * static_cast<double>(decided) / static_cast<double>(questions), wrong, a.men, bad_lines, total_positions);
  print_times(us);
  return wrong || bad_lines ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: %s positions FILE|oracle [--tables DIR] [--men M] [--table-men T] [--count N] [--seed S] [--nodes N]\n",
        argv[0]);
    return 2;
  }
  a.mode = argv[1];
  int i = 2;
  if (a.mode == "positions" && argc > 2) a.file = argv[i++];
  for (; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--tables")
      a.tables = v;
    else if (k == "--men")
      a.men = std::atoi(v.c_str());
    else if (k == "--table-men")
      a.table_men = std::atoi(v.c_str());
    else if (k == "--leaf-men")
      a.leaf_men = std::atoi(v.c_str());
    else if (k == "--count")
      a.count = std::atol(v.c_str());
    else if (k == "--seed")
      a.seed = std::strtoul(v.c_str(), nullptr, 10);
    else if (k == "--lines")
      a.lines = v == "1";
    else if (k == "--flag")
      a.flag = v == "1";
    else if (k == "--slow-us")
      a.slow_us = std::atof(v.c_str());
    else if (k == "--nodes")
      a.nodes = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--ms")
      a.ms = std::strtoull(v.c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  Tablebase::Options topt;
  topt.cache_bytes = std::size_t{2} << 30;
  auto tb = Tablebase::open({a.tables}, topt);
  if (!tb) {
    std::fprintf(stderr, "%s\n", tb.error().message.c_str());
    return 2;
  }
  if (a.mode == "positions") return run_positions(*tb, a);
  if (a.mode == "oracle") return run_oracle(*tb, a);
  std::fprintf(stderr, "unknown mode %s\n", a.mode.c_str());
  return 2;
}
