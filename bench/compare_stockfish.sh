#!/usr/bin/env bash
# Perft speed against Debian's Stockfish on the same machine (issue: deadpos perft from the start
# position at depth 6 takes at most 2x Stockfish's `go perft 6`). Both count 119,060,324 nodes.
# Usage: bench/compare_stockfish.sh [runs]   (needs build/ and the 'stockfish' package)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
SF=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$SF" ] || { echo "stockfish not installed (apt-get install stockfish)"; exit 1; }
D=build/tools/deadpos
START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

best() { sort -n | head -1; }
t_dp=$(for _ in $(seq "$runs"); do
  /usr/bin/time -f "%e" "$D" perft "$START" 6 2>&1 >/dev/null | tail -1
done | best)
t_sf=$(for _ in $(seq "$runs"); do
  printf 'position startpos\ngo perft 6\nquit\n' | /usr/bin/time -f "%e" "$SF" 2>&1 >/dev/null | tail -1
done | best)
nodes=$("$D" perft "$START" 6 2>/dev/null | awk '/Nodes searched/ {print $3}')
echo "perft 6 from the start position: $nodes nodes (published 119060324)"
echo "deadpos:   best of $runs: ${t_dp} s (whole process)"
echo "stockfish: best of $runs: ${t_sf} s (whole process, $("$SF" quit 2>/dev/null | head -1))"
awk -v a="$t_dp" -v b="$t_sf" 'BEGIN { printf "ratio deadpos/stockfish: %.2f (target <= 2)\n", a / b }'
