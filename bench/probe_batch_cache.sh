#!/usr/bin/env bash
# Block-cache size against a batch of real 5-man positions (issue 12, "the probe's default block
# cache thrashes"): times `deadpos probe --epd BATCH` at the default cache (no --cache-mb) and at
# fixed limits.
#
#   bench/probe_batch_cache.sh [DEADPOS [TABLES5 [POSITIONS]]]
#
# DEADPOS defaults to build/tools/deadpos, TABLES5 (every <=5-man table) to /work/tables5,
# POSITIONS to /work/shared/data/lichess-30k-final-positions.txt (final positions of 30,000 real
# lichess games, "FEN game-id" a line; docs/design.md). The batch: every position of POSITIONS
# with exactly 5 men (655 in that file), the list cycled to 10,240 lines (655 x 15, then the first
# 415 again). Each position reads the blocks of its two targets; cycling through a working set
# larger than the cache is the worst case of an LRU cache, and the case of a server or an
# adjudication that meets the same endgames again and again. Each run is a fresh process (cold
# cache, page cache warm after the first run); the best of 3 wall times is reported, with the
# peak RSS of that run (GNU time when installed).
set -euo pipefail
deadpos=${1:-build/tools/deadpos}
tables=${2:-/work/tables5}
positions=${3:-/work/shared/data/lichess-30k-final-positions.txt}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grep -v '^#' "$positions" | cut -d' ' -f1-6 |
  awk '{b=$1; n=gsub(/[KQRBNPkqrbnp]/,"",b); if (n==5) print}' >"$work/five"
distinct=$(wc -l <"$work/five")
[ "$distinct" -gt 0 ] || { echo "no 5-man position in $positions" >&2; exit 1; }
: >"$work/batch"
while [ "$(wc -l <"$work/batch")" -lt 10240 ]; do cat "$work/five" >>"$work/batch"; done
head -n 10240 "$work/batch" >"$work/b" && mv "$work/b" "$work/batch"
echo "batch: $(wc -l <"$work/batch") lines, $distinct distinct real 5-man positions from $positions"
echo "tables: $tables; machine: $(nproc) cores, $(free -g | awk '/^Mem:/{print $2}') GiB, load $(cut -d' ' -f1 /proc/loadavg)"

timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%e %M')
measure() {  # LABEL ARGS...: best wall time of $runs runs
  local label=$1
  shift
  local best="" rss=""
  for _ in $(seq "$runs"); do
    local t0 t1 t
    t0=$(date +%s.%N)
    if [ ${#timer[@]} -gt 0 ]; then
      "${timer[@]}" -o "$work/time" "$deadpos" probe --tables "$tables" "$@" --epd "$work/batch" >"$work/out"
    else
      "$deadpos" probe --tables "$tables" "$@" --epd "$work/batch" >"$work/out"
    fi
    t1=$(date +%s.%N)
    t=$(echo "$t1 - $t0" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
      best=$t
      [ -f "$work/time" ] && rss=$(cut -d' ' -f2 "$work/time")
    fi
  done
  grep -q '^summary: ' "$work/out" || { echo "$label: no summary line" >&2; exit 1; }
  printf '%-28s %6.2f s  %s\n' "$label" "$best" "${rss:+peak RSS $((rss / 1024)) MiB}"
}
measure "default cache"
for mb in 256 512 1024 2048; do measure "--cache-mb $mb" --cache-mb "$mb"; done
