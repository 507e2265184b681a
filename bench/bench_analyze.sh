#!/usr/bin/env bash
# Analyzer beyond the tables: decided share and time per position on real and random positions.
#
#   bench/bench_analyze.sh [--build DIR] --tables4 DIR4 [--tables5 DIR5] [--count N]
#
# DIR4 holds every <=4-man table, DIR5 (optional) every <=5-man table (deadpos generate --max-men
# 4|5). Runs, on one thread, with build/bench/deadpos_analyze_compare:
#   1. examples/lichess-30k-final-positions.txt with only the <=4-man tables, then (with DIR5) with
#      all <=5-man tables: can the side that just moved still checkmate? (decided / undetermined,
#      mean, median, 99th percentile and max time per position);
#   2. the oracle comparison: N random 4-man positions (default 20,000) with the tables capped at 3
#      men against the 4-man tables, and (with DIR5) N random 5-man positions with the tables capped
#      at 4 men against the 5-man tables. Any disagreement or line that fails to replay exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
t4="" t5="" count=20000
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --tables4) t4=$2; shift 2 ;;
    --tables5) t5=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "bench_analyze.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$t4" ] || { echo "bench_analyze.sh: --tables4 DIR is required" >&2; exit 2; }
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target deadpos_analyze_compare >/dev/null
cmp=$build/bench/deadpos_analyze_compare
export OMP_NUM_THREADS=1
lichess=$root/examples/lichess-30k-final-positions.txt
rc=0
echo "== lichess 30k final positions, <=4-man tables =="
$cmp positions "$lichess" --tables "$t4" | grep -v '^cannot mate\|^undetermined' || rc=1
if [ -n "$t5" ]; then
  echo "== lichess 30k final positions, <=5-man tables =="
  $cmp positions "$lichess" --tables "$t5" | grep -v '^cannot mate\|^undetermined' || rc=1
fi
echo "== oracle: $count random 4-man positions, tables capped at 3 men, against the 4-man tables =="
$cmp oracle --tables "$t4" --men 4 --table-men 3 --count "$count" | grep -v '^undetermined' || rc=1
if [ -n "$t5" ]; then
  echo "== oracle: $count random 5-man positions, tables capped at 4 men, against the 5-man tables =="
  $cmp oracle --tables "$t5" --men 5 --table-men 4 --count "$count" | grep -v '^undetermined' || rc=1
fi
exit $rc
