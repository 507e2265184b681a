#!/usr/bin/env bash
# Set-up (scripts/setup.sh) and the main job on the real positions in examples/:
#  1. build the helpmate tables up to 4 men into tables/ (kept between runs; intact ones are skipped),
#  2. answer the public dispute positions (dead? who can mate? with a shortest helpmate line),
#  3. adjudicate the 1,024 lichess games lost on time (FIDE 6.9, dead position 5.2.2 first),
#  4. the same question for the final positions of 30,000 lichess games (printing the draws),
#  5. adjudicate 1,782 real lichess games from PGN (tests/data/pgn/*.pgn, sources in its SOURCES.md):
#     first dead ply, flag-falls, wrong recorded results.
# Positions beyond the tables (more men, or a table not built) are answered by the exact search of
# docs/design.md, "Beyond the tables" (or said to be undetermined within its budget). DEADPOS_MAX_MEN=5
# builds the 5-man tables too (23 minutes on 2 cores, 3.15 GB; examples/README.md) and checks their
# bytes against the published, verified SHA-256 list docs/checksums-5men.txt (docs/build.md,
# "Reproducible tables").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
D=build/tools/deadpos
MEN=${DEADPOS_MAX_MEN:-4}

echo "== generating helpmate tables up to $MEN men into tables/ =="
$D generate --max-men "$MEN" --out tables 2>&1 | tail -n 1  # last line: "built N tables ..." or the error
rc=0
if [ "$MEN" = 5 ]; then
  echo "== checking the table files against the published list docs/checksums-5men.txt =="
  # Every file that is not ok is named, then the summary line.
  $D verify --checksums docs/checksums-5men.txt --tables tables | grep -v " ok$" || rc=$?
fi

echo
echo "== public disputes (examples/positions-public.tsv): verdicts and shortest helpmates =="
# Column 2 of the TSV is the FEN; its expected verdicts are checked by the test suite.
grep -v '^#' examples/positions-public.tsv | tail -n +2 | cut -f2 | $D probe --tables tables --line || rc=$?

echo
echo "== lichess games lost on time (examples/lichess-timeout-positions.txt): FIDE 6.9 verdicts =="
# Its last line: answered, decided / undetermined, dead positions, flag-falls drawn / won / undetermined.
$D probe --tables tables --flag stm --epd examples/lichess-timeout-positions.txt || rc=$?

echo
echo "== 30,000 lichess final positions (examples/lichess-30k-final-positions.txt): had the side to move"
echo "   flagged, could the side that just moved still checkmate? (draws, undetermined ones and the summary) =="
# Fields 1-6 are the FEN, field 7 the lichess game id.
grep -v '^#' examples/lichess-30k-final-positions.txt | cut -d' ' -f1-6 | $D probe --tables tables --flag stm |
  grep -E "flag fell: (1/2-1/2|undetermined)|^summary" || rc=$?

echo
echo "== 1,782 real lichess games (tests/data/pgn/*.pgn): replayed and judged by the Laws =="
echo "   (games whose recorded result is wrong, games played on in a dead position, and the summary) =="
$D adjudicate --tables tables tests/data/pgn/*.pgn | grep -E "the Laws give|more pl|^summary" || rc=$?
exit "$rc"
