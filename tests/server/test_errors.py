"""Bad requests, limits, missing and damaged tables, and SIGTERM with requests in flight: the
right HTTP status with a JSON error (the command's category and message where it has one), and a
server that keeps answering."""

import gzip
import json
import os
import signal
import subprocess
import threading

import pytest

from conftest import EXE, TABLES, copy_tables, probe, probe_one, public_positions, wait_for

KRK = "8/8/8/8/8/2k5/8/R3K3 w - - 0 1"
KQK = ["8/8/8/8/8/2k5/8/1Q2K3 w - - 0 1", "8/8/8/8/8/2k5/8/3QK3 w - - 0 1", "8/8/8/3k4/8/8/8/Q3K3 b - - 0 1"]


def error_of(status, body):
    assert "error" in body and body["status"] == status, body
    return body["error"]


@pytest.mark.parametrize("fen", ["xx", "8/8/8/8/8/8/8/8 w - - 0 1", "k7/8/8/8/8/8/8/K7 x - - 0 1",
                                 "kk6/8/8/8/8/8/8/K7 w - - 0 1", "k7/8/8/8/8/8/8/K6\xff w - - 0 1"])
@pytest.mark.parametrize("path", ["/standard", "/flag"])
def test_bad_fen_is_400_with_the_validators_message(server, fen, path):
    params = {"fen": fen} if path == "/standard" else {"fen": fen, "flagged": "white"}
    status, body = server.get_json(path, **params)
    assert status == 400
    ref = probe_one(fen)
    assert error_of(400, body) == ref["error"] and body["input"] == ref["input"]


def test_missing_and_bad_parameters_are_400(server):
    for path, params in [("/standard", {}), ("/flag", {"fen": KRK}), ("/flag", {"flagged": "white"})]:
        status, body = server.get_json(path, **params)
        assert status == 400 and "missing query parameter" in error_of(400, body)["message"]
    status, body = server.get_json("/flag", fen=KRK, flagged="grey")
    assert status == 400 and error_of(400, body)["category"] == "invalid argument"
    status, _, text = server.request("POST", "/batch?flag=grey", body=KRK)
    assert status == 400 and error_of(400, json.loads(text))["category"] == "invalid argument"
    for query in ("line=yes", "line=2", "line=TRUE", "line=", "flag="):  # were taken as "no lines" / "no flag"
        status, _, text = server.request("POST", f"/batch?{query}", body=KRK)
        assert status == 400 and query.split("=")[0] + ":" in error_of(400, json.loads(text))["message"], (query, text)


def test_unknown_paths_and_methods(server):
    for method, path, want in [("GET", "/nope", 404), ("GET", "/standard/x", 404), ("POST", "/nope", 404),
                               ("POST", "/standard", 405), ("PUT", "/flag", 405), ("DELETE", "/health", 405),
                               ("GET", "/batch", 405), ("OPTIONS", "/batch", 405), ("OPTIONS", "/health", 405),
                               ("OPTIONS", "/nope", 404)]:
        status, headers, text = server.request(method, path, body=b"x" if method != "GET" else None)
        assert status == want and headers["Content-Type"] == "application/json", (method, path, status)
        error_of(want, json.loads(text))
        if want == 405:
            assert headers["Allow"] in ("GET", "POST")


def test_body_and_batch_limits_are_413(serve):
    s = serve("--max-body-kb", "1", "--max-batch", "3")
    status, _, text = s.request("POST", "/batch", body=(KRK + "\n") * 100)  # 3 KB
    assert status == 413 and error_of(413, json.loads(text))
    status, _, text = s.request("POST", "/batch", body="\n".join([KRK] * 4))
    assert status == 413 and "more than 3 positions" in error_of(413, json.loads(text))["message"]
    status, _, text = s.request("POST", "/batch", body="\n".join([KRK] * 3))
    assert status == 200 and text == probe([KRK] * 3)
    status, _, _ = s.get("/standard", fen="k7/8/8/8/8/8/8/K7 w - - 0 1" + " " * 10000)  # URI over 8 KiB
    assert status == 414


def test_form_urlencoded_batch_over_8_kib(server):
    # curl --data-binary sends application/x-www-form-urlencoded, which the HTTP library capped at
    # 8 KiB when it read the body itself; /batch reads its body up to --max-body-kb whatever the type.
    body = (KRK + "\n") * 300  # about 9 KB, 300 positions
    for content_type in ("application/x-www-form-urlencoded", "text/plain"):
        status, _, text = server.request("POST", "/batch", body=body, headers={"Content-Type": content_type})
        assert status == 200 and text == probe([KRK] * 300), content_type


