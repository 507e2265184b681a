"""The C API against the `deadpos probe --json` command (tests/capi/CMakeLists.txt, capi.public).

Runs both on the same positions in several modes and compares every answer field by field: the
command is the reference (its JSON keys are in docs/cli.md); capi_dump prints the C API's answer
with the same keys. The keys the C API does not give (the echoed input, the flag's prose text and
the SAN of the lines) are dropped from the command's answer first; every other key must be present
on both sides with equal values. Also runs the example program (examples/c) and checks each of its
lines against the command's flag-fall answers.

  compare_probe.py DEADPOS CAPI_DUMP EXAMPLE TABLES POSITIONS...   (POSITIONS: .tsv with a fen column, or one FEN a line)
Exit status 0 when every answer agrees; 1 with the differences listed.
"""
import json
import subprocess
import sys


def read_fens(path):
    fens = []
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if path.endswith(".tsv"):
                cols = line.split("\t")
                if header is None:
                    header = cols
                    continue
                fens.append(cols[header.index("fen")])
            else:
                fens.append(line)
    return fens


def run(cmd, stdin):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


def reference(obj):
    obj = dict(obj)
    obj.pop("input", None)
    if "flag" in obj:
        obj["flag"] = {k: v for k, v in obj["flag"].items() if k != "text"}
    if "lines" in obj:
        obj["lines"] = [{k: v for k, v in l.items() if k != "san"} for l in obj["lines"]]
    return obj


def main():
    deadpos, dump, example, tables = sys.argv[1:5]
    fens = []
    for path in sys.argv[5:]:
        fens += read_fens(path)
    stdin = "".join(f + "\n" for f in fens)
    failures = []
    compared = 0
    modes = [[], ["--line"], ["--flag", "white", "--line"], ["--flag", "black", "--line"], ["--flag", "stm"],
             ["--budget-nodes", "40", "--flag", "stm", "--line"]]
    answered = set()
    for mode in modes:
        rc_cli, out_cli, err_cli = run([deadpos, "probe", "--tables", tables, "--json"] + mode, stdin)
        rc_c, out_c, err_c = run([dump, tables] + mode, stdin)
        if rc_c != 0:
            failures.append(f"capi_dump {' '.join(mode)}: exit {rc_c}: {err_c.strip()}")
        cli = [reference(json.loads(l)) for l in out_cli.splitlines()]
        c = [json.loads(l) for l in out_c.splitlines()]
        if len(cli) != len(fens) or len(c) != len(fens):
            failures.append(f"mode {mode}: {len(fens)} positions, command gave {len(cli)} answers "
                            f"(exit {rc_cli}, {err_cli.strip()}), C API {len(c)}")
            continue
        for fen, a, b in zip(fens, cli, c):
            compared += 1
            if "error" not in a:
                answered.add(a["how"]["white_can_mate"]["method"])
                answered.add(a["how"]["black_can_mate"]["method"])
            if a != b:
                keys = sorted(set(a) | set(b))
                diff = {k: (a.get(k, "<absent>"), b.get(k, "<absent>")) for k in keys if a.get(k) != b.get(k)}
                failures.append(f"{fen} {' '.join(mode)}: command != C API: {diff}")

    # The example: one line per FEN, checked against the command's --flag white / --flag black answers.
    rc, out_ex, err_ex = run([example, tables], stdin)
    ex_lines = out_ex.splitlines()
    _, out_w, _ = run([deadpos, "probe", "--tables", tables, "--json", "--flag", "white", "--line"], stdin)
    _, out_b, _ = run([deadpos, "probe", "--tables", tables, "--json", "--flag", "black", "--line"], stdin)
    ws = [json.loads(l) for l in out_w.splitlines()]
    bs = [json.loads(l) for l in out_b.splitlines()]
    if len(ex_lines) != len(fens):
        failures.append(f"example: {len(ex_lines)} lines for {len(fens)} positions (exit {rc}, {err_ex.strip()})")
    else:
        for fen, line, w, b in zip(fens, ex_lines, ws, bs):
            compared += 1
            if "error" in w:
                want = f"{fen}\terror={w['error']['category']}: {w['error']['message']}"
            else:
                def flag(j):
                    return f"{j['flag']['result'] or 'undetermined'} {j['flag']['reason']}"

                def mate(j, fallback):
                    for l in j["lines"]:
                        return " ".join(l["uci"])
                    return fallback

                dead = {True: "yes", False: "no", None: "undetermined"}[w["dead"]]
                # A side that can be mated has a line; a checkmated side's line is empty.
                def line_of(j, key):
                    can = j[key]
                    if j["checkmate"] and can:
                        return ""
                    return mate(j, "-" if can is False else "undetermined")
                want = (f"{w['fen']}\tdead={dead}\twhite_flag={flag(w)}\tblack_flag={flag(b)}"
                        f"\tmate_of_white={line_of(w, 'black_can_mate')}\tmate_of_black={line_of(b, 'white_can_mate')}")
            if line != want:
                failures.append(f"example: {fen}:\n  got  {line!r}\n  want {want!r}")
    for f in failures:
        print("FAIL:", f)
    print(f"compare_probe: {compared} answers compared ({len(fens)} positions, methods seen: "
          f"{', '.join(sorted(answered))}), {len(failures)} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
