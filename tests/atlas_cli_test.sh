#!/usr/bin/env bash
# `deadpos atlas` (docs/atlas.md): usage  atlas_cli_test.sh DEADPOS TABLES_DIR PYTHON ARTEFACT_DIR PGN_EXTRACT
#
#  * every number of atlas.json (positions, dead, who can mate, dead by forced lines, checkmates,
#    deepest helpmates) equals `deadpos query --count --json` for the same filter (query is checked
#    against an independent oracle in test_query.cpp);
#  * the published deepest helpmates (sources in tests/test_atlas.cpp) come out of atlas.json, and
#    every example's DTHM is confirmed by `deadpos probe --json` on its FEN, and its line replayed
#    by pgn-extract ends in checkmate;
#  * --threads 1 and 2 give byte-identical directories; atlas.csv agrees with atlas.json;
#  * the --out policy: new, empty or previous atlas accepted; anything else refused, untouched;
#  * a headless Chromium screenshot of index.html in ARTEFACT_DIR/atlas-summary.png (skipped, with
#    a message, only when chromium is not installed).
set -u
deadpos=$1
tables=$2
py=$3
artefacts=$4
pgnx=$5
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_atlas_cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$deadpos" ] || { echo "FAIL: $deadpos is not executable" >&2; exit 1; }
ls "$tables"/*.dpt >/dev/null 2>&1 || { echo "FAIL: no tables in $tables" >&2; exit 1; }

"$deadpos" atlas --tables "$tables" --out "$work/a1" --threads 1 >"$work/out1" 2>"$work/err1" ||
  { fail "atlas --threads 1 exited $?: $(cat "$work/err1")"; exit 1; }
"$deadpos" atlas --tables "$tables" --out "$work/a2" --threads 2 >/dev/null 2>&1 || fail "atlas --threads 2 failed"
diff -r "$work/a1" "$work/a2" >/dev/null || fail "--threads 1 and 2 differ"
grep -q "^atlas of [0-9]* tables written to $work/a1/index.html; deepest helpmate: " "$work/out1" ||
  fail "summary line: $(cat "$work/out1")"
for f in index.html atlas.json atlas.csv dead-share.svg materials/KBvKN.html svg/KBvKN-black-mated.svg; do
  [ -s "$work/a1/$f" ] || fail "no $f"
done
grep -q "https\?://" "$work/a1/index.html" "$work/a1/materials/KBvKN.html" && fail "the HTML refers to the network"
grep -qi "<script" "$work/a1/index.html" && fail "the HTML has a script"

# The numbers against query, and the published facts.
"$py" - "$deadpos" "$tables" "$work/a1" "$pgnx" <<'PY' || fail "atlas.json checks (above)"
import csv, json, subprocess, sys
deadpos, tables, out, pgnx = sys.argv[1:5]
j = json.load(open(out + "/atlas.json"))
mats = [m["material"] for m in j["materials"]]
bad = 0
def err(msg):
    global bad
    bad += 1
    print("FAIL:", msg, file=sys.stderr)

def query(keys, stm, *flt):
    r = subprocess.run([deadpos, "query", "--tables", tables, *keys, "--stm", stm, *flt, "--count", "--json"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        err("query %s %s: %s" % (stm, flt, r.stderr.strip()))
        return {}
    return {x["material"]: x["positions"] for x in map(json.loads, r.stdout.splitlines())}

checks = {"positions": [], "dead": ["--dead"], "dead_not_by_material": ["--dead-not-by-material"],
          "checkmates": ["--checkmate"], "white_can_mate": ["--white-can-mate", "yes"],
          "black_can_mate": ["--black-can-mate", "yes"]}
by = {m["material"]: m for m in j["materials"]}
for stm in ("white", "black"):
    for field, flt in checks.items():
        q = query(mats, stm, *flt)
        for k in mats:
            a = by[k][stm + "_to_move"][field]
            if q.get(k) != a:
                err("%s %s to move %s: atlas %s, query %s" % (k, stm, field, a, q.get(k)))
    for side in ("white", "black"):
        for k in mats:
            d = by[k][stm + "_to_move"]["deepest_%s_mated" % side]
            h = by[k][stm + "_to_move"]["dthm_histogram_%s_mated" % side]
            if d is None:
                if h or query([k], stm, "--%s-can-mate" % ("black" if side == "white" else "white"), "yes")[k] != 0:
                    err("%s: no deepest %s-mated but positions where it is mated" % (k, side))
                continue
            p = d["plies"]
            at = query([k], stm, "--dthm-%s-mated" % side, str(p))[k]
            deeper = query([k], stm, "--dthm-%s-mated" % side, "%d.." % (p + 1))[k] if p < 250 else 0
            if at == 0 or deeper != 0 or h[p] != at or len(h) != p + 1:
                err("%s %s to move: deepest %s mated %d plies, query at %d deeper %d" % (k, stm, side, p, at, deeper))
            if len(d["line_san"]) != p:
                err("%s: line of %d moves for %d plies" % (k, len(d["line_san"]), p))
            # The example's DTHM from the probe command.
            r = subprocess.run([deadpos, "probe", "--tables", tables, "--json", d["fen"]], capture_output=True, text=True)
            pj = json.loads(r.stdout)
            if pj.get("dthm_%s_mated_plies" % side) != p:
                err("%s: probe %s says %s, atlas %d" % (k, d["fen"], pj.get("dthm_%s_mated_plies" % side), p))

def deepest(k, stm, side):
    d = by[k][stm + "_to_move"]["deepest_%s_mated" % side]
    return d["plies"] if d else None
# Published longest shortest helpmates (issue 11; tests/test_atlas.cpp names the sources).
facts = [("KQvK", "black", "black", 14), ("KQvK", "white", "black", 13), ("KRvK", "black", "black", 14),
         ("KRvK", "white", "black", 13), ("KBBvK", "black", "black", 16), ("KBNvK", "black", "black", 16),
         ("KNNvK", "black", "black", 16), ("KPvK", "white", "black", 17), ("KBvKN", "black", "black", 24)]
for k, stm, side, p in facts:
    if deepest(k, stm, side) != p:
        err("%s %s to move, %s mated: %s plies, published %d" % (k, stm, side, deepest(k, stm, side), p))
# Every example line replayed by pgn-extract (an independent move generator): legal from its FEN
# and ending in checkmate (--checkmate keeps only such games).
games = []
for k in mats:
    for stm in ("white", "black"):
        for side in ("white", "black"):
            d = by[k][stm + "_to_move"]["deepest_%s_mated" % side]
            if d:
                res = "1-0" if side == "black" else "0-1"
                games.append('[Event "%s %s %s"]\n[SetUp "1"]\n[FEN "%s"]\n[Result "%s"]\n\n%s %s\n\n'
                             % (k, stm, side, d["fen"], res, " ".join(d["line_san"]), res))
open(out + "/../lines.pgn", "w").write("".join(games))
r = subprocess.run([pgnx, "--checkmate", "-s", out + "/../lines.pgn"], capture_output=True, text=True)
mated = r.stdout.count("[Event ")
if len(games) < 60 or mated != len(games):
    err("pgn-extract: %d of %d example lines end in checkmate: %s" % (mated, len(games), r.stderr.strip()[:300]))
# atlas.csv: the same numbers.
for row in csv.DictReader(open(out + "/atlas.csv")):
    s = by[row["material"]][row["side_to_move"] + "_to_move"]
    for f in ("positions", "dead", "dead_not_by_material", "white_can_mate", "black_can_mate"):
        if int(row[f]) != s[f]:
            err("atlas.csv %s %s %s" % (row["material"], row["side_to_move"], f))
# The ranking is sorted and complete.
r = j["ranking"]
if [x["plies"] for x in r] != sorted((x["plies"] for x in r), reverse=True) or not r:
    err("ranking not sorted")
sys.exit(1 if bad else 0)
PY

# The --out policy.
mkdir -p "$work/user" && echo keep >"$work/user/notes.txt"
"$deadpos" atlas --tables "$tables" --out "$work/user" >/dev/null 2>"$work/err"
rc=$?
[ $rc -eq 4 ] || fail "non-empty --out: exit $rc, want 4"
[ "$(cat "$work/user/notes.txt")" = keep ] && [ "$(ls "$work/user")" = notes.txt ] || fail "non-empty --out was touched"
[ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^deadpos: invalid argument: .*not a previous deadpos atlas" "$work/err" ||
  fail "non-empty --out message: $(cat "$work/err")"
ls -d "$work"/user.atlas-* >/dev/null 2>&1 && fail "temporary directory left behind"
# A symbolic link is followed: to a non-empty folder, the same refusal (not "not a directory");
# to an empty one, the atlas is written there and the link stays; to nothing, its own reason.
ln -s "$work/user" "$work/user-link"
"$deadpos" atlas --tables "$tables" --out "$work/user-link" >/dev/null 2>"$work/err"
rc=$?
[ $rc -eq 4 ] && grep -q "^deadpos: invalid argument: .*not a previous deadpos atlas" "$work/err" ||
  fail "--out a link to a non-empty folder: exit $rc: $(cat "$work/err")"
mkdir "$work/linked" && ln -s "$work/linked" "$work/linked-link"
"$deadpos" atlas --tables "$tables" --out "$work/linked-link" >/dev/null 2>"$work/err" ||
  fail "--out a link to an empty folder: $(cat "$work/err")"
[ -L "$work/linked-link" ] && [ -f "$work/linked/atlas.json" ] || fail "--out a link: not written through the link"
# The folder that replaces an empty --out keeps its permission bits (private, setgid).
mkdir "$work/private" && chmod 2700 "$work/private"
"$deadpos" atlas --tables "$tables" --out "$work/private" >/dev/null 2>&1 || fail "--out a private empty folder refused"
[ "$(stat -c %a "$work/private")" = 2700 ] || fail "--out's mode became $(stat -c %a "$work/private"), want 2700"
ln -s "$work/nowhere" "$work/dangling"
"$deadpos" atlas --tables "$tables" --out "$work/dangling" >/dev/null 2>"$work/err"
rc=$?
[ $rc -eq 4 ] && grep -q "dangling: is a symbolic link to nothing" "$work/err" ||
  fail "--out a dangling link: exit $rc: $(cat "$work/err")"
touch "$work/file"
"$deadpos" atlas --tables "$tables" --out "$work/file" >/dev/null 2>&1
[ $? -eq 4 ] || fail "--out a file: not refused with 4"
mkdir "$work/empty"
"$deadpos" atlas --tables "$tables" --out "$work/empty" --threads 2 >/dev/null 2>&1 || fail "empty --out refused"
diff -r "$work/a1" "$work/empty" >/dev/null || fail "atlas into an empty directory differs"
# A previous atlas is replaced; one with a foreign file is not.
"$deadpos" atlas --tables "$tables" --out "$work/a1" --threads 2 >/dev/null 2>&1 || fail "previous atlas not replaced"
diff -r "$work/a2" "$work/a1" >/dev/null || fail "replaced atlas differs"
ls -d "$work"/a1.atlas-* >/dev/null 2>&1 && fail "old atlas left behind"
echo mine >"$work/a1/materials/mine.txt"
"$deadpos" atlas --tables "$tables" --out "$work/a1" >/dev/null 2>&1
[ $? -eq 4 ] || fail "atlas with a foreign file: not refused"
[ -f "$work/a1/materials/mine.txt" ] || fail "foreign file deleted"
"$deadpos" atlas --tables "$work/empty-dir-none" --out "$work/x" >/dev/null 2>&1
rc=$?
[ $rc -ne 0 ] && [ ! -e "$work/x" ] || fail "missing --tables directory: exit $rc"
"$deadpos" atlas --tables "$tables" >/dev/null 2>&1
[ $? -eq 2 ] || fail "no --out: not a usage error"

# The summary page in a browser.
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIP: chromium not installed (scripts/setup.sh installs it): no screenshot of the summary page"
else
  mkdir -p "$artefacts"
  rm -f "$artefacts/atlas-summary.png"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --screenshot="$artefacts/atlas-summary.png" --window-size=1200,1600 "file://$work/a1/index.html" >/dev/null 2>&1
  [ -s "$artefacts/atlas-summary.png" ] || fail "no screenshot from $chromium"
  head -c 8 "$artefacts/atlas-summary.png" | od -An -c | grep -q "P   N   G" || fail "screenshot is not a PNG"
fi

[ $failures -eq 0 ] && echo "atlas cli: all checks passed"
exit $((failures > 0))
