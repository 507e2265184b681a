#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang (ASan+UBSan, assertions on) in build-fuzz/
# and runs each for SECONDS (default 60), all targets side by side (one core each on 2 cores).
# Each runs on a copy of its committed corpus (tests/fuzz/corpus/<target>/) in a temporary
# directory, so the committed corpus never changes; exits non-zero when a target finds a crash, a
# leak, undefined behaviour, a broken property, a timeout or an out-of-memory, and prints the
# reproducer's path (replay: build-fuzz/tests/fuzz/<target> <reproducer>).
# Usage: scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(fuzz_fen fuzz_table fuzz_pgn)

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (scripts/setup.sh installs clang and libclang-rt-14-dev)" >&2
  exit 1
fi
# -O1 -g without -DNDEBUG: asserts (such as MoveList's capacity) are checks the fuzzer can trip.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DDEADPOS_FUZZ=ON -DDEADPOS_BUILD_TESTS=OFF -DDEADPOS_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}"

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos-fuzz.XXXXXX")
run_target() {
  local t=$1 dir=$work/$1
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp tests/fuzz/corpus/"$t"/* "$dir/corpus/"
  # -timeout: one input taking 30 s is a hang; -rss_limit_mb: 2 GiB is far above any table of the
  # corpus (the 4-man tables this reader meets need a few MiB).
  build-fuzz/tests/fuzz/"$t" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1
}

pids=()
for t in "${targets[@]}"; do
  run_target "$t" &
  pids+=($!)
done

status=0
for i in "${!targets[@]}"; do
  t=${targets[$i]}
  rc=0
  wait "${pids[$i]}" || rc=$?
  runs=$(grep -a 'stat::number_of_executed_units' "$work/$t/log" | awk '{print $2}')
  if [ "$rc" -eq 0 ]; then
    echo "fuzz: $t: ${runs:-?} inputs in ${seconds} s, nothing found"
  else
    status=1
    echo "fuzz: $t FAILED (exit $rc); last lines of $work/$t/log:" >&2
    tail -n 40 "$work/$t/log" >&2
    for r in "$work/$t/artifacts"/*; do
      [ -e "$r" ] && echo "fuzz: $t: reproducer $r (replay: build-fuzz/tests/fuzz/$t $r)" >&2
    done
  fi
done
if [ "$status" -eq 0 ]; then
  rm -rf "$work"
else
  echo "fuzz: kept $work (logs, grown corpora, reproducers)" >&2
fi
exit "$status"
