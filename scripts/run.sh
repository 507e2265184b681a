#!/usr/bin/env bash
# Set-up (scripts/setup.sh) and the main job on real input (examples/): see README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
D=build/tools/deadpos

echo "== perft from the start position, depth 6 (published: 119,060,324) =="
$D perft "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 6

echo "== validating the final positions of 1,024 lichess games lost on time (examples/) =="
ok=0; bad=0
while IFS= read -r fen; do
  case "$fen" in ''|'#'*) continue ;; esac
  if $D fen "$fen" >/dev/null; then ok=$((ok + 1)); else bad=$((bad + 1)); fi
done < examples/lichess-timeout-positions.txt
echo "valid: $ok, rejected: $bad"
