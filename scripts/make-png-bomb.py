#!/usr/bin/env python3
"""Write a valid 8-bit grey PNG of WIDTH x HEIGHT white pixels (default 32000 x 24000 = 768 MB
decoded, about 0.75 MB on disk): a decompression bomb for lovesnap's size-limit tests.
Standard library only (zlib, struct).   usage: make-png-bomb.py OUT.png [WIDTH HEIGHT]"""
import struct, sys, zlib

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

out = sys.argv[1]
w, h = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (32000, 24000)
comp = zlib.compressobj(9)
row = b"\x00" + b"\xff" * w
idat = bytearray()
for _ in range(h):
    idat += comp.compress(row)
idat += comp.flush()
with open(out, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n")
    f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)))
    f.write(chunk(b"IDAT", bytes(idat)))
    f.write(chunk(b"IEND", b""))
