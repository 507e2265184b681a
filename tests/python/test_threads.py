"""One Tablebase probed from several Python threads at once gives the sequential answers, and the
GIL is released while the library works."""

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from conftest import TABLES, public_positions

FENS = [fen for _, fen in public_positions()] + ["r1b1k3/8/8/8/8/8/8/R1B1K3 w - - 0 1"]


def answers(tb, fen):
    return (tb.probe(fen, line=True), tb.flag_result(fen, "white"), tb.flag_result(fen, "black"),
            tb.helpmate_line(fen, "white"), tb.helpmate_line(fen, "black"))


def test_threads_give_the_sequential_answers(deadpos):
    # A small block cache, so that the threads also evict and reload blocks under each other.
    tb = deadpos.Tablebase(TABLES, cache_mb=1)
    sequential = {fen: answers(tb, fen) for fen in FENS}
    jobs = [FENS[(i * 7) % len(FENS)] for i in range(8 * len(FENS))]
    with ThreadPoolExecutor(max_workers=8) as pool:
        got = list(pool.map(lambda f: (f, answers(tb, f)), jobs))
    assert len(got) == len(jobs)
    for fen, a in got:
        assert a == sequential[fen], fen


def test_the_gil_is_released_while_probing(tb):
    # With a switch interval of 100 s the interpreter never takes the GIL from a running thread:
    # the main thread gets to run Python code while the worker is still busy only if the worker
    # gives the GIL up itself, i.e. inside the library. No timing is measured: if the GIL were held
    # throughout, the main thread would first run after the worker had finished (done is True).
    old = sys.getswitchinterval()
    state = {"done": False, "calls": 0}
    started = threading.Event()

    def worker():
        started.set()
        for _ in range(50):
            for fen in FENS:
                tb.probe(fen)
                state["calls"] += 1
        state["done"] = True

    sys.setswitchinterval(100.0)
    try:
        t = threading.Thread(target=worker)
        t.start()
        started.wait()
        counter = 0
        for _ in range(100_000):  # pure Python while the worker cannot return to Python
            counter += 1
        done_meanwhile, calls_meanwhile = state["done"], state["calls"]
    finally:
        sys.setswitchinterval(old)
    t.join()
    assert counter == 100_000
    assert not done_meanwhile, "the worker finished before the main thread could run: GIL held"
    assert calls_meanwhile < 50 * len(FENS)
    assert state["calls"] == 50 * len(FENS)
