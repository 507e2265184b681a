#!/usr/bin/env bash
# Reproducibility of the table bytes (docs/build.md, "Reproducible tables"): builds only the
# library example examples/cpp/generate_tables.cpp (core and generator: the same generate() the
# deadpos command calls, without the command's argument parsing, which would double the build)
# in a second build directory with other compiler flags than the Release build (-O1, no
# -march=native: generic x86-64; the Release build is -O3 -march=native), generates every <=4-man
# table with 1 thread (the Release suite's fixture uses all cores) and checks each file against
# the committed list tests/data/tables4.xxh64 (never hashes of its own).
#
#   scripts/check_reproducible.sh [BUILD_DIR [HASH_HELPER]]
#
# BUILD_DIR defaults to build-repro/; JOBS (default: all cores) is the build's parallelism. The
# XXH64 of each file comes from the xxhsum program when it is installed, else from HASH_HELPER
# (default build/tests/deadpos_xxh64, the Release build's).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bdir=${1:-build-repro}
helper=${2:-$root/build/tests/deadpos_xxh64}
list=$root/tests/data/tables4.xxh64

start=$(date +%s)
cmake -S . -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DDEADPOS_NATIVE=OFF -DDEADPOS_BUILD_TESTS=OFF -DDEADPOS_BUILD_BENCH=OFF -DDEADPOS_BUILD_PYTHON=OFF >/dev/null
cmake --build "$bdir" -j"${JOBS:-$(nproc)}" --target deadpos_generate_tables >/dev/null
built=$(date +%s)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! "$bdir/examples/cpp/deadpos_generate_tables" "$work/t" 4 1 >/dev/null 2>"$work/log"; then
  tail -5 "$work/log" >&2
  exit 1
fi
generated=$(date +%s)

if command -v xxhsum >/dev/null 2>&1; then
  for f in "$work/t"/*.dpt; do echo "$(basename "$f" .dpt) $(xxhsum -H1 "$f" | cut -d' ' -f1)"; done
else
  [ -x "$helper" ] || { echo "check_reproducible: neither xxhsum nor $helper" >&2; exit 1; }
  "$helper" "$work/t"/*.dpt
fi | LC_ALL=C sort >"$work/got"
grep -v '^#' "$list" | LC_ALL=C sort >"$work/want"
if ! diff "$work/want" "$work/got" >"$work/diff"; then
  echo "check_reproducible: the <=4-man tables of $bdir (-O1, generic x86-64, 1 thread) differ from $list:" >&2
  cat "$work/diff" >&2
  exit 1
fi
echo "check_reproducible: $(wc -l <"$work/got") tables of the -O1 generic x86-64 build, 1 thread, match $list" \
  "(build $((built - start)) s, generate $((generated - built)) s)"
