#!/usr/bin/env bash
# `deadpos adjudicate` against independent sources (docs/cli.md, "deadpos adjudicate"):
#   - pgn-extract (Debian) reads the same files: every game it writes back (standard chess) is one
#     of ours, in order, with the same final position (its -F comment, all six FEN fields); on the
#     real files (not torture/) both read the same number of games; in torture/ (and wherever it
#     reports errors) its games without moves are left out: it writes what it could not read as
#     such games, or cuts a game before its bad move;
#   - every corrected result, and the result of every game lost on time, equals the flag verdict
#     of `deadpos probe --flag <side> --json` on the final position;
#   - lichess-timeforfeit-draws.pgn: lichess drew these flag-falls because the opponent could not
#     mate, so the Laws give 1/2-1/2 too; the one exception (SOURCES.md: "1 odd draw on move 2",
#     lichess.org/lMAAGfWU, drawn after 1. e4 c5 with every man on the board) is 0-1 by FIDE 6.9;
#   - lichess-insufficient-material-draws.pgn: lichess ended these at insufficient material, so the
#     final position is dead; the first dead ply is the last ply, or the one before it when that
#     position was already dead (checked move by move in tests/test_adjudicate.cpp);
#   - --pgn-out writes the games back atomically with the corrected results; read again, nothing
#     changes; exit codes; the same output for 1 and 2 threads; '-' reads standard input.
# Usage: adjudicate_cli_test.sh DEADPOS TABLES DATA_DIR PGN_EXTRACT PYTHON
set -uo pipefail
deadpos=$1 tables=$2 data=$3 pgnextract=$4 python=$5
fails=0
fail() {
  echo "FAIL: $*" >&2
  fails=$((fails + 1))
}
[ -x "$pgnextract" ] || {
  echo "FAIL: pgn-extract not found at $pgnextract (scripts/setup.sh installs it)" >&2
  exit 1
}
work=$(mktemp -d "${TMPDIR:-/tmp}/adjudicate-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- every file: ours and pgn-extract's -------------------------------------------------------
list=$work/files.txt
: >"$list"
while IFS= read -r -d '' f; do
  rel=${f#"$data"/}
  key=$(echo "$rel" | tr '/' '_')
  rc=0
  "$deadpos" adjudicate --tables "$tables" --json "$f" >"$work/$key.ours" 2>"$work/$key.err" || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 12 ]; then fail "$rel: exit $rc: $(head -c 300 "$work/$key.err")"; fi
  "$pgnextract" -s -F -w 100000 "$f" >"$work/$key.pe" 2>"$work/$key.pe.err"
  printf '%s\t%s\n' "$rel" "$key" >>"$list"
done < <(find "$data" -name '*.pgn' -print0 | sort -z)

"$python" - "$work" "$list" <<'EOF' || fails=$((fails + 1))
import json, re, sys
work, listing = sys.argv[1], sys.argv[2]
bad = 0
def problem(msg):
    global bad
    bad += 1
    print("FAIL:", msg, file=sys.stderr)

def pgnextract_games(path):
    """(tags, final FEN) of each game pgn-extract wrote, from its -F comment."""
    text = open(path, encoding="latin-1").read()
    games, tags, body = [], {}, []
    def flush():
        if tags or body:
            fens = re.findall(r'\{ "([^"]+)" \}', " ".join(body))
            games.append((dict(tags), fens[-1] if fens else None))
    for line in text.split("\n"):
        m = re.match(r'^\[(\w+) "(.*)"\]$', line)
        if m:
            if body:
                flush(); tags.clear(); body.clear()
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            body.append(line)
    flush()
    return games

standard = {"", "standard", "from position", "normal", "chess"}
probes = []
for line in open(listing):
    rel, key = line.rstrip("\n").split("\t")
    ours = [json.loads(l) for l in open(f"{work}/{key}.ours")]
    summary = ours.pop()["summary"]
    pe = pgnextract_games(f"{work}/{key}.pe")
    real = not rel.startswith("torture/")
    # Where pgn-extract reported errors it may write what it could not read as a game without
    # moves (or cut a game before its bad move): those are not games it accepted.
    # In torture/ it also writes zero-move games for text such as "1/2\u20131/2" that we report as
    # unreadable: only its games with moves are compared there.
    disputed = not real or bool(open(f"{work}/{key}.pe.err", encoding="latin-1").read().strip())
    if real and len(ours) != len(pe):
        problem(f"{rel}: {len(ours)} games, pgn-extract {len(pe)}")
    # Every standard game pgn-extract wrote matches one of ours, in order, final position included.
    j = 0
    for tags, fen in pe:
        if tags.get("Variant", "").strip().lower() not in standard:
            continue
        if fen is None:  # no -F comment on a game without moves: its start position
            if disputed:
                continue
            fen = tags.get("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        k = j
        while k < len(ours) and ours[k].get("final_fen") != fen:
            k += 1
        if k == len(ours) and disputed and fen == tags.get("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"):
            continue  # cut before its first move
        j = k
        if j == len(ours):
            problem(f"{rel}: pgn-extract's game {tags.get('White')} - {tags.get('Black')} ending {fen} is not among ours")
            break
        j += 1
    for g in ours:
        if real and ("error" in g or "unsupported" in g) and not rel.startswith("tcec"):
            problem(f"{rel}: game {g['game']} not read: {g}")
        if g.get("changed") or g.get("flagged"):
            if g.get("result") is not None:
                probes.append((g.get("flagged") or "white", g["final_fen"], g["result"], f"{rel} game {g['game']}"))
    if rel.endswith("lichess-timeforfeit-draws.pgn"):
        for g in ours:
            want = "0-1" if g["site"] == "https://lichess.org/lMAAGfWU" else "1/2-1/2"
            if g.get("result") != want or g.get("flagged") is None:
                problem(f"{rel}: game {g['game']} ({g['site']}): result {g.get('result')}, want {want}: {g.get('reason')}")
        if len(ours) != 740:
            problem(f"{rel}: {len(ours)} games, SOURCES.md says 740")
    if rel.endswith("lichess-insufficient-material-draws.pgn"):
        for g in ours:
            if g.get("dead") is not True or g.get("dead_ply") not in (g["plies"], g["plies"] - 1):
                problem(f"{rel}: game {g['game']}: dead {g.get('dead')} dead_ply {g.get('dead_ply')} of {g['plies']} plies")
        if len(ours) != 504:
            problem(f"{rel}: {len(ours)} games, SOURCES.md says 504")
with open(f"{work}/probes.tsv", "w") as out:
    for p in probes:
        out.write("\t".join(p) + "\n")
print(f"compared with pgn-extract; {len(probes)} results to check against probe", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

# --- corrected and flag-fall results against `deadpos probe --flag` ---------------------------
for side in white black; do
  awk -F'\t' -v s="$side" '$1 == s { print $2 }' "$work/probes.tsv" >"$work/fens.$side"
  awk -F'\t' -v s="$side" '$1 == s { print $3 "\t" $4 }' "$work/probes.tsv" >"$work/want.$side"
  [ -s "$work/fens.$side" ] || continue
  "$deadpos" probe --tables "$tables" --json --flag "$side" --epd "$work/fens.$side" >"$work/probe.$side"
  "$python" - "$work/probe.$side" "$work/want.$side" <<'EOF' || fail "probe --flag $side disagrees"
import json, sys
got = [json.loads(l) for l in open(sys.argv[1])]
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
bad = 0
if len(got) != len(want):
    print(f"FAIL: {len(got)} probe answers for {len(want)} positions", file=sys.stderr); sys.exit(1)
for g, (result, where) in zip(got, want):
    if g.get("flag", {}).get("result") != result:
        bad += 1
        print(f"FAIL: {where}: adjudicate {result}, probe {g.get('flag')}", file=sys.stderr)
print(f"{len(want)} results agree with probe --flag", file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
done
[ "$(cat "$work"/want.* | wc -l)" -gt 700 ] || fail "fewer results checked against probe than expected"

# --- --pgn-out ----------------------------------------------------------------------------------
# pgn-extract --fixresulttags corrects Result tags that contradict a checkmate or stalemate on the
# board: its results are ours, and --pgn-out writes ours into the tags.
src=$data/torture/torture-pgnextract-fix-result-tags.pgn
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/fixed.pgn" "$src" >"$work/fix1.txt" || fail "pgn-out run exit $?"
"$pgnextract" -s --fixresulttags "$src" 2>/dev/null | grep -a '^\[Result ' >"$work/fix.pe"
grep -a '^\[Result ' "$work/fixed.pgn" >"$work/fix.ours"
[ "$(wc -l <"$work/fix.pe")" = 5 ] || fail "pgn-extract --fixresulttags wrote $(wc -l <"$work/fix.pe") games, want 5"
cmp -s "$work/fix.pe" "$work/fix.ours" || fail "corrected Result tags differ from pgn-extract --fixresulttags: $(diff "$work/fix.pe" "$work/fix.ours" | tr '\n' ' ')"
ls "$work"/fixed.pgn.tmp.* >/dev/null 2>&1 && fail "pgn-out left a temporary file"
# A closed standard input given as '-': an I/O error (5), not "0 games".
rc=0
"$deadpos" adjudicate --tables "$tables" - <&- >/dev/null 2>"$work/err" || rc=$?
{ [ $rc = 5 ] && grep -qF "standard input: cannot read: Bad file descriptor" "$work/err"; } ||
  fail "adjudicate of a closed standard input: exit $rc: $(cat "$work/err")"
# A --pgn-out whose folder does not exist: refused before any game is read (exit 5), with the
# operating system's reason and the file the user named.
rc=0
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/no-such-folder/x.pgn" "$src" >/dev/null 2>"$work/err" || rc=$?
{ [ $rc = 5 ] && grep -qF "$work/no-such-folder/x.pgn: cannot be written: creating the temporary file beside it failed: No such file or directory" "$work/err"; } ||
  fail "pgn-out into a missing folder: exit $rc: $(cat "$work/err")"
"$deadpos" adjudicate --tables "$tables" "$work/fixed.pgn" >"$work/fix2.txt" || fail "corrected file: exit $?"
grep -q ' 0 with a wrong recorded result' "$work/fix2.txt" || fail "corrected file still has wrong results: $(tail -1 "$work/fix2.txt")"
[ "$("$pgnextract" -s "$work/fixed.pgn" 2>/dev/null | grep -c '^\[Event ')" = 5 ] ||
  fail "pgn-extract reads a different number of games from the corrected file"
# Where no result changes, the text is written back byte for byte apart from the comment at a dead ply.
src=$data/lichess-2013-chessjs-benchmark.pgn
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/same.pgn" "$src" >/dev/null || fail "pgn-out exit $?"
[ "$(grep -c '{deadpos: dead position from here' "$work/same.pgn")" = 1 ] || fail "pgn-out: want 1 dead-ply comment"
sed 's/ {deadpos: [^}]*}//' "$work/same.pgn" | cmp -s "$src" - || fail "pgn-out changed more than the comment"
# A --pgn-out that cannot be created is an I/O error before anything is read.
rc=0
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/no/such/dir/x.pgn" "$src" >/dev/null 2>&1 || rc=$?
[ "$rc" = 5 ] || fail "unwritable --pgn-out: exit $rc, want 5"

# A --pgn-out that exists and is not a regular file is refused before any game is read (exit 5,
# one line naming it), and left as it was: a FIFO (a reader would get nothing), a directory,
# a link to /dev/null (a character device once followed; /dev/null itself is never named, so a
# regression run as root replaces only our link, never the device), a link to nothing. A link
# to a regular file is written through: the link stays, its target gets the games.
mkfifo "$work/fifo"
mkdir "$work/outdir"
ln -s "$work/nowhere" "$work/dangling"
ln -s /dev/null "$work/devnull"
for target in "$work/fifo" "$work/outdir" "$work/devnull" "$work/dangling"; do
  rc=0
  "$deadpos" adjudicate --tables "$tables" --pgn-out "$target" "$src" >"$work/nr.out" 2>"$work/nr.err" || rc=$?
  [ "$rc" = 5 ] || fail "--pgn-out $target: exit $rc, want 5"
  [ "$(wc -l <"$work/nr.err")" = 1 ] && grep -qF "$target" "$work/nr.err" || fail "--pgn-out $target: message $(cat "$work/nr.err")"
  [ -s "$work/nr.out" ] && fail "--pgn-out $target: games were read: $(head -c 200 "$work/nr.out")"
done
[ -p "$work/fifo" ] || fail "--pgn-out replaced the FIFO"
[ -d "$work/outdir" ] || fail "--pgn-out replaced the directory"
[ -L "$work/devnull" ] && [ -c /dev/null ] || fail "--pgn-out replaced the link to /dev/null (or /dev/null)"
[ -L "$work/dangling" ] && [ ! -e "$work/nowhere" ] || fail "--pgn-out replaced or followed the dangling link"
ls "$work"/*.tmp.* >/dev/null 2>&1 && fail "--pgn-out left a temporary file"
mkdir "$work/real"
echo old >"$work/real/target.pgn"
ln -s "real/target.pgn" "$work/link.pgn"
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/link.pgn" "$src" >/dev/null || fail "--pgn-out link: exit $?"
[ -L "$work/link.pgn" ] || fail "--pgn-out replaced the symbolic link"
cmp -s "$work/same.pgn" "$work/real/target.pgn" || fail "--pgn-out through a link: the target does not hold the games"
# A game dead from its start position: the comment goes before "1.", and pgn-extract reads the
# written file with the same final positions (with "1. {...} Kd4" it lost the FEN setup).
printf '[Event "x"]
[SetUp "1"]
[FEN "8/8/4k3/8/8/3K4/8/8 w - - 0 1"]
[Result "*"]

1. Kd4 Kd6 2. Kc4 *

[Event "y"]
[FEN "8/8/4k3/8/8/3K4/8/8 b - - 0 1"]
[Result "*"]

1... Kd6 2. Kc4 *
' >"$work/dead0.pgn"
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/dead0.out.pgn" "$work/dead0.pgn" >/dev/null || fail "dead at ply 0: exit $?"
[ "$(grep -c '} 1\. Kd4\|} 1\.\.\. Kd6' "$work/dead0.out.pgn")" = 2 ] || fail "dead at ply 0: comment not before the move number: $(cat "$work/dead0.out.pgn")"
"$pgnextract" -s -F "$work/dead0.pgn" 2>/dev/null | grep -o '{ "[^"]*" }' >"$work/dead0.fen1"
"$pgnextract" -s -F "$work/dead0.out.pgn" 2>"$work/dead0.pe.err" | grep -o '{ "[^"]*" }' >"$work/dead0.fen2"
[ "$(wc -l <"$work/dead0.fen1")" = 2 ] || fail "pgn-extract: $(wc -l <"$work/dead0.fen1") final positions for 2 games"
cmp -s "$work/dead0.fen1" "$work/dead0.fen2" && [ ! -s "$work/dead0.pe.err" ] ||
  fail "pgn-extract reads the written file otherwise: $(cat "$work/dead0.fen2" "$work/dead0.pe.err")"

# A UTF-8 byte order mark at the start is written back (the text byte for byte).
printf '\xEF\xBB\xBF[Event "bom"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n' >"$work/bom.pgn"
"$deadpos" adjudicate --tables "$tables" --pgn-out "$work/bom.out.pgn" "$work/bom.pgn" >/dev/null || fail "bom: exit $?"
cmp -s "$work/bom.pgn" "$work/bom.out.pgn" || fail "--pgn-out changed a file with a byte order mark: $(od -c "$work/bom.out.pgn" | head -2)"
# Tag values in text are cut at 200 bytes like probe's echo ("... (N bytes)"); in JSON as probe's "input".
long=$(head -c 1000 /dev/zero | tr '\0' 'a')
printf '[White "%s"]\n[Black "b"]\n[Result "1-0"]\n\n1. e5 1-0\n' "$long" >"$work/long.pgn"  # unreadable: listed
"$deadpos" adjudicate --tables "$tables" "$work/long.pgn" >"$work/long.txt"
line=$(head -1 "$work/long.txt")
[ "${#line}" -lt 600 ] && grep -qF "$(head -c 200 /dev/zero | tr '\0' 'a')... (1000 bytes) - b)" "$work/long.txt" ||
  fail "long name in text not cut: ${#line} bytes: $(head -c 300 "$work/long.txt")"
"$deadpos" adjudicate --tables "$tables" --json "$work/long.pgn" >"$work/long.json"
grep -qF "\"white\":\"$(head -c 200 /dev/zero | tr '\0' 'a')... (1000 bytes)\"" "$work/long.json" || fail "long name in JSON not cut"
# A file that cannot be opened is counted as given and unreadable.
"$deadpos" adjudicate --tables "$tables" "$work/missing.pgn" >"$work/miss.txt" 2>/dev/null
grep -q '^summary: 0 games in 1 file (1 unreadable): ' "$work/miss.txt" || fail "missing file not counted in the summary"
"$deadpos" adjudicate --tables "$tables" --json "$work/missing.pgn" >"$work/miss.json" 2>/dev/null
grep -q '"files":1,"files_unreadable":1' "$work/miss.json" || fail "missing file not counted in the JSON summary"
# --threads: 1..1024 like every subcommand.
for t in 0 1025; do
  rc=0
  "$deadpos" adjudicate --tables "$tables" --threads $t "$work/bom.pgn" >/dev/null 2>"$work/thr.err" || rc=$?
  [ "$rc" = 2 ] && grep -q 'not in range 1 to 1024' "$work/thr.err" || fail "--threads $t: exit $rc: $(cat "$work/thr.err")"
done

# --- exit codes, standard input, threads ----------------------------------------------------------
rc=0
"$deadpos" adjudicate --tables "$tables" "$work/missing.pgn" >/dev/null 2>&1 || rc=$?
[ "$rc" = 5 ] || fail "missing file: exit $rc, want 5"
rc=0
"$deadpos" adjudicate --tables "$tables" "$data/torture/torture-pgnextract-null-moves.pgn" >"$work/null.txt" 2>&1 || rc=$?
[ "$rc" = 12 ] || fail "unreadable games: exit $rc, want 12"
grep -q 'game 1 (line 1, ? - ?): unreadable: ply 2 (31... --): a null move' "$work/null.txt" || fail "null move report: $(cat "$work/null.txt")"
rc=0
"$deadpos" adjudicate --tables "$tables" >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "no file: exit $rc, want 2"
rc=0
"$deadpos" adjudicate --tables "$work/empty-dir" "$src" >/dev/null 2>&1 || rc=$?
[ "$rc" = 5 ] || fail "missing table directory: exit $rc, want 5"
f=$data/lichess-db-2025-05-first438.pgn
"$deadpos" adjudicate --tables "$tables" --json --threads 1 "$f" >"$work/t1" || fail "threads 1 exit $?"
"$deadpos" adjudicate --tables "$tables" --json --threads 2 "$f" >"$work/t2" || fail "threads 2 exit $?"
cmp -s "$work/t1" "$work/t2" || fail "output differs between 1 and 2 threads"
"$deadpos" adjudicate --tables "$tables" --json - <"$f" | sed 's#"file":"-"#"file":"'"$f"'"#' >"$work/stdin" || fail "stdin exit $?"
cmp -s "$work/t1" "$work/stdin" || fail "standard input gives other answers than the file"

if [ "$fails" -ne 0 ]; then
  echo "adjudicate_cli_test: $fails failures" >&2
  exit 1
fi
echo "adjudicate_cli_test: all checks passed"
