#!/bin/bash
# `deadpos generate` and `deadpos verify` on directories that hold more than intact tables
# (docs/cli.md): files that only look like our temporaries, FIFOs and directories under table
# names, damaged tables and their dependents, unwritable directories, --force, statistics printed
# as each table is written, and one exit code per error category.
# Usage: generate_cli_test.sh DEADPOS TABLES_DIR (the fixture's <=4-man tables, only read).
set -u
deadpos=$1
tables=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# Runs deadpos with a time limit (a FIFO opened for reading blocks for ever): rc 124 is a hang.
# Sets rc to the exit code.
run() {
  timeout 60 "$deadpos" "$@" >"$work/out" 2>"$work/err"
  rc=$?
}
expect_rc() {  # expect_rc WANT WHAT
  [ "$rc" = "$1" ] || fail "$2: exit code $rc, expected $1 (stdout: $(head -c 600 "$work/out") stderr: $(head -c 600 "$work/err"))"
}
expect_in() {  # expect_in FILE TEXT WHAT
  grep -qF -- "$2" "$work/$1" || fail "$3: '$2' not in $1: $(head -c 800 "$work/$1")"
}
copy() {  # copy DIR KEY...
  local d=$1
  shift
  mkdir -p "$d"
  for k in "$@"; do cp "$tables/$k.dpt" "$d/"; done
}
# Sets u64 header fields (offset=value ...) of a table and recomputes its header and file
# checksums (docs/format.md sections 2 and 5; XXH64 in Python: no xxhash module is needed).
tamper() {
  python3 - "$@" <<'EOF'
import struct, sys
M = (1 << 64) - 1
P1, P2, P3, P4, P5 = 11400714785074694791, 14029467366897019727, 1609587929392839161, 9650029242287828579, 2870177450012600261
rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & M
def rnd(acc, v): return rotl((acc + v * P2) & M, 31) * P1 & M
def merge(h, v): return ((h ^ rnd(0, v)) * P1 + P4) & M
def xxh64(b):
    n, i = len(b), 0
    if n >= 32:
        v = [(P1 + P2) & M, P2, 0, (-P1) & M]
        while i + 32 <= n:
            for j in range(4):
                v[j] = rnd(v[j], struct.unpack_from('<Q', b, i + 8 * j)[0])
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for x in v: h = merge(h, x)
    else:
        h = P5
    h = (h + n) & M
    while i + 8 <= n:
        h = (rotl(h ^ rnd(0, struct.unpack_from('<Q', b, i)[0]), 27) * P1 + P4) & M; i += 8
    if i + 4 <= n:
        h = (rotl(h ^ (struct.unpack_from('<I', b, i)[0] * P1 & M), 23) * P2 + P3) & M; i += 4
    while i < n:
        h = rotl(h ^ (b[i] * P5 & M), 11) * P1 & M; i += 1
    h ^= h >> 33; h = h * P2 & M; h ^= h >> 29; h = h * P3 & M; h ^= h >> 32
    return h
path = sys.argv[1]
b = bytearray(open(path, 'rb').read())
assert struct.unpack_from('<Q', b, len(b) - 8)[0] == xxh64(bytes(b[:-8])), 'xxh64 of the intact file'
for f in sys.argv[2:]:
    off, delta = f.split('=')
    struct.pack_into('<Q', b, int(off), (struct.unpack_from('<Q', b, int(off))[0] + int(delta)) & M)
struct.pack_into('<Q', b, 136, xxh64(bytes(b[:136])))
struct.pack_into('<Q', b, len(b) - 8, xxh64(bytes(b[:-8])))
open(path, 'wb').write(b)
EOF
}

# --- item 2: only our own stale temporaries are removed ---------------------------------------
d=$work/tmp
mkdir -p "$d"
# 999999999 is above Linux's largest pid: no process has it.
for f in thesis.tmp.999999999 notes.tmp.4242x KNvKB.dpt.tmp.999999999; do echo precious >"$d/$f"; done
for f in KvK.dpt.tmp.999999999 KBvKN.json.tmp.999999999; do echo partial >"$d/$f"; done
run generate --max-men 2 --out "$d"
expect_rc 0 "generate beside foreign *.tmp.<digits> files"
for f in thesis.tmp.999999999 notes.tmp.4242x KNvKB.dpt.tmp.999999999; do
  [ -f "$d/$f" ] || fail "generate removed $f, which it did not create"
