"""The module's answers equal the `deadpos probe --json` command's (the reference) on every public
dispute position (examples/positions-public.tsv) and a few more, and every helpmate line replays,
by an independent move checker (movecheck.py), to checkmate of the mated side."""

import pytest

import movecheck
from conftest import TABLES, command, public_positions

PUBLIC = public_positions()

# Beyond the public list: castling rights (the castling search), an en passant right, a line that
# passes through a capture, a position beyond the <=4-man tables (searched), an EPD record, two
# positions no game can reach.
EXTRA = [
    ("castling", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"),
    ("en-passant", "8/8/8/3pP3/8/8/8/k6K w - d6 0 2"),
    ("kqkp-capture", "7k/8/8/8/8/8/1q5P/K7 w - - 0 1"),
    ("six-men", "r1b1k3/8/8/8/8/8/8/R1B1K3 w - - 0 1"),
    ("epd", '8/8/8/4k3/8/8/8/R3K3 w - - bm Kd2; id "krk";'),
    # positions no game can reach: the "warnings" list (an impossible double check that is also
    # checkmate; ten knights beside a pawn, more promotions than the missing pawns allow)
    ("impossible-check", "8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1"),
    ("impossible-material", "7k/8/8/8/8/NNNNN3/NNNNN1P1/K7 w - - 0 1"),
]
POSITIONS = PUBLIC + EXTRA
FENS = [fen for _, fen in POSITIONS]
IDS = [i for i, _ in POSITIONS]


def test_public_positions_are_read():
    assert len(PUBLIC) >= 20
    assert all(i.startswith("PUB-") for i, _ in PUBLIC)


@pytest.fixture(scope="module")
def reference():
    """The command's answers: plain, with each --flag, with --line, with --flag and --line."""
    out = {"plain": command(FENS), "line": command(FENS, "--line")}
    for side in ("white", "black", "stm"):
        out[side] = command(FENS, "--flag", side)
        out[side + "-line"] = command(FENS, "--flag", side, "--line")
    return out


@pytest.mark.parametrize("k", range(len(FENS)), ids=IDS)
def test_probe_equals_the_command(tb, reference, k):
    assert tb.probe(FENS[k]) == reference["plain"][k]
    assert tb.probe(FENS[k], line=True) == reference["line"][k]
    for side in ("white", "black", "stm"):
        assert tb.probe(FENS[k], flag=side) == reference[side][k]
        assert tb.probe(FENS[k], flag=side, line=True) == reference[side + "-line"][k]


@pytest.mark.parametrize("k", range(len(FENS)), ids=IDS)
def test_flag_result_equals_the_command(tb, reference, k):
    for side in ("white", "black", "stm"):
        ref = reference[side][k]["flag"]
        assert tb.flag_result(FENS[k], side) == ref
        with_line = tb.flag_result(FENS[k], side, line=True)
        lines = reference[side + "-line"][k]["lines"]
        assert with_line.pop("line") == (lines[0] if lines else None)
        assert with_line == ref


@pytest.mark.parametrize("k", range(len(FENS)), ids=IDS)
def test_helpmate_line_equals_the_command(tb, reference, k):
    ref = reference["line"][k]
    by_side = {entry["mated"]: entry for entry in ref["lines"]}
    for mated in ("white", "black"):
        got = tb.helpmate_line(FENS[k], mated)
        if ref["checkmate"] and ref[f"dthm_{mated}_mated_plies"] == 0:
            # Already checkmated: the command prints no line; the module gives the empty one.
            assert got == {"mated": mated, "plies": 0, "shortest": True, "san": [], "uci": []}
        elif mated in by_side and "error" not in by_side[mated]:
            assert got == by_side[mated]
        elif mated in by_side:
            continue  # the line error: test_errors.py
        else:
            can = ref["black_can_mate" if mated == "white" else "white_can_mate"]
            assert can is False and got is None


@pytest.mark.parametrize("k", range(len(FENS)), ids=IDS)
def test_lines_replay_to_checkmate(tb, reference, k):
    fen = tb.probe(FENS[k])["fen"]
    for mated in ("white", "black"):
        try:
            got = tb.helpmate_line(FENS[k], mated)
        except Exception:  # noqa: BLE001 - the error cases are test_errors.py's
            continue
        if got is None:
            continue
        final = movecheck.replay(fen, got["uci"])
        assert final.is_checkmate(), (mated, got["uci"])
        assert final.stm == mated[0], (mated, got["uci"])
        if got["uci"]:  # the checker tells a checkmate from the position one ply before it
            assert not movecheck.replay(fen, got["uci"][:-1]).is_checkmate()
        assert got["plies"] == len(got["uci"]) == len(got["san"])
        dthm = reference["plain"][k][f"dthm_{mated}_mated_plies"]
        if got["shortest"]:
            assert got["plies"] == dthm


def test_answers_with_small_budgets_equal_the_command(deadpos):
    # budget_nodes=1: beyond the tables every question is undetermined (None), as in the command.
    small = deadpos.Tablebase(TABLES, budget_nodes=1, budget_mb=1, cache_mb=0)
    ref = command(FENS, "--budget-nodes", "1", "--budget-mb", "1", "--cache-mb", "0", "--flag", "stm")
    got = [small.probe(f, flag="stm") for f in FENS]
    assert got == ref
    assert any(a["dead"] is None for a in got)  # the test reaches the undetermined answers
    for fen, a in zip(FENS, got):
        # "not-asked": the flag answer did not need White's question (Black can mate, or that is
        # undetermined); only an undetermined question is one the line must refuse.
        if a["how"]["white_can_mate"]["method"] == "undetermined":
            with pytest.raises(deadpos.Undetermined) as e:
                small.helpmate_line(fen, "black")
            assert e.value.category == "undetermined" and "nodes budget" in str(e.value)
