"""examples/python/adjudicate_flag.py, run with the installed module, prints the command's verdict."""

import os
import subprocess
import sys

import pytest

from conftest import TABLES, command, env, public_positions

SCRIPT = os.path.join(env("DEADPOS_EXAMPLES"), "adjudicate_flag.py")


@pytest.mark.parametrize("fen", [fen for _, fen in public_positions()][:8])
@pytest.mark.parametrize("side", ["white", "black"])
def test_example_prints_the_commands_verdict(fen, side):
    ref = command([fen], "--flag", side, "--line")[0]
    proc = subprocess.run([sys.executable, SCRIPT, "--tables", TABLES, fen, side], capture_output=True, text=True,
                          check=False)
    flag = ref["flag"]
    assert proc.returncode == (0 if flag["result"] else 1), proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first == f"{flag['result'] or 'undetermined'}  {flag['reason']}: {flag['text']}"
    if ref["lines"] and "san" in ref["lines"][0]:
        assert proc.stdout.splitlines()[1] == "  the opponent's mate: " + " ".join(ref["lines"][0]["san"])


def test_example_reports_errors():
    proc = subprocess.run([sys.executable, SCRIPT, "--tables", TABLES, "not a fen", "white"], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 2 and proc.stderr.startswith("error: invalid FEN: ")
