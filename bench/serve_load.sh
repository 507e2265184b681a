#!/usr/bin/env bash
# Load test of `deadpos serve` (docs/server.md, "Load"): loopback only, bounded in time. wrk (Debian
# package, scripts/setup.sh) holds CONNECTIONS keep-alive connections and asks GET /standard for
# positions drawn at random from a fixed list of random legal 4-man (and, with TABLES5, 5-man)
# positions; it prints requests per second, p50/p99 latency and non-2xx answers, and this script
# prints the server's resident memory before and after each run.
#
# Usage: bench/serve_load.sh DEADPOS TABLES4 [TABLES5]
#   env: CONNECTIONS (64), SECONDS_PER_RUN (10), WRK_THREADS (2), SERVER_THREADS (CONNECTIONS + 8),
#        POSITIONS (2000 per men count), TASKSET_SERVER / TASKSET_WRK (e.g. "taskset -c 0,1": pin).
# Runs: 4-man with the answer cache warm ("cached"), 4-man with --answer-cache-mb 0 (every request
# probes the tables for the position and each move), and 5-man positions (answer cache off).
set -euo pipefail
exe=${1:?usage: serve_load.sh DEADPOS TABLES4 [TABLES5]}
tables4=${2:?usage: serve_load.sh DEADPOS TABLES4 [TABLES5]}
tables5=${3:-}
conns=${CONNECTIONS:-64}
secs=${SECONDS_PER_RUN:-10}
wrk_threads=${WRK_THREADS:-2}
server_threads=${SERVER_THREADS:-$((conns + 8))}
npos=${POSITIONS:-2000}
command -v wrk >/dev/null || { echo "serve_load: wrk not found (apt-get install wrk; scripts/setup.sh)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

# Random legal positions: placements drawn by serve_load_positions.py, kept when `deadpos probe`
# accepts the FEN (the position is legal) and answers it from a table.
positions() {  # MEN TABLES OUT
  /usr/bin/python3 "$here/serve_load_positions.py" "$1" $((npos * 3)) |
    "$exe" probe --json --tables "$2" --epd - 2>/dev/null |
    /usr/bin/python3 -c '
import json, sys
n = int(sys.argv[1]); out = []
for line in sys.stdin:
    a = json.loads(line)
    if "error" not in a and a.get("table"):
        out.append(a["fen"])
print("\n".join(out[:n]))' "$npos" >"$3" || true
  [ -s "$3" ] || { echo "serve_load: no $1-man positions answered from $2" >&2; exit 1; }
  echo "serve_load: $(wc -l <"$3") random legal $1-man positions"
}

lua_for() {  # POSITIONS_FILE OUT.lua
  {
    echo 'paths = {}'
    sed 's/ /_/g; s/.*/paths[#paths + 1] = "\/standard?fen=&"/' "$1"
    cat <<'EOF'
math.randomseed(os.time())
request = function()
  return wrk.format("GET", paths[math.random(#paths)])
end
EOF
  } >"$2"
}

start_server() {  # TABLES... then options after --
  "${TASKSET_SERVER[@]}" "$exe" serve "$@" --listen 127.0.0.1:0 --threads "$server_threads" >"$work/out" 2>"$work/err" &
  server_pid=$!
  for _ in $(seq 200); do
    grep -q 'listening on' "$work/out" 2>/dev/null && break
    sleep 0.05
  done
  port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\)\/.*/\1/p' "$work/out")
  [ -n "$port" ] || { cat "$work/err" >&2; exit 1; }
}
stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid" || { echo "serve_load: the server exited $?" >&2; exit 1; }
  server_pid=""
}

run() {  # NAME LUA
  echo "== $1: $conns connections, $wrk_threads wrk threads, ${secs}s, server threads $server_threads"
  echo "server RSS before: $(rss_kb "$server_pid") KiB"
  "${TASKSET_WRK[@]}" wrk -t"$wrk_threads" -c"$conns" -d"${secs}s" --latency -s "$2" "http://127.0.0.1:$port" |
    grep -E 'Requests/sec|Latency  |50%|99%|Non-2xx|Socket errors|requests in'
  echo "server RSS after: $(rss_kb "$server_pid") KiB"
}

read -ra TASKSET_SERVER <<<"${TASKSET_SERVER:-}"
read -ra TASKSET_WRK <<<"${TASKSET_WRK:-}"
echo "serve_load: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
positions 4 "$tables4" "$work/p4"
lua_for "$work/p4" "$work/p4.lua"

start_server --tables "$tables4"
# Warm the answer cache: every position once.
SECONDS_WARM=$((secs / 2 + 1))
wrk -t1 -c8 -d"${SECONDS_WARM}s" -s "$work/p4.lua" "http://127.0.0.1:$port" >/dev/null
run "4-man, answer cache warm" "$work/p4.lua"
stop_server

start_server --tables "$tables4" --answer-cache-mb 0
run "4-man, answer cache off (every request probes the position and each move's child)" "$work/p4.lua"
stop_server

if [ -n "$tables5" ]; then
  positions 5 "$tables5" "$work/p5"
  lua_for "$work/p5" "$work/p5.lua"
  start_server --tables "$tables5" --answer-cache-mb 0
  run "5-man, answer cache off, block cache cold at the start" "$work/p5.lua"
  stop_server
fi
