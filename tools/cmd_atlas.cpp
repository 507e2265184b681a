// deadpos atlas [--tables DIR]... --out DIR [--threads T]: a report over every table present
// (docs/atlas.md): HTML pages with SVG plots, and the same numbers as atlas.json and atlas.csv.
// The numbers are core/ (deadpos/atlas.h), the files tools/atlas_report.h; this file parses the
// arguments and prints the summary.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "atlas_report.h"
#include "cli.h"
#include "commands.h"
#include "deadpos/atlas.h"
#include "deadpos/table_directory.h"
#include "progress.h"

namespace deadpos::cli {

namespace {

struct Args {
  std::vector<std::string> dirs;
  std::string out;
  int threads = 0;
};

int run_atlas_command(const Args& a) {
  if (Status s = check_atlas_out(a.out); !s) return report(s.error());
  auto tb = Tablebase::open(a.dirs);
  if (!tb) return report(tb.error());
  const std::vector<std::string> keys = tb->materials();
  if (keys.empty()) {
    return report(no_tables_error(a.dirs));
  }
  // Every table opened first: a bad file fails before any scanning.
  struct Entry {
    Material material;
    TableFile table;
  };
  std::vector<Entry> tables;
  for (const auto& key : keys) {
    const Material m = *Material::parse(key);
    std::optional<std::string> path;
    for (const auto& d : a.dirs) {
      const std::string p = TableDirectory(d).table_path(m);
      auto exists = regular_file_exists(p);
      if (!exists) return report(exists.error());
      if (*exists) {
        path = p;
        break;
      }
    }
    if (!path) return report(make_error(ErrorCode::MissingTable, "no table file for " + key));
    auto t = TableFile::open(*path, m, FileCheck::HeaderOnly);
    if (!t) return report(t.error());
    tables.push_back(Entry{m, std::move(*t)});
  }
  // Fewer men first, then by key: the order of the pages and of atlas.json.
  std::stable_sort(tables.begin(), tables.end(),
                   [](const Entry& x, const Entry& y) { return x.material.men() < y.material.men(); });
  std::vector<AtlasMaterial> ms;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    auto r = atlas_material(tables[i].table, *tb, a.threads);
    if (!r) return report(r.error());
    std::cerr << "deadpos atlas: " << tables[i].material.key() << " (" << i + 1 << "/" << tables.size() << ")\n";
    ms.push_back(std::move(*r));
  }
  if (Status s = write_atlas(ms, a.out); !s) return report(s.error());
  // The deepest helpmate of all.
  const AtlasMaterial* best = nullptr;
  Color bs = Color::White, bx = Color::White;
  int plies_best = -1;
  for (const auto& m : ms)
    for (Color stm : {Color::White, Color::Black})
      for (Color x : {Color::White, Color::Black})
        if (m.by_stm[stm].deepest[x].plies > plies_best) {
          plies_best = m.by_stm[stm].deepest[x].plies;
          best = &m;
          bs = stm;
          bx = x;
        }
  std::cout << "atlas of " << ms.size() << " tables written to " << one_line(a.out) << "/index.html";
  if (best) {
    std::cout << "; deepest helpmate: " << best->material.key() << ", " << (bs == Color::White ? "White" : "Black")
              << " to move, " << (bx == Color::White ? "White" : "Black") << " mated in " << plies(plies_best) << ": "
              << best->by_stm[bs].deepest[bx].position.to_fen();
  }
  std::cout << '\n';
  return finish_output();
}

}  // namespace

Subcommand add_atlas(CLI::App& app) {
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "atlas", "A report (HTML with SVG plots, JSON, CSV) of helpmates and dead positions over every table present");
  cmd->add_option("--tables", a->dirs, "table directory (repeatable, searched in order; default: tables)")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--out", a->out,
                  "report directory: new, empty, or a previous atlas (replaced); anything else is refused")
      ->required()
      ->check(kNonEmpty);
  cmd->add_option("--threads", a->threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));
  return {cmd, [a] {
            if (a->dirs.empty()) a->dirs.push_back("tables");
            return run_atlas_command(*a);
          }};
}

}  // namespace deadpos::cli
