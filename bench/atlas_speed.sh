#!/usr/bin/env bash
# Speed and memory of `deadpos atlas` over a whole table set (issue 11): usage
#   bench/atlas_speed.sh TABLES_DIR [OUT_DIR] [BUILD_DIR] [THREADS]
# (OUT_DIR: /tmp/atlas-bench, replaced if it is a previous atlas; BUILD_DIR: build; THREADS: all.)
# Prints the load average (the figures are only comparable on an otherwise idle machine), wall
# time and peak RSS (/usr/bin/time -v), the size of the set, and the deepest helpmate reported,
# whose line is then replayed by `deadpos probe --line` of its FEN (the mate is checked by the
# move generator: the last position of the line must be checkmate, see tests/test_atlas.cpp).
set -eu
tables=${1:?usage: bench/atlas_speed.sh TABLES_DIR [OUT_DIR] [BUILD_DIR] [THREADS]}
out=${2:-/tmp/atlas-bench}
build=${3:-build}
threads=${4:-}
deadpos=$build/tools/deadpos
[ -x "$deadpos" ] || { echo "build first: cmake --build $build --target deadpos" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is needed (Debian package time)" >&2; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
echo "tables: $(ls "$tables"/*.dpt | wc -l) files, $(du -cb "$tables"/*.dpt | tail -1 | cut -f1) bytes"
args=(atlas --tables "$tables" --out "$out")
[ -n "$threads" ] && args+=(--threads "$threads")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=$(/usr/bin/time -v "$deadpos" "${args[@]}" 2>"$log") || { cat "$log" >&2; exit 1; }
echo "$summary"
grep -E "Elapsed \(wall clock\)|Maximum resident set size|User time|System time" "$log"
echo "files written: $(find "$out" -type f | wc -l), $(du -sb "$out" | cut -f1) bytes"
# The deepest helpmate of the set, replayed by pgn-extract (an independent move generator): the
# line must be legal from the FEN, have the reported number of plies and end in checkmate.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
pgnx=$(command -v pgn-extract || echo /usr/games/pgn-extract)
"$py" - "$out/atlas.json" "$pgnx" <<'PY'
import json, subprocess, sys, tempfile
j = json.load(open(sys.argv[1]))
top = j["ranking"][0]
m = next(x for x in j["materials"] if x["material"] == top["material"])
d = m[top["side_to_move"] + "_to_move"]["deepest_%s_mated" % top["mated"]]
print("deepest helpmate: %s, %s to move, %s mated in %d plies: %s" % (top["material"], top["side_to_move"],
      top["mated"], d["plies"], d["fen"]))
print("line: " + d["line"])
moves = " ".join(d["line_san"])
res = "1-0" if top["mated"] == "black" else "0-1"
pgn = '[Event "atlas"]\n[SetUp "1"]\n[FEN "%s"]\n[Result "%s"]\n\n%s %s\n' % (d["fen"], res, moves, res)
with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
    f.write(pgn)
r = subprocess.run([sys.argv[2], "--checkmate", "-s", f.name], capture_output=True, text=True)
ok = len(d["line_san"]) == d["plies"] and r.stdout.strip() != "" and "rror" not in r.stderr
print("pgn-extract replay: %s (%d plies, ends in checkmate: %s)" % ("ok" if ok else "FAILED", len(d["line_san"]),
      "yes" if r.stdout.strip() else "no"))
sys.exit(0 if ok else 1)
PY
