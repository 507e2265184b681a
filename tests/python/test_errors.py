"""Errors come back as deadpos.Error subclasses with the library's one-line message (the same
category and message as `deadpos probe --json` prints), and bad arguments never crash."""

import os
import pathlib
import shutil

import pytest

import machine_memory
from conftest import TABLES, command

KRK = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
KQKP = "7k/8/8/8/8/8/1q5P/K7 w - - 0 1"  # the only move Kxb2 leads to KPvK


def test_one_family(deadpos):
    names = ["InvalidFen", "InvalidArgument", "InvalidMove", "Io", "MissingTable", "CorruptTable", "OutOfMemory",
             "TooManyMen", "VerificationFailed", "Undetermined"]
    for n in names:
        cls = getattr(deadpos, n)
        assert issubclass(cls, deadpos.Error) and cls is not deadpos.Error, n
        assert cls.__module__ == "deadpos" and cls.__doc__, n
    assert issubclass(deadpos.Error, Exception)
    assert issubclass(deadpos.InvalidFen, ValueError) and issubclass(deadpos.InvalidArgument, ValueError)
    assert issubclass(deadpos.Io, OSError) and issubclass(deadpos.OutOfMemory, MemoryError)
    assert not issubclass(deadpos.MissingTable, ValueError)


BAD_FENS = [
    "",
    "not a fen",
    "8/8/8/8/8/8/8/8 w - - 0 1",                  # no kings
    "4k3/8/8/8/8/8/8/4K3 x - - 0 1",              # bad side to move
    "4k3/4K3/8/8/8/8/8/8 w - - 0 1",              # kings adjacent
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
    "K" * 100_000,
    "é" * 50,
]


@pytest.mark.parametrize("fen", BAD_FENS, ids=range(len(BAD_FENS)))
def test_invalid_fen_as_the_command(tb, deadpos, fen):
    ref = command([fen])[0]["error"]
    with pytest.raises(deadpos.InvalidFen) as e:
        tb.probe(fen)
    assert e.value.category == ref["category"] == "invalid FEN"
    assert str(e.value) == e.value.message == ref["message"]
    for call in (lambda: tb.flag_result(fen, "white"), lambda: tb.helpmate_line(fen, "black")):
        with pytest.raises(deadpos.InvalidFen):
            call()


@pytest.mark.parametrize("fen", ["4k3/8/8/8/\x00/8/8/4K3 w - - 0 1", "\x00" * 10, b"\xff\xfe\x00",
                                 "4k3/8/8/8/8/8/8/4K3 w - - 0 1\x00", "\udcff", "4k3/8/8/8/8/8/8/4K3\n w - - 0 1",
                                 "x" * 10_000_000])
def test_odd_bytes_are_invalid_fen(tb, deadpos, fen):
    with pytest.raises(deadpos.InvalidFen) as e:
        tb.probe(fen)
    assert "\n" not in str(e.value) and "\x00" not in str(e.value) and len(str(e.value)) < 300


def test_bytes_are_accepted(tb):
    assert tb.probe(KRK.encode()) == tb.probe(KRK)


@pytest.mark.parametrize("arg", [None, 3, 1.5, ["8/8"], object()])
def test_wrong_types_are_type_errors(tb, arg):
    for call in (lambda: tb.probe(arg), lambda: tb.flag_result(arg, "white"), lambda: tb.helpmate_line(arg, "white"),
                 lambda: tb.flag_result(KRK, arg), lambda: tb.helpmate_line(KRK, arg)):
        with pytest.raises(TypeError):
            call()
    if arg is not None:
        with pytest.raises(TypeError):
            tb.probe(KRK, flag=arg)


def test_second_init_is_a_type_error(deadpos, tmp_path):
    # pybind11 would skip it silently, leaving the tables opened first in use.
    t = deadpos.Tablebase(TABLES)
    with pytest.raises(TypeError, match="already initialised"):
        t.__init__(str(tmp_path))
    assert t.dirs == [TABLES] and t.materials() == deadpos.Tablebase(TABLES).materials()
    # The constructor's own errors and keywords are unchanged.
    with pytest.raises(deadpos.InvalidArgument):
        deadpos.Tablebase(TABLES, cache_mb=-1)
    assert deadpos.Tablebase(dirs=TABLES, cache_mb=1).cache_bytes == 1 << 20


