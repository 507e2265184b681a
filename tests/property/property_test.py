"""Property test of the invariants of an answer (docs/cli.md, "Invariants of an answer"), through
every surface: the command (`deadpos probe --json`), the C API (capi_dump), the Python module and
the server (`POST /batch`).

Random legal positions of 3 to 32 men (tests/support/random_fens.cpp: random materials, random
walks from the initial position, checkmates and stalemates built on purpose) are split into five
modes by line number (no flag; --line; --flag stm --line; --flag white; --flag black --line). Each
surface answers every position; the checks are
  * every invariant of docs/cli.md on every surface's answer;
  * the surfaces agree: the server's and the Python module's answers equal the command's (but for
    "input", the echo of the argument, which the module does not give), the C API's equal the
    command's without the keys it does not carry (flag text, SAN of the lines);
  * checkmate and stalemate on the board, by the independent move generator of
    tests/python/movecheck.py, for every built checkmate and stalemate, every answer saying either,
    and the first --sample positions;
  * the lines of the first --sample positions replay (movecheck.py) to a checkmate of `mated`.
The expected values come from the law (the invariants) and from movecheck.py, never from deadpos.

  property_test.py --deadpos EXE --fens EXE --capi-dump EXE --python-path DIR --tables DIR
                   --work DIR [--count N] [--seed S] [--budget-nodes N] [--sample K]
                   [--surfaces command,capi,python,server]
Exit status 0 when every check holds; 1 with the first violations listed.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import threading
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import movecheck  # noqa: E402

MODES = [  # (flag, line), by line number % 5
    (None, False),
    (None, True),
    ("stm", True),
    ("white", False),
    ("black", True),
]
WARNINGS = ["impossible-check", "impossible-material"]  # docs/cli.md, in this order
METHODS = {"table", "search", "exhausted", "rule", "undetermined", "not-asked"}
RULES = {"lone-king", "same-coloured-bishops", "no-checkmate-placement", "one-colour-bishops", "locked-structure"}
FLAG_REASONS = ["checkmate", "stalemate", "dead-position", "opponent-cannot-mate", "opponent-can-mate", "undetermined"]


def other(c):
    return "black" if c == "white" else "white"


def check_answer(a, fen, flag, line):
    """The violations of the invariants in answer a (a dict) of fen asked with flag and line."""
    bad = []

    def need(cond, what):
        if not cond:
            bad.append(what)

    if "error" in a:
        return [f"error answer {a['error']}"]
    stm = "white" if fen.split()[1] == "w" else "black"
    can = {c: a[f"{c}_can_mate"] for c in ("white", "black")}
    dthm = {c: a[f"dthm_{c}_mated_plies"] for c in ("white", "black")}  # keyed by the mated side
    how = a["how"]
    # 1. dead
    if can["white"] is False and can["black"] is False:
        need(a["dead"] is True, "1: both cannot mate but dead is not true")
    elif can["white"] is True or can["black"] is True:
        need(a["dead"] is False, "1: a side can mate but dead is not false")
    else:
        need(a["dead"] is None, "1: undetermined sides but dead is not null")
    # 2. terminal
    need(not (a["checkmate"] and a["stalemate"]), "2: checkmate and stalemate")
    # 3. checkmate: X (to move) is mated; Y = the other side can mate with DTHM 0.
    x, y = stm, other(stm)
    if a["checkmate"]:
        need(can[y] is True, "3: checkmate but the mating side cannot mate")
        need(dthm[x] == 0, "3: checkmate but DTHM of the mated side is not 0")
        hy = how[f"{y}_can_mate"]
        need(hy["method"] == "table" or (hy["method"] == "search" and hy.get("line_plies") == 0 and hy.get("shortest")),
             f"3: checkmate answered by {hy}")
        need(can[x] is False, "3: checkmate but the mated side can mate")
        need(a["dead"] is False, "3: checkmate but dead")
        if flag is not None:
            win = "1-0" if y == "white" else "0-1"
            need(a["flag"]["reason"] == "checkmate" and a["flag"]["result"] == win, f"3: checkmate flag {a['flag']}")
        if line:
            for entry in a.get("lines", []):
                need(entry.get("plies") == 0 and entry.get("uci") == [] and entry.get("mated") == x,
                     f"3: checkmate line {entry}")
    # 4. stalemate
    if a["stalemate"]:
        need(a["dead"] is True and can["white"] is False and can["black"] is False, "4: stalemate not dead")
        need(dthm["white"] is None and dthm["black"] is None, "4: stalemate with a DTHM")
        if flag is not None:
            need(a["flag"]["result"] == "1/2-1/2" and a["flag"]["reason"] == "stalemate", f"4: stalemate flag {a['flag']}")
        need(not a.get("lines"), "4: stalemate with lines")
    for c in ("white", "black"):
        h = how[f"{c}_can_mate"]
        mated = other(c)
        d = dthm[mated]
        m = h["method"]
        need(m in METHODS, f"method {m}")
        # 5. DTHM only for a side that can be mated, parity by the side to move.
        if d is not None:
            need(can[c] is True, f"5: DTHM of {mated} but {c} cannot mate")
            need(isinstance(d, int) and d >= 0 and d % 2 == (0 if mated == stm else 1), f"5: DTHM {d} parity")
        if m == "table" and can[c] is True:
            need(d is not None, f"5: table answer without DTHM for {mated}")
        if m == "search":
            need((d is not None) == bool(h.get("shortest")), f"5: search DTHM {d} vs shortest {h.get('shortest')}")
            if d is not None:
                need(d == h.get("line_plies"), "5: search DTHM is not line_plies")
        # 6. can_mate against the method.
        if can[c] is None:
            need(m in ("undetermined", "not-asked"), f"6: {c} null with method {m}")
        elif can[c] is False:
            need(m in ("exhausted", "rule") or (m == "table" and d is None), f"6: {c} false with method {m}")
            need(bool(h.get("reason")), f"6: {c} cannot mate without a reason")
        else:
            need(m == "search" or (m == "table" and d is not None), f"6: {c} true with method {m}")
        if m == "rule":
            need(h.get("rule") in RULES, f"rule {h.get('rule')}")
        if m == "not-asked":
            need(flag is not None, "not-asked without a flag")
    # 7. lines
    if line:
        lines = a.get("lines")
        need(isinstance(lines, list), "7: no lines list")
        lines = lines or []
        want = [c for c in ("white", "black") if can[other(c)] is True]  # sides that can be mated
        if flag is not None:
            flagged = a["flag"]["flagged"]
            want = [c for c in want if c == flagged]
        if a["checkmate"] and lines == []:
            want = []  # docs/cli.md 3: the empty line may be left out of a checkmate's answer
        need([e.get("mated") for e in lines] == want, f"7: lines for {[e.get('mated') for e in lines]}, want {want}")
        for e in lines:
            if "error" in e:
                continue
            mated = e["mated"]
            h = how[f"{other(mated)}_can_mate"]
            need(len(e["uci"]) == e["plies"], "7: line length is not plies")
            if e.get("shortest"):
                need(e["plies"] == dthm[mated], f"7: shortest line of {e['plies']} plies, DTHM {dthm[mated]}")
            if h["method"] == "search":
                need(e["plies"] == h["line_plies"], "7: line plies is not how.line_plies")
    # 8. flag
    if flag is not None:
        f = a["flag"]
        flagged = stm if flag == "stm" else flag
        need(f["flagged"] == flagged, f"8: flagged {f['flagged']}")
        opp = other(flagged)
        win = "1-0" if opp == "white" else "0-1"
        if a["checkmate"]:
            want = ("checkmate", "1-0" if other(stm) == "white" else "0-1")
        elif a["stalemate"]:
            want = ("stalemate", "1/2-1/2")
        elif a["dead"] is True:
            want = ("dead-position", "1/2-1/2")
        elif can[opp] is False:
            want = ("opponent-cannot-mate", "1/2-1/2")
        elif can[opp] is True:
            want = ("opponent-can-mate", win)
        else:
            want = ("undetermined", None)
        need((f["reason"], f["result"]) == want, f"8: flag {f['reason']} {f['result']}, want {want}")
    # warnings: stable names, in order
    w = a.get("warnings")
    need(isinstance(w, list) and w == [n for n in WARNINGS if n in w], f"warnings {w}")
    return bad


def strip_capi(a):
    """The command's answer without the keys the C API does not carry."""
    a = dict(a)
    a.pop("input", None)
    if "flag" in a:
        a["flag"] = {k: v for k, v in a["flag"].items() if k != "text"}
    if "lines" in a:
        a["lines"] = [{k: v for k, v in e.items() if k != "san"} for e in a["lines"]]
    return a


