#!/usr/bin/env bash
# Builds cutechess-cli from the shared snapshot (../shared/upstream/cutechess-5e84232.tar.gz, GPL-3)
# with deadpos.patch applied, against the installed libdeadpos (pkg-config deadpos) and Debian's
# Qt 6; or, with --unpatched, the snapshot as published (for comparisons).
#   integrations/cutechess/build.sh [--unpatched] BUILD_DIR
# Prints the path of the cutechess-cli binary. The sources and the build go to
# BUILD_DIR/cutechess-deadpos (or cutechess-upstream); a build whose inputs (snapshot, patch,
# libdeadpos) are unchanged is reused (its file .deadpos-stamp). A folder of that name that this
# script did not make is refused, never deleted. Needs cmake, a C++17 compiler, patch, pkg-config,
# qt6-base-dev and qt6-svg-dev (README.md). About 3 minutes on 2 cores.
# Exit codes: 2 usage, 3 no snapshot, 4 a tool missing, 5 no deadpos, 6 the build failed,
# 7 BUILD_DIR holds a folder of that name not made here.
set -euo pipefail
# CDPATH unset and "--": a user's CDPATH or a folder named like an option must not move cd.
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
patched=1
if [ "${1:-}" = --unpatched ]; then patched=0; shift; fi
[ $# -eq 1 ] || { echo "usage: build.sh [--unpatched] BUILD_DIR" >&2; exit 2; }
case $1 in -h | --help) echo "usage: build.sh [--unpatched] BUILD_DIR"; exit 0 ;; esac
# "-" alone is $OLDPWD to cd even after "--": a relative BUILD_DIR starting with "-" gets "./".
dir=$1
case $dir in -*) dir=./$dir ;; esac
snapshot=${CUTECHESS_SNAPSHOT:-$here/../../../shared/upstream/cutechess-5e84232.tar.gz}
[ -f "$snapshot" ] || { echo "build.sh: no snapshot at $snapshot (set CUTECHESS_SNAPSHOT)" >&2; exit 3; }
for tool in cmake make patch g++ pkg-config; do
  command -v "$tool" >/dev/null || { echo "build.sh: '$tool' is missing (apt-get install cmake build-essential patch pkg-config)" >&2; exit 4; }
done
mkdir -p -- "$dir"
out=$(CDPATH= cd -- "$dir" && pwd)/$([ $patched = 1 ] && echo cutechess-deadpos || echo cutechess-upstream)
# recipe: bump it when the build steps below change, so that a kept build is redone.
recipe=1
stamp_inputs="recipe-$recipe $(sha256sum "$snapshot" | cut -d' ' -f1)"
if [ $patched = 1 ]; then
  pkg-config --exists deadpos || {
    echo "build.sh: pkg-config finds no deadpos (install it: cmake --install build --prefix P; export PKG_CONFIG_PATH=P/lib/pkgconfig)" >&2
    exit 5
  }
  libdir=$(pkg-config --variable=libdir deadpos)
  stamp_inputs="$stamp_inputs $(sha256sum "$here/deadpos.patch" | cut -d' ' -f1) $(sha256sum "$libdir"/libdeadpos.so | cut -d' ' -f1) $(pkg-config --cflags --libs deadpos)"
fi
if [ -x "$out/build/cutechess-cli" ] && [ "$(cat "$out/.deadpos-stamp" 2>/dev/null)" = "$stamp_inputs" ]; then
  echo "$out/build/cutechess-cli"
  exit 0
fi
if [ -e "$out" ] && [ ! -f "$out/.deadpos-build" ]; then
  echo "build.sh: $out exists and was not made by this script: move it away or choose another BUILD_DIR" >&2
  exit 7
fi
rm -rf "$out"
mkdir -p "$out/src"
touch "$out/.deadpos-build"
tar xzf "$snapshot" -C "$out/src" --strip-components=1
if [ $patched = 1 ]; then
  (cd "$out/src" && patch -p1 --quiet < "$here/deadpos.patch")
fi
jobs=${JOBS:-$(nproc)}
{ cmake -S "$out/src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF &&
  cmake --build "$out/build" --target cli -j"$jobs"; } > "$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log" >&2; echo "build.sh: the build failed (log: $out/build.log)" >&2; exit 6; }
echo "$stamp_inputs" > "$out/.deadpos-stamp"
echo "$out/build/cutechess-cli"
