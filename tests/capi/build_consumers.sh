#!/usr/bin/env bash
# capi.consumers (fixture capi_programs): programs built against the installed prefix WORK/prefix
# only (install_test.sh), as users build them:
#  - examples/c/deadpos_adjudicate.c and tests/capi/capi_dump.c with
#    `cc -std=c99 -pedantic ... $(pkg-config --cflags --libs deadpos)` (PKG_CONFIG_PATH = the prefix);
#  - examples/c/CMakeLists.txt configured with CMAKE_PREFIX_PATH = the prefix (find_package(deadpos)).
# Each is then run once (LD_LIBRARY_PATH = the prefix's libdir) to show it loads the installed library.
#   build_consumers.sh CMAKE WORK SOURCE_DIR EXTRA_CFLAGS
set -euo pipefail
cmake=$1 work=$2 src=$3 extra=${4:-}
p=$work/prefix
libdir=$p/$(cat "$work/libdir")
export PKG_CONFIG_PATH=$libdir/pkgconfig
# Only the prefix: no include path or library of the source and build trees.
export PKG_CONFIG_LIBDIR=$libdir/pkgconfig
cc=${CC:-cc}
flags="-std=c99 -pedantic -Wall -Wextra -Werror -O1 $extra"
mkdir -p "$work/bin"
# shellcheck disable=SC2046,SC2086
"$cc" $flags "$src/examples/c/deadpos_adjudicate.c" $(pkg-config --cflags --libs deadpos) -o "$work/bin/adjudicate-pc"
# shellcheck disable=SC2046,SC2086
"$cc" $flags "$src/tests/capi/capi_dump.c" $(pkg-config --cflags --libs deadpos) -o "$work/bin/capi_dump"
# The header also compiles as C++ (extern "C").
# shellcheck disable=SC2046
c++ -std=c++17 -Wall -Wextra -Werror -x c++ -fsyntax-only $(pkg-config --cflags deadpos) - <<<'#include <deadpos.h>
int main() { return deadpos_version() == nullptr; }'
rm -rf "$work/cmake-consumer"
"$cmake" -S "$src/examples/c" -B "$work/cmake-consumer" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$extra" >"$work/cmake-consumer.log"
"$cmake" --build "$work/cmake-consumer" >>"$work/cmake-consumer.log"
cp "$work/cmake-consumer/deadpos_adjudicate" "$work/bin/adjudicate-cmake"
# The CMake consumer found the moved prefix, not the build tree.
grep -q "deadpos_DIR:PATH=$libdir/cmake/deadpos" "$work/cmake-consumer/CMakeCache.txt" ||
  { echo "FAIL: find_package(deadpos) did not find $libdir/cmake/deadpos"; grep deadpos_DIR "$work/cmake-consumer/CMakeCache.txt"; exit 1; }
export LD_LIBRARY_PATH=$libdir
for b in adjudicate-pc adjudicate-cmake; do
  rc=0
  "$work/bin/$b" >/dev/null 2>&1 || rc=$?
  [ "$rc" = 2 ] || { echo "FAIL: $b without arguments: exit $rc, expected 2 (usage)"; exit 1; }
  ldd "$work/bin/$b" >"$work/ldd.txt"  # (not piped into grep -q: pipefail would see ldd's SIGPIPE)
  grep -qF "$libdir/libdeadpos.so" "$work/ldd.txt" || { echo "FAIL: $b does not load $libdir/libdeadpos.so"; cat "$work/ldd.txt"; exit 1; }
done
echo "capi.consumers: built adjudicate-pc, capi_dump (pkg-config) and adjudicate-cmake (find_package) against $p"
