// deadpos verify [--tables DIR] [--threads T] [MATERIAL...]: re-derive every entry of tables.
// deadpos verify --checksums FILE [--tables DIR]: check the files of DIR against a SHA-256 list.
#include <cstdio>
#include <memory>
#include <string>

#include <omp.h>

#include "cli.h"
#include "commands.h"
#include "deadpos/checksums.h"
#include "progress.h"

namespace deadpos::cli {

namespace {

// How to repair a failed table, for its line: tables are rebuilt by generate (--force: a file
// whose checksums pass is otherwise kept); a .dpt name that is no table's, or a file that is not
// a regular one, is the user's to fix.
std::string repair_hint(const TableVerdict& v, const std::string& dir, int threads) {
  if (!Material::parse(v.name)) return "; rename or remove it";
  // Out of memory says nothing about the file: the repair is more memory (or fewer threads, each
  // of which holds a block buffer and its share of the verifier's work).
  if (v.error && v.error->code == ErrorCode::OutOfMemory)
    return threads > 1 ? "; retry with more memory or fewer --threads" : "; retry with more memory";
  if (v.error && v.error->code == ErrorCode::MissingTable)
    return "; build with: deadpos generate " + v.name + " --out " + dir;
  // Io: a FIFO, a directory, no permission, a read error: generate replaces regular files only.
  if (v.error && v.error->code == ErrorCode::Io) {
    return "; make it a readable regular file, or remove it and rebuild with: deadpos generate " + v.name + " --out " +
           dir;
  }
  return "; rebuild with: deadpos generate --force " + v.name + " --out " + dir;
}

void print_verdict(const TableVerdict& v, const std::string& dir, int threads) {
  using State = TableVerdict::State;
  const auto checked = static_cast<unsigned long long>(v.result.checked);
  const auto mismatches = static_cast<unsigned long long>(v.result.mismatches);
  const char* mismatch_word = mismatches == 1 ? "mismatch" : "mismatches";
  const std::string name = one_line(v.name);  // a file name that is not a table's may hold any byte
  switch (v.state) {
    case State::Ok:
      std::printf("%-8s ok: %llu entries checked, %llu %s\n", name.c_str(), checked, mismatches, mismatch_word);
      break;
    case State::Failed:
      if (v.error->code == ErrorCode::VerificationFailed) {
        std::printf("%-8s FAILED: %llu entries checked, %llu %s%s\n", name.c_str(), checked, mismatches, mismatch_word,
                    one_line(repair_hint(v, dir, threads)).c_str());
      } else {
        std::printf("%-8s FAILED: %s: %s%s\n", name.c_str(), error_code_name(v.error->code),
                    one_line(v.error->message).c_str(), one_line(repair_hint(v, dir, threads)).c_str());
      }
      for (const auto& line : v.result.report) std::printf("  %s\n", one_line(line).c_str());
      break;
    case State::NotChecked:
      // Absent subtables: generate builds every missing subtable of a table (and keeps the table).
      std::printf("%-8s not checked: %s%s\n", name.c_str(), one_line(v.error->message).c_str(),
                  v.error->code == ErrorCode::MissingTable
                      ? one_line("; build them with: deadpos generate " + v.name + " --out " + dir).c_str()
                      : "");
      break;
  }
  std::fflush(stdout);  // one line per table as it is decided (a long run shows its progress)
}

void print_finding(const ChecksumFinding& f, const std::string& list) {
  using Kind = ChecksumFinding::Kind;
  const std::string name = one_line(f.file);  // an extra file's name may hold any byte
  switch (f.kind) {
    case Kind::Ok: std::printf("%s ok\n", name.c_str()); break;
    case Kind::Differs:
      std::printf("%s DIFFERS: sha256 %s, %s line %zu lists %s\n", name.c_str(), sha256_hex(f.actual).c_str(),
                  one_line(list).c_str(), f.line, sha256_hex(f.expected).c_str());
      break;
    case Kind::Missing:
      std::printf("%s MISSING: listed on %s line %zu, not in the directory\n", name.c_str(), one_line(list).c_str(),
                  f.line);
      break;
    case Kind::Extra:
      std::printf("%s EXTRA: in the directory, not in %s\n", name.c_str(), one_line(list).c_str());
      break;
    case Kind::Unreadable:
      std::printf("%s UNREADABLE: %s: %s\n", name.c_str(), error_code_name(f.error->code),
                  one_line(f.error->message).c_str());
      break;
  }
  std::fflush(stdout);
}

// Exit 0 when every listed file matches and nothing is extra; 8 (verification failed) when files
// differ, are missing or extra; 5 (I/O) when a listed file cannot be read (it takes precedence:
// its contents are unknown). A bad list is 4 (invalid argument) or 5 (unreadable), before any file.
int run_checksums(const std::string& dir, const std::string& list) {
  CheckChecksumsOptions opt;
  opt.dir = dir;
  opt.list_path = list;
  const ProgressFn progress = make_progress();
  opt.progress = [&progress](const ChecksumProgress& p) {
    if (!progress) return;
    const double f = p.bytes_total ? static_cast<double>(p.bytes_done) / static_cast<double>(p.bytes_total) : 1.0;
    progress(Progress{"checksums", Phase::Verify, f});
  };
  opt.on_file = [&list](const ChecksumFinding& f) { print_finding(f, list); };
  auto r = check_checksums(opt);
  if (!r) return report(r.error());
  const ChecksumReport& rep = *r;
  const std::size_t listed = rep.ok + rep.differs + rep.missing + rep.unreadable;
  if (rep.all_match()) {
    std::printf("checksums: %s of %s match\n", count_of(listed, "file", "files").c_str(), one_line(list).c_str());
    return finish_output();
  }
  if (int rc = finish_output(); rc != 0) return rc;
  const ChecksumFinding* first = nullptr;
  // The first file of the category that gives the exit code: unreadable ones (exit 5) first.
  for (const auto& f : rep.findings)
    if (!first && (rep.unreadable ? f.kind == ChecksumFinding::Kind::Unreadable : f.kind != ChecksumFinding::Kind::Ok))
      first = &f;
  const std::string msg = std::to_string(rep.differs) + " differ, " + std::to_string(rep.missing) + " missing, " +
                          std::to_string(rep.extra) + " extra, " + std::to_string(rep.unreadable) + " unreadable, " +
                          std::to_string(rep.ok) + " ok in " + dir + " against " + list + "; first: " + first->file;
  return report(make_error(rep.unreadable ? ErrorCode::Io : ErrorCode::VerificationFailed, msg));
}

int run_verify(const std::string& dir, const std::vector<std::string>& keys, int threads) {
  if (threads > 0) omp_set_num_threads(threads);
  VerifyTablesOptions opt;
  opt.dir = dir;
  if (!keys.empty()) {
    auto m = parse_materials(keys);
    if (!m) return report(m.error());
    opt.materials = *m;
  }
  opt.progress = make_progress();
  const int used_threads = omp_get_max_threads();
  opt.on_table = [&dir, used_threads](const TableVerdict& v) { print_verdict(v, dir, used_threads); };
  auto r = verify_tables(opt);
  if (!r) return report(r.error());
  // The exit code is the category of the first table that is not ok (in dependency order, so a
  // damaged subtable comes before the tables it leaves unchecked): the reader's own category for
  // a file that cannot be read (MissingTable only for an absent one), VerificationFailed for
  // mismatches.
  std::size_t failed = 0;
  std::size_t not_checked = 0;
  const TableVerdict* first = nullptr;
  for (const TableVerdict& v : *r) {
    if (v.state == TableVerdict::State::Ok) continue;
    (v.state == TableVerdict::State::Failed ? failed : not_checked)++;
    if (!first) first = &v;
  }
  if (first) {
    if (int rc = finish_output(); rc != 0) return rc;
    return report(make_error(first->error->code, count_of(failed, "table", "tables") + " failed, " +
                                                     std::to_string(not_checked) + " not checked, " +
                                                     std::to_string(r->size() - failed - not_checked) + " ok in " +
                                                     dir + "; first: " + first->name + ": " + first->error->message));
  }
  std::printf("verified %s\n", count_of(r->size(), "table", "tables").c_str());
  return finish_output();
}

}  // namespace

Subcommand add_verify(CLI::App& app) {
  struct Args {
    std::vector<std::string> keys;
    std::string dir = "tables";
    int threads = 0;
    std::string checksums;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("verify", "Re-derive every entry of tables from their successors");
  CLI::Option* mats = cmd->add_option("materials", a->keys, "material keys (default: every table in --tables)");
  cmd->add_option("--tables", a->dir, "table directory (default: tables)")->check(kNonEmpty);
  cmd->add_option("--threads", a->threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));
  cmd->add_option("--checksums", a->checksums,
                  "instead of re-deriving entries, check every file of --tables against this SHA-256 list "
                  "(sha256sum -c format: '<64 hex>  <KEY>.dpt' per line): missing, extra, differing files")
      ->check(kNonEmpty)
      ->excludes(mats);
  return {cmd, [a] {
            if (!a->checksums.empty()) return run_checksums(a->dir, a->checksums);
            return run_verify(a->dir, a->keys, a->threads);
          }};
}

}  // namespace deadpos::cli
