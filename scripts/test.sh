#!/usr/bin/env bash
# Set-up (scripts/setup.sh) and the whole test suite: Release build, warnings as errors, all ctest
# cases. With SANITIZE=1 it also builds and runs the suite under ASan+UBSan (build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh -DDEADPOS_WERROR=ON
ctest --test-dir build --output-on-failure -j"$(nproc)"
if [ "${SANITIZE:-0}" = 1 ]; then
  # -O2 with assertions on (no -DNDEBUG): the solver's per-level self-checks and every assert run,
  # at a speed that lets the table fixture finish (at -O0 under ASan it took over 15 minutes).
  BUILD_DIR=build-asan scripts/setup.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g" \
    -DDEADPOS_SANITIZE=ON -DDEADPOS_BUILD_BENCH=OFF
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
fi
