#!/usr/bin/env bash
# Per-material file sizes of two table directories side by side (issue 12: the <=5-man set's
# size in format v2 against v1), largest first, with the totals.
#
#   bench/table_sizes.sh OLD_DIR NEW_DIR
#
# Every <KEY>.dpt of NEW_DIR; "-" where OLD_DIR lacks it. Bytes (stat), ratio new/old.
set -euo pipefail
old=${1:?usage: bench/table_sizes.sh OLD_DIR NEW_DIR}
new=${2:?usage: bench/table_sizes.sh OLD_DIR NEW_DIR}
for f in "$new"/*.dpt; do
  k=$(basename "$f" .dpt)
  n=$(stat -c %s "$f")
  if [ -f "$old/$k.dpt" ]; then o=$(stat -c %s "$old/$k.dpt"); else o=-; fi
  echo "$k $o $n"
done | sort -k3,3nr | awk '
  BEGIN { printf "%-8s %14s %14s %7s\n", "material", "old bytes", "new bytes", "new/old" }
  { if ($2 != "-") { to += $2; tn2 += $3; r = sprintf("%.3f", $3 / $2) } else r = "-"
    tn += $3; printf "%-8s %14s %14.0f %7s\n", $1, $2, $3, r }
  END { printf "%-8s %14.0f %14.0f %7.3f   (%d tables; ratio over the tables in both)\n", "total", to, tn, (to ? tn2 / to : 0), NR }'
