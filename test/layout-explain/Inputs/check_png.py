#!/usr/bin/env python3
"""Prints `png WIDTHxHEIGHT, N colours` for an 8-bit RGB/RGBA PNG (what
rsvg-convert writes), or fails: the picture must not be blank."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
width = height = channels = 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    chunk = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
        assert depth == 8 and color in (2, 6), "unexpected PNG format"
        channels = 3 if color == 2 else 4
    elif kind == b"IDAT":
        idat += chunk
    pos += 12 + length
raw = zlib.decompress(idat)
stride = width * channels + 1
colours = set()
prev = bytearray(stride - 1)
for y in range(height):
    line = raw[y * stride:(y + 1) * stride]
    filt, cur = line[0], bytearray(line[1:])
    for i in range(len(cur)):  # undo the PNG row filters
        a = cur[i - channels] if i >= channels else 0
        b = prev[i]
        c = prev[i - channels] if i >= channels else 0
        if filt == 1:
            cur[i] = (cur[i] + a) & 255
        elif filt == 2:
            cur[i] = (cur[i] + b) & 255
        elif filt == 3:
            cur[i] = (cur[i] + (a + b) // 2) & 255
        elif filt == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else
                                b if pb <= pc else c)) & 255
    for x in range(0, len(cur), channels):
        colours.add(bytes(cur[x:x + 3]))
    prev = cur
assert len(colours) > 1, "blank picture"
print("png %dx%d, %s colours" % (width, height,
                                 "many" if len(colours) >= 8 else len(colours)))
