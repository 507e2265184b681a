#!/bin/sh
# Formats every tracked C++ file with the committed .clang-format (clang-format 14).
cd "$(dirname "$0")/.." && git ls-files '*.cpp' '*.h' | xargs clang-format -i
