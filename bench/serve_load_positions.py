"""Random placements for bench/serve_load.sh: MEN men (two kings, the rest drawn from QRBNP of
either colour), one FEN per line, N lines, seeded so that runs are comparable. Not all are legal;
the script keeps those that `deadpos probe` accepts. Usage: serve_load_positions.py MEN N [SEED]"""

import random
import sys


def main():
    men, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 20261201)
    for _ in range(n):
        squares = rng.sample(range(64), men)
        pieces = ["K", "k"] + [rng.choice("QRBNPqrbnp") for _ in range(men - 2)]
        board = dict(zip(squares, pieces))
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = board.get(r * 8 + f)
                if p:
                    row += (str(empty) if empty else "") + p
                    empty = 0
                else:
                    empty += 1
            rows.append(row + (str(empty) if empty else ""))
        print("/".join(rows) + " " + rng.choice("wb") + " - - 0 1")


if __name__ == "__main__":
    main()
