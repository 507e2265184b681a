#!/usr/bin/env bash
# Robustness of the deadpos command as a program inside other programs (issue 13; docs/cli.md):
#   usage  cli_robustness_test.sh DEADPOS TABLES_DIR
#  1. one physical output line per input, whatever bytes the input holds (printable ASCII only,
#     so readers that split on universal newlines agree), and an echo that cannot pass for an answer;
#  4. under a tight address-space limit (probe, generate, verify): never an abort (exit 134) — out
#     of memory is exit 9, and verify names the table it happened in;
#  5. a failed write to standard output is exit 5, never a silent 0;
#  9. a missing or empty table directory still gives one line per input;
# 10. --line with a subtable absent that the line does not need: the line is given;
# 13. a UTF-8 byte order mark before the first EPD line; --epd "" is a usage error (not stdin);
#     --version; "1 dead position"; an unknown subcommand and empty --tables/--out are usage errors;
# 14. a block cache limit larger than the memory left (--cache-mb 1048576 under ulimit -v): every
#     position the tables cover is still answered from them, as without the limit (the cache is
#     emptied when a block cannot be allocated), never "undetermined".
set -u
deadpos=$1
tables=$2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_robust.XXXXXX")
trap 'rm -rf "$work"' EXIT
kvk='8/8/8/8/8/8/8/K6k w - - 0 1'

# Lines of a file as a reader splitting on \n counts them, and whether any byte is outside
# printable ASCII (a universal-newline reader would split there).
lines() { wc -l <"$1" | tr -d ' '; }
all_printable() { ! LC_ALL=C grep -q '[^ -~]' "$1"; }

# --- 1: one physical line per input ------------------------------------------------------------
"$deadpos" probe --tables "$tables" $'8/8/8/8\n8/8/8/K6k w - - 0 1' "$kvk" >"$work/o1" 2>/dev/null
[ "$(lines "$work/o1")" = 3 ] || fail "FEN argument with a newline: $(lines "$work/o1") lines, expected 2 answers + summary"
all_printable "$work/o1" || fail "FEN argument with a newline: output holds a byte that is not printable ASCII"
for json in "" --json; do
  # One input line per control byte or line-break character; then a crafted line that mimics an
  # answer; then a real position.
  : >"$work/in2"
  for b in '\r' '\v' '\f' '\x1c' '\x1d' '\x1e' '\x85' '\x00' '\xc2\x85' '\xe2\x80\xa8' '\xe2\x80\xa9' '\x1b[2J'; do
    printf "x${b}y\n" >>"$work/in2"
  done
  printf '%s: dead position: neither side can checkmate [table KvK]\n' "$kvk" >>"$work/in2"
  printf '%s\n' "$kvk" >>"$work/in2"
  n_in=$(lines "$work/in2")
  "$deadpos" probe --tables "$tables" $json --epd "$work/in2" >"$work/o2" 2>/dev/null
  expect=$n_in
  [ -z "$json" ] && expect=$((n_in + 1))  # text mode adds the summary line
  [ "$(lines "$work/o2")" = "$expect" ] || fail "control bytes ${json:-text}: $(lines "$work/o2") lines for $n_in inputs"
  all_printable "$work/o2" || fail "control bytes ${json:-text}: output holds a byte that is not printable ASCII"
  if [ -z "$json" ]; then
    # Every error line starts with the quoted echo; only the real position's line starts with its FEN.
    n_fen=$(grep -c "^$kvk: " "$work/o2")
    [ "$n_fen" = 1 ] || fail "crafted input: $n_fen lines start like an answer for KvK, expected 1"
    n_err=$(grep -c '^".*": error: ' "$work/o2")
    [ "$n_err" = $((n_in - 1)) ] || fail "crafted input: $n_err quoted error lines, expected $((n_in - 1))"
  fi
done

# --- 4: out of memory is exit 9, never an abort ---------------------------------------------------
# Not under a sanitizer runtime, which reserves terabytes of address space at start.
if ldd "$deadpos" 2>/dev/null | grep -qE 'lib[at]san'; then
  echo "note: memory-limit checks skipped under a sanitizer build"
else
  for v in $(seq 8000 250 14000) 20000 40000; do
    (ulimit -v "$v"; exec "$deadpos" probe --tables "$tables" --line --flag stm '8/8/8/8/8/8/2Q5/K6k w - - 0 1' \
      'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3') >"$work/o4" 2>"$work/e4"
    rc=$?
    case $rc in
      0|9) ;;
      127) grep -q 'error while loading shared libraries' "$work/e4" || fail "ulimit -v $v: exit 127: $(head -c 200 "$work/e4")" ;;
      1) grep -q '^libgomp: Out of memory' "$work/e4" || fail "ulimit -v $v: exit 1: $(head -c 200 "$work/e4")" ;;
      *) fail "ulimit -v $v: exit $rc: $(head -c 200 "$work/e4")" ;;
    esac
    if grep -q 'terminate called' "$work/e4"; then fail "ulimit -v $v: uncaught exception"; fi
    if [ $rc = 9 ] && ! grep -q 'out of memory' "$work/e4" "$work/o4"; then fail "ulimit -v $v: exit 9 without saying so"; fi
  done
