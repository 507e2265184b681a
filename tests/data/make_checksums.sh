#!/bin/sh
# Regenerates tests/data/tables4.xxh64, the committed XXH64 checksums of the <=4-man tables that
# TableChecksums.EveryTableMatchesTheCommittedList checks (style rule 33).
#
#   tests/data/make_checksums.sh [TABLE_DIR [BUILD_DIR]]
#
# TABLE_DIR defaults to BUILD_DIR/tables4 (the ctest fixture's directory, made by
# `ctest -R tables.generate_4men` or `deadpos generate --max-men 4 --out DIR`), BUILD_DIR to build/.
# The hash of each .dpt file is XXH64 with seed 0 over the whole file, as `xxhsum -H1` prints it;
# without the xxhsum program (package xxhash) the helper BUILD_DIR/tests/deadpos_xxh64 computes it
# with libxxhash. A commit that changes the list must name the changed tables.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${2:-$root/build}
dir=${1:-$build/tables4}
out=$here/tables4.xxh64

if [ ! -d "$dir" ]; then
  echo "make_checksums.sh: no table directory $dir" >&2
  echo "  build it with: $build/tools/deadpos generate --max-men 4 --out $dir" >&2
  exit 1
fi
n=$(ls "$dir"/*.dpt 2>/dev/null | wc -l)
if [ "$n" -ne 36 ]; then
  echo "make_checksums.sh: $dir holds $n tables, expected the 36 <=4-man tables" >&2
  exit 1
fi

tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
{
  echo "# XXH64 (seed 0) of each <=4-man table file <KEY>.dpt: \"<KEY> <16 hex digits>\", as xxhsum -H1."
  echo "# Checked by TableChecksums.EveryTableMatchesTheCommittedList against \$DEADPOS_TABLES."
  echo "# Regenerate: tests/data/make_checksums.sh [TABLE_DIR [BUILD_DIR]] (default build/tables4);"
  echo "# a commit that changes this list must name the changed tables (style rule 33)."
  if command -v xxhsum >/dev/null 2>&1; then
    for f in "$dir"/*.dpt; do
      h=$(xxhsum -H1 "$f" | cut -d' ' -f1)
      echo "$(basename "$f" .dpt) $h"
    done | LC_ALL=C sort
  else
    helper=$build/tests/deadpos_xxh64
    if [ ! -x "$helper" ]; then
      echo "make_checksums.sh: neither xxhsum nor $helper (cmake --build $build --target deadpos_xxh64)" >&2
      exit 1
    fi
    "$helper" "$dir"/*.dpt | LC_ALL=C sort
  fi
} > "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out ($n tables)"
