#!/usr/bin/env python3
"""Adjudicate a flag-fall the way a game server could (FIDE 6.9, with 5.2.2 first).

    PYTHONPATH=<prefix>/lib/python3/dist-packages \\
        python3 adjudicate_flag.py --tables TABLES "r7/K1k5/8/8/8/8/8/8 w - - 4 3" white

prints "1/2-1/2  dead-position: dead position: neither side can checkmate ... (FIDE 5.2.2)".
The result is None (printed "undetermined") only beyond the tables, when the search budget ran out:
a server then keeps its own rule or asks an arbiter; it never gets a guessed result.
Exit status: 0 answered, 1 undetermined, 2 error.
"""

import argparse
import sys

import deadpos


def adjudicate(tb, fen, flagged):
    """(result or None, reason, text, line) when `flagged` ("white"/"black") ran out of time."""
    verdict = tb.flag_result(fen, flagged, line=True)
    line = verdict.get("line")
    moves = " ".join(line["san"]) if line and "san" in line else ""
    return verdict["result"], verdict["reason"], verdict["text"], moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", action="append", required=True, help="table directory (repeatable)")
    ap.add_argument("fen", help="the position when the flag fell")
    ap.add_argument("flagged", choices=["white", "black"], help="whose flag fell")
    args = ap.parse_args()
    try:
        tb = deadpos.Tablebase(args.tables)
        result, reason, text, moves = adjudicate(tb, args.fen, args.flagged)
    except deadpos.Error as e:  # one family: InvalidFen, MissingTable, CorruptTable, Io, ...
        print(f"error: {e.category}: {e}", file=sys.stderr)
        return 2
    print(f"{result or 'undetermined'}  {reason}: {text}")
    if moves:
        print(f"  the opponent's mate: {moves}")
    return 0 if result else 1


if __name__ == "__main__":
    sys.exit(main())
