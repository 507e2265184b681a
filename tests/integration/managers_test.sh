#!/usr/bin/env bash
# integration.cutechess / integration.fastchess: real matches played by a tournament manager built
# twice from its published snapshot (integrations/MANAGER/build.sh): patched, against the installed
# libdeadpos, and as published. Each game of games.tsv is one match of one game between two copies
# of uci_test_engine, one of which loses on time at its N-th move; the manager writes the PGN. Checks:
#   - the patched build's result is the one the Laws give (games.tsv), and so is its termination:
#     "time forfeit" for a flag-fall, an adjudication naming "dead position (FIDE 5.2.2)" for a
#     dead position adjudicated during play;
#   - `deadpos adjudicate --json` on the patched build's PGN changes nothing (its result, from the
#     moves the manager recorded, is the recorded one), and `deadpos probe --flag` on the final
#     position gives the recorded result of every flag-fall;
#   - the unpatched build gives the result the published code gives (games.tsv), and where that is
#     not the Laws' result, `deadpos adjudicate` on its PGN changes it to the Laws' result.
# Each game's two PGN files are printed side by side in the log.
#   managers_test.sh MANAGER SRC SNAPSHOT PREFIX DEADPOS TABLES ENGINE WORK CACHE
# MANAGER: cutechess or fastchess; PREFIX: an installed deadpos (the capi_prefix fixture); TABLES:
# the <=4-man tables; WORK: this test's folder (the patched build lives there); CACHE: where the
# unpatched build is kept between runs. Exit status 0 when every check holds.
set -euo pipefail
[ $# -eq 9 ] || { echo "usage: managers_test.sh MANAGER SRC SNAPSHOT PREFIX DEADPOS TABLES ENGINE WORK CACHE" >&2; exit 2; }
manager=$1 src=$2 snapshot=$3 prefix=$4 deadpos=$5 tables=$6 engine=$7 work=$8 cache=$9
# The prefix is used by pkg-config and CMake, which want absolute paths.
prefix=$(cd "$prefix" && pwd)
case $manager in cutechess | fastchess) ;; *) echo "managers_test.sh: unknown manager '$manager'" >&2; exit 2 ;; esac
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig
snap_var=$(echo "$manager" | tr a-z A-Z)_SNAPSHOT
export "$snap_var=$snapshot"
mkdir -p "$work" "$cache"

t0=$(date +%s)
patched=$("$src/integrations/$manager/build.sh" "$work/build")
unpatched=$("$src/integrations/$manager/build.sh" --unpatched "$cache")
echo "built (or reused) in $(($(date +%s) - t0)) s: $patched; $unpatched"

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# The value of a PGN tag in a one-game file.
tag() { sed -n "s/^\[$2 \"\(.*\)\"\]$/\1/p" "$1" | awk 'NR == 1'; }

# play BINARY WITH_DEADPOS(0/1) ADJUDICATE(0/1) FEN FLAGGER FLAG_AT PGN
play() {
  local bin=$1 with=$2 adj=$3 fen=$4 flagger=$5 flag_at=$6 pgn=$7
  local epd=${pgn%.pgn}.epd
  echo "$fen" | cut -d' ' -f1-4 > "$epd"
  local wargs=(--seed 1) bargs=(--seed 2)
  if [ "$flagger" = white ]; then wargs+=(--flag-at "$flag_at"); else bargs+=(--flag-at "$flag_at"); fi
  rm -f "$pgn"
  if [ "$manager" = cutechess ]; then
    local opts=()
    [ "$with" = 1 ] && opts+=(-deadpos "$tables,budget_ms=2000")
    [ "$adj" = 1 ] && opts+=(-deadposadjudicate)
    local wa=() ba=() a
    for a in "${wargs[@]}"; do wa+=("arg=$a"); done
    for a in "${bargs[@]}"; do ba+=("arg=$a"); done
    timeout 120 "$bin" -engine name=white cmd="$engine" "${wa[@]}" -engine name=black cmd="$engine" "${ba[@]}" \
      -each proto=uci tc=1+0 -openings file="$epd" format=epd -games 1 -pgnout "$pgn" "${opts[@]}" \
      > "${pgn%.pgn}.log" 2>&1
  else
    local opts=()
    [ "$with" = 1 ] && opts+=(-deadpos "$tables" -deadposbudget 2000)
    [ "$adj" = 1 ] && opts+=(-deadposadjudicate)
    timeout 120 "$bin" -engine name=white cmd="$engine" args="${wargs[*]}" -engine name=black cmd="$engine" \
      args="${bargs[*]}" -each proto=uci tc=1+0 -openings file="$epd" format=epd order=sequential -rounds 1 \
      -games 1 -pgnout file="$pgn" "${opts[@]}" > "${pgn%.pgn}.log" 2>&1
  fi
}

