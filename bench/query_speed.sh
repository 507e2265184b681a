#!/usr/bin/env bash
# Speed of `deadpos query --count` over whole 5-man tables against decompression alone of the same
# blocks (issue 11): usage  bench/query_speed.sh TABLES_DIR [BUILD_DIR]   (BUILD_DIR: build)
#
# For KRBvKR and KRPvKR, on 1 and 2 threads: wall time of `query --count` with a filter that
# reads only the table bytes (--dead), one that decodes the placement of every entry
# (--white-bishops light, KRBvKR only: its orbit halves), one that runs the move generator on the
# dead entries (--stalemate), and of bench/query_zstd.cpp (every frame decompressed with libzstd,
# no checksums: what `zstd -d` does with the same data). MB/s of the compressed file and of the
# raw entries (4 arrays of one byte per entry). The load average is printed: the figures are only
# comparable on an otherwise idle machine. Each command runs twice; the second (warm page cache)
# is reported.
set -eu
tables=${1:?usage: bench/query_speed.sh TABLES_DIR [BUILD_DIR]}
build=${2:-build}
deadpos=$build/tools/deadpos
zstd_bench=$build/bench/deadpos_query_zstd
[ -x "$deadpos" ] && [ -x "$zstd_bench" ] || {
  echo "build first: cmake --build $build --target deadpos deadpos_query_zstd" >&2
  exit 1
}

now() { date +%s.%N; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for key in KRBvKR KRPvKR; do
  file=$tables/$key.dpt
  [ -f "$file" ] || { echo "$file: missing" >&2; exit 1; }
  bytes=$(stat -c %s "$file")
  line=$("$zstd_bench" "$file" 1)
  raw=$(echo "$line" | sed -E 's/.* raw ([0-9]+) bytes.*/\1/')
  echo "$key: file $((bytes / 1000000)) MB, raw $((raw / 1000000)) MB"
  for threads in 1 2; do
    "$zstd_bench" "$file" $threads >/dev/null
    echo "  zstd decompression, $threads thread(s): $("$zstd_bench" "$file" $threads | sed -E 's/.*bytes ([0-9.]+ s)/\1/')"
    filters=("--dead" "--stalemate")
    [ "$key" = KRBvKR ] && filters+=("--white-bishops light")
    for f in "${filters[@]}"; do
      # shellcheck disable=SC2086
      "$deadpos" query "$key" --tables "$tables" $f --threads $threads >/dev/null
      t0=$(now)
      # shellcheck disable=SC2086
      out=$("$deadpos" query "$key" --tables "$tables" $f --threads $threads)
      t1=$(now)
      awk -v a="$t0" -v b="$t1" -v c="$bytes" -v r="$raw" -v f="$f" -v th="$threads" -v o="$out" 'BEGIN {
        s = b - a
        printf "  query --count %-22s %d thread(s): %.3f s: %.0f MB/s compressed, %.0f MB/s raw  [%s]\n",
          f, th, s, c / s / 1e6, r / s / 1e6, o }'
    done
  done
done