def chunked(data, size=1000):
    """data in HTTP/1.1 chunked transfer coding (RFC 9112 section 7.1)."""
    parts = [b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size]) for i in range(0, len(data), size)]
    return b"".join(parts) + b"0\r\n\r\n"


def test_chunked_and_compressed_bodies_are_held_to_the_limit(serve):
    # The library's limit held only for a Content-Length body: a chunked body or a gzip bomb
    # (200 KB making 200 MiB) was read whole into memory and answered.
    s = serve("--max-body-kb", "1")
    big = ("#" + "x" * 4096 + "\n" + KRK + "\n").encode()
    small = (KRK + "\n").encode()
    status, got, text = s.request("POST", "/batch", body=chunked(big),
                                  headers={"Content-Type": "text/plain", "Transfer-Encoding": "chunked"})
    assert status == 413 and "--max-body-kb" in error_of(413, json.loads(text))["message"]
    assert got["Connection"] == "close"
    status, _, text = s.request("POST", "/batch", body=chunked(small),
                                headers={"Content-Type": "text/plain", "Transfer-Encoding": "chunked"})
    assert status == 200 and text == probe([KRK])
    # A Content-Encoding is refused, not decoded: the library took a truncated gzip stream for a
    # whole one (the cut-off last line answered as another position), and an unknown coding for text.
    many = "".join(f"8/8/8/4k3/8/8/8/K7 w - - {n} {n + 1}\n" for n in range(300)).encode()
    cut = gzip.compress(many)
    for coding, data in [("gzip", gzip.compress(small)), ("gzip", cut[:len(cut) * 6 // 10]), ("foo", small),
                         ("gzip", gzip.compress(b"#" + b"x" * (200 << 20)))]:
        status, got, text = s.request("POST", "/batch", body=data,
                                      headers={"Content-Type": "text/plain", "Content-Encoding": coding})
        assert status == 415 and "Content-Encoding" in error_of(415, json.loads(text))["message"], coding


def test_repeated_parameters_are_400(server):
    # fen=A&fen=B answered A (and 200 with B invalid): two values for one question are refused.
    k = "k7/8/8/8/8/8/8/K7 w - - 0 1"
    for path, query in [("/standard", {"fen": [k, "xx"]}), ("/flag", {"fen": k, "flagged": ["white", "black"]})]:
        status, body = server.get_json(path, **query)
        assert status == 400 and "given more than once" in error_of(400, body)["message"], path
    status, _, text = server.request("POST", "/batch?flag=white&flag=black", body=KRK)
    assert status == 400 and "flag: given more than once" in error_of(400, json.loads(text))["message"]


def test_no_tables_is_503_as_the_command(serve, tmp_path):
    s = serve(tables=str(tmp_path))
    ref = probe_one(KRK, tables=str(tmp_path))
    for path, params in [("/standard", {"fen": KRK}), ("/flag", {"fen": KRK, "flagged": "black"})]:
        status, body = s.get_json(path, **params)
        assert status == 503 and error_of(503, body) == ref["error"]
        assert ref["error"]["category"] == "missing table"
    status, body = s.get_json("/health")
    assert status == 503 and body["error"] == ref["error"] and body["status"] == 503  # was "unavailable"
    status, _, text = s.request("POST", "/batch", body=KRK)  # a batch answers each line, as the command
    assert status == 200 and text == probe([KRK], tables=str(tmp_path))
    # Each 5xx is logged as one line ending with the JSON body, not with an escaped "\n".
    rc, err = s.stop()
    logged = [line for line in err.splitlines() if line.startswith("deadpos serve: 503 /standard: ")]
    assert rc == 0 and len(logged) == 1 and logged[0].endswith("}"), err


def test_nonexistent_table_directory_refuses_to_start(tmp_path):
    proc = subprocess.run([EXE, "serve", "--tables", str(tmp_path / "none"), "--listen", "127.0.0.1:0"],
                          capture_output=True, text=True, timeout=30)
    ref = subprocess.run([EXE, "probe", "--tables", str(tmp_path / "none"), KRK], capture_output=True, text=True)
    assert proc.returncode == ref.returncode != 0
    assert proc.stderr.splitlines()[-1] == ref.stderr.splitlines()[0]


def test_a_port_in_use_refuses_to_start(server, tmp_path):
    # A second server on a port already listened on is refused (cpp-httplib's default SO_REUSEPORT
    # would let it bind and take a share of the first one's connections); the first keeps serving.
    # A regression leaves the second one running: the timeout fails the test.
    proc = subprocess.run([EXE, "serve", "--tables", TABLES, "--listen", f"127.0.0.1:{server.port}"],
                          capture_output=True, text=True, timeout=10)
    io = subprocess.run([EXE, "probe", "--tables", str(tmp_path / "none"), KRK], capture_output=True, text=True)
    assert proc.returncode == io.returncode != 0  # the I/O error's exit code
    assert proc.stderr.splitlines()[-1] == (f"deadpos: I/O error: 127.0.0.1:{server.port}: cannot listen "
                                            "(address in use, or not an address of this machine)")
    status, h = server.get_json("/health")
    assert status == 200 and h["status"] == "ok"


def test_damaged_table_under_a_running_server(serve, tmp_path):
    d = copy_tables(tmp_path)
    s = serve(tables=d)
    status, before = s.get_json("/standard", fen=KQK[0])
    assert status == 200
    # Damage KRvK.dpt in place (its header checksum) while the server runs.
    with open(os.path.join(d, "KRvK.dpt"), "r+b") as f:
        f.seek(40)
        b = f.read(1)
        f.seek(40)
        f.write(bytes([b[0] ^ 0x10]))
    ref = probe_one(KRK, tables=d)
    assert ref["error"]["category"] == "corrupt table"
    for path, params in [("/standard", {"fen": KRK}), ("/flag", {"fen": KRK, "flagged": "white"})]:
        status, body = s.get_json(path, **params)
        assert status == 503 and error_of(503, body) == ref["error"] and "KRvK" in body["error"]["message"]
    # The other tables' requests still succeed, with the command's answers on intact tables.
    for fen in KQK[1:]:
        status, body = s.get_json("/flag", fen=fen, flagged="black")
        assert status == 200 and body == probe_one(fen, "--flag", "black", "--line")
    status, _ = s.get_json("/health")
    assert status == 200


def test_sigterm_finishes_the_requests_in_flight(tmp_path):
    from conftest import Served
    s = Served("--request-ms", "0", "--threads", "16", "--max-batch", "10000")
    # Batches that take a while each (positions beyond the tables: searched).
    fens = [f for _, f in public_positions()] + ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                                "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"]
    body = "\n".join(fens * 120) + "\n"  # about 0.25 s of work each, 2 s for the 8 on 2 cores
    want = probe([], stdin=body)
    n = 8
    # Each batch goes on a connection the server has already accepted and answered (kept alive), so
    # that the n batches are in flight together however slowly a loaded machine schedules new
    # connections (cpp-httplib listens with a backlog of 5; deadpos raises it to SOMAXCONN). A CI run once never saw all 8 in flight.
    conns = [s.kept_alive() for _ in range(n)]
    results = [None] * n
    errors = [None] * n

    def ask(i):
        try:
            conns[i].request("POST", "/batch", body=body)
            r = conns[i].getresponse()
            results[i] = (r.status, r.read().decode("utf-8"))
        except Exception as e:  # reported by the asserts below, not lost in the thread
            errors[i] = repr(e)

    threads = [threading.Thread(target=ask, args=(i,), daemon=True) for i in range(n)]
    seen = []

    def in_flight():
        _, _, text = s.get("/metrics")
        line = [x for x in text.splitlines() if x.startswith("deadpos_http_requests_in_flight ")][0]
        seen.append(int(line.split()[1]) - 1)  # minus this /metrics request
        return seen[-1] >= n

    try:
        for t in threads:
            t.start()
        assert wait_for(in_flight), f"the batches were not all in flight: at most {max(seen)}, errors {errors}"
        s.proc.send_signal(signal.SIGTERM)
        for t in threads:
            t.join(timeout=120)
    finally:
        rc, err = s.stop()
    assert rc == 0, err
    for r, e in zip(results, errors):
        assert e is None and r is not None and r[0] == 200 and r[1] == want, (e, r and r[0])
    assert "stopped (SIGTERM)" in err
