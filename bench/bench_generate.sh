#!/usr/bin/env bash
# Generation benchmark: wall time, thread speed-up, peak memory and disk size of table generation.
#
#   bench/bench_generate.sh [--build DIR] [--no-5men] [--keep]
#
# Uses DIR (default build/) and builds the deadpos tool there first (configuring a Release build
# if DIR has none). Then, each run from scratch in a fresh temporary directory, timed with
# /usr/bin/time:
#   1. every <=4-man table (deadpos generate --max-men 4) with --threads 1, then --threads 2;
#      the two outputs must be byte-identical (docs/design.md, "Parallelism");
#   2. KRBvKR alone (unless --no-5men), with --threads 1 and then 2: its subtables (all <=4 men)
#      are copied from run 1, so only KRBvKR itself is generated and timed; the two must be
#      byte-identical.
# Peak memory: the process peak (VmHWM through /usr/bin/time) and the largest per-table peak in
# the <KEY>.json files beside the tables (peak_rss_bytes; "seconds" there is the table's own
# solve + stats + write time). Disk size: du -b.
# --keep leaves the temporary directory in place (its path is printed).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
run5=1
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --no-5men) run5=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "bench_generate.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if [ ! -x /usr/bin/time ]; then
  echo "bench_generate.sh: /usr/bin/time is missing (Debian package 'time')" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target deadpos >/dev/null
deadpos=$build/tools/deadpos
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_bench.XXXXXX")
if [ "$keep" -eq 0 ]; then trap 'rm -rf "$work"' EXIT; fi

# timed NAME CMD...: runs CMD with its output in $work/NAME.log; sets wall (s) and rss (KiB).
timed() {
  local name=$1
  shift
  if ! /usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" >"$work/$name.log" 2>&1; then
    echo "bench_generate.sh: '$*' failed; its output:" >&2
    tail -20 "$work/$name.log" >&2
    exit 1
  fi
  read -r wall rss <"$work/$name.time"
}

# json_sum DIR FIELD / json_max DIR FIELD over DIR/*.json (numbers written by stats_to_json).
json_values() { cat "$1"/*.json | sed -n "s/^ *\"$2\": *\([0-9.e+-]*\),*$/\1/p"; }
json_sum() { json_values "$1" "$2" | awk '{ s += $1 } END { printf "%.2f", s }'; }
json_max() { json_values "$1" "$2" | awk 'BEGIN { m = 0 } { if ($1 > m) m = $1 } END { printf "%.0f", m }'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }

rows=()
row() { rows+=("$(printf '%-22s %7s %9s %12s %13s %14s' "$@")"); }

# 1. <=4-man tables, 1 and 2 threads.
declare -A wall4
for t in 1 2; do
  dir=$work/men4_t$t
  timed "men4_t$t" "$deadpos" generate --max-men 4 --out "$dir" --threads "$t"
  wall4[$t]=$wall
  row "<=4-man ($(ls "$dir"/*.dpt | wc -l) tables)" "$t" "$wall" "$(json_sum "$dir" seconds)" \
    "$(mib $((rss * 1024)))" "$(mib "$(json_max "$dir" peak_rss_bytes)")"
done
identical=yes
for f in "$work"/men4_t1/*.dpt; do
  cmp -s "$f" "$work/men4_t2/$(basename "$f")" || { identical="NO: $(basename "$f") differs"; break; }
done
[ "$(ls "$work"/men4_t1/*.dpt | wc -l)" -eq "$(ls "$work"/men4_t2/*.dpt | wc -l)" ] || identical="NO: file counts differ"
speedup=$(awk -v a="${wall4[1]}" -v b="${wall4[2]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
size_dpt=$(du -bc "$work"/men4_t2/*.dpt | tail -1 | cut -f1)
size_dir=$(du -b -s "$work/men4_t2" | cut -f1)

# 2. KRBvKR alone, subtables from run 1, on 1 and then 2 threads (byte identity and speed-up on
#    a table large enough that per-table overheads do not dominate).
declare -A wall5
identical5=yes
if [ "$run5" -eq 1 ]; then
  for t in 1 2; do
    dir=$work/krbkr_t$t
    mkdir -p "$dir"
    # The statistics too: a table without its .json gets them recomputed, which is not KRBvKR's time.
    cp "$work"/men4_t2/*.dpt "$work"/men4_t2/*.json "$dir"/
    timed "krbkr_t$t" "$deadpos" generate KRBvKR --out "$dir" --threads "$t"
    if ! grep -q "^built 1 table, " "$work/krbkr_t$t.log"; then
      echo "bench_generate.sh: expected generate to build KRBvKR alone:" >&2
      tail -5 "$work/krbkr_t$t.log" >&2
      exit 1
    fi
    wall5[$t]=$wall
    json=$dir/KRBvKR.json
    t5=$(sed -n 's/^ *"seconds": *\([0-9.e+-]*\),*$/\1/p' "$json")
    p5=$(sed -n 's/^ *"peak_rss_bytes": *\([0-9]*\),*$/\1/p' "$json")
    row "KRBvKR" "$t" "$wall" "$(printf '%.2f' "$t5")" "$(mib $((rss * 1024)))" "$(mib "$p5")"
  done
  cmp -s "$work/krbkr_t1/KRBvKR.dpt" "$work/krbkr_t2/KRBvKR.dpt" || identical5=NO
  speedup5=$(awk -v a="${wall5[1]}" -v b="${wall5[2]}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  peak5=$rss
  size5=$(du -b "$work/krbkr_t2/KRBvKR.dpt" | cut -f1)
fi

echo "deadpos generation benchmark: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $build_type build, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
printf '%-22s %7s %9s %12s %13s %14s\n' "run" "threads" "wall s" "tables s" "process MiB" "max table MiB"
printf '%s\n' "${rows[@]}"
echo
echo "2-thread speed-up (<=4-man, wall): ${speedup}x"
echo "1 and 2 threads byte-identical: $identical"
echo "<=4-man size on disk (du -b): $size_dpt bytes in .dpt files, $size_dir bytes with the .json files"
if [ "$run5" -eq 1 ]; then
  echo "KRBvKR, 2 threads: process peak $((peak5 * 1024)) bytes; 2-thread speed-up ${speedup5}x; 1 and 2 threads byte-identical: $identical5"
  echo "KRBvKR.dpt size (du -b): $size5 bytes"
fi
if [ "$keep" -eq 1 ]; then echo "outputs kept in $work"; fi
[ "$identical" = yes ] && [ "$identical5" = yes ]
