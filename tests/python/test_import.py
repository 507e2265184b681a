"""The module is imported from the fresh install prefix only (cmake --install), not the build tree."""

import os
import sys

from conftest import env


def test_imported_from_the_install_prefix(deadpos):
    installed = os.path.realpath(os.path.join(env("DEADPOS_PYTHON_PREFIX"), env("DEADPOS_PYTHON_DIR")))
    assert os.path.dirname(os.path.realpath(deadpos.__file__)) == installed
    build_tree = os.path.realpath(os.path.join(env("DEADPOS_PYTHON_PREFIX"), os.pardir))
    for p in sys.path:
        real = os.path.realpath(p) if p else os.getcwd()
        assert real == installed or not real.startswith(build_tree + os.sep + "bindings"), p


def test_version_and_docstrings(deadpos):
    assert deadpos.__version__.count(".") == 2
    for obj in (deadpos, deadpos.Tablebase, deadpos.Tablebase.probe, deadpos.Tablebase.flag_result,
                deadpos.Tablebase.helpmate_line, deadpos.Error):
        assert obj.__doc__ and len(obj.__doc__) > 40, obj


def test_materials_and_max_men(tb):
    # The fixture's directory holds every <=4-man table (deadpos generate --max-men 4).
    keys = tb.materials()
    files = sorted(f[:-4] for f in os.listdir(env("DEADPOS_TABLES")) if f.endswith(".dpt"))
    assert keys == files
    assert tb.max_men == max(sum(c.isalpha() and c != "v" for c in k) for k in keys) == 4
    assert tb.dirs == [env("DEADPOS_TABLES")]
