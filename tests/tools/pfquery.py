#!/usr/bin/env python3
"""One query on a trace as Perfetto's own trace processor (v58.2,
../shared/tools/perfetto) loads it; prints its rows as one JSON list of
lists (numbers as numbers, text as text, NULL as null).  The trace
processor does not quote text, so a column of any text is best written
hex(...) AS x_NAME: a column named x_... is decoded from hex to text.

  pfquery.py TRACE SQL

Exit 77 when the trace processor does not run here, 1 when it cannot
read the trace or the query.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

TOP = os.environ.get('TOP') or os.path.join(os.path.dirname(__file__), '..', '..')
TP = os.environ.get('TRACE_PROCESSOR') or os.path.join(
    TOP, '..', 'shared', 'tools', 'perfetto', 'trace_processor_shell')


def value(s):
    if s == '[NULL]':
        return None
    for conv in (int, float):
        try:
            return conv(s)
        except ValueError:
            pass
    return s


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if not os.access(TP, os.X_OK):
        print('Perfetto trace processor absent (%s)' % TP)
        sys.exit(77)
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write(sys.argv[2].rstrip().rstrip(';') + ';\n')
    try:
        r = subprocess.run([TP, '-q', f.name, sys.argv[1]], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode:
        sys.stderr.write(r.stderr)
        sys.exit('pfquery: %s: the trace processor cannot read it or the query' % sys.argv[1])
    rows = list(csv.reader(io.StringIO(r.stdout.strip('\n'))))
    hexed = [name.startswith('x_') for name in rows[0]] if rows else []
    print(json.dumps([[bytes.fromhex(c).decode('utf-8', 'replace') if x else value(c)
                       for x, c in zip(hexed, row)] for row in rows[1:]]))


if __name__ == '__main__':
    main()
