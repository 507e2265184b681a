#!/usr/bin/env bash
# `deadpos query` (docs/cli.md, "deadpos query"): usage  query_cli_test.sh DEADPOS TABLES_DIR
#
#  * published facts through `query --count` (sources next to each block; none is our own output);
#  * --fen / --json listings probe back (`deadpos probe --json`) to the filter's condition;
#  * a colour-swapped key answers as the canonical one with colours swapped;
#  * --threads 1 and 2 give byte-identical output;
#  * errors: one line on standard error, nothing on standard output, the documented exit code.
set -u
deadpos=$1
tables=$2
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_query_cli.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -x "$deadpos" ] || { echo "FAIL: $deadpos is not executable" >&2; exit 1; }
ls "$tables"/*.dpt >/dev/null 2>&1 || { echo "FAIL: no tables in $tables" >&2; exit 1; }

q() { "$deadpos" query --tables "$tables" "$@"; }

# "KEY: N raw positions (white to move W, black to move B), E table entries" -> N, W, B or E.
count() { q "$@" --count | head -1 | sed -E 's/^[^:]*: ([0-9]+) raw positions.*/\1/'; }
count_w() { q "$@" --count | head -1 | sed -E 's/.*white to move ([0-9]+),.*/\1/'; }
count_b() { q "$@" --count | head -1 | sed -E 's/.*black to move ([0-9]+)\).*/\1/'; }
entries() { q "$@" --count | head -1 | sed -E 's/.*, ([0-9]+) table entries$/\1/'; }

expect() {  # expect WHAT EXPECTED ACTUAL
  [ "$2" = "$3" ] || fail "$1: expected $2, got $3"
}

# ---- published facts --------------------------------------------------------------------------
# docs/design.md, "Statistics" (reference facts checked against published values).
expect "KQvK white to move" 144508 "$(count_w KQvK)"
expect "KQvK black to move" 223944 "$(count_b KQvK)"
expect "KQvK btm white cannot mate" 3292 "$(count KQvK --stm black --white-can-mate no)"
expect "KQvK btm stalemates" 872 "$(count KQvK --stm black --stalemate)"
# The other 2,420: not stalemates, so Black has moves, and every one captures the queen.
expect "KQvK btm white cannot mate, not stalemate" 2420 \
  "$(($(count KQvK --stm black --white-can-mate no) - $(count KQvK --stm black --stalemate)))"
expect "KRvK btm white cannot mate" 480 "$(count KRvK --stm black --white-can-mate no)"
for m in KQvK KRvK; do
  [ "$(count $m --stm white --dthm-black-mated 13..)" -gt 0 ] || fail "$m: no 13-ply helpmate with White to move"
  expect "$m wtm helpmates of 14 plies or more" 0 "$(count $m --stm white --dthm-black-mated 14..)"
  [ "$(count $m --stm black --dthm-black-mated 14..)" -gt 0 ] || fail "$m: no 14-ply helpmate with Black to move"
  expect "$m btm helpmates of 15 plies or more" 0 "$(count $m --stm black --dthm-black-mated 15..)"
done

# Longest shortest helpmates of the helpmate-tablebase literature (issue 11, "Published facts"):
# KBBvK, KBNvK, KNNvK 16 plies; KPvK 17 with White to move; KBvKN 24 with Black to move, White
# mating. The basic-helpmate-existence study (below) also reports 16 as the maximum witness
# distance of KBBvK (opposite bishops) and KBNvK (light bishop).
for m in KBBvK KBNvK KNNvK; do
  [ "$(count $m --dthm-black-mated 16..)" -gt 0 ] || fail "$m: no 16-ply helpmate"
  expect "$m helpmates of 17 plies or more" 0 "$(count $m --dthm-black-mated 17..)"
done
[ "$(count KPvK --stm white --dthm-black-mated 17..)" -gt 0 ] || fail "KPvK: no 17-ply helpmate with White to move"
expect "KPvK helpmates of 18 plies or more" 0 "$(count KPvK --dthm-black-mated 18..)"
[ "$(count KBvKN --stm black --dthm-black-mated 24..)" -gt 0 ] || fail "KBvKN: no 24-ply mate of Black, Black to move"
expect "KBvKN mates of Black of 25 plies or more" 0 "$(count KBvKN --dthm-black-mated 25..)"

