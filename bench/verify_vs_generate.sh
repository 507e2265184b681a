#!/usr/bin/env bash
# Verification against generation, side by side: wall time and peak memory of
#   deadpos generate --max-men N --out SCRATCH --threads T
#   deadpos verify --tables SCRATCH --threads T
# on the same machine in one run (issue 12: verifying the <=5-man set must take no longer than
# generating it).
#
#   bench/verify_vs_generate.sh [--build DIR] [--max-men N] [--threads T] [--keep]
#
# Defaults: build/, N = 5 (about 50 min each on 2 idle cores, 4.8 GB of tables in the scratch
# directory; N = 4 takes seconds), T = 2. Builds the deadpos tool in DIR first (configuring a
# Release build if DIR has none). Timed with /usr/bin/time (wall s, user s, VmHWM; for generate
# the largest per-table peak of the JSON files, see below). The scratch
# directory is a fresh temporary directory, removed at the end unless --keep. Exit status: that
# of verify (0: every table passed).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
men=5
threads=2
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --max-men) men=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "verify_vs_generate.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

if [ ! -x /usr/bin/time ]; then
  echo "verify_vs_generate.sh: /usr/bin/time is missing (Debian package 'time')" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" --target deadpos >/dev/null
deadpos=$build/tools/deadpos
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_vvg.XXXXXX")
if [ "$keep" -eq 0 ]; then trap 'rm -rf "$work"' EXIT; fi
tables=$work/tables

# timed NAME CMD...: runs CMD with its output in $work/NAME.log; sets wall, user (s), rss (KiB), rc.
timed() {
  local name=$1
  shift
  rc=0
  /usr/bin/time -f "%e %U %M" -o "$work/$name.time" "$@" >"$work/$name.log" 2>"$work/$name.err" || rc=$?
  read -r wall user rss <"$work/$name.time" || true
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
timed generate "$deadpos" generate --max-men "$men" --out "$tables" --threads "$threads"
if [ "$rc" -ne 0 ]; then
  echo "verify_vs_generate.sh: generate failed (exit $rc):" >&2
  tail -5 "$work/generate.err" >&2
  exit 1
fi
# generate resets the kernel's peak (VmHWM) before each table, so /usr/bin/time's %M is the
# peak of the last table only. The largest peak_rss_bytes of the tables' JSON is used instead: a
# lower bound of the run's peak (each is measured from after its subtables are loaded to before
# its table is written, so loading transients and the write's buffers are not in it).
json_peak=$(cat "$tables"/*.json | sed -n 's/.*"peak_rss_bytes": *\([0-9]*\).*/\1/p' | sort -n | tail -1)
if [ -n "$json_peak" ] && [ "$((json_peak / 1024))" -gt "$rss" ]; then rss=$((json_peak / 1024)); fi
gen=("$wall" "$user" "$rss")
timed verify "$deadpos" verify --tables "$tables" --threads "$threads"
ver=("$wall" "$user" "$rss")
verify_rc=$rc
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

count=$(ls "$tables"/*.dpt | wc -l)
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo "deadpos verify vs generate: <=$men men ($count tables), --threads $threads, $(nproc) cores," \
  "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $build_type build, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average before: $load_before; after: $load_after (a loaded machine inflates both)"
echo
printf '%-10s %10s %10s %12s\n' "command" "wall s" "user s" "peak MiB"
printf '%-10s %10s %10s %12s\n' "generate" "${gen[0]}" "${gen[1]}" "$(mib "${gen[2]}")"
printf '%-10s %10s %10s %12s\n' "verify" "${ver[0]}" "${ver[1]}" "$(mib "${ver[2]}")"
echo
echo "verify / generate (wall): $(awk -v v="${ver[0]}" -v g="${gen[0]}" 'BEGIN { printf "%.2f", (g > 0 ? v / g : 0) }')"
echo "verify: $(tail -1 "$work/verify.log") (exit $verify_rc)"
if [ "$verify_rc" -ne 0 ]; then
  grep -v ' ok: ' "$work/verify.log" | head -20
  tail -3 "$work/verify.err"
fi
if [ "$keep" -eq 1 ]; then echo "tables and logs kept in $work"; fi
exit "$verify_rc"
