"""Fixtures of the `deadpos serve` tests (registered with ctest by tests/server/CMakeLists.txt).

Environment (set by ctest; every test fails, never skips, without it):
  DEADPOS_TABLES            the <=4-man tables of the ctest fixture "tables4";
  DEADPOS_EXE               the `deadpos` command: `deadpos serve` is tested, `deadpos probe --json`
                            is the reference every answer is compared with;
  DEADPOS_PUBLIC_POSITIONS  examples/positions-public.tsv;
  DEADPOS_MOVECHECK         tests/python (its movecheck.py: a move generator written separately).
"""

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse

import pytest


def env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set (run these tests through ctest: ctest -R server)")
    return value


TABLES = env("DEADPOS_TABLES")
EXE = env("DEADPOS_EXE")
sys.path.insert(0, env("DEADPOS_MOVECHECK"))


from public_positions import public_positions  # noqa: E402,F401  (tests/python, on sys.path above)


def probe(fens, *options, tables=TABLES, stdin=None):
    """`deadpos probe --json --tables T OPTIONS -- FEN...` (or the lines of stdin): its stdout."""
    args = [EXE, "probe", "--json", "--tables", tables, *options]
    if stdin is None:
        args += ["--", *fens]
    proc = subprocess.run(args, input=stdin, capture_output=True, text=True, check=False)
    return proc.stdout


def probe_one(fen, *options, tables=TABLES):
    lines = probe([fen], *options, tables=tables).splitlines()
    assert len(lines) == 1, lines
    return json.loads(lines[0])


class Served:
    """A running `deadpos serve` on a free loopback port."""

    def __init__(self, *args, tables=TABLES):
        self.proc = subprocess.Popen([EXE, "serve", "--tables", tables, "--listen", "127.0.0.1:0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("deadpos serve: listening on http://127.0.0.1:"), (line, self.proc.stderr.read())
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])
        self.base = f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, headers=None):
        """(status, headers dict, body text) of one request on a fresh connection."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read().decode("utf-8")
        c.close()
        return r.status, dict(r.getheaders()), data

    def kept_alive(self):
        """A connection the server has accepted and answered once (GET /health), kept open for more."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request("GET", "/health")
        r = c.getresponse()
        r.read()
        assert r.status == 200 and r.getheader("Connection", "").lower() != "close", r.getheaders()
        return c

    def get(self, path, **params):
        q = urllib.parse.urlencode(params, doseq=True)  # a list value: the parameter repeated
        return self.request("GET", path + ("?" + q if q else ""))

    def get_json(self, path, **params):
        status, headers, body = self.get(path, **params)
        assert headers.get("Content-Type") == "application/json", (status, headers, body)
        assert body.endswith("\n") and body.count("\n") == 1, body
        return status, json.loads(body)

    def stop(self):
        """SIGTERM; the exit code and standard error."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        return rc, self.proc.stderr.read()


@pytest.fixture(scope="module")
def server():
    s = Served()
    yield s
    rc, err = s.stop()
    assert rc == 0, err


@pytest.fixture
def serve():
    """Starts servers with given arguments; stops them (exit 0 expected) at the end."""
    started = []

    def start(*args, tables=TABLES):
        s = Served(*args, tables=tables)
        started.append(s)
        return s

    yield start
    for s in started:
        rc, err = s.stop()
        assert rc == 0, err


def copy_tables(dst):
    for name in os.listdir(TABLES):
        if name.endswith(".dpt"):
            shutil.copy(os.path.join(TABLES, name), dst)
    return str(dst)


def wait_for(pred, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.02)
    return False
