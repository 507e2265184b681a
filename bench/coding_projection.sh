#!/usr/bin/env bash
# The size a table set would have under the codings bench/table_coding.cpp measures (issue 12: the
# <=5-man set at 1.2 GB), projected from the N largest 5-man tables of a directory.
#
#   bench/coding_projection.sh TABLES_DIR [N] [STEP]
#
# Runs build/bench/deadpos_table_coding on each of the N largest 5-man files (default 92; STEP
# default 32: every STEP-th king slot), prints each table's ratios of the rows below to its bytes as
# stored, then per row: the measured tables' bytes after coding, and the whole set's bytes with the
# tables not measured counted at their stored size (an upper bound for them).
#   one-sided       DTHM of one side to move for the whole table, one field order, one setting
#   per-array       DTHM of one side to move per target, each array its own order and setting,
#                   the derived side's verdicts as bits
#   both-sides      all four DTHM arrays kept (every probe a single read), each array its own
#                   order and setting
#   dthm-only       format v3's table file without its verdicts (they are the .dpv files): the
#                   stored side free per target, or fixed "mater to move" / "mated to move"
# The ratio of a row is taken from the sample; the stored bytes are the file's (stat).
set -euo pipefail
dir=${1:?usage: bench/coding_projection.sh TABLES_DIR [N] [STEP]}
n=${2:-92}
step=${3:-32}
bin=build/bench/deadpos_table_coding
[ -x "$bin" ] || { echo "coding_projection: $bin is not built (cmake --build build --target deadpos_table_coding)" >&2; exit 2; }
total=$(stat -c %s "$dir"/*.dpt | awk '{ t += $1 } END { printf "%.0f", t }')
# 5-man files: two "v" sides holding five men in all (K..vK..: count the piece letters).
mapfile -t largest < <(for f in "$dir"/*.dpt; do
  k=$(basename "$f" .dpt)
  [ "${#k}" -eq 6 ] && echo "$(stat -c %s "$f") $k"
done | sort -k1,1nr | head -n "$n" | awk '{ print $2 }')
for k in "${largest[@]}"; do
  bytes=$(stat -c %s "$dir/$k.dpt")
  "$bin" "$dir/$k.dpt" "$step" | awk -v k="$k" -v b="$bytes" '
    /^one-sided/ { if (os == 0 || $5 + 0 < os) os = $5 + 0 }
    /^per-array/ && /verdicts as bits/ { pa = $5 + 0 }
    /^both-sides per-array/ { bs = $6 + 0 }
    /^dthm-only free/ { df = $6 + 0 }
    /^dthm-only mater-to-move/ { dr = $6 + 0 }
    /^dthm-only mated-to-move/ { dd = $6 + 0 }
    END { printf "%-8s %12d one-sided %.3f per-array %.3f both-sides %.3f dthm-free %.3f dthm-mater %.3f dthm-mated %.3f\n", k, b, os, pa, bs, df, dr, dd }'
done | tee /dev/stderr | awk -v total="$total" '
  { b += $2; os += $2 * $4; pa += $2 * $6; bs += $2 * $8; df += $2 * $10; dr += $2 * $12; dd += $2 * $14 }
  END {
    printf "measured %d tables, %.0f bytes (%.3f of the set, %.0f bytes)\n", NR, b, b / total, total
    printf "one-sided  %.3f of them: set %.2f GB\n", os / b, (total - b + os) / 1e9
    printf "per-array  %.3f of them: set %.2f GB\n", pa / b, (total - b + pa) / 1e9
    printf "both-sides %.3f of them: set %.2f GB\n", bs / b, (total - b + bs) / 1e9
    printf "dthm-only, stored side free per target: %.3f of them: set %.2f GB (without the .dpv files)\n", df / b, (total - b + df) / 1e9
    printf "dthm-only, mater to move (arrays 1, 2):  %.3f of them: set %.2f GB (without the .dpv files)\n", dr / b, (total - b + dr) / 1e9
    printf "dthm-only, mated to move (arrays 0, 3):  %.3f of them: set %.2f GB (without the .dpv files)\n", dd / b, (total - b + dd) / 1e9
  }'
