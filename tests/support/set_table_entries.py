#!/usr/bin/env python3
"""Sets entries of a table file and reseals it (tests only: a well-formed file holding what no
writer of ours writes).

    set_table_entries.py FILE ARRAY:INDEX=CODE ...

Each block that holds a changed entry is decompressed, changed, and recompressed (zstd level 9 for
a version 1 file, 5 for version 2: the setting does not matter to a reader); the header's
per-array finite/none counts follow the changes, and every checksum, offset and size is made right
again (docs/format.md sections 2 and 5). libzstd and libxxhash are loaded through ctypes (the
Debian packages deadpos itself needs at run time).
"""
import ctypes
import struct
import sys

xx = ctypes.CDLL("libxxhash.so.0")
xx.XXH64.restype = ctypes.c_uint64
xx.XXH64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
zs = ctypes.CDLL("libzstd.so.1")
for name in ("ZSTD_compressBound", "ZSTD_compress", "ZSTD_decompress"):
    getattr(zs, name).restype = ctypes.c_size_t
zs.ZSTD_isError.restype = ctypes.c_uint


def h64(b):
    return xx.XXH64(bytes(b), len(b), 0)


def kind(code):  # the header count a code is in: 0 finite, 1 none, None neither
    return 0 if code <= 250 else 1 if code == 253 else None


path = sys.argv[1]
d = bytearray(open(path, "rb").read())
version = struct.unpack_from("<I", d, 8)[0]
blocks, index_at = struct.unpack_from("<IQ", d, 52)[0], struct.unpack_from("<Q", d, 56)[0]
index = [list(struct.unpack_from("<QIIQ", d, index_at + 24 * i)) for i in range(blocks)]
per_array = blocks // 4
frames = [bytes(d[o:o + c]) for (o, c, n, x) in index]
counts = [list(struct.unpack_from("<QQ", d, 72 + 16 * a)) for a in range(4)]
for change in sys.argv[2:]:
    where, code = change.split("=")
    array, entry = (int(v) for v in where.split(":"))
    code = int(code)
    b = array * per_array + entry // 262144
    raw = ctypes.create_string_buffer(index[b][2])
    r = zs.ZSTD_decompress(raw, index[b][2], frames[b], len(frames[b]))
    assert not zs.ZSTD_isError(r) and r == index[b][2]
    raw = bytearray(raw.raw)
    old = raw[entry % 262144]
    raw[entry % 262144] = code
    for k, sign in ((kind(old), -1), (kind(code), 1)):
        if k is not None:
            counts[array][k] += sign
    cap = zs.ZSTD_compressBound(len(raw))
    out = ctypes.create_string_buffer(cap)
    n = zs.ZSTD_compress(out, cap, bytes(raw), len(raw), 9 if version == 1 else 5)
    assert not zs.ZSTD_isError(n)
    frames[b] = out.raw[:n]
body, table, off = bytearray(), bytearray(), 144
for i, f in enumerate(frames):
    table += struct.pack("<QIIQ", off, len(f), index[i][2], h64(f))
    body += f
    off += len(f)
head = bytearray(d[:144])
for a in range(4):
    struct.pack_into("<QQ", head, 72 + 16 * a, *counts[a])
struct.pack_into("<QQ", head, 56, off, off + len(table) + 8)
struct.pack_into("<Q", head, 136, h64(head[:136]))
out = head + body + table
out += struct.pack("<Q", h64(out))
open(path, "wb").write(out)
