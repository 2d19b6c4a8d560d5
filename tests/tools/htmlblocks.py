#!/usr/bin/env python3
"""Print the payload of trace-data block N (1-based) of a systrace HTML file
as the viewer reads it: the newline after the opening tag dropped, the
indentation of the closing tag dropped, systrace's `<\\` escape undone.
With N = 'count', print the number of blocks; 'check' validates layout.
Independent of the C code on purpose: tests compare its view with the
expected text."""
import re
import sys

OPEN = b'  <script class="trace-data" type="application/text">\n'


def blocks(data):
    out = []
    pos = data.find(b'<!-- BEGIN TRACE -->\n')
    if pos < 0:
        return out
    while True:
        i = data.find(OPEN, pos)
        if i < 0:
            return out
        j = i + len(OPEN)
        k = re.compile(rb'</script', re.I).search(data, j)
        body = data[j:k.start()]
        if body.endswith(b'  '):
            body = body[:-2]
        body = re.sub(rb'<\\(?=/[sS][cC][rR][iI][pP][tT]|!--|\\)', b'<', body)
        out.append(body)
        pos = k.end()


def main():
    data = open(sys.argv[1], 'rb').read()
    bl = blocks(data)
    what = sys.argv[2]
    if what == 'count':
        print(len(bl))
    elif what == 'check':
        assert data.startswith(b'<!DOCTYPE html>'), 'doctype not at byte 0'
        assert b'<!-- END TRACE -->\n' in data, 'no END TRACE'
        assert data.rstrip().endswith(b'</html>'), 'suffix missing'
        print('ok')
    else:
        sys.stdout.buffer.write(bl[int(what) - 1])


main()
