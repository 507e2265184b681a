"""A small independent move checker for the tests: replays UCI moves from a FEN and says whether
the final position is checkmate (FIDE 1.4.1, 3.*). Written from the Laws, separately from deadpos's
move generator, so that a helpmate line from the module is checked by a second implementation.

Castling (FIDE 3.8.2) follows the FEN's rights, lost when the king or that rook moves or the rook
is captured.
"""

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


class Board:
    """board: dict (file 0..7, rank 0..7) -> FEN letter; white to move when stm == 'w'."""

    def __init__(self, fen):
        fields = fen.split()
        self.board = {}
        for r, row in enumerate(fields[0].split("/")):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.board[(f, 7 - r)] = ch
                    f += 1
        self.stm = fields[1]
        self.rights = set(fields[2]) - {"-"} if len(fields) > 2 else set()
        ep = fields[3] if len(fields) > 3 else "-"
        self.ep = None if ep == "-" else (FILES.index(ep[0]), int(ep[1]) - 1)

    @staticmethod
    def white(piece):
        return piece.isupper()

    def own(self, piece, side):
        return self.white(piece) == (side == "w")

    def attacked(self, sq, by):
        """Whether side `by` ('w'/'b') attacks square sq."""
        for (f, r), p in self.board.items():
            if not self.own(p, by):
                continue
            kind = p.lower()
            df, dr = sq[0] - f, sq[1] - r
            if kind == "p":
                forward = 1 if by == "w" else -1
                if dr == forward and abs(df) == 1:
                    return True
            elif kind == "n":
                if (df, dr) in KNIGHT:
                    return True
            elif kind == "k":
                if max(abs(df), abs(dr)) == 1:
                    return True
            else:
                dirs = []
                if kind in "rq":
                    dirs += ROOK_DIRS
                if kind in "bq":
                    dirs += BISHOP_DIRS
                for vf, vr in dirs:
                    x, y = f + vf, r + vr
                    while 0 <= x < 8 and 0 <= y < 8:
                        if (x, y) == sq:
                            return True
                        if (x, y) in self.board:
                            break
                        x, y = x + vf, y + vr
        return False

    def king(self, side):
        k = "K" if side == "w" else "k"
        return next(sq for sq, p in self.board.items() if p == k)

    def in_check(self):
        return self.attacked(self.king(self.stm), "b" if self.stm == "w" else "w")

    def pseudo_moves(self):
        """(from, to, promotion letter or None) for the side to move, castling excepted."""
        out = []
        side = self.stm
        for (f, r), p in list(self.board.items()):
            if not self.own(p, side):
                continue
            kind = p.lower()

            def add(x, y):
                out.append(((f, r), (x, y), None))

            def free_or_enemy(x, y):
                q = self.board.get((x, y))
                return q is None or not self.own(q, side)

            if kind == "p":
                fw = 1 if side == "w" else -1
                last = 7 if side == "w" else 0
                start = 1 if side == "w" else 6
                targets = []
                if (f, r + fw) not in self.board:
                    targets.append((f, r + fw))
                    if r == start and (f, r + 2 * fw) not in self.board:
                        targets.append((f, r + 2 * fw))
                for df in (-1, 1):
                    t = (f + df, r + fw)
                    q = self.board.get(t)
                    if (q is not None and not self.own(q, side)) or t == self.ep:
                        targets.append(t)
                for t in targets:
                    if not (0 <= t[0] < 8 and 0 <= t[1] < 8):
                        continue
                    if t[1] == last:
                        for promo in "qrbn":
                            out.append(((f, r), t, promo))
                    else:
                        out.append(((f, r), t, None))
            elif kind in "nk":
                for vf, vr in KNIGHT if kind == "n" else KING:
                    x, y = f + vf, r + vr
                    if 0 <= x < 8 and 0 <= y < 8 and free_or_enemy(x, y):
                        add(x, y)
            else:
                dirs = (ROOK_DIRS if kind in "rq" else []) + (BISHOP_DIRS if kind in "bq" else [])
                for vf, vr in dirs:
                    x, y = f + vf, r + vr
                    while 0 <= x < 8 and 0 <= y < 8:
                        if free_or_enemy(x, y):
                            add(x, y)
                        if (x, y) in self.board:
                            break
                        x, y = x + vf, y + vr
        return out

    def play(self, mv):
        (f, r), (x, y), promo = mv
        p = self.board.pop((f, r))
        if p.lower() == "k" and abs(x - f) == 2:  # castling: the rook crosses the king
            rook_from, rook_to = ((7, r), (5, r)) if x == 6 else ((0, r), (3, r))
            self.board[rook_to] = self.board.pop(rook_from)
        for sq, right in (((4, 0), "KQ"), ((4, 7), "kq"), ((7, 0), "K"), ((0, 0), "Q"), ((7, 7), "k"), ((0, 7), "q")):
            if sq in ((f, r), (x, y)):
                self.rights -= set(right)
        if p.lower() == "p" and (x, y) == self.ep and (x, y) not in self.board:
            del self.board[(x, r)]  # en passant: the captured pawn stands beside
        self.ep = None
        if p.lower() == "p" and abs(y - r) == 2:
            self.ep = (f, (r + y) // 2)
        if promo:
            p = promo.upper() if self.white(p) else promo
        self.board[(x, y)] = p
        self.stm = "b" if self.stm == "w" else "w"

    def copy(self):
        b = Board.__new__(Board)
        b.board, b.stm, b.ep, b.rights = dict(self.board), self.stm, self.ep, set(self.rights)
        return b

    def castling_moves(self):
        """Castling moves of the side to move: rights, empty squares between king and rook, and
        the king not in check and not crossing or landing on an attacked square."""
        out = []
        r = 0 if self.stm == "w" else 7
        them = "b" if self.stm == "w" else "w"
        for right, rook_file, between, crossed in (("K", 7, (5, 6), (4, 5, 6)), ("Q", 0, (1, 2, 3), (4, 3, 2))):
            right = right if self.stm == "w" else right.lower()
            king, rook = ("K", "R") if self.stm == "w" else ("k", "r")
            if right not in self.rights or self.board.get((4, r)) != king or self.board.get((rook_file, r)) != rook:
                continue
            if any((f, r) in self.board for f in between):
                continue
            if any(self.attacked((f, r), them) for f in crossed):
                continue
            out.append(((4, r), (6 if rook_file == 7 else 2, r), None))
        return out

    def legal_moves(self):
        out = []
        for mv in self.pseudo_moves():
            b = self.copy()
            b.play(mv)
            b.stm = self.stm  # is the mover's king attacked after the move?
            if not b.in_check():
                out.append(mv)
        return out + self.castling_moves()

    def is_checkmate(self):
        return self.in_check() and not self.legal_moves()


def parse_uci(text):
    sq = lambda s: (FILES.index(s[0]), int(s[1]) - 1)  # noqa: E731
    return (sq(text[0:2]), sq(text[2:4]), text[4] if len(text) > 4 else None)


def replay(fen, uci_moves):
    """The Board after playing uci_moves from fen; ValueError for a move that is not legal."""
    b = Board(fen)
    for i, text in enumerate(uci_moves):
        mv = parse_uci(text)
        if mv not in b.legal_moves():
            raise ValueError(f"ply {i + 1}: {text} is not a legal move")
        b.play(mv)
    return b