# The basic-helpmate-existence study: github.com/dlbbld/basic-helpmate-existence, README.md at
# commit 039d1464f6412307cf7d0c1b4c415e0c2ab86f6a, "Current Results" (locally legal states: the
# side not to move not in check; "Legal states", "Black-to-move states", "Black checkmates",
# "Stalemates", "Forced first capture", "Counterexamples"; White-to-move "Unwinnable" states), and
# CHANGELOG.md 2.0.0 (representatives per symmetry class, our table entries). With Black to move,
# White cannot mate exactly in the stalemates, the forced first captures and the counterexamples
# (after the capture the rest is dead); KRvKN's 8 White-to-move positions are the study's "already
# ended" ones (White checkmated or stalemated).
check_study() {  # KEY FILTER all btm mates stalemates btm_no_mate wtm_no_mate [entries]
  local key=$1 filt=$2
  # shellcheck disable=SC2086
  {
    expect "$key $filt positions" "$3" "$(count $key $filt)"
    expect "$key $filt btm positions" "$4" "$(count_b $key $filt)"
    expect "$key $filt btm checkmates" "$5" "$(count $key $filt --stm black --checkmate)"
    expect "$key $filt btm stalemates" "$6" "$(count $key $filt --stm black --stalemate)"
    expect "$key $filt btm white cannot mate" "$7" "$(count $key $filt --stm black --white-can-mate no)"
    expect "$key $filt wtm white cannot mate" "$8" "$(count $key $filt --stm white --white-can-mate no)"
    [ $# -lt 9 ] || expect "$key $filt entries" "$9" "$(entries $key $filt)"
  }
}
check_study KRvK "" 399112 223944 216 68 $((68 + 412 + 0)) 0
check_study KQvK "" 368452 223944 364 872 $((872 + 2420 + 0)) 0
check_study KBBvK "--white-bishops mixed" 5973472 3469344 1552 5320 $((5320 + 7952 + 0)) 24
check_study KBNvK "--white-bishops light" 12268044 6830292 232 6444 $((6444 + 4474 + 4)) 60 3067466
check_study KRvKB "--black-bishops light" 11306596 5916232 3264 48 $((48 + 3740 + 0)) 0 2827104
check_study KRvKN "" 23315984 12535256 9328 48 $((48 + 7168 + 0)) 8 2915128
expect "KBNvK wtm positions (study)" 5437752 "$(count_w KBNvK --white-bishops light)"
expect "KBBvK wtm positions (study)" 2504128 "$(count_w KBBvK --white-bishops mixed)"

# ---- definitions that follow from the law (docs/rules.md) ------------------------------------
all_kbk=$(count KBvK)
expect "KBvK is dead by material" "$all_kbk" "$(count KBvK --dead)"
expect "KBvK dead not by material" 0 "$(count KBvK --dead-not-by-material)"
expect "KBvKB same-coloured bishops all dead" "$(count KBvKB --bishops same)" "$(count KBvKB --bishops same --dead)"
expect "KBvKB same-coloured: dead by material" 0 "$(count KBvKB --bishops same --dead-not-by-material)"
expect "KBvKB dead not by material = dead opposite" "$(count KBvKB --bishops opposite --dead)" \
  "$(count KBvKB --dead-not-by-material)"
expect "KQvK every dead position is by placement" "$(count KQvK --dead)" "$(count KQvK --dead-not-by-material)"
expect "KBvKB bishops split" "$(count KBvKB)" "$(($(count KBvKB --bishops same) + $(count KBvKB --bishops opposite)))"
expect "KBBvK white bishops split" "$(count KBBvK)" \
  "$(($(count KBBvK --white-bishops light) + $(count KBBvK --white-bishops dark) + $(count KBBvK --white-bishops mixed)))"
expect "KQvK has no weaker-side mate" 0 "$(count KQvK --only-weaker-can-mate)"
expect "KNvKN equal material" 0 "$(count KNvKN --only-weaker-can-mate)"
expect "KBvKP only weaker: Black mates, White cannot" \
  "$(count KBvKP --black-can-mate yes --white-can-mate no)" "$(count KBvKP --only-weaker-can-mate)"
expect "KBvKN: dead = neither can mate" "$(count KBvKN --white-can-mate no --black-can-mate no)" "$(count KBvKN --dead)"
expect "checkmate is DTHM 0 of the side to move" "$(count KRvKN --checkmate)" \
  "$(($(count KRvKN --stm white --dthm-white-mated 0) + $(count KRvKN --stm black --dthm-black-mated 0)))"

# ---- colour-swapped keys ---------------------------------------------------------------------
expect "KNvKB wtm dead = KBvKN btm dead" "$(count KBvKN --stm black --dead)" "$(count KNvKB --stm white --dead)"
expect "KvKQ wtm black cannot mate" "$(count KQvK --stm black --white-can-mate no)" \
  "$(count KvKQ --stm white --black-can-mate no)"
expect "KvKQ DTHM of White" "$(count KQvK --stm white --dthm-black-mated 5..9)" \
  "$(count KvKQ --stm black --dthm-white-mated 5..9)"
# The colour swap mirrors the ranks, so a light-squared bishop becomes a dark-squared one.
expect "KNvKB bishop colours" "$(count KBvKN --white-bishops light --stm black --black-can-mate yes)" \
  "$(count KNvKB --black-bishops dark --stm white --white-can-mate yes)"
q KQvK --stm black --white-can-mate no --fen >"$work/kqk.fen"
q KvKQ --stm white --black-can-mate no --fen >"$work/kkq.fen"
$py - "$work/kqk.fen" "$work/kkq.fen" <<'EOF' || fail "KvKQ --fen is not KQvK --fen colour-swapped line by line"
import sys
def swap(fen):
    f = fen.split()
    ranks = f[0].split('/')[::-1]
    return ' '.join(['/'.join(r.swapcase() for r in ranks), 'b' if f[1] == 'w' else 'w'] + f[2:])
a = open(sys.argv[1]).read().split('\n')[:-1]
b = open(sys.argv[2]).read().split('\n')[:-1]
sys.exit(0 if len(a) == 414 and [swap(x) for x in a] == b else 1)
EOF

# ---- listings probe back to their filter -----------------------------------------------------
# Every 7th listed FEN (at most 300 a filter) is probed; the probe's JSON must satisfy the
# condition (a Python expression over the answer j and the FEN's board).
probe_back() {  # NAME CONDITION QUERY-ARGS...
  local name=$1 cond=$2
  shift 2
  q "$@" --fen | awk 'NR % 7 == 1' | head -300 >"$work/sample.fen"
  [ -s "$work/sample.fen" ] || { fail "$name: empty listing"; return; }
  "$deadpos" probe --tables "$tables" --json --epd "$work/sample.fen" >"$work/sample.json" || true
  $py - "$work/sample.fen" "$work/sample.json" "$cond" <<'EOF' || fail "$name: a listed FEN does not satisfy the filter"
import json, sys
fens = open(sys.argv[1]).read().split('\n')[:-1]
answers = [json.loads(l) for l in open(sys.argv[2])]
cond = sys.argv[3]
if len(fens) != len(answers):
    sys.exit(1)
def squares(fen, piece):
    out, rank = [], 7
    for row in fen.split()[0].split('/'):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                if ch == piece:
                    out.append((f + rank) % 2 == 1)  # True: light square
                f += 1
        rank -= 1
    return out
for fen, j in zip(fens, answers):
    if 'error' in j or j['fen'].split()[:4] != fen.split()[:4] or j['table'] is None:
        print('bad answer', fen, j); sys.exit(1)
    stm = fen.split()[1]
    if not eval(cond, {'j': j, 'stm': stm, 'light': lambda p: squares(fen, p)}):
        print('condition fails', fen, j); sys.exit(1)
EOF
}
probe_back "KBvKN btm dead" "j['dead'] and stm == 'b'" KBvKN --stm black --dead
probe_back "KQvK stalemates" "j['stalemate'] and j['dead']" KQvK --stalemate
probe_back "KRvKN checkmates" "j['checkmate']" KRvKN --checkmate
probe_back "KPvK deep" "stm == 'w' and j['dthm_black_mated_plies'] >= 17" KPvK --stm white --dthm-black-mated 17..
probe_back "KBvKN deep" "stm == 'b' and j['dthm_black_mated_plies'] == 24" KBvKN --stm black --dthm-black-mated 24
probe_back "KBNvK light no mate" "not j['white_can_mate'] and light('B') == [True]" KBNvK --white-bishops light \
  --white-can-mate no
probe_back "KNvKB dark bishop" "light('b') == [False] and j['white_can_mate']" KNvKB --black-bishops dark \
  --white-can-mate yes
probe_back "KBvKP dead by placement" "j['dead']" KBvKP --dead-not-by-material
probe_back "KBvKP weaker" "j['black_can_mate'] and not j['white_can_mate']" KBvKP --only-weaker-can-mate
probe_back "KRvKP window" "7 <= j['dthm_white_mated_plies'] <= 9 and j['white_can_mate']" KRvKP \
  --dthm-white-mated 7..9 --white-can-mate yes
# --json carries the same values as probe.
q KBvKN --stm black --dthm-black-mated 24 --json >"$work/deep.json"
$py - "$work/deep.json" <<'EOF' || fail "--json fields"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ok = len(rows) == 4 and sum(r['positions'] for r in rows) == 32 and all(
    r['material'] == 'KBvKN' and r['side_to_move'] == 'black' and r['dthm_black_mated_plies'] == 24
    and r['white_can_mate'] and not r['dead'] for r in rows)
sys.exit(0 if ok else 1)
EOF
expect "--limit" 5 "$(q KQvK --fen --limit 5 | wc -l)"
expect "--limit over materials" 3 "$(q KvK KQvK --json --limit 3 | wc -l)"

# ---- threads --------------------------------------------------------------------------------
for args in "KRvKN --dthm-black-mated 0..5 --json" "KBNvK --white-bishops light --white-can-mate no --fen" \
  "KBvKP KQvKB --dead-not-by-material --json" "KRvKP --stalemate --fen" "KRvKN KBBvK --count"; do
  # shellcheck disable=SC2086
  q $args --threads 1 >"$work/t1" && q $args --threads 2 >"$work/t2" || fail "$args: failed"
  cmp -s "$work/t1" "$work/t2" || fail "$args: --threads 1 and 2 differ"
done

# ---- errors ---------------------------------------------------------------------------------
mkdir -p "$work/empty"
err_case() {  # EXPECTED-CODE WHAT ARGS...
  local code=$1 what=$2
  shift 2
  "$deadpos" query "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [ "$rc" = "$code" ] || fail "$what: exit $rc, expected $code"
  [ ! -s "$work/out" ] || fail "$what: printed on standard output"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$what: not one line on standard error: $(cat "$work/err")"
  grep -q '^deadpos: ' "$work/err" || fail "$what: message does not start with 'deadpos: '"
}
err_case 4 "bad material key" KXvK --tables "$tables"
err_case 4 "6-man key" KQRBvKR --tables "$tables"
err_case 4 "bad key after a good one" KQvK KvKK --tables "$tables"
err_case 6 "missing table" KQvK --tables "$work/empty"
err_case 6 "missing table after a present one" KQvK KQRvKR --tables "$tables"
err_case 5 "tables is a file" KQvK --tables "$work/out"
err_case 2 "unknown side" KQvK --tables "$tables" --stm green
err_case 2 "unknown can-mate value" KQvK --tables "$tables" --white-can-mate maybe
err_case 2 "unknown bishops value" KBvKB --tables "$tables" --bishops striped
err_case 2 "reversed range" KQvK --tables "$tables" --dthm-white-mated 7..3
err_case 2 "range out of bounds" KQvK --tables "$tables" --dthm-black-mated 251
err_case 2 "range not a number" KQvK --tables "$tables" --dthm-black-mated abc
err_case 2 "range of dots" KQvK --tables "$tables" --dthm-black-mated ..
err_case 2 "empty range" KQvK --tables "$tables" --dthm-black-mated ""
err_case 2 "negative range" KQvK --tables "$tables" --dthm-black-mated -3..4
err_case 2 "--fen --json" KQvK --tables "$tables" --fen --json
err_case 2 "--count --fen" KQvK --tables "$tables" --count --fen
err_case 2 "--limit with --count" KQvK --tables "$tables" --limit 3
err_case 2 "no material" --tables "$tables"
err_case 2 "unknown option" KQvK --tables "$tables" --deadish
mkdir -p "$work/bad"
cp "$tables/KRvK.dpt" "$work/bad/KRvK.dpt"
printf '\xff\xff\xff\xff' | dd of="$work/bad/KRvK.dpt" bs=1 seek=200 conv=notrunc status=none
err_case 7 "damaged block" KRvK --tables "$work/bad"
mkdir -p "$work/dir/KQvK.dpt"
err_case 5 "directory under the table's name" KQvK --tables "$work/dir"
"$deadpos" query KQvK --tables "$tables" --fen >/dev/full 2>"$work/err"
expect "write error exit" 5 $?

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "query cli: all checks passed"
