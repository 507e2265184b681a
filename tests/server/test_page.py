"""The page in a real browser: headless Chromium (Debian's chromium) loads / from a test server,
the test types a position into the FEN box, clicks a flag button with the mouse and reads the
verdict from the page; it is compared with `deadpos probe --flag` (the reference), the helpmate line
is stepped on the board, and a screenshot is saved as a test artefact (DEADPOS_ARTIFACTS).

Chromium is driven over its DevTools protocol with the standard library only (a minimal WebSocket
client below). Skipped, with a message, only when /usr/bin/chromium is absent."""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import env, probe_one

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="/usr/bin/chromium is absent (Debian: apt-get install chromium; "
                                       "scripts/setup.sh installs it): the browser test is skipped")


class DevTools:
    """One DevTools page session over a WebSocket (RFC 6455: client frames masked, text only)."""

    def __init__(self, ws_url):
        rest = ws_url.split("://", 1)[1]
        hostport, path = rest.split("/", 1)
        host, port = hostport.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
                           ).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.next_id = 0
        self.events = []

    def _send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        n = len(data)
        hdr = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
                               if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _recv_exact(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise ConnectionError("DevTools connection closed")
            out += chunk
        return out

    def _recv(self):
        message = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            message += self._recv_exact(n)
            if b0 & 0x80:
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            m = self._recv()
            if m.get("id") == self.next_id:
                assert "error" not in m, m
                return m.get("result", {})
            self.events.append(m)

    def js(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in r, r
        return r["result"].get("value")

    def click(self, selector):
        """A real mouse click at the middle of the element."""
        x, y = self.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                       f" return [r.x + r.width / 2, r.y + r.height / 2]; }})()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def wait(self, expression, seconds=20):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            v = self.js(expression)
            if v:
                return v
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {expression}")


@pytest.fixture
def browser():
    profile = tempfile.mkdtemp(prefix="deadpos-chromium-")
    proc = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                             "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1000,700",
                             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        end = time.monotonic() + 60
        while port is None and time.monotonic() < end:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                raise AssertionError("chromium exited: " + proc.stderr.read())
            if "DevTools listening on ws://" in line:
                port = int(line.split("ws://127.0.0.1:")[1].split("/")[0])
        assert port, "chromium did not open its DevTools port"
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        page = [p for p in pages if p["type"] == "page"][0]
        yield DevTools(page["webSocketDebuggerUrl"])
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)


def artefact(name, data):
    d = env("DEADPOS_ARTIFACTS")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


FEN = "8/2kr4/8/K7/8/8/8/8 w - - 0 1"  # PUB-002: only Black can mate (lichess #7039)
DEAD = "r7/K1k5/8/8/8/8/8/8 w - - 4 3"  # PUB-001: dead; lichess gave Black the win


def type_fen(b, fen):
    b.js("document.getElementById('fen').value = ''")
    b.click("#fen")
    b.call("Input.insertText", text=fen)


def test_page_flag_verdict_and_line(server, browser):
    b = browser
    b.call("Page.enable")
    b.call("Runtime.enable")
    b.call("Page.navigate", url=server.base + "/")
    b.wait("document.readyState === 'complete' && !!document.getElementById('flag-white')")
    board = b.wait("document.querySelector('cg-board') ? 'chessground' : "
                   "(document.getElementById('diagram').hidden ? '' : 'plain')")
    print("board:", board)

    # A dead position: the draw in the arbiter's words, whoever flagged.
    type_fen(b, DEAD)
    b.click("#flag-white")
    text = b.wait("document.getElementById('verdict').className === 'draw' && "
                  "document.getElementById('verdict').textContent")
    ref = probe_one(DEAD, "--flag", "white")["flag"]
    assert ref["result"] == "1/2-1/2" and ref["reason"] == "dead-position"
    assert text.startswith("Draw (1/2-1/2)") and "dead" in text and "5.2.2" in text

    # White flags where Black can mate: Black wins, and the line steps on the board.
    type_fen(b, FEN)
    b.click("#flag-white")
    text = b.wait("document.getElementById('verdict').className === 'win' && "
                  "document.getElementById('verdict').textContent")
    ref = probe_one(FEN, "--flag", "white", "--line")
    assert ref["flag"]["result"] == "0-1"
    assert text.startswith("Black wins (0-1)") and "6.9" in text
    shown = b.js("[...document.querySelectorAll('#line .mv')].map(e => e.textContent)")
    assert shown == ref["lines"][0]["san"]
    for _ in shown:
        b.click("#step-next")
    assert b.js("document.getElementById('step-at').textContent") == f"ply {len(shown)} / {len(shown)}"
    if board == "chessground":
        # The final position of the line is on the board: the mating rook on its square.
        last = ref["lines"][0]["uci"][-1][2:4]
        pieces = b.js("[...document.querySelectorAll('cg-board piece')].map(p => p.className)")
        assert any("black rook" in p for p in pieces), pieces
        assert b.js("[...document.querySelectorAll('cg-board square.last-move')].length") == 2, last
    shot = b.call("Page.captureScreenshot", format="png")["data"]
    path = artefact("server-page.png", base64.b64decode(shot))
    print("screenshot:", path)


def test_page_without_chessground_is_a_fen_form(serve, browser, tmp_path):
    web = tmp_path / "web"
    shutil.copytree(env("DEADPOS_WEB"), web, ignore=shutil.ignore_patterns("node_modules"))
    s = serve("--web", str(web))
    b = browser
    b.call("Page.navigate", url=s.base + "/")
    assert b.wait("document.readyState === 'complete' && !document.getElementById('diagram').hidden && "
                  "!document.querySelector('cg-board')")
    type_fen(b, FEN)
    b.click("#flag-black")  # Black flags where White cannot mate: a draw (FIDE 6.9)
    text = b.wait("document.getElementById('verdict').className === 'draw' && "
                  "document.getElementById('verdict').textContent")
    ref = probe_one(FEN, "--flag", "black")["flag"]
    assert ref["result"] == "1/2-1/2" and ref["reason"] == "opponent-cannot-mate"
    assert text.startswith("Draw (1/2-1/2)") and "White cannot checkmate" in text
    # The text diagram shows the position: white king a5, black king c7, black rook d7.
    rows = b.js("document.getElementById('diagram').textContent").split("\n")
    assert rows[1][2] == "\u265A" and rows[1][3] == "\u265C" and rows[3][0] == "\u2654", rows
