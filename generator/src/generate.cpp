// Generation driver: dependency order, skip intact tables, solve, write table + statistics.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "deadpos/generate.h"
#include "deadpos/solver.h"
#include "deadpos/stats.h"
#include "deadpos/verdict_file.h"

namespace deadpos {

namespace {

// A kept table's <KEY>.json is intact when it is a regular file of at most 16 MiB with the shape
// stats_to_json writes for KEY (absent, truncated or overwritten: recomputed from the table).
bool stats_file_intact(const std::string& path, const std::string& key) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) > (std::uintmax_t{16} << 20))
    return false;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in && stats_json_intact(text.str(), key);
}

// A kept table's <KEY>.dpv is intact when it opens with every check (checksums, header) and its
// header's counts agree with the table's (verdicts_match_header): absent, damaged or written from
// another table, it is rewritten from the table. deadpos verify compares the entries.
bool verdict_file_intact(const std::string& path, const Material& m, const TableHeader& table) {
  auto v = VerdictFile::open(path, m);
  return v && verdicts_match_header(v->header(), table);
}

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

// Removes our own temporaries (TableDirectory::own_temporary_pid, tables of at most
// kMaxGenerateMen men) in dir whose writer process no longer exists (a killed run). Regular files only (a link of that
// name is not ours); files of live processes, and anything else, are left alone. Returns the removed paths.
std::vector<std::string> remove_stale_temporaries(const std::string& dir) {
  std::vector<std::string> removed;
  std::error_code ec;
  // increment(ec), not a range-for: a listing error leaves the files alone instead of throwing.
  for (std::filesystem::directory_iterator it(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    const std::filesystem::directory_entry& e = *it;
    const auto pid =
        static_cast<pid_t>(TableDirectory::own_temporary_pid(e.path().filename().string(), kMaxGenerateMen));
    std::error_code st;
    if (pid == 0 || !std::filesystem::is_regular_file(e.symlink_status(st))) continue;
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    if (std::filesystem::remove(e.path(), rm)) removed.push_back(e.path().string());
  }
  return removed;
}

// Creates and removes <dir>/<KEY>.dpt.tmp.<pid> (our temporaries' naming: a run killed in between
// leaves a file the next run removes), so that a directory we cannot write fails before minutes
// of solving rather than at the first table write.
Status check_writable(const std::string& dir, const Material& m) {
  const std::string probe = TableDirectory::temporary_path(TableDirectory(dir).table_path(m), ::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0644);
  if (fd < 0) {
    return make_error(ErrorCode::Io, dir + ": cannot write tables in this directory (creating " + probe +
                                         " failed: " + std::strerror(errno) + ")");
  }
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(fd);
  if (!regular) return make_error(ErrorCode::Io, probe + ": is not a regular file; remove it");
  ::unlink(probe.c_str());
  return Ok{};
}

// A subtable generate cannot read: its file passed the checks generate makes before keeping a
// table (checksums), so only a forced rebuild replaces it; the message says how.
Error with_rebuild_hint(Error e, const Material& m, const std::string& dir) {
  if (e.code == ErrorCode::CorruptTable)
    e.message += "; rebuild with: deadpos generate --force " + m.key() + " --out " + dir;
  return e;
}

// Whether every array of a whole loaded table holds kInvalid exactly at the entries that are not
// positions (TableIndex::row_positions: docs/format.md section 4), as a v1 file must.
bool invalid_marks_match_index(const LoadedTable& t) {
  const auto range = static_cast<std::uint64_t>(t.index.last_range());
  const auto rows = static_cast<std::int64_t>(t.index.size() / range);
  bool ok = true;
  for (int a = 0; a < kNumArrays; ++a) {
    const std::uint8_t* p = t.arrays[static_cast<std::size_t>(a)].data();
    const Color stm = side_to_move_of_array(a);
#pragma omp parallel for schedule(static) reduction(&& : ok)
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::uint64_t valid = t.index.row_positions(static_cast<std::uint64_t>(r), stm);
      const std::uint8_t* row = p + static_cast<std::uint64_t>(r) * range;
      std::uint64_t marked = 0;  // bit f: entry f of the row holds kInvalid
      for (std::uint64_t f = 0; f < range; ++f) marked |= static_cast<std::uint64_t>(row[f] == DthmCode::kInvalid) << f;
      const std::uint64_t all = range == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << range) - 1;
      ok = ok && (marked ^ (~valid & all)) == 0;
    }
  }
  return ok;
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
  const std::vector<Material> order = build_order(targets);
  // A FIFO (or directory, device, socket) under a table's name: refused before any work, never
  // opened (a FIFO blocks) nor replaced by the rename of a new table.
  const TableDirectory out(opt.out_dir);
  for (const Material& m : order) {
    for (const std::string& path : {out.table_path(m), out.verdict_path(m), out.stats_path(m)}) {
      if (auto r = regular_file_exists(path); !r) {
        return make_error(
            r.error().code,
            r.error().message + "; deadpos replaces only regular files: remove it or choose another directory");
      }
    }
  }
  auto is_target = [&](const Material& m) {
    return std::any_of(targets.begin(), targets.end(), [&](const Material& t) { return t.canonical() == m; });
  };
  TableSet set(opt.out_dir);
  bool writable = false;
  for (const Material& m : order) {
    const std::string path = out.table_path(m);
    if (!(opt.force && is_target(m)) && std::filesystem::exists(path, ec)) {
      if (auto f = TableFile::open(path, m)) {
        bool damaged = false;
        std::unique_ptr<LoadedTable> loaded;  // the kept table, when something below needs it whole
        if (f->header().version < kFormatVersion) {
          // An older format holds the same entries: rewrite it in the current one from its own
          // arrays (the bytes equal a fresh generation's: write_table sees the same arrays). Its
          // kInvalid marks must be exactly the index's first: v2 stores none, so a legal entry
          // marked invalid would be written as a filled copy of another entry's value. A file
          // that fails is damaged, and rebuilt.
          if (!writable) {
            if (Status st = check_writable(opt.out_dir, m); !st) return st.error();
            writable = true;
          }
          auto t = load_table(path, m);
          if (!t && t.error().code != ErrorCode::CorruptTable) return with_rebuild_hint(t.error(), m, opt.out_dir);
          if (t && invalid_marks_match_index(**t)) {
            if (Status st = write_table(path, (*t)->index, (*t)->arrays, opt.zstd_level); !st) return st.error();
            res.rewritten.push_back(m.key());
            loaded = std::move(*t);  // its statistics below, if they are missing, need no second load
          } else {
            damaged = true;
          }
        }
        if (!damaged) {
          // The kept table whole, for what is rewritten from it below (loaded once), once the
          // directory is known to be writable.
          const auto load_kept = [&]() -> Status {
            if (!writable) {
              if (Status st = check_writable(opt.out_dir, m); !st) return st.error();
              writable = true;
            }
            if (!loaded) {
              auto t = load_table(path, m);
              if (!t) return with_rebuild_hint(t.error(), m, opt.out_dir);
              loaded = std::move(*t);
            }
            return Ok{};
          };
          // Every table we write has its statistics beside it (written first); one that lost them
          // (deleted by hand) gets them back from the table itself, not by solving it again.
          const std::string json = out.stats_path(m);
          if (!stats_file_intact(json, m.key())) {
            if (Status st = load_kept(); !st) return st.error();
            reset_peak_rss();
            const auto t0 = std::chrono::steady_clock::now();
            TableStats stats = compute_stats(*loaded, opt.progress);
            stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            stats.peak_rss_bytes = peak_rss();
            if (Status st = write_text_atomic(json, stats_to_json(stats)); !st) return st.error();
            res.restored_statistics.push_back(m.key());
          }
          // Likewise its verdict file (format.md section 7): written from the table's own arrays.
          const std::string dpv = out.verdict_path(m);
          if (!verdict_file_intact(dpv, m, f->header())) {
            if (Status st = load_kept(); !st) return st.error();
            if (Status st = write_verdicts(dpv, loaded->index, loaded->arrays); !st) return st.error();
            res.restored_verdicts.push_back(m.key());
          }
          res.skipped.push_back(m.key());
          continue;
        }
      }
      // A damaged table is rebuilt (it is replaced atomically below).
    }
    if (!writable) {
      if (Status st = check_writable(opt.out_dir, m); !st) return st.error();
      writable = true;
    }
    // Only the sides to move a move of m enters each subtable with, and of a promotion subtable
    // with pawns only the promotion rank (generation_needs): the promotion subtables make most of
    // the memory of a 5-man pawn table's generation.
    const std::vector<SubtableNeed> subs = generation_needs(m);
    set.retain_only(subs);
    for (const SubtableNeed& s : subs)
      if (Status st = set.require(s); !st) return with_rebuild_hint(st.error(), s.material, opt.out_dir);
    reset_peak_rss();
    const auto t0 = std::chrono::steady_clock::now();
    auto solved = solve(m, set, opt.progress);
    if (!solved) return solved.error();
    TableStats stats = compute_stats(*solved, opt.progress);
    if (opt.progress) opt.progress(Progress{m.key(), Phase::Write, 0.0});
    // The statistics first: a killed run may leave a .json without its table (rebuilt next
    // time), never a table without its .json. "seconds" therefore ends before the table write.
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    stats.peak_rss_bytes = peak_rss();
    if (Status st = write_text_atomic(out.stats_path(m), stats_to_json(stats)); !st) {
      return st.error();
    }
    // The verdict file before the table: a table file never lacks it (a verdict file without its
    // table is rebuilt with the table next time).
    if (Status st = write_verdicts(out.verdict_path(m), solved->index, solved->arrays); !st) return st.error();
    if (Status st = write_table(path, solved->index, solved->arrays, opt.zstd_level); !st) return st.error();
    if (opt.progress) opt.progress(Progress{m.key(), Phase::Write, 1.0});
    if (opt.on_table_written) opt.on_table_written(stats);
    res.built.push_back(std::move(stats));
    // Keep the fresh table in memory: the next materials often need it.
    auto lt = std::make_unique<LoadedTable>(std::move(*solved));
    set.add(m, std::move(lt));
  }
  return res;
}

}  // namespace deadpos
