// deadpos adjudicate FILE.pgn... [--tables DIR]... [--json] [--pgn-out FILE] [--threads T]: the
// result the Laws give to every game of PGN files (docs/cli.md, "deadpos adjudicate"; the rules in
// docs/api.md, "PGN adjudication"). Games are read one batch at a time (memory does not grow with the
// file), adjudicated in parallel, and printed in input order, so the output is the same for any
// number of threads.
#include <omp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli.h"
#include "commands.h"
#include "deadpos/table.h"
#include "deadpos/table_directory.h"

namespace deadpos::cli {

namespace {

struct Args {
  std::vector<std::string> files;
  std::vector<std::string> dirs;
  bool json = false;
  std::string pgn_out;
  int threads = 0;
  AnalysisOptions analysis;
  std::int64_t cache_mb = -1;  // -1: not given, Tablebase::default_cache_bytes()
  std::int64_t budget_mb = 512;
};

// One game in flight.
struct Item {
  PgnGame game;
  ReplayedGame replay;
  std::optional<Adjudication> adj;
  std::optional<Error> error;
};

// --pgn-out: written to a temporary file beside the target, renamed over it at the end. A FILE
// that exists and is not a regular file (links followed: a device, a FIFO, a directory) is refused
// (Io); a symbolic link to a regular file is written through: the link's target is replaced, the
// link stays (docs/cli.md, "deadpos adjudicate").
class PgnOut {
 public:
  Status open(const std::string& path) {
    auto exists = regular_file_exists(path);
    if (!exists) return exists.error();
    std::error_code ec;
    std::string target = path;
    if (std::filesystem::is_symlink(path, ec)) {
      if (!*exists) return make_error(ErrorCode::Io, path + ": is a symbolic link to nothing, not a regular file");
      const auto t = std::filesystem::canonical(path, ec);
      if (ec) return make_error(ErrorCode::Io, path + ": cannot resolve the symbolic link: " + ec.message());
      target = t.string();
    }
    path_ = target;
    tmp_ = target + ".tmp." + std::to_string(::getpid());
    out_.open(tmp_, std::ios::binary | std::ios::trunc);
    // ofstream opens through open(2), which leaves the reason in errno.
    if (!out_) {
      const std::string why = std::strerror(errno);
      tmp_.clear();
      return make_error(ErrorCode::Io,
                        path + ": cannot be written: creating the temporary file beside it failed: " + why);
    }
    return Ok{};
  }
  bool active() const { return out_.is_open(); }
  void write(const std::string& text) {
    out_ << text;
    empty_ = empty_ && text.empty();
  }
  bool empty() const { return empty_; }
  Status commit() {
    out_.close();
    if (!out_) return fail("write error");
    std::error_code ec;
    std::filesystem::rename(tmp_, path_, ec);
    if (ec) return fail("cannot rename " + tmp_ + ": " + ec.message());
    tmp_.clear();
    return Ok{};
  }
  ~PgnOut() {
    if (!tmp_.empty()) {
      std::error_code ec;
      std::filesystem::remove(tmp_, ec);  // ours: created by open()
    }
  }

 private:
  Status fail(const std::string& why) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
    tmp_.clear();
    return make_error(ErrorCode::Io, path_ + ": " + why);
  }
  std::string path_, tmp_;
  std::ofstream out_;
  bool empty_ = true;
};

class Adjudicator {
 public:
  Adjudicator(const Tablebase& tb, const Args& a, PgnOut& out) : tb_(tb), a_(a), out_(out) {
    threads_ = a.threads > 0 ? a.threads : omp_get_max_threads();
    tty_ = ::isatty(STDERR_FILENO) != 0;
  }

  // Reads and adjudicates one file; false when standard output failed (stop).
  bool run_file(const std::string& name, std::istream& in, std::uint64_t size) {
    ++tally_.files;
    bool first_batch = true;
    PgnReader reader(in);
    const std::size_t batch = static_cast<std::size_t>(threads_) * 32;
    std::vector<Item> items;
    for (bool more = true; more;) {
      items.clear();
      while (items.size() < batch) {
        auto g = reader.next();
        if (!g) {
          io_error_ = make_error(ErrorCode::Io, name + ": " + g.error().message);
          more = false;
          break;
        }
        if (!*g) {
          more = false;
          break;
        }
        items.push_back(Item{std::move(**g), {}, {}, {}});
      }
      const auto n = static_cast<std::int64_t>(items.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_)
      for (std::int64_t i = 0; i < n; ++i) {
        Item& it = items[static_cast<std::size_t>(i)];
        it.replay = replay_game(it.game);
        if (it.replay.status != ReplayedGame::Status::Ok) continue;
        auto r = adjudicate_game(tb_, a_.analysis, it.game, it.replay);
        if (r) {
          it.adj = std::move(*r);
        } else {
          it.error = r.error();
        }
      }
      if (first_batch && out_.active() && reader.bom() && out_.empty()) out_.write("\xEF\xBB\xBF");
      first_batch = false;
      for (Item& it : items) {
        const GameReport rep{name, &it.game, &it.replay, it.adj ? &*it.adj : nullptr, it.error};
        tally_.add(rep);
        if (a_.json) {
          std::cout << json_line(game_json(rep)) << '\n';
        } else if (const std::string t = game_text(rep); !t.empty()) {
          std::cout << t << '\n';
        }
        if (out_.active()) out_.write(it.adj ? corrected_pgn(it.game, *it.adj) : it.game.text);
      }
      if (!output_ok()) return false;
      if (tty_) {
        const double pct = size ? 100.0 * static_cast<double>(reader.bytes_read()) / static_cast<double>(size) : 0.0;
        std::fprintf(stderr, "\r\033[K%s: %llu games", one_line(name).c_str(),
                     static_cast<unsigned long long>(tally_.games));
        if (size) std::fprintf(stderr, ", %.0f%%", pct);
      }
    }
    if (tty_) std::fprintf(stderr, "\r\033[K");
    return true;
  }

