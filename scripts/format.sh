#!/bin/sh
# Formats every tracked C++ file with the committed .clang-format (clang-format 14, Debian 12).
# With --check: changes nothing, lists the files that are not formatted and exits 1 if any.
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = --check ]; then
  bad=$(git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning:.*/\1/p' | sort -u)
  if [ -n "$bad" ]; then
    echo "format: not formatted with .clang-format (run scripts/format.sh):" >&2
    echo "$bad" >&2
    exit 1
  fi
  echo "format: every tracked C++ file passes clang-format"
else
  git ls-files '*.cpp' '*.h' | xargs clang-format -i
fi
