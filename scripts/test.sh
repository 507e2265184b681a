#!/usr/bin/env bash
# Set-up (scripts/setup.sh) and the whole test suite: Release build, warnings as errors, all ctest
# cases, after the format check (scripts/format.sh --check); then each libFuzzer target for
# FUZZ_SECONDS (default 60, 0 skips; scripts/fuzz.sh, when clang++ is installed) and the threading
# tests under ThreadSanitizer (build-tsan/).
# Beside the fuzzers and the sanitizer stages, the reproducibility stage (REPRO=1, the default; 0
# skips it): scripts/check_reproducible.sh builds the library example generate_tables alone at -O1
# for generic x86-64 in build-repro/ and checks its <=4-man tables, made with 1 thread, against
# tests/data/tables4.xxh64 (the Release suite checks its own, -O3 -march=native, all cores); its
# log is build-repro/repro.log.
# SANITIZE=thread (the default) is that TSan stage; SANITIZE=1 also builds and runs the whole suite
# under ASan+UBSan (build-asan/); SANITIZE=0 skips both sanitizer builds.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=${SANITIZE:-thread}
fuzz_seconds=${FUZZ_SECONDS:-60}
scripts/setup.sh -DDEADPOS_WERROR=ON
# The tree passes its own .clang-format (clang-format 14, installed by setup.sh); a failure is
# reported at once but the suite still runs, and the script fails at its end.
format_ok=1
scripts/format.sh --check || format_ok=0
ctest --test-dir build --output-on-failure -j"$(nproc)"

# The reproducibility stage runs on one core beside the fuzzers and the sanitizer stages.
repro_pid=
if [ "${REPRO:-1}" != 0 ]; then
  mkdir -p build-repro
  JOBS=1 scripts/check_reproducible.sh build-repro >build-repro/repro.log 2>&1 &
  repro_pid=$!
  # A stage that fails exits the script: wait for the background stage rather than leave it running.
  trap 'wait "$repro_pid" 2>/dev/null || true' EXIT
fi

if [ "$fuzz_seconds" != 0 ]; then
  if command -v clang++ >/dev/null; then
    scripts/fuzz.sh "$fuzz_seconds"
  else
    echo "test: clang++ not found, fuzzing skipped (scripts/setup.sh installs clang)"
  fi
fi

if [ "$sanitize" = thread ] || [ "$sanitize" = 1 ]; then
  # Only the threading tests (deadpos_thread_tests in tests/CMakeLists.txt; capi_threads in
  # tests/capi: the C API from several pthreads), on the tables the Release run above generated in
  # build/tables4; assertions on.
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DDEADPOS_SANITIZE_THREAD=ON -DDEADPOS_BUILD_BENCH=OFF -DDEADPOS_TEST_TABLES="$PWD/build/tables4" >/dev/null
  cmake --build build-tsan -j"$(nproc)" --target deadpos_thread_tests capi_threads
  ctest --test-dir build-tsan -L tsan --output-on-failure
fi

if [ "$sanitize" = 1 ]; then
  # -O2 with assertions on (no -DNDEBUG): the solver's per-level self-checks and every assert run,
  # at a speed that lets the table fixture finish (at -O0 under ASan it took over 15 minutes).
  BUILD_DIR=build-asan scripts/setup.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DDEADPOS_SANITIZE=ON -DDEADPOS_BUILD_BENCH=OFF
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
fi

# Waited for last: while it builds and generates on one core, the sanitizer stages use the other.
if [ -n "$repro_pid" ]; then
  repro_ok=1
  wait "$repro_pid" || repro_ok=0
  cat build-repro/repro.log
  [ "$repro_ok" = 1 ] || { echo "test: the reproducibility stage failed (above)" >&2; exit 1; }
fi

if [ "$format_ok" = 0 ]; then
  echo "test: the format check failed (see above; scripts/format.sh formats the tree)" >&2
  exit 1
fi