fi

# generate under a limit: the compression and OpenMP regions allocate where an exception cannot be
# caught; out of memory is still exit 9 (or libgomp refusing to create its threads, exit 1).
if ! ldd "$deadpos" 2>/dev/null | grep -qE 'lib[at]san'; then
  for v in 12000 16000 18000 19000 20000 22000 26000; do
    rm -rf "$work/g4"
    mkdir "$work/g4"
    (ulimit -v "$v"; exec "$deadpos" generate --max-men 3 --out "$work/g4") >/dev/null 2>"$work/e4"
    rc=$?
    case $rc in
      0|9) ;;
      1) grep -q '^libgomp: ' "$work/e4" || fail "generate, ulimit -v $v: exit 1: $(head -c 200 "$work/e4")" ;;
      *) fail "generate, ulimit -v $v: exit $rc: $(grep -v '^K' "$work/e4" | head -c 200)" ;;
    esac
    if grep -q 'terminate called' "$work/e4"; then fail "generate, ulimit -v $v: uncaught exception"; fi
  done
fi

# verify under a limit: out of memory names the table it happened in (the table's load or the
# verifier's own copy of it), exit 9; never the bare "out of memory" of the last-resort handler.
if ! ldd "$deadpos" 2>/dev/null | grep -qE 'lib[at]san'; then
  for v in $(seq 12000 1000 40000); do
    (ulimit -v "$v"; exec "$deadpos" verify --tables "$tables" --threads 1 KQvKR) >"$work/o4" 2>"$work/e4"
    rc=$?
    case $rc in
      0) ;;
      9) grep -q 'KQvKR.*out of memory' "$work/o4" || fail "verify, ulimit -v $v: exit 9 without the table named: $(head -c 200 "$work/o4" "$work/e4")" ;;
      127) grep -q 'error while loading shared libraries' "$work/e4" || fail "verify, ulimit -v $v: exit 127: $(head -c 200 "$work/e4")" ;;
      1) grep -q '^libgomp: ' "$work/e4" || fail "verify, ulimit -v $v: exit 1: $(head -c 200 "$work/e4")" ;;
      *) fail "verify, ulimit -v $v: exit $rc: $(head -c 200 "$work/e4")" ;;
    esac
    if grep -q 'terminate called' "$work/e4"; then fail "verify, ulimit -v $v: uncaught exception"; fi
  done
  # A whole directory (KRvKP and its ten subtables): a table that runs out of memory while loading
  # (inside the parallel block loop too) is that table's FAILED line, and the run goes on to the
  # summary; never the last-resort line that names no table.
  mkdir "$work/krkp"
  for k in KRvKP KPvK KvK KQvK KRvK KBvK KNvK KQvKR KRvKR KRvKB KRvKN; do cp "$tables/$k.dpt" "$work/krkp/"; done
  for v in $(seq 15000 250 24000); do
    (ulimit -v "$v"; exec "$deadpos" verify --tables "$work/krkp" --threads 1) >"$work/o4" 2>"$work/e4"
    rc=$?
    case $rc in
      0) ;;
      9) grep -q 'tables failed\|table failed' "$work/e4" ||
           fail "verify of a directory, ulimit -v $v: exit 9 without the summary: $(head -c 300 "$work/e4")" ;;
      127) grep -q 'error while loading shared libraries' "$work/e4" || fail "verify, ulimit -v $v: exit 127: $(head -c 200 "$work/e4")" ;;
      1) grep -q '^libgomp: ' "$work/e4" || fail "verify, ulimit -v $v: exit 1: $(head -c 200 "$work/e4")" ;;
      *) fail "verify of a directory, ulimit -v $v: exit $rc: $(head -c 200 "$work/e4")" ;;
    esac
  done
fi

# --- 5: write failures ------------------------------------------------------------------------------
if [ -w /dev/full ]; then
  "$deadpos" probe --tables "$tables" "$kvk" >/dev/full 2>"$work/e5"
  rc=$?
  [ $rc = 5 ] || fail "probe > /dev/full: exit $rc, expected 5"
  grep -q 'standard output: write error' "$work/e5" || fail "probe > /dev/full: no message: $(cat "$work/e5")"
  "$deadpos" fen "$kvk" >/dev/full 2>/dev/null
  rc=$?
  [ $rc = 5 ] || fail "fen > /dev/full: exit $rc, expected 5"
fi
"$deadpos" probe --tables "$tables" "$kvk" >&- 2>"$work/e5"
rc=$?
[ $rc = 5 ] || fail "probe with standard output closed: exit $rc, expected 5"

# --- 9: no tables: still one line per input ---------------------------------------------------------
mkdir "$work/empty"
for d in "$work/empty" "$work/absent"; do
  "$deadpos" probe --tables "$d" "$kvk" 'not a fen' >"$work/o9" 2>/dev/null
  rc=$?
  [ "$(lines "$work/o9")" = 3 ] || fail "tables $d: $(lines "$work/o9") lines, expected 2 + summary"
  [ "$(grep -c ': error: ' "$work/o9")" = 2 ] || fail "tables $d: expected an error line per input"
  case $d in
    */empty) [ $rc = 6 ] || fail "empty table directory: exit $rc, expected 6 (missing table)" ;;
    */absent) [ $rc = 5 ] || fail "absent table directory: exit $rc, expected 5 (I/O error)" ;;
  esac