def test_uninitialised_object_is_a_type_error(deadpos):
    # Tablebase.__new__ without __init__ (pickling helpers, careless subclasses): every method and
    # property raises TypeError; it was a segmentation fault (a member function called on null).
    t = deadpos.Tablebase.__new__(deadpos.Tablebase)
    calls = [lambda: t.probe(KRK), lambda: t.flag_result(KRK, "white"), lambda: t.helpmate_line(KRK, "black"),
             lambda: t.materials(), lambda: t.max_men, lambda: t.cache_bytes, lambda: t.dirs, lambda: repr(t)]
    for call in calls:
        with pytest.raises(TypeError, match="not initialised"):
            call()


@pytest.mark.parametrize("side", ["", "White", "w", "stm\x00", "whitey", "é"])
def test_bad_side_is_invalid_argument(tb, deadpos, side):
    with pytest.raises(deadpos.InvalidArgument) as e:
        tb.flag_result(KRK, side)
    assert isinstance(e.value, ValueError) and "flagged must be" in str(e.value)
    with pytest.raises(deadpos.InvalidArgument):
        tb.probe(KRK, flag=side)
    with pytest.raises(deadpos.InvalidArgument):
        tb.helpmate_line(KRK, side)
    with pytest.raises(deadpos.InvalidArgument):
        tb.helpmate_line(KRK, "stm")  # a mated side is named


@pytest.mark.parametrize("kw", [{"cache_mb": -1}, {"cache_mb": (1 << 20) + 1}, {"budget_nodes": -1},
                                {"budget_nodes": (1 << 40) + 1}, {"budget_ms": 86_400_001}, {"budget_mb": 0},
                                {"budget_mb": (1 << 20) + 1}, {"cache_mb": 2**70}, {"budget_nodes": -2**70}])
def test_options_out_of_range(deadpos, kw):
    with pytest.raises(deadpos.InvalidArgument):
        deadpos.Tablebase(TABLES, **kw)


@pytest.mark.parametrize("kw", [{"cache_mb": True}, {"budget_nodes": False}, {"budget_ms": 1.0}, {"budget_mb": "512"}])
def test_options_of_the_wrong_type(deadpos, kw):
    # An int is wanted: True was taken as 1 MiB.
    with pytest.raises(TypeError):
        deadpos.Tablebase(TABLES, **kw)


def test_index_objects_are_ints(deadpos):
    # numpy integers and anything else with __index__ are ints, as in pybind11's own conversion.
    class Index:
        def __index__(self):
            return 64

    assert deadpos.Tablebase(TABLES, cache_mb=Index()).cache_bytes == 64 << 20

    # Out of range, the message names the integer, not the object's repr.
    class Huge:
        def __index__(self):
            return 2**70

    with pytest.raises(deadpos.InvalidArgument, match=str(2**70)[:20]):
        deadpos.Tablebase(TABLES, cache_mb=Huge())


def test_block_cache_default_is_the_commands(deadpos):
    # cache_mb=None (the default) is `deadpos probe`'s default: an eighth of the machine's memory, not
    # a fixed 256 MiB that a few thousand diverse 5-man positions thrash.
    assert deadpos.Tablebase(TABLES).cache_bytes == machine_memory.default_cache_bytes()
    assert deadpos.Tablebase(TABLES, cache_mb=None).cache_bytes == machine_memory.default_cache_bytes()
    assert deadpos.Tablebase(TABLES, cache_mb=64).cache_bytes == 64 << 20
    assert deadpos.Tablebase(TABLES, cache_mb=0).cache_bytes == 0


def test_directories(deadpos, tmp_path):
    for dirs in (None, 3):
        with pytest.raises(TypeError):
            deadpos.Tablebase(dirs)
    with pytest.raises(deadpos.InvalidArgument):
        deadpos.Tablebase([])
    with pytest.raises(deadpos.InvalidArgument):
        deadpos.Tablebase(TABLES + "\x00/x")
    for empty in ("", b"", [TABLES, ""]):
        with pytest.raises(deadpos.InvalidArgument, match="an empty name is not a table directory"):
            deadpos.Tablebase(empty)
    # A name that is not UTF-8 (bytes) is named in the error with its bytes escaped.
    with pytest.raises(deadpos.Io, match=r"\\xff\\xfe: cannot list"):
        deadpos.Tablebase(bytes(tmp_path) + b"/\xff\xfe")
    # str, bytes, os.PathLike and lists of them name the same tables.
    ref = deadpos.Tablebase(TABLES).materials()
    for dirs in (TABLES.encode(), pathlib.Path(TABLES), [TABLES], (TABLES, str(tmp_path))):
        assert deadpos.Tablebase(dirs).materials() == ref


