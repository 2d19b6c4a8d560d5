#!/usr/bin/env python3
"""What a screenshot shows, roughly: decodes an 8-bit RGB/RGBA PNG (as
headless Chromium writes them) with zlib alone and prints JSON with its
size, the number of distinct colours, and the share of pixels that differ
from the most common colour (the background).  A loaded timeline is
colourful; a blank page, the loading dialog or an error overlay is not.

  pngstat.py FILE.png
"""
import collections
import json
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def decode(data):
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    assert depth == 8 and ctype in (2, 6) and not interlace, 'unsupported PNG'
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        cur = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                cur[i] = (cur[i] + a) & 255
            elif f == 2:
                cur[i] = (cur[i] + b) & 255
            elif f == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif f == 4:
                cur[i] = (cur[i] + paeth(a, b, c)) & 255
        rows.append(bytes(cur))
        prev = cur
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = decode(open(sys.argv[1], 'rb').read())
    colours = collections.Counter()
    for r in rows[::2]:
        for x in range(0, w * bpp, 2 * bpp):
            colours[r[x:x + 3]] += 1
    total = sum(colours.values())
    bg = colours.most_common(1)[0][1]
    print(json.dumps({'width': w, 'height': h, 'colours': len(colours),
                      'foreground': round(1 - bg / total, 3)}))


main()
