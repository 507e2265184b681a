#!/usr/bin/env bash
# capi.symbols: libdeadpos.so exports exactly the functions declared DEADPOS_API in deadpos.h (no
# C++ symbol of the static libraries linked into it, no missing function) and has the SONAME the
# build gave it (its project version).  check_symbols.sh LIBRARY HEADER SONAME
set -euo pipefail
lib=$1 header=$2 soname=$3
fail=0
exported=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u)
declared=$(grep -v '^#' "$header" | grep -o 'DEADPOS_API[^(]*(' | sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort -u)
[ -n "$declared" ] || { echo "FAIL: no DEADPOS_API declaration found in $header"; exit 1; }
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [ -n "$extra" ]; then echo "FAIL: exported but not in deadpos.h:"; echo "$extra" | head -20; fail=1; fi
if [ -n "$missing" ]; then echo "FAIL: declared in deadpos.h but not exported:"; echo "$missing"; fail=1; fi
got=$(objdump -p "$lib" | awk '$1 == "SONAME" {print $2}')
if [ "$got" != "$soname" ]; then echo "FAIL: SONAME is '$got', expected '$soname'"; fail=1; fi
case "$soname" in libdeadpos.so.[0-9]*) ;; *) echo "FAIL: SONAME '$soname' is not libdeadpos.so.<version>"; fail=1 ;; esac
echo "capi.symbols: $(echo "$exported" | wc -l) symbols exported, $(echo "$declared" | wc -l) declared, SONAME $got"
exit $fail
