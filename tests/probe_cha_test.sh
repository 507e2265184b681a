#!/usr/bin/env bash
# `deadpos probe --cha` (docs/cli.md, "--cha"): CHA's line protocol. usage:
#   probe_cha_test.sh DEADPOS TABLES_DIR PGN_EXTRACT
# Each input line "FEN white|black" gets exactly one output line, in order. Expected words come from
# the Laws (docs/rules.md) and the verified tables, the reason beside each; every "winnable" line is
# replayed by pgn-extract (Debian's independent PGN reader, which reads UCI moves), which must find
# it legal and ending in checkmate given by the side named. Errors get an "error" line in place,
# the exit code is the first error's; --cha with --json, --flag or --line is a usage error (2).
set -u
deadpos=$1 tables=$2 pgnextract=$3
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/deadpos_cha.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$pgnextract" ] || { echo "FAIL: pgn-extract not found at $pgnextract (scripts/setup.sh installs it)" >&2; exit 1; }

# expected word <tab> input line <tab> why
cat >"$work/cases.tsv" <<'CASES'
unwinnable	8/8/8/4k3/8/8/4K3/6N1 b - - 0 1 white	K+N v K: no mate is possible (5.2.2)
winnable	8/8/8/3k4/8/8/p7/K1N5 b - - 0 1 white	KNvKP: a helpmate exists (the black pawn promotes and blocks)
unwinnable	8/8/8/3k4/8/8/p7/K1N5 b - - 0 1 bl4ck	(a bad side word: error)
winnable	rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 black	the initial position: 1.f3 e5 2.g4 Qh4#
winnable	rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 white	the initial position: 1.e4 f6 2.d4 g5 3.Qh5#
unwinnable	4k3/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3/8 w - - 0 1 black	a locked wall no king can pass: dead
unwinnable	8/2kr4/8/K7/8/8/8/8 w - - 0 1 white	a lone king never mates
winnable	8/2kr4/8/K7/8/8/8/8 w - - 0 1 black	K+R mates a lone king
winnable	6rk/5N2/7K/8/8/8/8/8 b - - 0 1 white	Black is checkmated on the board: White has won (no moves)
unwinnable	6rk/5N2/7K/8/8/8/8/8 b - - 0 1 black	Black is checkmated on the board: Black never mates
error	8/8/8 white	a malformed FEN
CASES
sed -i 's/^unwinnable\t\(.*bl4ck\)/error\t\1/' "$work/cases.tsv"
cut -f2 "$work/cases.tsv" >"$work/in.txt"
"$deadpos" probe --cha --tables "$tables" <"$work/in.txt" >"$work/out.txt" 2>"$work/err.txt"
rc=$?
[ "$(wc -l <"$work/out.txt")" = "$(wc -l <"$work/in.txt")" ] ||
  fail "$(wc -l <"$work/in.txt") inputs gave $(wc -l <"$work/out.txt") output lines"
[ "$rc" = 4 ] || fail "exit code $rc, expected 4 (the first error: invalid argument, a bad side word)"

n=0
while IFS=$'\t' read -r want input why; do
  n=$((n + 1))
  got=$(sed -n "${n}p" "$work/out.txt")
  word=${got%% *}
  [ "$word" = "$want" ] || { fail "'$input': '$got', expected $want ($why)"; continue; }
  [ "$want" = winnable ] || continue
  moves=${got#winnable}
  fen=${input% *} side=${input##* }
  stm=$(echo "$fen" | cut -d' ' -f2)
  nply=$(echo $moves | wc -w)
  # a mate on the board: no moves (the case's checkmate is checked by hand in its line above)
  [ "$nply" = 0 ] && continue
  printf '[SetUp "1"]\n[FEN "%s"]\n\n%s *\n' "$fen" "$moves" >"$work/g.pgn"
  "$pgnextract" -s --checkmate "$work/g.pgn" -o "$work/mate.pgn" 2>/dev/null
  grep -q '^\[FEN' "$work/mate.pgn" 2>/dev/null || fail "'$input': pgn-extract does not find '$moves' legal and ending in checkmate"
  # the last move is the winner's: the side to move after nply plies is the loser
  first=$([ "$stm" = w ] && echo white || echo black)
  loser=$([ $((nply % 2)) = 0 ] && echo "$first" || { [ "$first" = white ] && echo black || echo white; })
  [ "$loser" != "$side" ] || fail "'$input': the line '$moves' ends with $side mated, not mating"
done <"$work/cases.tsv"

"$deadpos" probe --cha --json --tables "$tables" x >/dev/null 2>&1
[ $? = 2 ] || fail "--cha --json is not a usage error"
"$deadpos" probe --cha --flag white --tables "$tables" x >/dev/null 2>&1
[ $? = 2 ] || fail "--cha --flag is not a usage error"
# Without tables every line still gets its line, an error naming the directory.
printf '%s\n' "8/8/8/4k3/8/8/4K3/6N1 b - - 0 1 white" | "$deadpos" probe --cha --tables "$work/none" >"$work/nt.txt" 2>/dev/null
grep -q "^error .*$work/none" "$work/nt.txt" || fail "no tables: '$(cat "$work/nt.txt")'"

# Input bytes are never echoed raw: a carriage return inside a line (a CRLF line end is not an
# error), a vertical tab or a non-ASCII byte (U+2028) in a bad line comes back as "\xNN", so each
# input still gets exactly one printable output line (docs/cli.md, "--cha").
printf '8/8/8/4k3/8/8/4K3/6N1 b - - 0 1 wh\rite\n8/8/8/4k3/8/8/4K3/6N1 b - - 0 1 wh\vite\n8/8/8/4k3/8/8/4K3/6N1 b - - 0 1 \342\200\250\n' |
  "$deadpos" probe --cha --tables "$tables" >"$work/raw.txt" 2>/dev/null
[ "$(wc -l <"$work/raw.txt")" = 3 ] || fail "3 bad lines gave $(wc -l <"$work/raw.txt") output lines"
LC_ALL=C grep -q '[^ -~]' "$work/raw.txt" && fail "raw input bytes echoed: $(od -c "$work/raw.txt" | head -3)"
grep -q 'wh\\x0Dite' "$work/raw.txt" || fail "the carriage return is not shown as \\x0D: $(cat "$work/raw.txt")"

[ "$failures" = 0 ] && echo "probe_cha_test: $n cases, all pass"
[ "$failures" = 0 ]
