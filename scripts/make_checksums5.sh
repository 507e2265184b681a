#!/usr/bin/env bash
# Writes docs/checksums-5men.txt, the published SHA-256 list of the <=5-man table files, from a
# table directory that `deadpos verify` has passed (docs/build.md, "Reproducible tables").
#
#   scripts/make_checksums5.sh DIR [DEADPOS]
#
# DIR must hold exactly the 146 <=5-man tables (<KEY>.dpt; other files are ignored). The digests
# are coreutils' sha256sum's, one line "<64 hex>  <KEY>.dpt" per table in C-locale name order:
# the format `sha256sum -c` and `deadpos verify --checksums` read, with no comment (sha256sum -c
# rejects them; where the list comes from is said in docs/build.md). The list is then checked back
# with DEADPOS verify --checksums (default build/tools/deadpos; skipped when it is not built) and
# written atomically (temporary + rename). A commit that changes the list names the tables that
# changed and the verify run that passed them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${1:?usage: scripts/make_checksums5.sh DIR [DEADPOS]}
deadpos=${2:-$root/build/tools/deadpos}
out=$root/docs/checksums-5men.txt
expected=146

[ -d "$dir" ] || { echo "make_checksums5.sh: no directory $dir" >&2; exit 1; }
n=$(find "$dir" -maxdepth 1 -name '*.dpt' -type f | wc -l)
if [ "$n" -ne "$expected" ]; then
  echo "make_checksums5.sh: $dir holds $n table files, expected the $expected <=5-man tables" >&2
  echo "  build them with: DEADPOS_MAX_MEN=5 scripts/run.sh (or deadpos generate --max-men 5 --out $dir)" >&2
  exit 1
fi

tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
(cd "$dir" && find . -maxdepth 1 -name '*.dpt' -type f -printf '%f\n' | LC_ALL=C sort | xargs -d '\n' sha256sum --) >"$tmp"
[ "$(wc -l <"$tmp")" -eq "$expected" ] || { echo "make_checksums5.sh: sha256sum wrote $(wc -l <"$tmp") lines" >&2; exit 1; }
if [ -x "$deadpos" ]; then
  "$deadpos" verify --checksums "$tmp" --tables "$dir" >/dev/null
fi
mv "$tmp" "$out"
trap - EXIT
echo "wrote $out ($n tables)"
