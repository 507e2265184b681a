#!/usr/bin/env bash
# capi.install (fixture capi_prefix): `cmake --install` of the build tree into a fresh prefix, which
# is then moved to WORK/prefix: the consumers (build_consumers.sh) use only the moved tree, so the
# installation must be relocatable. Checks the installed files: the deadpos command, the header,
# the library with its SONAME link, deadpos.pc, the CMake package, the docs; and that no text file
# and no library RUNPATH names the build or source tree.
#   install_test.sh CMAKE BUILD_DIR WORK SOURCE_DIR
set -euo pipefail
cmake=$1 build=$2 work=$3 src=$4
rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/staged" >"$work/install.log"
mv "$work/staged" "$work/prefix"
p=$work/prefix
fail=0
libdir=$(cd "$p" && ls -d lib*/ | head -1)
libdir=${libdir%/}
[ -f "$p/$libdir/pkgconfig/deadpos.pc" ] || libdir=$(dirname "$(cd "$p" && find . -name deadpos.pc | head -1)" | sed 's|^\./||; s|/pkgconfig$||')
echo "$libdir" >"$work/libdir"
for f in bin/deadpos include/deadpos.h "$libdir/libdeadpos.so" "$libdir/pkgconfig/deadpos.pc" \
    "$libdir/cmake/deadpos/deadposConfig.cmake" "$libdir/cmake/deadpos/deadposConfigVersion.cmake" \
    "$libdir/cmake/deadpos/deadposTargets.cmake" share/doc/deadpos/README.md share/doc/deadpos/cli.md \
    share/doc/deadpos/examples/c/deadpos_adjudicate.c; do
  [ -e "$p/$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
soname=$(objdump -p "$p/$libdir/libdeadpos.so" | awk '$1 == "SONAME" {print $2}')
[ -e "$p/$libdir/$soname" ] || { echo "FAIL: $libdir/$soname (the SONAME) not installed"; fail=1; }
# No path of the build or source tree in the installed text files, nor in a RUNPATH/RPATH.
while IFS= read -r -d '' f; do
  if grep -Iq . "$f" && grep -lF -e "$build" -e "$src" -e "$work/staged" "$f" >/dev/null; then
    echo "FAIL: $f names the build or source tree:"; grep -nF -e "$build" -e "$src" -e "$work/staged" "$f" | head -3; fail=1
  fi
done < <(find "$p" -type f -print0)
for f in "$p/bin/deadpos" "$p/$libdir/$soname"; do
  if objdump -p "$f" | grep -E 'R(UN)?PATH' ; then echo "FAIL: $f has an RPATH/RUNPATH"; fail=1; fi
done
"$p/bin/deadpos" --version >/dev/null || { echo "FAIL: the installed deadpos command does not run"; fail=1; }
echo "capi.install: $(find "$p" -type f | wc -l) files installed under $p (libdir $libdir, SONAME $soname)"
exit $fail