done
for f in KvK.dpt.tmp.999999999 KBvKN.json.tmp.999999999; do
  [ -e "$d/$f" ] && fail "generate left its own stale temporary $f"
done

# --- item 3: a FIFO under a table's name: a clear error, never a hang -------------------------
d=$work/fifo
copy "$d" KvK
mkfifo "$d/KRvK.dpt"
run probe --tables "$d" "8/8/8/3k4/8/2R5/8/1K6 w - - 0 1"
[ "$rc" = 124 ] && fail "probe hangs on a FIFO named KRvK.dpt"
expect_rc 5 "probe with a FIFO named KRvK.dpt"
expect_in out "KRvK.dpt: is a FIFO, not a regular file" "probe with a FIFO"
run verify --tables "$d"
[ "$rc" = 124 ] && fail "verify hangs on a FIFO named KRvK.dpt"
expect_rc 5 "verify with a FIFO named KRvK.dpt"
expect_in out "KRvK     FAILED: I/O error: $d/KRvK.dpt: is a FIFO, not a regular file" "verify with a FIFO"
expect_in out "KvK      ok:" "verify with a FIFO checks the other tables"
run generate KRvK --out "$d"
[ "$rc" = 124 ] && fail "generate hangs on a FIFO named KRvK.dpt"
expect_rc 5 "generate with a FIFO named KRvK.dpt"
expect_in err "KRvK.dpt: is a FIFO, not a regular file" "generate with a FIFO"
[ -p "$d/KRvK.dpt" ] || fail "generate replaced the FIFO KRvK.dpt"
rm "$d/KRvK.dpt"
mkdir "$d/KRvK.json"
run generate KRvK --out "$d"
expect_rc 5 "generate with a directory named KRvK.json"
expect_in err "KRvK.json: is a directory, not a regular file" "generate with a directory as .json"

# --- items 6 and 8: verify every table, each with its state; the reader's categories ------------
mkdir -p "$work/empty"
run verify --tables "$work/empty"
expect_rc 6 "verify of an empty directory"
expect_in err "no tables (*.dpt) in $work/empty" "verify of an empty directory"
d=$work/damaged
copy "$d" KvK KQvK KRvK KRvKR KBvK
python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,'rb').read()); b[200]^=0x55; open(p,'wb').write(b)" "$d/KvK.dpt"
run verify --tables "$d"
expect_rc 7 "verify with a damaged KvK"
expect_in out "KvK      FAILED: corrupt table: $d/KvK.dpt:" "damaged KvK"
expect_in out "rebuild with: deadpos generate --force KvK --out $d" "damaged KvK: the repair"
for k in "KQvK    " "KRvK    " "KBvK    "; do expect_in out "$k not checked: subtable KvK is damaged" "dependents of KvK"; done
expect_in out "KRvKR    not checked: subtable KRvK was not checked (KvK is damaged)" "KRvKR"
[ "$(grep -c FAILED "$work/out")" = 1 ] || fail "verify blames more than the damaged table: $(cat "$work/out")"
expect_in err "1 table failed, 4 not checked, 0 ok" "verify summary"
d=$work/unreadable
copy "$d" KvK
mkdir "$d/KBvK.dpt"
run verify --tables "$d" KBvK
expect_rc 5 "verify of an unreadable table (a directory)"
run verify --tables "$d" KNvK
expect_rc 6 "verify of an absent table"
run verify --tables "$d" KvK
expect_rc 0 "verify of an intact table"
expect_in out "verified 1 table" "verify of an intact table"

# --- item 7: --force, the repair message, an unwritable directory -------------------------------
d=$work/force
copy "$d" KvK
run generate KvK --out "$d"
expect_rc 0 "generate of a present table"
expect_in out "built 0 tables, 1 already present" "generate keeps a present table"
run generate --force KvK --out "$d"
expect_rc 0 "generate --force"
expect_in out "built 1 table, 0 already present" "generate --force rebuilds"
cmp -s "$d/KvK.dpt" "$tables/KvK.dpt" || fail "generate --force KvK wrote other bytes"
run generate --max-men 2 --out /proc/self
expect_rc 5 "generate into /proc/self (nobody can create files there)"
expect_in err "cannot write tables in this directory" "unwritable --out"
grep -q "solve" "$work/err" && fail "generate solved before finding the directory unwritable: $(cat "$work/err")"