# The JSON answer of `deadpos adjudicate` for a one-game PGN, one field (python3 reads it).
# (No `head` in the pipe: with pipefail, deadpos killed by SIGPIPE would fail the assignment.)
adjudicated() {
  "$deadpos" adjudicate --tables "$tables" --json "$1" |
    python3 -c "import json,sys; d=json.loads(sys.stdin.readline()); sys.stdin.read(); v=d.get('$2'); print('null' if v is None else str(v).lower() if isinstance(v,bool) else v)"
}

games=0
while IFS=$'\t' read -r name fen flagger flag_at adj laws unpatched_result why; do
  case $name in '#'* | '') continue ;; esac
  games=$((games + 1))
  laws_result=${laws%% *} laws_rule=${laws#* }
  echo "== $name: $fen ($flagger flags at its move $flag_at$([ "$adj" = 1 ] && echo ", dead-position adjudication on")): $why"
  p=$work/$name-deadpos.pgn u=$work/$name-upstream.pgn
  play "$patched" 1 "$adj" "$fen" "$flagger" "$flag_at" "$p" || fail "$name: the patched $manager failed (${p%.pgn}.log)"
  play "$unpatched" 0 0 "$fen" "$flagger" "$flag_at" "$u" || fail "$name: the unpatched $manager failed (${u%.pgn}.log)"
  [ -s "$p" ] && [ -s "$u" ] || { fail "$name: no PGN written (${p%.pgn}.log, ${u%.pgn}.log)"; continue; }
  paste -d'|' <(sed 's/^/  /' "$p" | cut -c1-70 | awk '{printf "%-72s\n", $0}') <(sed 's/^/ /' "$u") | grep -v '^ *| *$' || true

  # The patched build: the Laws' result and termination.
  r=$(tag "$p" Result) term=$(tag "$p" Termination)
  [ "$r" = "$laws_result" ] || fail "$name: patched $manager recorded $r, the Laws give $laws_result"
  if [ "$adj" = 1 ] && [ "$laws_rule" = dead-position ]; then
    [ "$term" = adjudication ] || fail "$name: patched $manager: Termination '$term', expected adjudication"
    if [ "$manager" = cutechess ]; then
      # the reason ends the last move's comment, which cutechess may wrap over two lines
      tr '\n' ' ' <"$p" | grep -q 'Draw by adjudication: dead position (FIDE 5\.2\.2)}' ||
        fail "$name: the PGN does not give the reason 'Draw by adjudication: dead position (FIDE 5.2.2)'"
    else
      grep -q 'dead position (FIDE 5.2.2)' "${p%.pgn}.log" "$p" ||
        fail "$name: fastchess gave no reason 'dead position (FIDE 5.2.2)'"
    fi
  else
    [ "$term" = "time forfeit" ] || fail "$name: patched $manager: Termination '$term', expected 'time forfeit'"
  fi
  [ "$(adjudicated "$p" changed)" = false ] || fail "$name: deadpos adjudicate changes the patched build's result"
  [ "$(adjudicated "$p" result)" = "$laws_result" ] ||
    fail "$name: deadpos adjudicate gives $(adjudicated "$p" result) on the patched PGN, the Laws $laws_result"
  [ "$(adjudicated "$p" rule)" = "$laws_rule" ] ||
    fail "$name: deadpos adjudicate's rule is $(adjudicated "$p" rule), expected $laws_rule"
  if [ "$term" = "time forfeit" ]; then
    final=$(adjudicated "$p" final_fen)
    f=$("$deadpos" probe --tables "$tables" --flag "$flagger" --json "$final" |
      python3 -c "import json,sys; print(json.load(sys.stdin)['flag']['result'])")
    [ "$f" = "$r" ] || fail "$name: deadpos probe --flag $flagger '$final' gives $f, the PGN $r"
  fi

  # The unpatched build: today's rule, and where it is not the Laws', deadpos adjudicate says so.
  ru=$(tag "$u" Result)
  [ "$ru" = "$unpatched_result" ] || fail "$name: unpatched $manager recorded $ru, expected $unpatched_result"
  if [ "$unpatched_result" != "$laws_result" ]; then
    [ "$(adjudicated "$u" changed)" = true ] && [ "$(adjudicated "$u" result)" = "$laws_result" ] ||
      fail "$name: deadpos adjudicate does not correct the unpatched build's $ru to $laws_result"
    echo "   the Laws: $laws_result; patched $manager: $r; unpatched: $ru (deadpos adjudicate: $(adjudicated "$u" result))"
  else
    echo "   the Laws: $laws_result; patched $manager: $r; unpatched: $ru"
  fi
done < "$src/tests/integration/games.tsv"

[ "$games" -ge 7 ] || fail "read $games games from games.tsv, expected at least 7"
echo "managers_test.sh $manager: $games games, $failures failures"
[ "$failures" = 0 ]