# ---- the surfaces ------------------------------------------------------------------------------

def _run_to_file(cmd, flag, line, fens_path, out_path, ok_codes):
    """Runs one surface's command over the FEN file (stdin) into out_path; flag/line append the mode."""
    if flag:
        cmd = cmd + ["--flag", flag]
    if line:
        cmd = cmd + ["--line"]
    with open(fens_path, "rb") as fin, open(out_path, "wb") as fout:
        p = subprocess.run(cmd, stdin=fin, stdout=fout, stderr=subprocess.PIPE, check=False)
    if p.returncode not in ok_codes:
        raise RuntimeError(f"{cmd}: exit {p.returncode}: {p.stderr.decode(errors='replace')[-500:]}")


def run_command(args, fens_path, flag, line, out_path):
    cmd = [args.deadpos, "probe", "--tables", args.tables, "--json", "--budget-nodes", str(args.budget_nodes)]
    # 5: some answer undetermined (docs/cli.md, exit codes)
    _run_to_file(cmd, flag, line, fens_path, out_path, (0, 5))


def run_capi(args, fens_path, flag, line, out_path):
    cmd = [args.capi_dump, args.tables, "--budget-nodes", str(args.budget_nodes)]
    _run_to_file(cmd, flag, line, fens_path, out_path, (0,))


