#!/usr/bin/env bash
# What the per-move dead-position check (FIDE 5.2.2) costs an engine match in the patched
# tournament managers (integrations/, issue 30): GAMES games at 1+0.01 s from the initial position
# between two copies of tests/integration/uci_test_engine --think (each move uses a 40th of its
# clock plus the increment, as engines do; captures first, so games trade down into the tables),
# played twice by the same patched manager with the same seeds, hence the same moves: with
# `-deadpos TABLES` alone (forfeits judged, no check per move) and with dead-position adjudication
# on as well. Printed: wall time, plies and wall time per ply of each run, and the cost of the check
# per ply over the games played alike in both runs (PlyCount within 2: the check often ends a game
# a ply before the manager's own material rule would; a game it ends much earlier, or one after it
# whose engines' random state has moved on, is left out), from
# their GameStartTime/GameEndTime (cutechess writes milliseconds; fastchess whole seconds, so its
# figure is coarse). Per ply over all games is printed too, but it is biased upwards: a game the
# check ends early loses its last plies, which are the fastest (the clocks are low by then).
# The precise figure, last: every position of the games without the check (pgn-extract
# --fencomments) timed through the very call the patch makes after each move
# (bench/dead_check_cost.c: deadpos_is_dead_fen, cap 50 ms, one handle), as a share of those
# games' wall time. Goal of issue 30: under 5% with the <=5-man tables.
#
# Usage: bench/managers_overhead.sh MANAGER_BINARY cutechess|fastchess ENGINE TABLES [GAMES]
#   MANAGER_BINARY: from integrations/MANAGER/build.sh; ENGINE: build/tests/integration/uci_test_engine;
#   GAMES: default 20 (about 4 s each per run).
set -euo pipefail
bin=${1:?usage: managers_overhead.sh MANAGER_BINARY cutechess|fastchess ENGINE TABLES [GAMES]}
kind=${2:?usage}
engine=${3:?usage}
tables=${4:?usage}
games=${5:-20}
here=$(cd "$(dirname "$0")/.." && pwd)
cost=${DEAD_CHECK_COST:-$here/build/bench/deadpos_dead_check_cost}
pgnextract=${PGN_EXTRACT:-/usr/games/pgn-extract}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # run ADJUDICATE PGN: prints the wall seconds
  local adj=$1 pgn=$2 t0 t1
  t0=$(date +%s.%N)
  cd "$work"  # fastchess writes its config.json into the working directory
  if [ "$kind" = cutechess ]; then
    local opts=(-deadpos "$tables,budget_ms=50")
    [ "$adj" = 1 ] && opts+=(-deadposadjudicate)
    "$bin" -engine name=a cmd="$engine" arg=--think arg=--seed arg=1 -engine name=b cmd="$engine" arg=--think \
      arg=--seed arg=2 -each proto=uci tc=1+0.01 -games "$games" -pgnout "$pgn" "${opts[@]}" >/dev/null 2>&1
  else
    local opts=(-deadpos "$tables" -deadposbudget 50)
    [ "$adj" = 1 ] && opts+=(-deadposadjudicate)
    "$bin" -engine name=a cmd="$engine" args="--think --seed 1" -engine name=b cmd="$engine" \
      args="--think --seed 2" -each proto=uci tc=1+0.01 -rounds "$games" -games 1 -pgnout file="$pgn" \
      "${opts[@]}" >/dev/null 2>&1
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}

plies() { sed -n 's/^\[PlyCount "\([0-9]*\)"\]$/\1/p' "$1" | awk '{ n += $1 } END { print n + 0 }'; }

off=$(run 0 "$work/off.pgn")
on=$(run 1 "$work/on.pgn")
p_off=$(plies "$work/off.pgn")
p_on=$(plies "$work/on.pgn")
dead=$(grep -c 'dead position (FIDE 5.2.2)' "$work/on.pgn" || true)
printf '%-34s %8s %7s %10s\n' run wall_s plies ms_per_ply
awk -v off="$off" -v on="$on" -v po="$p_off" -v pn="$p_on" 'BEGIN {
  printf "%-34s %8.2f %7d %10.3f\n", "-deadpos (forfeits only)", off, po, 1000 * off / po
  printf "%-34s %8.2f %7d %10.3f\n", "-deadpos + dead-position check", on, pn, 1000 * on / pn
}'
echo "games ended by the check: $dead of $games"
awk -v off="$off" -v on="$on" -v po="$p_off" -v pn="$p_on" \
  'BEGIN { printf "cost of the check per ply, all games (biased up): %.2f%%\n", 100 * ((on / pn) / (off / po) - 1) }'
python3 - "$work/off.pgn" "$work/on.pgn" <<'PY'
import re, sys
from datetime import datetime
def games(path):
    out, tags = [], {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            if m.group(1) == "Event" and tags:
                out.append(tags)
                tags = {}
            tags[m.group(1)] = m.group(2)
    if tags:
        out.append(tags)
    return out
def stamp(v):
    v = v.replace(" UTC", "").replace(" +0000", "")
    for f in ("%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S"):
        try:
            return datetime.strptime(v, f).timestamp()
        except ValueError:
            pass
    raise SystemExit(f"managers_overhead: unreadable time {v!r}")
off, on = games(sys.argv[1]), games(sys.argv[2])
t_off = t_on = 0.0
n = p_off = p_on = 0
for a, b in zip(off, on):
    pa, pb = int(a.get("PlyCount", 0)), int(b.get("PlyCount", 0))
    if abs(pa - pb) > 2 or pa == 0 or pb == 0:
        continue
    n += 1
    p_off += pa
    p_on += pb
    t_off += stamp(a["GameEndTime"]) - stamp(a["GameStartTime"])
    t_on += stamp(b["GameEndTime"]) - stamp(b["GameStartTime"])
if n:
    print(f"games played alike: {n}, {t_off:.2f} s / {p_off} plies -> {t_on:.2f} s / {p_on} plies; "
          f"cost of the check per ply: {100 * ((t_on / p_on) / (t_off / p_off) - 1):+.2f}%")
else:
    print("no game was played alike in both runs: run more games")
PY
"$pgnextract" --fencomments -C -s "$work/off.pgn" 2>/dev/null | tr '\n' ' ' |
  grep -o '{ *[rnbqkpRNBQKP1-8]*/[^}]*}' | sed 's/^{ *//; s/ *}$//' >"$work/fens"
line=$("$cost" "$tables" 50 <"$work/fens")
echo "the check on every position of the games without it: $line"
total=$(echo "$line" | sed 's/.*total_ms \([0-9.]*\).*/\1/')
awk -v t="$total" -v off="$off" 'BEGIN { printf "cost of the check: %.2f%% of the games'"'"' wall time\n", 100 * t / 1000 / off }'
