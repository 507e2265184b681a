#!/usr/bin/env bash
# examples/cpp/generate_tables.cpp as a user runs it: bad arguments are refused with exit 2 and
# nothing written; every 3-man table it builds with 1 and with 2 threads has the XXH64 of the
# committed list tests/data/tables4.xxh64 (xxhsum when installed, else the suite's
# deadpos_xxh64); a second run keeps the tables (exit 0, "already present").
# Usage: example_generate_test.sh GENERATE_TABLES XXH64_HELPER LIST
set -u
gen=$1
helper=$2
list=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
hashes() {  # DIR: "<KEY> <hex>" of each .dpt, sorted
  if command -v xxhsum >/dev/null 2>&1; then
    for f in "$1"/*.dpt; do echo "$(basename "$f" .dpt) $(xxhsum -H1 "$f" | cut -d' ' -f1)"; done
  else
    "$helper" "$1"/*.dpt
  fi | LC_ALL=C sort
}

for args in "" "$work/a" "$work/a 1" "$work/a 6" "$work/a x" "$work/a 3x" "$work/a 3 0" "$work/a 3 1025" \
  "$work/a 3 2y" "$work/a 3 1 extra"; do
  # shellcheck disable=SC2086  # the arguments are split on purpose
  "$gen" $args >"$work/out" 2>"$work/err"
  rc=$?
  [ "$rc" = 2 ] || fail "arguments '$args': exit $rc, expected 2"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "arguments '$args': stderr is not one line: $(cat "$work/err")"
  [ ! -e "$work/a" ] || fail "arguments '$args': created $work/a"
done

# The six 3-man tables (KvK, KNvK, KBvK, KRvK, KQvK, KPvK) and their committed digests.
grep -E '^K[NBRQP]?vK ' "$list" | LC_ALL=C sort >"$work/want"
[ "$(wc -l <"$work/want")" = 6 ] || fail "expected 6 tables of at most 3 men in $list, found $(wc -l <"$work/want")"
for threads in 1 2; do
  "$gen" "$work/t$threads" 3 "$threads" >"$work/out" 2>"$work/err" || fail "$threads threads: exit $?: $(tail -1 "$work/err")"
  grep -q '^built 6 tables, 0 already present$' "$work/out" || fail "$threads threads: $(tail -1 "$work/out")"
  hashes "$work/t$threads" >"$work/got"
  diff "$work/want" "$work/got" >/dev/null || fail "$threads threads: digests differ from $list: $(diff "$work/want" "$work/got")"
done
"$gen" "$work/t1" 3 >"$work/out" 2>"$work/err" || fail "second run: exit $?"
grep -q '^built 0 tables, 6 already present$' "$work/out" || fail "second run: $(tail -1 "$work/out")"

[ "$failures" = 0 ] && echo "example_generate_test: all checks passed"
[ "$failures" = 0 ]
