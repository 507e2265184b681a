#!/usr/bin/env bash
# Set-up (scripts/setup.sh) and the whole test suite: Release build, warnings as errors, all ctest
# cases. With SANITIZE=1 it also builds and runs the suite under ASan+UBSan (build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh -DDEADPOS_WERROR=ON
ctest --test-dir build --output-on-failure -j"$(nproc)"
if [ "${SANITIZE:-0}" = 1 ]; then
  BUILD_DIR=build-asan scripts/setup.sh -DCMAKE_BUILD_TYPE=Debug -DDEADPOS_SANITIZE=ON -DDEADPOS_BUILD_BENCH=OFF
  ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
fi
