// deadpos verify [--tables DIR] [--threads T] [MATERIAL...]: re-derive every entry of tables.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <omp.h>

#include "cli.h"
#include "commands.h"

namespace deadpos::cli {

namespace {

int run_verify(const std::string& dir, const std::vector<std::string>& keys, int threads) {
  if (threads > 0) omp_set_num_threads(threads);
  std::vector<Material> mats;
  std::vector<std::string> not_tables;  // *.dpt files in dir whose name is not a canonical material key
  if (!keys.empty()) {
    auto m = parse_materials(keys);
    if (!m) return report(m.error());
    mats = *m;
  } else {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
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
    std::sort(mats.begin(), mats.end(), [](const Material& x, const Material& y) {
      return x.men() != y.men() ? x.men() < y.men() : x.key() < y.key();
    });
  }
  TableSet set(dir);
  std::uint64_t bad = 0;
  const ProgressFn progress = make_progress();
  for (const Material& m : mats) {
    auto t = load_table(dir + "/" + table_file_name(m), m);
    if (!t) {
      return report(t.error().code == ErrorCode::Io
                        ? make_error(ErrorCode::MissingTable, "table " + m.key() + ": " + t.error().message)
                        : t.error());
    }
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
    std::printf("%-8s FAILED: not a table name (<KEY>.dpt with a canonical material key of at most %d men)\n",
                f.c_str(), kMaxGenerateMen);
  }
  if (bad) {
    return report(
        make_error(ErrorCode::VerificationFailed, std::to_string(bad) + " entries disagree with their successors"));
  }
  if (!not_tables.empty()) {
    return report(make_error(ErrorCode::CorruptTable, dir + ": " + std::to_string(not_tables.size()) +
                                                          " .dpt file(s) with names that are not tables: " +
                                                          not_tables.front() + (not_tables.size() > 1 ? ", ..." : "")));
  }
  std::printf("verified %zu tables\n", mats.size());
  return finish_output();
}

}  // namespace

Subcommand add_verify(CLI::App& app) {
  struct Args {
    std::vector<std::string> keys;
    std::string dir = "tables";
    int threads = 0;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("verify", "Re-derive every entry of tables from their successors");
  cmd->add_option("materials", a->keys, "material keys (default: every table in --tables)");
  cmd->add_option("--tables", a->dir, "table directory (default: tables)");
  cmd->add_option("--threads", a->threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));
  return {cmd, [a] { return run_verify(a->dir, a->keys, a->threads); }};
}

}  // namespace deadpos::cli
