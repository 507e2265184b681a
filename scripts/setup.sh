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
# libcpp-httplib-dev: the HTTP server of `deadpos serve`; chromium: its page's browser test;
# wrk: its load test (bench/serve_load.sh). nettle-dev: SHA-256 of `deadpos verify --checksums`
# (generator/src/checksums.cpp; OpenSSL's libcrypto would not let deadpos start under cli.robustness's
# ulimit -v). qt6-base-dev, qt6-svg-dev: Qt 6 for cutechess-cli, which the integration tests
# build from its published snapshot with deadpos's patch (integrations/cutechess/, tests/integration/).
packages=(build-essential cmake ninja-build pkg-config git libomp-dev libzstd-dev libxxhash-dev
          libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev clang libclang-rt-14-dev clang-format
          python3 python3-dev pybind11-dev python3-pytest pgn-extract
          libcpp-httplib-dev chromium wrk nettle-dev qt6-base-dev qt6-svg-dev)
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

# The board of deadpos serve's page: chessground, pinned by server/web/package-lock.json, into
# server/web/node_modules (ignored by git). Without npm or a network the page is a FEN form.
if ! command -v npm >/dev/null; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null 2>&1 ||
    echo "setup: npm could not be installed: the server's page will be a plain FEN form (no board)"
fi
if command -v npm >/dev/null && [ ! -f server/web/node_modules/chessground/dist/chessground.js ]; then
  (cd server/web && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) ||
    echo "setup: npm ci in server/web failed (offline?): the server's page will be a plain FEN form (no board)"
fi

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