PY_SURFACE = r"""
import json, sys
import deadpos
tables, nodes, flag, line, fens, out = sys.argv[1], int(sys.argv[2]), sys.argv[3] or None, sys.argv[4] == "1", sys.argv[5], sys.argv[6]
tb = deadpos.Tablebase(tables, budget_nodes=nodes)
with open(fens) as f, open(out, "w") as o:
    for fen in f:
        o.write(json.dumps(tb.probe(fen.rstrip("\n"), flag=flag, line=line)) + "\n")
"""


def run_python(args, fens_path, flag, line, out_path):
    env = dict(os.environ, PYTHONPATH=args.python_path, PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, "-P", "-c", PY_SURFACE, args.tables, str(args.budget_nodes), flag or "", "1" if line else "0",
           fens_path, out_path]
    p = subprocess.run(cmd, env=env, capture_output=True, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"python surface: exit {p.returncode}: {p.stderr.decode(errors='replace')[-800:]}")


class Server:
    def __init__(self, args):
        self.proc = subprocess.Popen([args.deadpos, "serve", "--tables", args.tables, "--listen", "127.0.0.1:0",
                                      "--threads", "4", "--request-ms", "0", "--answer-cache-mb", "0",
                                      "--budget-nodes", str(args.budget_nodes)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.proc.stdout.readline()
        if "listening on http://127.0.0.1:" not in first:
            raise RuntimeError(f"deadpos serve did not start: {first}{self.proc.stderr.read()}")
        self.port = int(first.split("127.0.0.1:")[1].split("/")[0])
        # Keep draining both pipes so that the server never blocks on a full one.
        for pipe in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=pipe.read, daemon=True).start()

    def batch(self, fens, flag, line):
        q = []
        if flag:
            q.append(f"flag={flag}")
        if line:
            q.append("line=1")
        url = f"http://127.0.0.1:{self.port}/batch" + ("?" + "&".join(q) if q else "")
        req = urllib.request.Request(url, data="\n".join(fens).encode(), headers={"Content-Type": "text/plain"})
        with urllib.request.urlopen(req, timeout=600) as r:
            body = r.read().decode()
        out = body.splitlines()
        if len(out) != len(fens):
            raise RuntimeError(f"/batch answered {len(out)} lines for {len(fens)} positions")
        return out

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


def run_server(server, fens_path, flag, line, out_path):
    with open(fens_path) as f:
        fens = [x.rstrip("\n") for x in f]
    with open(out_path, "w") as o:
        for i in range(0, len(fens), 1000):
            for ans in server.batch(fens[i:i + 1000], flag, line):
                o.write(ans + "\n")


# ---- the check ---------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deadpos", required=True)
    ap.add_argument("--fens", required=True, help="the deadpos_random_fens program")
    ap.add_argument("--capi-dump", required=True)
    ap.add_argument("--python-path", required=True, help="PYTHONPATH holding the deadpos module")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--count", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-nodes", type=int, default=20000)
    ap.add_argument("--sample", type=int, default=20000)
    ap.add_argument("--surfaces", default="command,capi,python,server")
    args = ap.parse_args()
    surfaces = args.surfaces.split(",")
    os.makedirs(args.work, exist_ok=True)
    fens_all = os.path.join(args.work, "positions.fen")
    kinds_path = os.path.join(args.work, "kinds.txt")
    subprocess.run([args.fens, str(args.count), str(args.seed), "--kinds", kinds_path],
                   stdout=open(fens_all, "wb"), check=True)
    with open(fens_all) as f:
        fens = [x.rstrip("\n") for x in f]
    with open(kinds_path) as f:
        kinds = [x.rstrip("\n") for x in f]
    assert len(fens) == len(kinds) == args.count, (len(fens), len(kinds))
    for m in range(len(MODES)):
        with open(os.path.join(args.work, f"mode{m}.fen"), "w") as f:
            f.writelines(fen + "\n" for fen in fens[m::len(MODES)])

    # Two surfaces at a time (the machine of CI has two cores); each runs its five modes in turn.
    server = Server(args) if "server" in surfaces else None
    runners = {"command": lambda *a: run_command(args, *a), "capi": lambda *a: run_capi(args, *a),
               "python": lambda *a: run_python(args, *a), "server": lambda *a: run_server(server, *a)}
    errors = []

    def run_surface(s):
        try:
            for m, (flag, line) in enumerate(MODES):
                runners[s](os.path.join(args.work, f"mode{m}.fen"), flag, line, os.path.join(args.work, f"{s}{m}.jsonl"))
        except Exception as e:  # noqa: BLE001  (reported below)
            errors.append(f"{s}: {e}")

    for i in range(0, len(surfaces), 2):
        ts = [threading.Thread(target=run_surface, args=(s,)) for s in surfaces[i:i + 2]]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    if server:
        server.stop()
    if errors:
        print("\n".join(errors))
        return 1

    violations = []
    stats = collections.Counter()
    men_hist = collections.Counter()
    sampled = 0
    for m, (flag, line) in enumerate(MODES):
        idx = list(range(m, args.count, len(MODES)))
        files = {s: open(os.path.join(args.work, f"{s}{m}.jsonl")) for s in surfaces}
        for k, i in enumerate(idx):
            fen = fens[i]
            answers = {s: json.loads(files[s].readline()) for s in surfaces}
            ref = answers[surfaces[0]]
            for s, a in answers.items():
                for v in check_answer(a, fen, flag, line):
                    violations.append(f"{s} mode {m} {fen}: {v}")
            # The surfaces agree.
            ref_cmd = answers.get("command")
            if ref_cmd is not None:
                for s, a in answers.items():
                    if s == "command":
                        continue
                    want = strip_capi(ref_cmd) if s == "capi" else ({k2: v for k2, v in ref_cmd.items() if k2 != "input"}
                                                                     if s == "python" else ref_cmd)
                    got = dict(a)
                    if s == "python":
                        got.pop("input", None)
                    if got != want:
                        diff = sorted(k2 for k2 in set(got) | set(want) if got.get(k2) != want.get(k2))
                        violations.append(f"{s} differs from the command on {fen} (mode {m}): keys {diff}")
            # Independent terminal check and line replays.
            kind = kinds[i]
            said_terminal = ref.get("checkmate") or ref.get("stalemate")
            if kind in ("checkmate", "stalemate") or said_terminal or i < args.sample:
                b = movecheck.Board(fen)
                legal = b.legal_moves()
                mate = b.in_check() and not legal
                stale = not b.in_check() and not legal
                sampled += 1
                if ref.get("checkmate") != mate or ref.get("stalemate") != stale:
                    violations.append(f"terminal {fen}: movecheck says checkmate {mate} stalemate {stale}, "
                                      f"answer {ref.get('checkmate')} {ref.get('stalemate')}")
                if kind == "checkmate" and not mate or kind == "stalemate" and not stale:
                    violations.append(f"generator: {fen} is not a {kind} by movecheck")
            if line and i < args.sample:
                for e in ref.get("lines", []):
                    if "uci" in e and e["plies"] > 0:
                        stats["lines replayed"] += 1
                        final = movecheck.replay(fen, e["uci"])
                        side = "w" if e["mated"] == "white" else "b"
                        if final is None or final.stm != side or not final.is_checkmate():
                            violations.append(f"7: line {e['uci']} of {fen} does not checkmate {e['mated']}")
            stats[f"kind {kind}"] += 1
            men_hist[sum(ch.isalpha() for ch in fen.split()[0])] += 1
            for c in ("white", "black"):
                stats[f"method {ref['how'][c + '_can_mate']['method']}"] += 1
            if ref.get("checkmate"):
                stats["checkmate"] += 1
            if ref.get("stalemate"):
                stats["stalemate"] += 1
            for w in ref.get("warnings", []):
                stats[f"warning {w}"] += 1
        for f in files.values():
            f.close()
    print(f"property test: {args.count} positions, seed {args.seed}, surfaces {','.join(surfaces)}, "
          f"budget {args.budget_nodes} nodes; terminal checks by movecheck: {sampled}")
    print("men: " + " ".join(f"{n}:{men_hist[n]}" for n in sorted(men_hist)))
    for k in sorted(stats):
        print(f"  {k}: {stats[k]}")
    if violations:
        print(f"{len(violations)} violations; the first:")
        print("\n".join(violations[:30]))
        return 1
    print("every invariant holds on every surface")
    return 0


if __name__ == "__main__":
    sys.exit(main())
