// deadpos generate [--max-men N | MATERIAL...] [--out DIR] [--threads T] [--force]: build helpmate tables.
#include <cstdio>
#include <iostream>
#include <memory>

#include <omp.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"

namespace deadpos::cli {

namespace {

void print_stats(const TableStats& s) {
  auto dthm = [](int d) { return d < 0 ? std::string("none") : std::to_string(d) + " plies"; };
  for (int stm = 0; stm < 2; ++stm) {
    const SideStats& x = s.side[static_cast<std::size_t>(stm)];
    std::printf(
        "%-8s %s to move: %llu positions, %llu checkmates, %llu stalemates, White can mate %llu, Black can mate "
        "%llu, dead %llu, longest DTHM (White mated) %s, (Black mated) %s\n",
        s.material.c_str(), stm == 0 ? "White" : "Black", static_cast<unsigned long long>(x.positions),
        static_cast<unsigned long long>(x.checkmates), static_cast<unsigned long long>(x.stalemates),
        static_cast<unsigned long long>(x.white_can_mate), static_cast<unsigned long long>(x.black_can_mate),
        static_cast<unsigned long long>(x.dead), dthm(x.max_dthm[Color::White]).c_str(),
        dthm(x.max_dthm[Color::Black]).c_str());
  }
  for (const auto& c : s.bishop_classes) {
    std::printf("%-8s   bishops %s: White to move dead %llu of %llu, Black to move dead %llu of %llu\n",
                s.material.c_str(), c.colours.c_str(), static_cast<unsigned long long>(c.side[0].dead),
                static_cast<unsigned long long>(c.side[0].positions), static_cast<unsigned long long>(c.side[1].dead),
                static_cast<unsigned long long>(c.side[1].positions));
  }
  std::printf("%-8s   %.2f s, peak memory %.1f MiB\n", s.material.c_str(), s.seconds,
              static_cast<double>(s.peak_rss_bytes) / (1024.0 * 1024.0));
}

}  // namespace

Subcommand add_generate(CLI::App& app) {
  struct Args {
    int max_men = 0;
    std::vector<std::string> keys;
    std::string out = "tables";
    int threads = 0;
    bool force = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("generate", "Build helpmate tables (missing subtables first)");
  auto* max_men_opt = cmd->add_option("--max-men", a->max_men, "build every material with up to N men (2..5)")
                          ->check(CLI::Range(2, kMaxGenerateMen));
  cmd->add_option("materials", a->keys, "material keys such as KRvK KBvKN")->excludes(max_men_opt);
  cmd->add_option("--out", a->out, "table directory (default: tables)")->check(kNonEmpty);
  cmd->add_option("--threads", a->threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));
  cmd->add_flag("--force", a->force,
                "rebuild the named tables (with --max-men: all of them) even when present and intact");
  return {cmd, [a]() -> int {
            if (a->max_men == 0 && a->keys.empty()) {
              std::cerr << "deadpos: usage: generate needs --max-men N or material keys (see deadpos --help)\n";
              return kExitUsage;
            }
            if (a->threads > 0) omp_set_num_threads(a->threads);
            std::vector<Material> targets;
            if (!a->keys.empty()) {
              auto m = parse_materials(a->keys);
              if (!m) return report(m.error());
              targets = *m;
            } else {
              targets = all_materials(a->max_men);
            }
            GenerateOptions opt;
            opt.out_dir = a->out;
            opt.progress = make_progress();
            opt.force = a->force;
            // Each table's statistics as soon as it is written: a run killed or failing later keeps them.
            opt.on_table_written = [](const TableStats& s) {
              print_stats(s);
              std::fflush(stdout);
            };
            auto r = generate(targets, opt);
            if (!r) return report(r.error());
            for (const auto& k : r->restored_statistics) {
              std::printf("%s.json was missing or damaged: statistics recomputed from %s.dpt\n", k.c_str(), k.c_str());
            }
            for (const auto& k : r->restored_verdicts) {
              std::printf("%s.dpv was missing or damaged: verdicts rewritten from %s.dpt\n", k.c_str(), k.c_str());
            }
            for (const auto& f : r->removed_temporaries) {
              std::printf("removed %s (left by an interrupted run)\n", one_line(f).c_str());
            }
            if (!r->rewritten.empty()) {
              std::printf("rewrote %s of an older format version in format v%u (same entries, not solved again)\n",
                          count_of(r->rewritten.size(), "table", "tables").c_str(), kFormatVersion);
            }
            std::printf("built %s, %zu already present in %s\n", count_of(r->built.size(), "table", "tables").c_str(),
                        r->skipped.size(), one_line(a->out).c_str());  // a directory name may hold any byte
            return finish_output();
          }};
}

}  // namespace deadpos::cli
