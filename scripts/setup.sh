#!/usr/bin/env bash
# Set-up for a fresh Debian 12 machine: installs the missing Debian packages (with sudo when not
# root), then configures and builds deadpos in Release mode into build/.
# Usage: scripts/setup.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."

# clang + libclang-rt-14-dev: libFuzzer and its sanitizer runtimes (scripts/fuzz.sh); GCC's TSan
# runtime (libtsan2) comes with build-essential. clang-format: the format check of scripts/test.sh.
# python3: the shell tests use it (an independent XXH64 in generate_cli_test.sh). pybind11-dev,
# python3-dev, python3-pytest: the Python module and its tests. pgn-extract: the independent PGN
# reader the adjudication tests compare against (installed as /usr/games/pgn-extract).
packages=(build-essential cmake ninja-build pkg-config git libomp-dev libzstd-dev libxxhash-dev
          libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev clang libclang-rt-14-dev clang-format
          python3 python3-dev pybind11-dev python3-pytest pgn-extract)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
