// Generation driver: dependency order, skip intact tables, solve, write table + statistics.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "deadpos/solver.h"

namespace deadpos {

namespace {

// Peak resident set size of this process (VmHWM), bytes; 0 if unavailable.
std::uint64_t peak_rss() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::istringstream s(line.substr(6));
      std::uint64_t kb = 0;
      s >> kb;
      return kb * 1024;
    }
  }
  return 0;
}

// Resets the peak RSS counter (Linux: writing 5 to clear_refs), so each table reports its own peak.
void reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
}

Status write_text_atomic(const std::string& path, const std::string& text) {
  return write_file_atomic(path, {std::as_bytes(std::span(text.data(), text.size()))});
}

// Removes <name>.tmp.<pid> files in dir whose writer process no longer exists (a killed run:
// write_table and write_text_atomic name their temporaries so). Files of live processes, and
// anything else, are left alone. Returns the removed paths.
std::vector<std::string> remove_stale_temporaries(const std::string& dir) {
  std::vector<std::string> removed;
  std::error_code ec;
  // increment(ec), not a range-for: a listing error leaves the files alone instead of throwing.
  for (std::filesystem::directory_iterator it(dir, ec); !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::filesystem::directory_entry& e = *it;
    const std::string name = e.path().filename().string();
    const auto at = name.rfind(".tmp.");
    if (at == std::string::npos || !e.is_regular_file(ec)) continue;
    const std::string digits = name.substr(at + 5);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    if (std::filesystem::remove(e.path(), rm)) removed.push_back(e.path().string());
  }
  return removed;
}

}  // namespace

Result<GenerateResult> generate(const std::vector<Material>& targets, const GenerateOptions& opt) {
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
  if (ec) return make_error(ErrorCode::Io, opt.out_dir + ": cannot create directory: " + ec.message());
  for (const Material& m : targets) {
    if (m.men() > kMaxGenerateMen) {
      return make_error(ErrorCode::InvalidArgument, "material " + m.key() + " has " + std::to_string(m.men()) +
                                                        " men; deadpos generates tables of at most " +
                                                        std::to_string(kMaxGenerateMen));
    }
  }
  GenerateResult res;
  res.removed_temporaries = remove_stale_temporaries(opt.out_dir);
  TableSet set(opt.out_dir);
  for (const Material& m : build_order(targets)) {
    const std::string path = opt.out_dir + "/" + table_file_name(m);
    if (std::filesystem::exists(path, ec)) {
      if (auto f = TableFile::open(path, m)) {
        res.skipped.push_back(m.key());
        continue;
      }
      // A damaged table is rebuilt (it is replaced atomically below).
    }
    std::vector<Material> subs = m.successors();
    set.retain_only(subs);
    for (const Material& s : subs)
      if (Status st = set.require(s); !st) return st.error();
    reset_peak_rss();
    const auto t0 = std::chrono::steady_clock::now();
    auto solved = solve(m, set, opt.progress);
    if (!solved) return solved.error();
    TableStats stats = compute_stats(*solved, opt.progress);
    if (opt.progress) opt.progress(Progress{m.key(), "write", 0.0});
    // The statistics first: a killed run may leave a .json without its table (rebuilt next
    // time), never a table without its .json. "seconds" therefore ends before the table write.
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stats.peak_rss_bytes = peak_rss();
    if (Status st = write_text_atomic(opt.out_dir + "/" + m.key() + ".json", stats_to_json(stats)); !st) {
      return st.error();
    }
    if (Status st = write_table(path, solved->index, solved->arrays, opt.zstd_level); !st) return st.error();
    if (opt.progress) opt.progress(Progress{m.key(), "write", 1.0});
    res.built.push_back(std::move(stats));
    // Keep the fresh table in memory: the next materials often need it.
    auto lt = std::make_unique<LoadedTable>(std::move(*solved));
    set.add(m, std::move(lt));
  }
  return res;
}

}  // namespace deadpos