def test_nonexistent_directory_is_io(deadpos, tmp_path):
    missing = str(tmp_path / "no-such-dir")
    ref = command([KRK], tables=missing)[0]["error"]
    with pytest.raises(deadpos.Io) as e:
        deadpos.Tablebase(missing)
    assert e.value.category == ref["category"] == "I/O error"
    assert str(e.value) == ref["message"] and missing in str(e.value)
    assert isinstance(e.value, OSError)


def test_directory_without_tables_is_missing_table(deadpos, tmp_path):
    ref = command([KRK], tables=str(tmp_path))[0]["error"]
    with pytest.raises(deadpos.MissingTable) as e:
        deadpos.Tablebase(str(tmp_path))
    assert e.value.category == ref["category"] == "missing table"
    assert str(e.value) == ref["message"]


def test_line_through_a_missing_table(deadpos, tmp_path):
    # KQvKP is present, KPvK (after the forced Kxb2) is not: the answer stands (from the table),
    # the line cannot be built.
    shutil.copy(os.path.join(TABLES, "KQvKP.dpt"), tmp_path)
    t = deadpos.Tablebase(str(tmp_path))
    ref = command([KQKP], "--line", tables=str(tmp_path))[0]
    assert t.probe(KQKP, line=True) == ref
    assert ref["white_can_mate"] is True and "error" in ref["lines"][0]
    with pytest.raises(deadpos.MissingTable) as e:
        t.helpmate_line(KQKP, "black")
    assert str(e.value) == ref["lines"][0]["error"]["message"] and "KPvK" in str(e.value)
    assert t.helpmate_line(KQKP, "white") is None
    assert t.flag_result(KQKP, "black", line=True)["line"] == ref["lines"][0]


def flipped_copy(tmp_path, offset):
    for key in ("KRvK", "KvK"):
        shutil.copy(os.path.join(TABLES, key + ".dpt"), tmp_path)
    path = tmp_path / "KRvK.dpt"
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))
    return str(tmp_path)


@pytest.mark.parametrize("where", ["header", "block"])
def test_corrupt_table(deadpos, tmp_path, where):
    size = os.path.getsize(os.path.join(TABLES, "KRvK.dpt"))
    # A header byte fails the header checksum at the first use; a byte of block data fails the
    # checksum of its block. KRvK has 29,568 entries per array, one block each, and the first
    # block (from byte 144, docs/format.md section 5) is array 0, which every White-to-move
    # probe below reads.
    assert size > 200
    d = flipped_copy(tmp_path, 40 if where == "header" else 150)
    t = deadpos.Tablebase(d)
    fens = [KRK] if where == "header" else sorted({krk_fen(i) for i in range(0, 64 * 64, 7)} - {None})
    refs = command(fens, tables=d)
    corrupt = 0
    for fen, ref in zip(fens, refs):
        if "error" not in ref:
            assert t.probe(fen) == ref
            continue
        with pytest.raises(deadpos.Error) as e:
            t.probe(fen)
        assert e.value.category == ref["error"]["category"] and str(e.value) == ref["error"]["message"]
        if ref["error"]["category"] == "corrupt table":
            assert isinstance(e.value, deadpos.CorruptTable) and "KRvK" in str(e.value)
            corrupt += 1
    assert corrupt > 0


def krk_fen(i):
    """A legal KRvK position (White to move) from an index, or None."""
    wk, bk = divmod(i, 64)
    rook = (wk + 9) % 64
    if len({wk, bk, rook}) < 3 or max(abs(wk % 8 - bk % 8), abs(wk // 8 - bk // 8)) <= 1:
        return None
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            sq = r * 8 + f
            p = {wk: "K", bk: "k", rook: "R"}.get(sq)
            if p:
                row += (str(empty) if empty else "") + p
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " w - - 0 1"
