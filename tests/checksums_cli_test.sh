#!/usr/bin/env bash
# deadpos verify --checksums against lists made by coreutils' sha256sum (the independent source):
# a list of a copy of the <=4-man tables is accepted; a changed byte, a missing file, an extra file,
# an unreadable file and each kind of malformed line are reported exactly (the file and line named,
# nothing else reported, the exit code of docs/cli.md's table).
# Also checks the published list docs/checksums-5men.txt (section 8).
# Usage: checksums_cli_test.sh DEADPOS TABLE_DIR   (DEADPOS_TABLES5=DIR: also the whole <=5-man set)
set -u
deadpos=$1
tables=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
command -v sha256sum >/dev/null || { echo "FAIL: sha256sum (coreutils) not found" >&2; exit 1; }

mkdir "$work/t"
cp "$tables"/*.dpt "$work/t/"
n=$(ls "$work/t"/*.dpt | wc -l)
[ "$n" -ge 30 ] || fail "only $n tables in $tables"
(cd "$work/t" && sha256sum -- *.dpt) >"$work/list"
(cd "$work/t" && sha256sum -c --strict --quiet "$work/list") || fail "sha256sum -c rejects its own list"

# run ARGS...: exit code in $rc, stdout in $work/out, stderr in $work/err.
run() {
  "$deadpos" verify "$@" >"$work/out" 2>"$work/err"
  rc=$?
}
# not_ok: the lines of stdout that are not "<file> ok" and not the last line.
not_ok() { grep -v ' ok$' "$work/out" | grep -v '^checksums: ' || true; }

# 1. the list of an intact copy is accepted, every file named once.
run --checksums "$work/list" --tables "$work/t"
[ $rc = 0 ] || fail "intact copy: exit $rc: $(cat "$work/err")"
[ "$(grep -c ' ok$' "$work/out")" = "$n" ] || fail "intact copy: not $n ok lines: $(head -3 "$work/out")"
grep -qx "checksums: $n files of $work/list match" "$work/out" || fail "intact copy: last line: $(tail -1 "$work/out")"
[ -z "$(not_ok)" ] || fail "intact copy: unexpected lines: $(not_ok)"
# sha256sum -b's ' *' marker and upper-case hex are the same list.
awk '{print toupper($1) " *" $2}' "$work/list" >"$work/list-b2"
run --checksums "$work/list-b2" --tables "$work/t"
[ $rc = 0 ] || fail "' *' and upper-case hex: exit $rc: $(cat "$work/err") $(head -2 "$work/list-b2")"

# 2. a changed byte in one file: that file, and only it, DIFFERS; exit 8.
victim=KRvK.dpt
[ -f "$work/t/$victim" ] || victim=$(basename "$(ls "$work/t"/*.dpt | head -1)")
cp "$work/t/$victim" "$work/saved"
size=$(stat -c %s "$work/t/$victim")
printf '\x5a' | dd of="$work/t/$victim" bs=1 seek=$((size / 2)) conv=notrunc status=none
cmp -s "$work/t/$victim" "$work/saved" && printf '\xa5' | dd of="$work/t/$victim" bs=1 seek=$((size / 2)) conv=notrunc status=none
actual=$(sha256sum "$work/t/$victim" | cut -c1-64)
expected=$(grep "  $victim\$" "$work/list" | cut -c1-64)
line=$(grep -n "  $victim\$" "$work/list" | cut -d: -f1)
run --checksums "$work/list" --tables "$work/t"
[ $rc = 8 ] || fail "changed byte: exit $rc, expected 8"
[ "$(not_ok)" = "$victim DIFFERS: sha256 $actual, $work/list line $line lists $expected" ] ||
  fail "changed byte: reported: $(not_ok)"
grep -q "^deadpos: verification failed: 1 differ, 0 missing, 0 extra, 0 unreadable, $((n - 1)) ok in $work/t against $work/list; first: $victim\$" "$work/err" ||
  fail "changed byte: stderr: $(cat "$work/err")"
cp "$work/saved" "$work/t/$victim"

# 3. a missing file: MISSING with its list line; exit 8.
mv "$work/t/$victim" "$work/saved"
run --checksums "$work/list" --tables "$work/t"
[ $rc = 8 ] || fail "missing file: exit $rc, expected 8"
[ "$(not_ok)" = "$victim MISSING: listed on $work/list line $line, not in the directory" ] ||
  fail "missing file: reported: $(not_ok)"
mv "$work/saved" "$work/t/$victim"

# 4. an extra file (a table the list does not name, and a .dpt that is no table's): EXTRA; exit 8.
grep -v "  $victim\$" "$work/list" >"$work/list-less"
printf 'x' >"$work/t/notatable.dpt"
run --checksums "$work/list-less" --tables "$work/t"
[ $rc = 8 ] || fail "extra files: exit $rc, expected 8"
[ "$(not_ok)" = "$victim EXTRA: in the directory, not in $work/list-less
notatable.dpt EXTRA: in the directory, not in $work/list-less" ] || fail "extra files: reported: $(not_ok)"
grep -q "^deadpos: verification failed: 0 differ, 0 missing, 2 extra, 0 unreadable, $((n - 1)) ok" "$work/err" ||
  fail "extra files: stderr: $(cat "$work/err")"
rm "$work/t/notatable.dpt"
# files that are not *.dpt (the .json statistics, anything else) are not looked at
printf '{}' >"$work/t/KRvK.json"
run --checksums "$work/list" --tables "$work/t"
[ $rc = 0 ] || fail "a .json beside the tables: exit $rc"
# verdict files (docs/format.md section 7): a list of table files alone does not look at them; a
# list that names one checks them all, an unlisted one EXTRA.
cp "$tables"/*.dpv "$work/t/"
nv=$(ls "$work/t"/*.dpv | wc -l)
[ "$nv" = "$n" ] || fail "only $nv verdict files in $tables for $n tables"
run --checksums "$work/list" --tables "$work/t"
[ $rc = 0 ] || fail "verdict files beside a list of table files: exit $rc: $(cat "$work/err")"
(cd "$work/t" && sha256sum -- *.dpt *.dpv) >"$work/list-v"
run --checksums "$work/list-v" --tables "$work/t"
{ [ $rc = 0 ] && grep -qx "checksums: $((2 * n)) files of $work/list-v match" "$work/out"; } ||
  fail "tables and verdict files: exit $rc: $(tail -1 "$work/out") $(cat "$work/err")"
grep -v "  KRvK.dpv\$" "$work/list-v" >"$work/list-v-less"
run --checksums "$work/list-v-less" --tables "$work/t"
{ [ $rc = 8 ] && [ "$(not_ok)" = "KRvK.dpv EXTRA: in the directory, not in $work/list-v-less" ]; } ||
  fail "an unlisted verdict file: exit $rc: $(not_ok)"
rm "$work/t"/*.dpv
run --checksums "$work/list-v" --tables "$work/t"
{ [ $rc = 8 ] && [ "$(grep -c '\.dpv MISSING: ' "$work/out")" = "$n" ]; } || fail "missing verdict files: exit $rc"

# 5. a FIFO under a listed name: UNREADABLE (never opened for reading, no hang); exit 5.
mv "$work/t/$victim" "$work/saved"
mkfifo "$work/t/$victim"
# A writer waiting on the FIFO must stay blocked: even a non-blocking open for reading would
# release it.
timeout 30 sh -c 'echo x >"$1"' sh "$work/t/$victim" 2>/dev/null &
writer=$!
timeout 20 "$deadpos" verify --checksums "$work/list" --tables "$work/t" >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 5 ] || fail "FIFO: exit $rc, expected 5"
[ "$(not_ok)" = "$victim UNREADABLE: I/O error: $work/t/$victim: is a FIFO, not a regular file" ] ||
  fail "FIFO: reported: $(not_ok)"
sleep 0.5
kill -0 "$writer" 2>/dev/null || fail "FIFO: the writer waiting on it was released (the FIFO was opened)"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
rm "$work/t/$victim"
mv "$work/saved" "$work/t/$victim"

# 6. malformed lists: one line on stderr naming the file and line, exit 4, no file reported.
good=$(sed -n 1p "$work/list")
bad_list() {  # NAME LINE2 EXPECTED_MESSAGE_PART
  { echo "$good"; printf '%s\n' "$2"; sed -n '2,$p' "$work/list"; } >"$work/bad"
  run --checksums "$work/bad" --tables "$work/t"
  [ $rc = 4 ] || fail "$1: exit $rc, expected 4"
  [ ! -s "$work/out" ] || fail "$1: files reported: $(head -2 "$work/out")"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$1: not one line on stderr: $(cat "$work/err")"
  grep -qF "deadpos: invalid argument: $work/bad:2: $3" "$work/err" || fail "$1: stderr: $(cat "$work/err")"
}
h=$(echo "$good" | cut -c1-64)
bad_list "short checksum" "${h:0:63}  KQvK.dpt" "the checksum is not 64 hex digits"
bad_list "non-hex digit" "g${h:1}  KQvK.dpt" "the checksum is not 64 hex digits"
bad_list "one space" "$h KQvK.dpt" "expected two spaces"
bad_list "no name" "$h" "too short"
bad_list "one space (long name)" "$h KQRvKRB.dpt" "expected two spaces"
bad_list "comment" "# made by sha256sum" "a comment"
bad_list "blank line" "" "blank line"
bad_list "path in the name" "$h  ../KQvK.dpt" "'../KQvK.dpt' is not a table file name"
bad_list "not canonical" "$h  KvKQ.dpt" "'KvKQ.dpt' is not a table file name"
bad_list "not .dpt" "$h  KQvK.json" "'KQvK.json' is not a table file name <KEY>.dpt or a verdict file name"
bad_list "verdict, not canonical" "$h  KvKQ.dpv" "'KvKQ.dpv' is not a verdict file name <KEY>.dpv"
bad_list "six men" "$h  KQRRvKQ.dpt" "'KQRRvKQ.dpt' has 6 men; deadpos builds and verifies tables of at most 5"
bad_list "listed twice" "$good" "'$(echo "$good" | cut -c67-)' is listed twice"
printf '%s\r\n' "$good" >"$work/bad"
run --checksums "$work/bad" --tables "$work/t"
{ [ $rc = 4 ] && grep -qF "$work/bad:1: line ends with a carriage return" "$work/err"; } || fail "CRLF: exit $rc: $(cat "$work/err")"
: >"$work/bad"
run --checksums "$work/bad" --tables "$work/t"
{ [ $rc = 4 ] && grep -qF "$work/bad: no checksum line" "$work/err"; } || fail "empty list: exit $rc: $(cat "$work/err")"
# the last line may lack its newline, as any text file
printf '%s' "$(cat "$work/list")" >"$work/list-nonl"
run --checksums "$work/list-nonl" --tables "$work/t"
[ $rc = 0 ] || fail "no final newline: exit $rc: $(cat "$work/err")"

# 7. the list or the directory cannot be read: exit 5; material keys with --checksums: usage, exit 2.
run --checksums "$work/nonexistent" --tables "$work/t"
{ [ $rc = 5 ] && grep -qF "$work/nonexistent: cannot open" "$work/err"; } || fail "no list: exit $rc: $(cat "$work/err")"
mkfifo "$work/fifo-list"
timeout 20 "$deadpos" verify --checksums "$work/fifo-list" --tables "$work/t" >"$work/out" 2>"$work/err"
rc=$?
{ [ $rc = 5 ] && grep -qF "not a regular file" "$work/err"; } || fail "FIFO list: exit $rc: $(cat "$work/err")"
run --checksums "$work/list" --tables "$work/nodir"
[ $rc = 5 ] || fail "no directory: exit $rc: $(cat "$work/err")"
run --checksums "$work/list" --tables "$work/t" KQvK
[ $rc = 2 ] || fail "--checksums with a material: exit $rc, expected 2"

# 8. the published list of the <=5-man set (docs/checksums-5men.txt): 146 names, KvK and the 145
# tables of the Syzygy 3-4-5-man set (its published file count); deadpos reads it (an empty
# directory: every name missing, no line refused); its <=4-man lines are the digests of the tables
# this build just generated (the fixture), so the list is tied to the current generator; with
# DEADPOS_TABLES5 set, the whole set is checked against it. Every listed table has a 0-mismatch line
# in docs/verify-5men.txt.
published=$(cd "$(dirname "$0")/.." && pwd)/docs/checksums-5men.txt
[ "$(wc -l <"$published")" = 146 ] || fail "published list: $(wc -l <"$published") lines, expected 146"
grep -qx '[0-9a-f]\{64\}  KvK\.dpt' "$published" || fail "published list: no KvK line"
mkdir "$work/empty"
run --checksums "$published" --tables "$work/empty"
{ [ $rc = 8 ] && [ "$(grep -c ' MISSING: ' "$work/out")" = 146 ]; } ||
  fail "published list against an empty directory: exit $rc, $(grep -c ' MISSING: ' "$work/out") missing: $(head -2 "$work/err")"
(cd "$tables" && sha256sum -- *.dpt) | LC_ALL=C sort >"$work/fresh4"
grep -F -f <(sed 's/.*  //' "$work/fresh4") "$published" | LC_ALL=C sort >"$work/published4"
diff "$work/published4" "$work/fresh4" >"$work/diff4" ||
  fail "published list: its <=4-man digests differ from this build's tables: $(head -4 "$work/diff4")"
# Every table of the list was verified (docs/verify-5men.txt, the log of deadpos verify over the
# set the list was made from): one line "KEY N entries checked, 0 mismatches, S s" per listed file,
# and no table of the log missing from the list.
vlog=$(dirname "$published")/verify-5men.txt
sed 's/.*  //; s/\.dpt$//' "$published" | LC_ALL=C sort >"$work/listed"
grep -v '^#' "$vlog" | awk '$5 == "0" && $6 == "mismatches," { print $1 }' | LC_ALL=C sort >"$work/verified"
diff "$work/listed" "$work/verified" >"$work/diffv" ||
  fail "docs/verify-5men.txt: the tables verified with 0 mismatches differ from the published list: $(head -4 "$work/diffv")"
[ "$(grep -vc '^#' "$vlog")" = 146 ] || fail "docs/verify-5men.txt: $(grep -vc '^#' "$vlog") table lines, expected 146"
if [ -n "${DEADPOS_TABLES5:-}" ]; then
  run --checksums "$published" --tables "$DEADPOS_TABLES5"
  [ $rc = 0 ] || fail "DEADPOS_TABLES5=$DEADPOS_TABLES5 against the published list: exit $rc: $(cat "$work/err")"
fi

if [ $failures -gt 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "checksums_cli_test: all passed ($n tables)"
