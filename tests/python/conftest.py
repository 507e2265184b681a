"""Shared fixtures of the Python module's tests (registered with ctest by tests/python/CMakeLists.txt).

Environment (set by ctest; every test fails, never skips, without it):
  DEADPOS_TABLES            the <=4-man tables of the ctest fixture "tables4";
  DEADPOS_EXE               the `deadpos` command: the reference the module is compared with;
  DEADPOS_PUBLIC_POSITIONS  examples/positions-public.tsv;
  DEADPOS_PYTHON_PREFIX     the fresh install prefix the module must be imported from;
  DEADPOS_PYTHON_DIR        the module's directory under that prefix (lib/python3/dist-packages).
"""

import json
import os
import subprocess

import pytest


def env(name):
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set (run these tests through ctest: ctest -R python)")
    return value


TABLES = env("DEADPOS_TABLES")
EXE = env("DEADPOS_EXE")


from public_positions import public_positions  # noqa: E402,F401  (used by the tests)


def command(fens, *options, tables=TABLES):
    """`deadpos probe --json --tables T OPTIONS -- FEN...`: one dict per input, in order, with the
    echo "input" removed (the module has no such key)."""
    proc = subprocess.run([EXE, "probe", "--json", "--tables", tables, *options, "--", *fens], capture_output=True,
                          text=True, check=False)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(answers) == len(fens), f"deadpos probe: {proc.returncode}: {proc.stderr}"
    for a in answers:
        a.pop("input", None)
    return answers


@pytest.fixture(scope="session")
def deadpos():
    import deadpos as module
    return module


@pytest.fixture(scope="session")
def tb(deadpos):
    return deadpos.Tablebase(TABLES)
