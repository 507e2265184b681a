#!/usr/bin/env bash
# capi.public: the programs built against the installed library (build_consumers.sh) answer the
# public dispute positions (examples/positions-public.tsv) and tests/capi/positions-extra.txt as
# `deadpos probe --json` does (compare_probe.py, field by field), on
#  1. the <=4-man tables;
#  2. a copy without KRvK (the command and the C API then search for those positions; with
#     tables_only the C API says "missing table", naming KRvK);
#  3. a copy whose KRvK.dpt has one byte flipped (both say "corrupt table" for KRvK positions).
# The installed deadpos command is the reference; the two builds of the example agree.
#   public_test.sh PYTHON WORK TABLES SOURCE_DIR
set -euo pipefail
py=$1 work=$2 tables=$3 src=$4
export LD_LIBRARY_PATH=$work/prefix/$(cat "$work/libdir")
deadpos=$work/prefix/bin/deadpos
dump=$work/bin/capi_dump
cmp="$src/tests/capi/compare_probe.py"
pos=("$src/examples/positions-public.tsv" "$src/tests/capi/positions-extra.txt")
t=$work/public
rm -rf "$t"
mkdir -p "$t"
fail=0

echo "== 1. all tables"
"$py" "$cmp" "$deadpos" "$dump" "$work/bin/adjudicate-pc" "$tables" "${pos[@]}" || fail=1
grep -v "^#" "${pos[0]}" | tail -n +2 | cut -f2 >"$t/fens.txt"
cat "${pos[1]}" >>"$t/fens.txt"
"$work/bin/adjudicate-pc" "$tables" <"$t/fens.txt" >"$t/pc.out" || true
"$work/bin/adjudicate-cmake" "$tables" <"$t/fens.txt" >"$t/cmake.out" || true
cmp -s "$t/pc.out" "$t/cmake.out" || { echo "FAIL: the pkg-config and CMake builds of the example differ"; fail=1; }
[ -s "$t/pc.out" ] || { echo "FAIL: the example printed nothing"; fail=1; }

echo "== 2. without KRvK"
mkdir "$t/partial"
for f in "$tables"/*.dpt; do
  [ "$(basename "$f")" = KRvK.dpt ] || cp "$f" "$t/partial/"
done
"$py" "$cmp" "$deadpos" "$dump" "$work/bin/adjudicate-pc" "$t/partial" "${pos[@]}" || fail=1
out=$(echo "8/2kr4/8/K7/8/8/8/8 w - - 0 1" | "$dump" "$t/partial" --tables-only)
case "$out" in
  *'"category":"missing table"'*KRvK*) ;;
  *) echo "FAIL: tables_only without KRvK: $out"; fail=1 ;;
esac
out=$(echo "8/2kr4/8/K7/8/8/8/8 w - - 0 1" | "$dump" "$tables" --tables-only)
case "$out" in
  *'"dthm_white_mated_plies":4'*) ;;
  *) echo "FAIL: tables_only with KRvK: $out"; fail=1 ;;
esac

echo "== 3. KRvK.dpt corrupt"
mkdir "$t/corrupt"
cp "$tables"/*.dpt "$t/corrupt/"
size=$(stat -c %s "$t/corrupt/KRvK.dpt")
# Flip every byte of the second half of the file: whatever block a position reads is damaged.
"$py" - "$t/corrupt/KRvK.dpt" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
for i in range(len(b) // 2, len(b)):
    b[i] ^= 0xFF
open(p, "wb").write(bytes(b))
PY
"$py" "$cmp" "$deadpos" "$dump" "$work/bin/adjudicate-pc" "$t/corrupt" "${pos[@]}" || fail=1
out=$(echo "8/2kr4/8/K7/8/8/8/8 w - - 0 1" | "$dump" "$t/corrupt")
case "$out" in
  *'"category":"corrupt table"'*KRvK*) ;;
  *) echo "FAIL: corrupt KRvK ($size bytes): $out"; fail=1 ;;
esac
exit $fail
