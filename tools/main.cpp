// The `deadpos` command. Parses arguments, calls core/ and generator/, prints results and maps
// errors to exit codes (docs/cli.md). No chess logic lives here.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <omp.h>

#include <unistd.h>

#include <filesystem>
#include <iomanip>

#include "deadpos/material.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/solver.h"

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
  }
  return 1;
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

// Progress: a rewritten line with percent and ETA on a terminal, plain lines at phase ends otherwise.
ProgressFn make_progress() {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  struct State {
    std::string key, phase;
    std::chrono::steady_clock::time_point start;
    int last_pct = -1;
  };
  auto st = std::make_shared<State>();
  return [tty, st](const Progress& p) {
    if (p.material != st->key || p.phase != st->phase) {
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
    } else if (p.fraction >= 1.0) {
      std::fprintf(stderr, "%s %s done\n", p.material.c_str(), p.phase.c_str());
    }
  };
}

Result<std::vector<Material>> parse_materials(const std::vector<std::string>& keys) {
  std::vector<Material> out;
  for (const auto& k : keys) {
    auto m = Material::parse(k);
    if (!m) return m.error();
    if (m->men() > kMaxTableMen) {
      return make_error(ErrorCode::InvalidArgument, "material " + k + " has more than " + std::to_string(kMaxTableMen) + " men");
    }
    out.push_back(m->canonical());
  }
  return out;
}

void print_stats(const TableStats& s) {
  for (int stm = 0; stm < 2; ++stm) {
    const SideStats& x = s.side[static_cast<std::size_t>(stm)];
    std::printf("%-8s %s to move: %llu positions, %llu checkmates, %llu stalemates, White can mate %llu, Black can mate %llu, dead %llu, max DTHM (White mated) %d, (Black mated) %d plies\n",
                s.material.c_str(), stm == 0 ? "White" : "Black", static_cast<unsigned long long>(x.positions),
                static_cast<unsigned long long>(x.checkmates), static_cast<unsigned long long>(x.stalemates),
                static_cast<unsigned long long>(x.white_can_mate), static_cast<unsigned long long>(x.black_can_mate),
                static_cast<unsigned long long>(x.dead), x.max_dthm[Color::White], x.max_dthm[Color::Black]);
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
  std::printf("built %zu tables, %zu already present in %s\n", r->built.size(), r->skipped.size(), out.c_str());
  return 0;
}

int cmd_verify(const std::string& dir, const std::vector<std::string>& keys, int threads) {
  if (threads > 0) omp_set_num_threads(threads);
  std::vector<Material> mats;
  if (!keys.empty()) {
    auto m = parse_materials(keys);
    if (!m) return report(m.error());
    mats = *m;
  } else {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".dpt") continue;
      auto m = Material::parse(e.path().stem().string());
      if (m) mats.push_back(*m);
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
    auto t = load_table(dir + "/" + table_file_name(m));
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
  if (bad) return report(make_error(ErrorCode::VerificationFailed, std::to_string(bad) + " entries disagree with their successors"));
  std::printf("verified %zu tables\n", mats.size());
  return 0;
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
  gen_cmd->add_option("--max-men", max_men, "build every material with up to N men (2..5)");
  gen_cmd->add_option("materials", gen_keys, "material keys such as KRvK KBvKN");
  gen_cmd->add_option("--out", out_dir, "table directory (default: tables)");
  gen_cmd->add_option("--threads", threads, "OpenMP threads (default: all cores)");

  std::vector<std::string> ver_keys;
  std::string ver_dir = "tables";
  int ver_threads = 0;
  auto* ver_cmd = app.add_subcommand("verify", "Re-derive every entry of tables from their successors");
  ver_cmd->add_option("materials", ver_keys, "material keys (default: every table in --tables)");
  ver_cmd->add_option("--tables", ver_dir, "table directory (default: tables)");
  ver_cmd->add_option("--threads", ver_threads, "OpenMP threads (default: all cores)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // 2: usage error
  }
  if (*perft_cmd) return cmd_perft(fen, depth, divide);
  if (*fen_cmd) return cmd_fen(fen2);
  if (*gen_cmd) {
    if (max_men == 0 && gen_keys.empty()) {
      return report(make_error(ErrorCode::InvalidArgument, "generate needs --max-men N or material keys"));
    }
    return cmd_generate(max_men, gen_keys, out_dir, threads);
  }
  if (*ver_cmd) return cmd_verify(ver_dir, ver_keys, ver_threads);
  return 2;
}