# --- items 12, 13a, 7: statistics of a run that fails later; tampered header counts -------------
# KQvK with header counts consistent with the layout (array 0: one more finite, one fewer none;
# array 1 the reverse) but not with its arrays: generate keeps it (its checksums pass), then cannot
# load it for KPvK, after building and reporting KvK.
d=$work/counts
copy "$d" KQvK
tamper "$d/KQvK.dpt" 72=1 80=-1 88=-1 96=1 || fail "tamper failed"
run generate KPvK --out "$d"
expect_rc 7 "generate with a subtable whose header counts are wrong"
expect_in err "header field 'finite entries of array 0' (offset 72)" "tampered counts named"
expect_in err "rebuild with: deadpos generate --force KQvK --out $d" "the repair of a kept subtable"
expect_in out "KvK      White to move:" "statistics of the tables written before the failure"
# Counts that disagree with the layout: refused by the probe's open too.
copy "$d" KRvK
tamper "$d/KRvK.dpt" 88=1 || fail "tamper failed"
run probe --tables "$d" "8/8/8/3k4/8/2R5/8/1K6 w - - 0 1"
expect_rc 7 "probe of a table with tampered header counts"
expect_in out "finite/none entries of arrays 0 and 1' disagree" "probe: the field"
run generate --force KQvK --out "$d"
expect_rc 0 "generate --force of the tampered table"
cmp -s "$d/KQvK.dpt" "$tables/KQvK.dpt" || fail "generate --force KQvK wrote other bytes"

# --- item 12: a killed run keeps the statistics of the tables it wrote ----------------------------
d=$work/killed
mkdir -p "$d"
"$deadpos" generate --max-men 4 --out "$d" >"$work/out" 2>"$work/err" &
gen=$!
for _ in $(seq 600); do  # until a second table is written (at most 60 s)
  [ "$(ls "$d" | grep -c '\.dpt$')" -ge 2 ] && break
  sleep 0.1
done
kill -KILL "$gen" 2>/dev/null
wait "$gen" 2>/dev/null
expect_in out "KvK      White to move:" "statistics of a killed run"

# --- a kept table whose statistics were deleted gets them back from the table ---------------------
d="$work/restore"
run generate --max-men 3 --out "$d"
expect_rc 0 "generate --max-men 3 (for the statistics check)"
cp "$d/KRvK.json" "$work/KRvK.json.first"
rm "$d/KRvK.json"
run generate --max-men 3 --out "$d"
expect_rc 0 "generate after KRvK.json was deleted"
expect_in out "KRvK.json was missing or damaged: statistics recomputed from KRvK.dpt" "statistics restored"
expect_in out "built 0 tables" "statistics restored without solving"
# Damaged statistics (garbage, truncated, another material's) are recomputed the same way; intact ones are kept.
for bad in garbage truncated other; do
  case $bad in
    garbage) echo garbage >"$d/KRvK.json" ;;
    truncated) head -c 100 "$work/KRvK.json.first" >"$d/KRvK.json" ;;
    other) cp "$d/KQvK.json" "$d/KRvK.json" ;;
  esac
  run generate --max-men 3 --out "$d"
  expect_rc 0 "generate after KRvK.json was damaged ($bad)"
  expect_in out "KRvK.json was missing or damaged: statistics recomputed from KRvK.dpt" "damaged statistics ($bad) restored"
done
run generate --max-men 3 --out "$d"
if grep -q "statistics recomputed" "$work/out"; then fail "intact statistics recomputed: $(cat "$work/out")"; fi
# The counts are the table's: the same as when it was built (seconds and memory aside).
strip() { grep -vE '"(seconds|peak_rss_bytes)"' "$1"; }
if [ ! -f "$d/KRvK.json" ] || [ "$(strip "$d/KRvK.json")" != "$(strip "$work/KRvK.json.first")" ]; then
  fail "restored KRvK.json differs from the one written with the table"
