"""The public dispute positions (examples/positions-public.tsv), read by the Python and the
server tests alike (tests/python/conftest.py, tests/server/conftest.py)."""
import os


def public_positions():
    """(id, fen) of every line of the file named by DEADPOS_PUBLIC_POSITIONS."""
    out = []
    with open(os.environ["DEADPOS_PUBLIC_POSITIONS"], encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("id\t") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            out.append((cols[0], cols[1]))
    return out
