#!/usr/bin/env bash
# `deadpos adjudicate` against pgn-extract on the same large PGN file, side by side in one run.
#
#   bench/adjudicate_vs_pgnextract.sh [--build DIR] --tables DIR [--copies N] [--pgn DIR]
#
# Concatenates the real PGN files of DIR (default /work/shared/data/pgn when it exists, else
# tests/data/pgn; torture/ is left out) into one file, and that file N times (default 10) into a
# large one. On the large file it times, each on one thread and then deadpos on every core:
#   - pgn-extract -s -F -o FILE: reads every game, replays every move (it must, to write the
#     final position as a FEN comment) and writes the games;
#   - deadpos adjudicate: reads and replays every game and adjudicates it (the final position
#     analysed, plus a bisection of the plies when it is dead);
# and prints games per second of each. Memory: the peak RSS of deadpos adjudicate on the 1x and
# the Nx file (streaming: it must not grow with the file). Uses /usr/bin/time (Debian package time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
tables="" copies=10 src=""
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
    --copies) copies=$2; shift 2 ;;
    --pgn) src=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "adjudicate_vs_pgnextract.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$tables" ] || { echo "adjudicate_vs_pgnextract.sh: --tables DIR is required" >&2; exit 2; }
if [ -z "$src" ]; then
  if [ -d /work/shared/data/pgn ]; then src=/work/shared/data/pgn; else src=$root/tests/data/pgn; fi
fi
pgnextract=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$pgnextract" ] || { echo "adjudicate_vs_pgnextract.sh: pgn-extract not found" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "adjudicate_vs_pgnextract.sh: /usr/bin/time not found (apt-get install time)" >&2; exit 1; }
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target deadpos >/dev/null
deadpos=$build/tools/deadpos

work=$(mktemp -d "${TMPDIR:-/tmp}/adjudicate-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
for f in "$src"/*.pgn; do
  cat "$f"
  printf '\n\n'
done >"$work/1x.pgn"
for _ in $(seq "$copies"); do cat "$work/1x.pgn"; done >"$work/big.pgn"

# run LABEL COMMAND...: prints "LABEL seconds peak-RSS-KiB" and keeps stdout in $work/LABEL.out.
run() {
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/$label.time" "$@" >"$work/$label.out" 2>"$work/$label.err" || true
  echo "$label $(cat "$work/$label.time")"
}
games_of() { grep -o '"games":[0-9]*' "$work/$1.out" | tail -1 | cut -d: -f2; }

echo "input: $(ls "$src"/*.pgn | wc -l) files from $src, 1x $(du -h "$work/1x.pgn" | cut -f1), ${copies}x $(du -h "$work/big.pgn" | cut -f1)"
r1=$(run adjudicate_1x "$deadpos" adjudicate --tables "$tables" --threads 1 --json "$work/1x.pgn")
rn=$(run adjudicate_big "$deadpos" adjudicate --tables "$tables" --threads 1 --json "$work/big.pgn")
ra=$(run adjudicate_big_all "$deadpos" adjudicate --tables "$tables" --threads 0 --json "$work/big.pgn")
rp=$(run pgnextract_big "$pgnextract" -s -F -o "$work/pe.pgn" "$work/big.pgn")
games=$(games_of adjudicate_big)
pe_games=$(grep -c '^\[Event ' "$work/pe.pgn" || true)
rate() { awk -v g="$games" -v s="$1" 'BEGIN { printf "%.0f", (s > 0 ? g / s : 0) }'; }
set -- $r1; t1=$2 m1=$3
set -- $rn; tn=$2 mn=$3
set -- $ra; ta=$2
set -- $rp; tp=$2 mp=$3
cmp -s "$work/adjudicate_big.out" "$work/adjudicate_big_all.out" || echo "WARNING: output differs between 1 thread and all cores"
echo "games in the ${copies}x file: $games (deadpos), $pe_games written by pgn-extract"
echo "pgn-extract -s -F         : ${tp} s, $(rate "$tp") games/s, peak RSS $((mp / 1024)) MiB"
echo "deadpos adjudicate, 1 thread : ${tn} s, $(rate "$tn") games/s"
echo "deadpos adjudicate, $(nproc) cores : ${ta} s, $(rate "$ta") games/s"
echo "deadpos peak RSS: 1x $((m1 / 1024)) MiB (${t1} s), ${copies}x $((mn / 1024)) MiB"