fi

# A table whose subtables are absent: one run names them all (KRvKP's successors per the rules:
# KRvK, KvKP = KPvK, the promotions KQvKR, KRvKR, KRvKB, KRvKN and, taking the rook, KQvK, KBvK,
# KNvK), and says the command that builds them; that command then makes the table check.
copy "$work/absent" KRvKP
run verify --tables "$work/absent" KRvKP
expect_rc 6 "verify with absent subtables"
for k in KRvK KPvK KQvKR KRvKR KRvKB KRvKN KQvK KBvK KNvK; do expect_in out "$k" "absent subtable $k named"; done
expect_in out "; build them with: deadpos generate KRvKP --out $work/absent" "build hint"
run generate KRvKP --out "$work/absent"
expect_rc 0 "generate of the absent subtables"
run verify --tables "$work/absent" KRvKP
expect_rc 0 "verify after generating the subtables"

# --- format v1 files (tests/data/v1/README.md): read as they are, rewritten in v2 by generate ----
v1=$(cd "$(dirname "$0")" && pwd)/data/v1
d=$work/v1
mkdir -p "$d"
cp "$v1/KvK.dpt" "$v1/KRvK.dpt" "$d/"
fens="8/8/8/3k4/8/2R5/8/1K6 w - - 0 1
8/8/8/3k4/8/2R5/8/1K6 b - - 0 1
k7/8/1K6/8/8/8/8/7R w - - 0 1
7k/8/8/8/8/8/R7/K7 b - - 0 1"
echo "$fens" | "$deadpos" probe --tables "$d" --json >"$work/v1.json" 2>&1 || fail "probe of v1 tables failed: $(head -c 600 "$work/v1.json")"
echo "$fens" | "$deadpos" probe --tables "$tables" --json >"$work/v2.json" 2>&1
cmp -s "$work/v1.json" "$work/v2.json" || fail "v1 and v2 tables answer differently: $(diff "$work/v1.json" "$work/v2.json" | head -c 800)"
run verify --tables "$d"
expect_rc 0 "verify of v1 tables"
expect_in out "verified 2 tables" "verify of v1 tables"
run generate KRvK --out "$d"
expect_rc 0 "generate over v1 tables"
expect_in out "rewrote 2 tables of an older format version in format v2" "generate rewrites v1 tables"
expect_in out "built 0 tables, 2 already present" "generate rewrites v1 tables without solving"
for k in KvK KRvK; do
  cmp -s "$d/$k.dpt" "$tables/$k.dpt" || fail "$k rewritten from v1 differs from a fresh v2 generation"
done
run generate KRvK --out "$d"
expect_in out "built 0 tables, 2 already present" "generate keeps rewritten tables"
grep -q "rewrote" "$work/out" && fail "generate rewrote v2 tables again: $(cat "$work/out")"
# A v1 file whose 255 marks are not the index's (well formed: checksums and counts resealed by
# tests/support/set_table_entries.py) is damaged, and rebuilt, not rewritten: entry 3986 is the
# legal position of format.md's worked example (Kb1, Rc3, Kd5, White to move), 3969 the rook on
# the White king's square.
for change in "0:3986=255 1:3986=255" "0:3969=253 1:3969=253" "2:3969=7 3:3969=253"; do
  d=$work/v1bad
  rm -rf "$d"
  mkdir -p "$d"
  cp "$v1/KvK.dpt" "$v1/KRvK.dpt" "$d/"
  # shellcheck disable=SC2086  # the changes are separate arguments
  python3 "$(dirname "$0")/support/set_table_entries.py" "$d/KRvK.dpt" $change || fail "set_table_entries.py $change"
  run generate KRvK --out "$d"
  expect_rc 0 "generate over a v1 KRvK with $change"
  expect_in out "rewrote 1 table of an older format version" "v1 KRvK with $change: only KvK rewritten"
  expect_in out "built 1 table, 1 already present" "v1 KRvK with $change: KRvK rebuilt"
  cmp -s "$d/KRvK.dpt" "$tables/KRvK.dpt" || fail "v1 KRvK with $change: the rebuilt table differs from a fresh one"
done

if [ "$failures" != 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all generate/verify CLI checks passed"