done

# --- 10: a line that needs no capture subtable ------------------------------------------------------
mkdir "$work/kqk"
cp "$tables/KQvK.dpt" "$work/kqk/"
# Black to move can take the queen (Kxc1 leads to KvK, not loaded); Black can still be mated
# (before the fix: the whole answer, later only the line, was a missing-table error).
"$deadpos" probe --tables "$work/kqk" --line --json 'K7/8/8/8/8/8/3k4/2Q5 b - - 0 1' >"$work/o10" 2>"$work/e10"
rc=$?
[ $rc = 0 ] || fail "--line without KvK: exit $rc: $(cat "$work/o10" "$work/e10")"
grep -q '"white_can_mate":true' "$work/o10" || fail "--line without KvK: no verdict: $(cat "$work/o10")"
grep -q '"mated":"black","plies":' "$work/o10" || fail "--line without KvK: no line: $(cat "$work/o10")"

# --- 13: small things --------------------------------------------------------------------------------
printf '\xef\xbb\xbf%s\n' "$kvk" >"$work/bom.epd"
"$deadpos" probe --tables "$tables" --epd "$work/bom.epd" >"$work/o13" 2>&1
rc=$?
[ $rc = 0 ] || fail "EPD file with a byte order mark: exit $rc: $(cat "$work/o13")"
echo "$kvk" | "$deadpos" probe --tables "$tables" --epd "" >"$work/o13" 2>&1
rc=$?
[ $rc = 2 ] || fail "--epd '': exit $rc, expected 2 (usage), output: $(cat "$work/o13")"
"$deadpos" --version >"$work/o13" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^deadpos [0-9]' "$work/o13" || fail "--version: exit $rc: $(cat "$work/o13")"
"$deadpos" probe --tables "$tables" "$kvk" '8/8/8/8/8/8/2Q5/K6k w - - 0 1' >"$work/o13" 2>&1
grep -q '; 1 dead position$' "$work/o13" || fail "summary with one dead position: $(tail -1 "$work/o13")"

"$deadpos" bogus >"$work/o13" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'unknown subcommand "bogus"' "$work/o13" || fail "unknown subcommand: exit $rc: $(cat "$work/o13")"
for args in "probe --tables '' '$kvk'" "verify --tables ''" "generate --out '' KvK"; do
  eval "\"\$deadpos\" $args" >"$work/o13" 2>&1
  rc=$?
  [ $rc = 2 ] || fail "$args: exit $rc, expected 2 (usage): $(cat "$work/o13")"
done

# --- 14: a cache limit larger than the memory left ---------------------------------------------------
# 3,000 placements of 4-man materials with pawns (their tables have the most blocks), from a fixed
# linear congruential sequence; illegal ones are errors, the same in both runs.
seed=12345
: >"$work/in14"
for i in $(seq 3000); do
  board=()
  for s in $(seq 0 63); do board[s]=1; done
  placed=0
  for p in K k P p; do
    while :; do
      seed=$(((seed * 1103515245 + 12345) % 2147483648))
      s=$(((seed >> 8) % 64))
      if [ "${board[s]}" = 1 ] && { [ "$p" != P ] && [ "$p" != p ] || { [ $s -ge 8 ] && [ $s -lt 56 ]; }; }; then
        board[s]=$p
        break
      fi
    done
  done
  fen=
  for r in 7 6 5 4 3 2 1 0; do
    e=0
    for f in 0 1 2 3 4 5 6 7; do
      c=${board[r * 8 + f]}
      if [ "$c" = 1 ]; then e=$((e + 1)); else
        [ $e -gt 0 ] && fen+=$e
        e=0
        fen+=$c
      fi
    done
    [ $e -gt 0 ] && fen+=$e
    [ $r -gt 0 ] && fen+=/
  done
  [ $((i % 2)) = 0 ] && echo "$fen w - - 0 1" >>"$work/in14" || echo "$fen b - - 0 1" >>"$work/in14"
done
"$deadpos" probe --tables "$tables" --epd "$work/in14" >"$work/o14a" 2>&1
(
  ulimit -v 20000
  "$deadpos" probe --tables "$tables" --cache-mb 1048576 --epd "$work/in14" >"$work/o14b" 2>&1
)
diff -q "$work/o14a" "$work/o14b" >/dev/null ||
  fail "--cache-mb 1048576 under ulimit -v 20000: answers differ from the unlimited run: $(diff "$work/o14a" "$work/o14b" | head -3)"
grep -v '^summary: ' "$work/o14b" | grep -q 'undetermined' && fail "--cache-mb 1048576 under ulimit -v 20000: undetermined answers: $(grep -m1 undetermined "$work/o14b")"

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "robustness CLI: all checks passed"
