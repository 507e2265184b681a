#!/usr/bin/env bash
# deadpos-serve links no generator library (docs/design.md, "The map"): its link line in the build
# files (Ninja's build.ninja, or the Makefiles' link.txt) names the project's libraries; it must
# name the server's and core's and not deadpos_generator's. Usage: serve_link_test.sh BUILD_DIR SERVE_BINARY
set -euo pipefail
build=$1
serve=$2
[ -x "$serve" ] || { echo "no program $serve"; exit 1; }
if [ -f "$build/build.ninja" ]; then
  line=$(awk '/^build tools\/deadpos-serve:/{f=1} f&&/LINK_LIBRARIES =/{print; exit}' "$build/build.ninja")
else
  line=$(cat "$build/tools/CMakeFiles/deadpos-serve.dir/link.txt")
fi
[ -n "$line" ] || { echo "no link line of deadpos-serve in $build"; exit 1; }
echo "$line" | grep -q "libdeadpos_server.a" || { echo "the link line names no libdeadpos_server.a: $line"; exit 1; }
if echo "$line" | grep -q "libdeadpos_generator.a"; then
  echo "deadpos-serve links the generator: $line"
  exit 1
fi
echo "deadpos-serve links: $(echo "$line" | tr ' ' '\n' | grep -o 'libdeadpos_[a-z]*\.a' | tr '\n' ' ')"
