// Generating tables from your own program with the C++ library (deadpos_generator): the same
// generate() the `deadpos generate` command calls, with a progress callback of your own.
//
//   deadpos_generate_tables OUT_DIR MAX_MEN [THREADS]
//
// Builds every material of 2..MAX_MEN men (MAX_MEN 2..5) into OUT_DIR (created if absent),
// tables already there and intact are kept; THREADS (default: all cores) is the OpenMP thread
// count, which never changes the bytes written (docs/build.md, "Reproducible tables").
// scripts/check_reproducible.sh builds only this program (core and generator, not the command's
// argument parsing) at other compiler flags and checks its <=4-man tables against
// tests/data/tables4.xxh64. Exit status: 0 on success, 2 bad arguments, 1 generation failed (the
// error's message on stderr).
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

// The whole of text as a decimal integer in [lo, hi], or lo - 1.
long parse_int(const char* text, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  return end != text && *end == '\0' && v >= lo && v <= hi ? v : lo - 1;
}

}  // namespace

#include "deadpos/generate.h"
#include "deadpos/material.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s OUT_DIR MAX_MEN [THREADS]\n", argv[0]);
    return 2;
  }
  const long max_men = parse_int(argv[2], 2, deadpos::kMaxGenerateMen);
  if (max_men < 2) {
    std::fprintf(stderr, "%s: MAX_MEN must be 2..%d, not '%s'\n", argv[0], deadpos::kMaxGenerateMen, argv[2]);
    return 2;
  }
  if (argc == 4) {
    const long threads = parse_int(argv[3], 1, 1024);
    if (threads < 1) {
      std::fprintf(stderr, "%s: THREADS must be 1..1024, not '%s'\n", argv[0], argv[3]);
      return 2;
    }
    omp_set_num_threads(static_cast<int>(threads));
  }
  deadpos::GenerateOptions opt;
  opt.out_dir = argv[1];
  // One line per phase start (fraction 0) on stderr; the generator itself never prints.
  opt.progress = [](const deadpos::Progress& p) {
    if (p.fraction == 0.0)
      std::fprintf(stderr, "%s: %s\n", p.material.c_str(), std::string(to_string(p.phase)).c_str());
  };
  opt.on_table_written = [](const deadpos::TableStats& s) {
    std::printf("%s %.2f s\n", s.material.c_str(), s.seconds);
  };
  auto r = deadpos::generate(deadpos::all_materials(static_cast<int>(max_men)), opt);
  if (!r) {
    std::fprintf(stderr, "%s: %s\n", argv[0], r.error().message.c_str());
    return 1;
  }
  std::printf("built %zu tables, %zu already present\n", r->built.size(), r->skipped.size());
  return 0;
}
