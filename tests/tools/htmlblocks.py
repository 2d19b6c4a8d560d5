#!/usr/bin/env python3
"""Print the payload of trace-data block N (1-based) of a systrace HTML file
as the viewer reads it: the newline after the opening tag dropped, the
indentation of the closing tag dropped, systrace's `<\\` escape undone.
With N = 'count', print the number of blocks; 'check' validates layout.
Independent of the C code on purpose: tests compare its view with the
expected text.  The file is mapped, not read, and only the block asked for
is unescaped: tests call this a few hundred times a run, on pages of up to
hundreds of MB."""
import mmap
import re
import sys

OPEN = b'  <script class="trace-data" type="application/text">\n'
CLOSE = re.compile(rb'</script', re.I)
ESCAPED = re.compile(rb'<\\(?=/[sS][cC][rR][iI][pP][tT]|!--|\\)')


def spans(data):
    """(start, end) of each block's payload, in order."""
    pos = data.find(b'<!-- BEGIN TRACE -->\n')
    if pos < 0:
        return
    while True:
        i = data.find(OPEN, pos)
        if i < 0:
            return
        j = i + len(OPEN)
        k = CLOSE.search(data, j)
        if k is None:
            sys.exit('htmlblocks: %s: block at byte %d is never closed' % (sys.argv[1], i))
        end = k.start()
        if data[end - 2:end] == b'  ' and end - 2 >= j:
            end -= 2
        yield j, end
        pos = k.end()


def payload(data, start, end):
    body = data[start:end]
    if b'<\\' in body:
        body = ESCAPED.sub(b'<', body)
    return body


def main():
    with open(sys.argv[1], 'rb') as f:
        try:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:      # an empty file cannot be mapped
            data = b''
    what = sys.argv[2]
    if what == 'count':
        print(sum(1 for _ in spans(data)))
    elif what == 'check':
        assert data[:15] == b'<!DOCTYPE html>', 'doctype not at byte 0'
        assert data.find(b'<!-- END TRACE -->\n') >= 0, 'no END TRACE'
        assert data[-4096:].rstrip().endswith(b'</html>'), 'suffix missing'
        print('ok')
    else:
        n = int(what)
        for i, (start, end) in enumerate(spans(data), 1):
            if i == n:
                sys.stdout.buffer.write(payload(data, start, end))
                return
        raise IndexError('list index out of range')


main()
