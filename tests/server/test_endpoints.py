"""Every endpoint of `deadpos serve` against `deadpos probe --json` on the public dispute positions
(examples/positions-public.tsv), and the moves of /standard against a separately written move
generator (tests/python/movecheck.py)."""

import json

import pytest

import machine_memory
import movecheck
from conftest import probe, probe_one, public_positions

FILES = "abcdefgh"
POSITIONS = public_positions()
# Beyond the tables (searched), castling and en passant positions besides the public ones.
EXTRA = [
    "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1",
    "r3k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "6k1/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # checkmate on the board
]


def uci(mv):
    (f, r), (x, y), promo = mv
    return f"{FILES[f]}{r + 1}{FILES[x]}{y + 1}" + (promo or "")


def without(d, *keys):
    return {k: v for k, v in d.items() if k not in keys}


@pytest.mark.parametrize("fen", [f for _, f in POSITIONS] + EXTRA)
def test_standard_is_the_commands_answer(server, fen):
    status, got = server.get_json("/standard", fen=fen)
    assert status == 200
    # The position's own fields are exactly `deadpos probe --json`'s (input echo included); the
    # lichess name insufficient_material is the dead field.
    assert without(got, "moves", "insufficient_material") == probe_one(fen)
    assert got["insufficient_material"] == got["dead"]
    # moves[]: every legal move once, by an independent generator; each child's answer is the
    # command's answer for the position after the move.
    board = movecheck.Board(fen)
    assert sorted(m["uci"] for m in got["moves"]) == sorted(uci(m) for m in board.legal_moves())
    children = [m["fen"] for m in got["moves"]]
    refs = [json.loads(x) for x in probe(children).splitlines()] if children else []
    for m, ref in zip(got["moves"], refs):
        child = movecheck.replay(fen, [m["uci"]])
        mine = movecheck.Board(m["fen"])
        assert (mine.board, mine.stm) == (child.board, child.stm), m["uci"]
        ref.pop("input")
        assert without(m, "uci", "san", "insufficient_material") == ref, m["uci"]
        assert m["insufficient_material"] == m["dead"]
        assert m["san"].endswith("#") == child.is_checkmate(), m
        assert m["san"].endswith("+") == (child.in_check() and not child.is_checkmate()), m


def test_lichess_url_form(server):
    fen = POSITIONS[0][1]
    status, got = server.get_json("/standard", fen=fen.replace(" ", "_"))
    assert status == 200 and got["fen"] == probe_one(fen)["fen"]


@pytest.mark.parametrize("flagged", ["white", "black", "stm"])
@pytest.mark.parametrize("fen", [f for _, f in POSITIONS] + EXTRA)
def test_flag_is_the_commands_answer(server, fen, flagged):
    status, got = server.get_json("/flag", fen=fen, flagged=flagged)
    assert status == 200
    assert got == probe_one(fen, "--flag", flagged, "--line")
    for line in got.get("lines", []):  # the helpmate line replays to the mate, independently
        if "uci" in line:
            assert movecheck.replay(fen, line["uci"]).is_checkmate()


@pytest.mark.parametrize("options", [(), ("--flag", "white", "--line"), ("--flag", "stm")])
def test_batch_is_the_commands_output(server, options):
    body = "\ufeff# a comment\n" + "\n".join(f for _, f in POSITIONS) + "\n\n  not a fen \r\n" + EXTRA[0] + "\n"
    q = []
    if "--flag" in options:
        q.append("flag=" + options[options.index("--flag") + 1])
    if "--line" in options:
        q.append("line=1")
    status, headers, got = server.request("POST", "/batch" + ("?" + "&".join(q) if q else ""), body=body.encode())
    assert status == 200 and headers["Content-Type"] == "application/x-ndjson"
    assert got == probe([], *options, stdin=body)
    assert len(got.splitlines()) == len(POSITIONS) + 2


def test_health_and_metrics(server):
    status, h = server.get_json("/health")
    assert status == 200 and h == {"status": "ok", "tables": 36, "max_men": 4}
    fen = POSITIONS[1][1]
    server.get("/standard", fen=fen)
    server.get("/standard", fen=fen)  # the second from the answer cache
    page_status, _, _ = server.get("/")  # the page's index.html, served by the mount point
    status, headers, text = server.get("/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = float(value)
    assert values['deadpos_http_requests_total{endpoint="standard",status="200"}'] >= 2
    assert values['deadpos_http_requests_total{endpoint="health",status="200"}'] >= 1
    # The page's files were never counted (endpoint="page" stayed 0).
    assert page_status == 200 and values['deadpos_http_requests_total{endpoint="page",status="200"}'] >= 1
    assert values["deadpos_answer_cache_hits_total"] >= 1 and values["deadpos_answer_cache_misses_total"] >= 1
    count = values['deadpos_http_request_duration_seconds_count{endpoint="standard"}']
    assert values['deadpos_http_request_duration_seconds_bucket{endpoint="standard",le="+Inf"}'] == count
    assert values["deadpos_http_requests_in_flight"] == 1  # this request
    # No --cache-mb: `deadpos probe`'s default (an eighth of the memory), not a fixed 256 MiB.
    assert values["deadpos_block_cache_limit_bytes"] == machine_memory.default_cache_bytes()


def test_block_cache_option(serve):
    s = serve("--cache-mb", "64")
    status, _, text = s.get("/metrics")
    assert status == 200 and "\ndeadpos_block_cache_limit_bytes 67108864\n" in text


def test_undetermined_answers_are_not_cached(serve):
    # A budget of 1 position leaves a position beyond the tables undetermined: such an answer (cut
    # short by a limit, with --request-ms by the clock) is computed again at every request, while a
    # table answer is served from the answer cache the second time.
    s = serve("--budget-nodes", "1")
    beyond = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    in_tables = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"

    def counts():
        _, _, text = s.get("/metrics")
        v = dict(line.rsplit(" ", 1) for line in text.splitlines() if line.startswith("deadpos_answer_cache_"))
        return int(v["deadpos_answer_cache_hits_total"]), int(v["deadpos_answer_cache_misses_total"])

    for _ in range(2):
        status, a = s.get_json("/flag", fen=beyond, flagged="white")
        assert status == 200 and a["dead"] is None and a["how"]["black_can_mate"]["budget"] == "nodes", a
    assert counts() == (0, 2)
    for _ in range(2):
        status, a = s.get_json("/flag", fen=in_tables, flagged="black")
        assert status == 200 and a["table"] == "KRvK", a
    assert counts() == (1, 3)
