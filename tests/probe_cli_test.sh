#!/usr/bin/env bash
# Batch mode of `deadpos probe` (docs/cli.md): usage  probe_cli_test.sh DEADPOS TABLES_DIR
#
# An EPD file mixing good positions, EPD operations, comments, blank lines and malformed FENs:
#  * text mode: one output line per input line (plus the summary line), in input order; the bad
#    lines say "error" with the FEN category, the good ones are answered; the exit code is the
#    invalid-FEN code 3 (the first error's category);
#  * --json: every line parses as JSON, carries its input and either an error or the answer;
#  * exit codes for a missing table directory (5), a directory without tables (6), an unreadable
#    --epd file (5), and 0 when every line is answered: a missing table or more men than the tables
#    are searched (an answer, or undetermined naming the budget), never an error.
set -u
deadpos=$1
tables=$2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_probe_cli.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -x "$deadpos" ] || { echo "FAIL: $deadpos is not executable" >&2; exit 1; }
ls "$tables"/*.dpt >/dev/null 2>&1 || { echo "FAIL: no tables in $tables" >&2; exit 1; }

# Input: "good|bad <tab> expected substring of the text answer <tab> the line".
cat >"$work/cases.tsv" <<'EOF'
good	dead position	r7/K1k5/8/8/8/8/8/8 w - - 4 3
bad	field-count	not-a-fen
good	White cannot checkmate; Black can checkmate	8/2kr4/8/K7/8/8/8/8 w - - 0 1
bad	kings-adjacent	8/8/8/8/8/8/8/Kk6 w - - 0 1
good	Black is checkmated	6rk/5N2/7K/8/8/8/8/8 b - - 0 1
bad	bad-piece-char	8/8/8/8/8/8/8/KX5k w - - 0 1
good	White can checkmate (shortest helpmate	7k/8/7K/2Bb4/8/8/8/8 b - - bm Bg8; id "PUB-009";
bad	en-passant-impossible	8/8/8/8/8/8/8/K6k w - e6 0 1
bad	opponent-in-check	k6R/8/8/8/8/8/8/K7 w - - 0 1
good	dead position	5K2/8/8/1B6/8/k7/6b1/8 w - - 0 39
bad	rank-count	8/8/8/K6k w - - 0 1
good	en passant	8/8/8/8/1pP5/k7/8/K7 b - c3 0 1
good	castling search	8/8/8/8/8/8/3Q4/R3K2k w Q - 0 1
bad	bad-counter	8/8/8/8/8/8/8/K6k w - - -1 1
bad	field-count	8/8/8/8/8/8/8/K6k w - - 0 1 extra
bad	bad-counter	8/8/8/8/8/8/8/K6k w - - 5 junk
bad	rank-length	4k3/8/8/8/8/8/8/K1k41 w - - 0 1
EOF
# The EPD file, with a comment and a blank line that produce no output.
{
  echo "# batch of positions"
  n=0
  while IFS=$'\t' read -r kind expect line; do
    echo "$line"
    n=$((n + 1))
    [ "$n" = 4 ] && echo ""
  done <"$work/cases.tsv"
} >"$work/in.epd"
ncases=$(wc -l <"$work/cases.tsv")

# --- text mode -----------------------------------------------------------------------------------
"$deadpos" probe --tables "$tables" --epd "$work/in.epd" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
[ "$rc" = 3 ] || fail "text mode: exit code $rc, expected 3 (invalid FEN)"
nout=$(wc -l <"$work/out.txt")
[ "$nout" = $((ncases + 1)) ] || fail "text mode: $nout output lines for $ncases inputs (+1 summary)"
i=0
while IFS=$'\t' read -r kind expect line; do
  i=$((i + 1))
  got=$(sed -n "${i}p" "$work/out.txt")
  case "$kind" in
    bad)
      case "$got" in
        "\"$line\": error: "*"$expect"*) ;;  # the input echoed in double quotes (docs/cli.md)
        *) fail "line $i ($line): expected an error with '$expect', got: $got" ;;
      esac ;;
    good)
      case "$got" in
        *error*) fail "line $i ($line): good FEN answered with an error: $got" ;;
        *"$expect"*) ;;
        *) fail "line $i ($line): expected '$expect' in: $got" ;;
      esac ;;
  esac
done <"$work/cases.tsv"
nbad=$(grep -c '^bad' "$work/cases.tsv")
ngood=$((ncases - nbad))
tail -n 1 "$work/out.txt" | grep -q "^summary: $ngood answered, $nbad " ||
  fail "text mode: summary line: $(tail -n 1 "$work/out.txt")"

# The same from standard input.
"$deadpos" probe --tables "$tables" --epd - <"$work/in.epd" >"$work/out-stdin.txt" 2>/dev/null
rc=$?
[ "$rc" = 3 ] || fail "stdin: exit code $rc, expected 3"
cmp -s "$work/out.txt" "$work/out-stdin.txt" || fail "stdin output differs from --epd FILE output"

# --- JSON mode -----------------------------------------------------------------------------------
"$deadpos" probe --tables "$tables" --json --line --flag stm --epd "$work/in.epd" >"$work/out.json" 2>/dev/null
rc=$?
[ "$rc" = 3 ] || fail "json mode: exit code $rc, expected 3"
python3 - "$work/cases.tsv" "$work/out.json" <<'EOF' || fail "json mode: see the messages above"
import json, sys
cases = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
out = open(sys.argv[2]).read().splitlines()
ok = True
def bad(msg):
    global ok
    ok = False
    print("  json:", msg, file=sys.stderr)
if len(out) != len(cases):
    bad(f"{len(out)} lines for {len(cases)} inputs")
for (kind, expect, line), text in zip(cases, out):
    try:
        j = json.loads(text)
    except ValueError as e:
        bad(f"not JSON ({e}): {text}")
        continue
    if j.get("input") != line:
        bad(f"input {j.get('input')!r} != {line!r}")
    if kind == "bad":
        err = j.get("error", {})
        if err.get("category") != "invalid FEN" or expect not in err.get("message", ""):
            bad(f"expected an invalid-FEN error with {expect!r}: {text}")
        continue
    if "error" in j:
        bad(f"good line answered with an error: {text}")
        continue
    for k in ("fen", "table", "dead", "white_can_mate", "black_can_mate", "dthm_white_mated_plies",
              "dthm_black_mated_plies", "checkmate", "stalemate", "castling_search", "en_passant", "flag", "lines"):
        if k not in j:
            bad(f"missing key {k!r}: {text}")
    if j.get("dead") != (not j.get("white_can_mate") and not j.get("black_can_mate")):
        bad(f"dead disagrees with the can-mate fields: {text}")
    for l in j.get("lines", []):
        plies = j["dthm_white_mated_plies" if l["mated"] == "white" else "dthm_black_mated_plies"]
        if l["plies"] != plies or len(l["uci"]) != plies or len(l["san"]) != plies:
            bad(f"line length != dthm: {text}")
sys.exit(0 if ok else 1)
EOF

# --- exit codes ----------------------------------------------------------------------------------
good_fen="8/2kr4/8/K7/8/8/8/8 w - - 0 1"
"$deadpos" probe --tables "$tables" "$good_fen" >/dev/null 2>&1
rc=$?; [ "$rc" = 0 ] || fail "one good FEN: exit code $rc, expected 0"

"$deadpos" probe --tables "$work/no-such-dir" "$good_fen" >/dev/null 2>"$work/err.txt"
rc=$?; [ "$rc" = 5 ] || fail "missing table directory: exit code $rc, expected 5 (I/O)"
grep -q "no-such-dir" "$work/err.txt" || fail "missing table directory: message does not name it: $(cat "$work/err.txt")"

mkdir "$work/empty"
"$deadpos" probe --tables "$work/empty" "$good_fen" >/dev/null 2>"$work/err.txt"
rc=$?; [ "$rc" = 6 ] || fail "directory without tables: exit code $rc, expected 6 (missing table)"

# A missing table is no longer an error: the analyzer searches on (docs/design.md, "Beyond the
# tables"). With only KRvK present, KQvK is searched: White can mate (K+Q v K), Black cannot (a lone
# king never gives check: rule lone-king).
mkdir "$work/subset"
cp "$tables/KRvK.dpt" "$work/subset/"
"$deadpos" probe --tables "$work/subset" --json --line "8/8/8/3k4/8/8/8/K1Q5 w - - 0 1" >"$work/out1.txt" 2>/dev/null
rc=$?; [ "$rc" = 0 ] || fail "missing table KQvK: exit code $rc, expected 0 (searched)"
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["white_can_mate"] is True and j["black_can_mate"] is False and j["dead"] is False, j
assert j["how"]["white_can_mate"]["method"] == "search", j["how"]
assert j["how"]["black_can_mate"] == {"method": "rule", "rule": "lone-king", "reason": "it has only its king and no pawn"}, j["how"]
assert j["table"] is None and j["dthm_black_mated_plies"] is None, j
assert j["lines"][0]["mated"] == "black" and j["lines"][0]["shortest"] is False, j["lines"]
' "$work/out1.txt" || fail "missing table KQvK: answer: $(cat "$work/out1.txt")"

# More men than the tables: searched too. With a budget of 50 positions per side, a side that is not
# decided says undetermined and names the budget; true/false/null only, exit 0.
big="r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
"$deadpos" probe --tables "$tables" --json --budget-nodes 50 "$big" >"$work/out1.txt" 2>/dev/null
rc=$?; [ "$rc" = 0 ] || fail "beyond the tables ($big): exit code $rc, expected 0"
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
for side in ("white_can_mate", "black_can_mate"):
    assert j[side] in (True, False, None), j
    if j[side] is None:
        assert j["how"][side]["method"] == "undetermined" and j["how"][side]["budget"] == "nodes", j["how"]
assert None in (j["white_can_mate"], j["black_can_mate"]), "50 positions should not decide both: %r" % j
' "$work/out1.txt" || fail "beyond the tables: answer: $(cat "$work/out1.txt")"
"$deadpos" probe --tables "$tables" --budget-nodes 50 "$big" >"$work/out1.txt" 2>/dev/null
grep -q "undetermined (nodes budget ran out" "$work/out1.txt" || fail "beyond the tables, text: $(cat "$work/out1.txt")"

# Huge budgets: no node limit, a terabyte of memory asked for (capped at half the machine's),
# a time limit of 300 ms per side: the start position is answered (both sides can mate) or
# undetermined by time, exit 0, never a crash.
"$deadpos" probe --tables "$tables" --json --budget-nodes 0 --budget-mb 1048576 --budget-ms 300 \
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" >"$work/out1.txt" 2>/dev/null
rc=$?; [ "$rc" = 0 ] || fail "huge budgets: exit code $rc, expected 0"
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
for side in ("white_can_mate", "black_can_mate"):
    assert j[side] is True or (j[side] is None and j["how"][side]["budget"] == "time"), j
' "$work/out1.txt" || fail "huge budgets: answer: $(cat "$work/out1.txt")"
for bad in "--budget-nodes -1" "--budget-mb 0" "--budget-ms x" "--budget-nodes 99999999999999999999"; do
  # shellcheck disable=SC2086
  "$deadpos" probe --tables "$tables" $bad "$good_fen" >/dev/null 2>"$work/err.txt"
  rc=$?; [ "$rc" = 2 ] || fail "probe $bad: exit code $rc, expected 2 (usage)"
done

# No input at all (empty standard input): a table directory that cannot be used is still an error.
"$deadpos" probe --tables "$work/no-such-dir" </dev/null >/dev/null 2>&1
rc=$?; [ "$rc" = 5 ] || fail "missing table directory, no input: exit code $rc, expected 5 (was 0)"
mkdir -p "$work/empty-tables"
"$deadpos" probe --tables "$work/empty-tables" </dev/null >/dev/null 2>&1
rc=$?; [ "$rc" = 6 ] || fail "directory without tables, no input: exit code $rc, expected 6 (was 0)"
"$deadpos" probe --tables "$tables" </dev/null >/dev/null 2>&1
rc=$?; [ "$rc" = 0 ] || fail "tables and no input: exit code $rc, expected 0"

"$deadpos" probe --tables "$tables" --epd "$work/no-such-file.epd" >/dev/null 2>&1
rc=$?; [ "$rc" = 5 ] || fail "unreadable --epd file: exit code $rc, expected 5"
"$deadpos" probe --tables "$tables" --epd "$work" >/dev/null 2>&1
rc=$?; [ "$rc" = 5 ] || fail "--epd given a directory: exit code $rc, expected 5"

# Bytes that are not UTF-8: an invalid-FEN answer in valid JSON, and the next line still answered.
printf 'garb\377age\n%s\n' "$good_fen" >"$work/bytes.epd"
"$deadpos" probe --tables "$tables" --json --epd "$work/bytes.epd" >"$work/bytes.json" 2>/dev/null
rc=$?; [ "$rc" = 3 ] || fail "non-UTF-8 line in JSON mode: exit code $rc, expected 3"
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert len(rows) == 2 and rows[0]["error"]["category"] == "invalid FEN" and "dead" in rows[1], rows
' "$work/bytes.json" || fail "non-UTF-8 line in JSON mode: $(cat "$work/bytes.json")"

# Usage errors: exit 2 and one line on stderr.
# (each is otherwise a valid command line, so the exit code comes from the option named).
for args in "probe --tables $tables --cache-mb -1 $good_fen" "probe --tables $tables --flag nobody $good_fen" \
  "generate KvK --out $work/g --threads 0" "generate --out $work/g --max-men 2 KvK" "probe --tables $tables --bogus $good_fen" \
  "probe --tables $tables --budget-nodes 010 $good_fen" "probe --tables $tables --cache-mb 0x10 $good_fen" \
  "generate KvK --out $work/g --threads +1"; do
  # (010 was read as octal 8 and 0x10 as 16: integers are plain decimal.)
  # shellcheck disable=SC2086
  "$deadpos" $args >/dev/null 2>"$work/err.txt"
  rc=$?
  [ "$rc" = 2 ] || fail "usage error '$args': exit code $rc, expected 2"
  [ "$(wc -l <"$work/err.txt")" = 1 ] || fail "usage error '$args': not one line: $(cat "$work/err.txt")"
done
# A number that is not plain decimal is named as such before any range check (the range message
# "not in range" would send the user after the value, not its spelling).
for v in 1e3 5.0 "" +1; do
  "$deadpos" generate KvK --out "$work/g" --threads "$v" >/dev/null 2>"$work/err.txt"
  rc=$?
  [ "$rc" = 2 ] && grep -q "is not a decimal integer" "$work/err.txt" ||
    fail "--threads '$v': exit code $rc, expected 2 naming a decimal integer: $(cat "$work/err.txt")"
done
# perft's depth outside 0..20 is an invalid argument (docs/cli.md, exit 4), however many digits.
for d in 21 99999999999999999999 -1; do
  "$deadpos" perft "$good_fen" "$d" >/dev/null 2>"$work/err.txt"
  rc=$?
  [ "$rc" = 4 ] && grep -q "depth $d is outside 0..20" "$work/err.txt" ||
    fail "perft depth $d: exit code $rc, expected 4: $(cat "$work/err.txt")"
done
"$deadpos" generate KQQQQvK --out "$work/gen6" >/dev/null 2>"$work/err.txt"
rc=$?; [ "$rc" = 4 ] || fail "generate a 6-man material: exit code $rc, expected 4"

grep '^good' "$work/cases.tsv" | cut -f 3 >"$work/good.epd"
"$deadpos" probe --tables "$tables" --epd "$work/good.epd" >/dev/null 2>&1
rc=$?; [ "$rc" = 0 ] || fail "all-good EPD: exit code $rc, expected 0"

# --flag answers only what the verdict needs (FIDE 6.9): here White (K+Q+R+B v K) can mate, so
# the flagged Black's own question is not asked; --both-sides asks it (Black has a bare king: a
# king never gives check, so Black cannot mate), and needs --flag (usage error, exit 2).
flagpos="8/8/8/3k4/8/8/8/KQRB4 w - - 0 1"
"$deadpos" probe --tables "$tables" --json --flag black "$flagpos" >"$work/out1.txt" 2>/dev/null
"$deadpos" probe --tables "$tables" --json --flag black --both-sides "$flagpos" >"$work/out2.txt" 2>/dev/null
python3 -c '
import json, sys
one, both = (json.load(open(f)) for f in sys.argv[1:3])
assert one["flag"]["result"] == "1-0" and one["flag"]["reason"] == "opponent-can-mate", one
assert one["white_can_mate"] is True and one["dead"] is False, one
assert one["black_can_mate"] is None and one["how"]["black_can_mate"] == {"method": "not-asked"}, one
assert both["flag"] == one["flag"] and both["black_can_mate"] is False, both
assert both["how"]["black_can_mate"]["rule"] == "lone-king", both
' "$work/out1.txt" "$work/out2.txt" || fail "flag-only: $(cat "$work/out1.txt" "$work/out2.txt")"
"$deadpos" probe --tables "$tables" --flag black "$flagpos" 2>/dev/null | grep -q "Black: not asked" ||
  fail "flag-only text lacks 'Black: not asked'"
"$deadpos" probe --tables "$tables" --both-sides "$flagpos" >/dev/null 2>&1
rc=$?; [ "$rc" = 2 ] || fail "--both-sides without --flag: exit code $rc, expected 2"
# A drawn flag still asks both questions: the reason tells a dead position (5.2.2) from 6.9.
"$deadpos" probe --tables "$tables" --json --flag white "8/8/8/3k4/8/8/8/KR6 w - - 0 1" >"$work/out1.txt" 2>/dev/null
python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["flag"]["reason"] == "opponent-cannot-mate" and j["white_can_mate"] is True and j["black_can_mate"] is False, j
' "$work/out1.txt" || fail "flag draw: $(cat "$work/out1.txt")"

# The trailer says how the questions were settled beyond the tables. Locked chains, every bishop
# shut out of the other side's pawns: both questions by the lock rule. A lone black king: Black's
# question by a rule, White's (three pawns can promote) by the search. Two armies: both searched.
check_trailer() {
  "$deadpos" probe --tables "$tables" "$1" >"$work/out1.txt" 2>/dev/null
  grep -qF "[beyond the tables: $2]" "$work/out1.txt" || fail "trailer '$2': $(cat "$work/out1.txt")"
}
check_trailer "8/8/1k1p1p2/3PpP2/3pKp2/b2P1P2/8/3B1B2 b - - 0 1" "rules"
check_trailer "8/8/8/3k4/8/8/PPP5/K7 w - - 0 1" "rule and search"
check_trailer "r3k3/ppp5/8/8/8/8/PPP5/R3K3 w - - 0 1" "search"

# A table answer says how castling rights and en passant were handled (docs/cli.md): KRvK with
# Black's queen-side right goes through the castling search; after e2-e4 beside the pawn on d4,
# d4xe3 is legal and must be counted.
check_table_trailer() {
  "$deadpos" probe --tables "$tables" "$1" >"$work/out1.txt" 2>/dev/null
  grep -qF "[table $2]" "$work/out1.txt" || fail "trailer 'table $2': $(cat "$work/out1.txt")"
}
check_table_trailer "r3k3/8/8/8/8/8/8/4K3 w q - 0 1" "KRvK, castling search"
check_table_trailer "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1" "KPvKP, en passant"

# A checkmate or stalemate whose material's table is not loaded is credited to the board, not
# to the absent table (here only KQvK is loaded; the positions are KRvK).
mkdir -p "$work/part"
ln -s "$(cd "$tables" && pwd)/KQvK.dpt" "$work/part/KQvK.dpt"
for fen in "R6k/8/6K1/8/8/8/8/8 b - - 0 1" "k7/1R6/1K6/8/8/8/8/8 b - - 0 1"; do
  "$deadpos" probe --tables "$work/part" "$fen" >"$work/out1.txt" 2>/dev/null
  grep -qF "[by the rules: no legal move]" "$work/out1.txt" || fail "board trailer: $(cat "$work/out1.txt")"
  "$deadpos" probe --tables "$work/part" --json "$fen" >"$work/out1.json" 2>/dev/null
  grep -q '"table": *"KRvK"' "$work/out1.json" && fail "absent table credited: $(cat "$work/out1.json")"
done

# An EPD file that cannot be opened: I/O exit status 5 and the operating system's reason.
rc=0
"$deadpos" probe --tables "$tables" --epd "$work/absent.epd" >/dev/null 2>"$work/err" || rc=$?
{ [ $rc = 5 ] && grep -qF "$work/absent.epd: cannot open: No such file or directory" "$work/err"; } ||
  fail "absent EPD: exit $rc: $(cat "$work/err")"

# An input before the EPD file that is refused decides the exit code (the first error in input
# order: a FEN error, 3), the answered inputs still get the summary, and the file's error follows.
rc=0
"$deadpos" probe --tables "$tables" 'not a fen' '8/8/8/8/8/8/8/K1k5 w - - 0 1' --epd "$work/absent.epd" \
  >"$work/out" 2>"$work/err" || rc=$?
{ [ $rc = 3 ] && grep -q '^summary: 1 answered, 1 not answered' "$work/out" &&
  grep -qF "$work/absent.epd: cannot open: No such file or directory" "$work/err"; } ||
  fail "FEN error then absent EPD: exit $rc: $(cat "$work/out" "$work/err")"

# An option given twice: a usage error (2) in words, not CLI11's "At Most 1 required".
rc=0
"$deadpos" probe --tables "$tables" --epd a.epd --epd b.epd >/dev/null 2>"$work/err" || rc=$?
{ [ $rc = 2 ] && grep -qF -- "--epd: given 2 times; it takes one value" "$work/err"; } ||
  fail "--epd twice: exit $rc: $(cat "$work/err")"

# A closed standard input is an I/O error (5), not an empty input (0).
rc=0
"$deadpos" probe --tables "$tables" <&- >/dev/null 2>"$work/err" || rc=$?
{ [ $rc = 5 ] && grep -qF "standard input: cannot read: Bad file descriptor" "$work/err"; } ||
  fail "closed standard input: exit $rc: $(cat "$work/err")"

# Closed after FEN arguments, standard input is still the error (descriptor 0 must never be a
# table file opened later), and a directory as standard input is refused too.
rc=0
"$deadpos" probe --tables "$tables" '8/8/8/8/8/8/8/K1k5 w - - 0 1' --epd - <&- >"$work/out" 2>"$work/err" || rc=$?
{ [ $rc = 5 ] && [ "$(grep -c . "$work/out")" = 1 ] && grep -qF "standard input: cannot read: Bad file descriptor" "$work/err"; } ||
  fail "FEN then closed standard input: exit $rc: $(cat "$work/out" "$work/err")"
rc=0
"$deadpos" probe --tables "$tables" <"$work" >/dev/null 2>"$work/err" || rc=$?
{ [ $rc = 5 ] && grep -qF "standard input: is a directory" "$work/err"; } ||
  fail "a directory as standard input: exit $rc: $(cat "$work/err")"

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "probe CLI: all checks passed ($ncases batch lines)"