  // A file given that could not be opened (or read to its end): counted in the summary.
  void unreadable_file(bool counted) {
    if (!counted) ++tally_.files;
    ++tally_.files_unreadable;
  }
  const AdjudicateTally& tally() const { return tally_; }
  std::optional<Error>& io_error() { return io_error_; }

 private:
  const Tablebase& tb_;
  const Args& a_;
  PgnOut& out_;
  int threads_ = 1;
  bool tty_ = false;
  AdjudicateTally tally_;
  std::optional<Error> io_error_;
};

int run_adjudicate(Args& a) {
  if (a.dirs.empty()) a.dirs.push_back("tables");
  a.analysis.budget.memory_bytes = static_cast<std::size_t>(a.budget_mb) << 20;
  Tablebase::Options topt;
  if (a.cache_mb >= 0) topt.cache_bytes = static_cast<std::size_t>(a.cache_mb) << 20;
  auto tb = Tablebase::open(a.dirs, topt);
  if (!tb) return report(tb.error());
  if (tb->max_men() == 0) {
    return report(no_tables_error(a.dirs));
  }
  PgnOut out;
  if (!a.pgn_out.empty()) {
    if (auto s = out.open(a.pgn_out); !s) return report(s.error());
  }
  Adjudicator adj(*tb, a, out);
  int file_error = 0;  // exit code of the first file that could not be read
  bool ok = true;
  for (const std::string& f : a.files) {
    if (f == "-" && standard_input_problem()) {
      const int c = report(make_error(ErrorCode::Io, "standard input: " + *standard_input_problem()));
      adj.unreadable_file(false);
      if (!file_error) file_error = c;
      continue;
    }
    if (f == "-") {
      ok = adj.run_file("-", std::cin, 0);
    } else {
      std::error_code ec;
      if (std::filesystem::is_directory(f, ec)) {
        const int c = report(make_error(ErrorCode::Io, f + ": is a directory, not a PGN file"));
        adj.unreadable_file(false);
        if (!file_error) file_error = c;
        continue;
      }
      std::ifstream in(f, std::ios::binary);
      if (!in) {
        // ifstream opens through open(2), which leaves the reason in errno.
        const int c = report(make_error(ErrorCode::Io, f + ": cannot open: " + std::strerror(errno)));
        adj.unreadable_file(false);
        if (!file_error) file_error = c;
        continue;
      }
      const auto size = std::filesystem::file_size(f, ec);
      ok = adj.run_file(f, in, ec ? 0 : static_cast<std::uint64_t>(size));
    }
    if (auto& e = adj.io_error()) {
      const int c = report(*e);
      adj.unreadable_file(true);
      if (!file_error) file_error = c;
      e.reset();
    }
    if (!ok) break;
  }
  const AdjudicateTally& t = adj.tally();
  if (ok) {
    std::cout << (a.json ? json_line(adjudicate_summary_json(t)) : adjudicate_summary_text(t)) << '\n';
  }
  if (const int rc = finish_output()) return rc;
  if (out.active()) {
    if (auto s = out.commit(); !s) return report(s.error());
  }
  if (file_error) return file_error;
  if (t.first_error_code) return t.first_error_code;
  return t.unreadable > 0 ? kExitGamesUnreadable : 0;
}

}  // namespace

Subcommand add_adjudicate(CLI::App& app) {
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "adjudicate", "The result the Laws give to PGN games: first dead position (FIDE 5.2.2), flag-falls (6.9)");
  cmd->add_option("files", a->files, "PGN files ('-': standard input)")->required()->check(kNonEmpty);
  cmd->add_option("--tables", a->dirs, "table directory (repeatable; default: tables)")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_flag("--json", a->json, "one JSON object per game, then {\"summary\": ...}");
  cmd->add_option("--pgn-out", a->pgn_out, "write the games with corrected results and comments to this file")
      ->check(kNonEmpty);
  cmd->add_option("--threads", a->threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));
  cmd->add_option("--budget-nodes", a->analysis.budget.nodes,
                  "beyond the tables: positions the search may generate per question, 0 = no limit (default 2000000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  cmd->add_option("--budget-ms", a->analysis.budget.time_ms,
                  "beyond the tables: milliseconds per question, 0 = no limit (default 0; a limit makes the "
                  "output depend on the machine)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{86'400'000}));
  cmd->add_option("--budget-mb", a->budget_mb,
                  "beyond the tables: MiB the search may store per question, 1..1048576 (default 512)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  cmd->add_option("--cache-mb", a->cache_mb,
                  "decompressed-block cache limit in MiB, 0..1048576 (default: 1/8 of the memory, 256..4096)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
  return {cmd, [a] { return run_adjudicate(*a); }};
}

}  // namespace deadpos::cli
