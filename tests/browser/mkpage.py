#!/usr/bin/env python3
"""Assemble a systrace HTML page by hand, exactly as the C writer lays it out.

    mkpage.py OUT.html PART_FILE...

Byte layout: assets/prefix.html with {{WEBCOMPONENTS_JS}} and then
{{TRACE_VIEWER_HTML}} replaced by the viewer files; "<!-- BEGIN TRACE -->";
one trace-data script element per part (payload escaped); "<!-- END TRACE -->";
assets/suffix.html.  Used by the browser tests to check the assets without
the C writer, and as an executable statement of the layout.
Env: VIEWER_DIR (default Debian golang-1.19-src's copy), TOP (repository),
MKPAGE_NO_ESCAPE=1 (write payloads unescaped, to show the tests can fail).
"""
import os
import re
import sys

TOP = os.environ.get('TOP') or os.path.join(os.path.dirname(__file__), '..', '..')
VIEWER_DIR = os.environ.get(
    'VIEWER_DIR', '/usr/share/go-1.19/src/cmd/trace/static')

OPEN_TAG = b'  <script class="trace-data" type="application/text">\n'
CLOSE_TAG = b'  </script>\n'


def escape(payload):
    """Put a backslash after '<' where it starts '/script' (any case), '!--' or '\\'."""
    if os.environ.get('MKPAGE_NO_ESCAPE'):
        return payload
    return re.sub(rb'<(?=/script|!--|\\)', rb'<\\', payload, flags=re.I)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def prefix():
    page = read(os.path.join(TOP, 'assets', 'prefix.html'))
    for key, name in ((b'{{WEBCOMPONENTS_JS}}', 'webcomponents.min.js'),
                      (b'{{TRACE_VIEWER_HTML}}', 'trace_viewer_full.html')):
        if page.count(key) != 1:
            sys.exit('mkpage: %s must appear once in prefix.html' % key.decode())
        page = page.replace(key, read(os.path.join(VIEWER_DIR, name)))
    return page


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = [prefix(), b'<!-- BEGIN TRACE -->\n']
    for part in sys.argv[2:]:
        out += [OPEN_TAG, escape(read(part)), CLOSE_TAG]
    out += [b'<!-- END TRACE -->\n', read(os.path.join(TOP, 'assets', 'suffix.html'))]
    with open(sys.argv[1], 'wb') as f:
        f.write(b''.join(out))


if __name__ == '__main__':
    main()
