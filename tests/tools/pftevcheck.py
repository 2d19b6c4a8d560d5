#!/usr/bin/env python3
"""A Perfetto trace and the trace-event JSON systrace made of it, both loaded
by Perfetto's own trace processor (v58.2, ../shared/tools/perfetto): the
same thread slices and instants, async slices (every track that is not a
thread's), counters by name with every (ts, value), thread names (tid 0,
the idle task Perfetto names itself, left out), process names, flows and
every slice's ts and dur (sliceTimes).
Prints what both hold, one JSON line; exit 1 with the differences.

  pftevcheck.py TRACE JSON

A JSON counter event of name N with args {"value": V} is the counter
"N value" to Perfetto (its JSON importer names a counter by event and
argument), so the JSON side's names lose that suffix before comparing.
Exit 77 when the trace processor does not run here.
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

QUERIES = [
    ('threadSlices', 'select count(*) from slice s join thread_track t on s.track_id = t.id '
                     'where s.dur != 0'),
    ('threadInstants', 'select count(*) from slice s join thread_track t on s.track_id = t.id '
                       'where s.dur = 0'),
    ('asyncSlices', 'select count(*) from slice where track_id not in '
                    '(select id from thread_track)'),
    ('counters', 'select hex(t.name), c.ts, c.value from counter c join counter_track t '
                 'on c.track_id = t.id order by t.name, c.ts'),
    ('threadNames', "select tid, hex(name) from thread where tid != 0 and name is not null "
                    "and name != '' order by tid, name"),
    ('processNames', "select pid, hex(name) from process where name is not null "
                     "and name != '' order by pid, name"),
    ('flows', 'select count(*) from flow'),
    ('sliceNames', "select hex(coalesce(name, '')), count(*) from slice group by 1 order by 1"),
    ('sliceTimes', "select ts, dur, hex(coalesce(name, '')) from slice order by 1, 2, 3"),
]


def unhex(s):
    return bytes.fromhex(s).decode('utf-8', 'replace')


def load(path):
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write(';\n'.join(q for _, q in QUERIES) + ';\n')
    try:
        r = subprocess.run([TP, '-q', f.name, path], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode:
        sys.stderr.write(r.stderr)
        sys.exit('pftevcheck: %s: the trace processor cannot read it' % path)
    tables, cur = [], []
    for line in r.stdout.split('\n'):
        if line.strip():
            cur.append(line)
        elif cur:
            tables.append(cur)
            cur = []
    if cur:
        tables.append(cur)
    rows = [list(csv.reader(io.StringIO('\n'.join(t))))[1:] for t in tables]
    if len(rows) != len(QUERIES):
        sys.exit('pftevcheck: %s: %d tables for %d queries' % (path, len(rows), len(QUERIES)))
    out = {}
    for (k, _), rs in zip(QUERIES, rows):
        if k in ('counters',):
            out[k] = [[unhex(a), int(b), float(c)] for a, b, c in rs]
        elif k in ('threadNames', 'processNames'):
            out[k] = [[int(a), unhex(b)] for a, b in rs]
        elif k == 'sliceNames':
            # an unnamed event: NULL in the trace, "" in the JSON
            # (Perfetto's JSON importer calls it "[No name]")
            out[k] = [['' if unhex(a) == '[No name]' else unhex(a), int(b)] for a, b in rs]
            out[k].sort()
        elif k == 'sliceTimes':
            out[k] = sorted([int(a), int(b), '' if unhex(c) == '[No name]' else unhex(c)]
                            for a, b, c in rs)
        else:
            out[k] = int(rs[0][0])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    if not os.access(TP, os.X_OK) or subprocess.run(
            [TP, '--version'], capture_output=True).returncode:
        print('Perfetto trace processor absent or not running (%s)' % TP)
        sys.exit(77)
    ref, got = load(sys.argv[1]), load(sys.argv[2])
    for c in got['counters']:
        if c[0].endswith(' value'):
            c[0] = c[0][:-6]
    got['counters'].sort()
    ref['counters'].sort()
    diff = {k: {'trace': ref[k], 'json': got[k]} for k in ref if ref[k] != got[k]}
    if diff:
        print(json.dumps(diff, indent=1))
        sys.exit('pftevcheck: %s differs from %s' % (sys.argv[2], sys.argv[1]))
    print(json.dumps(got))


if __name__ == '__main__':
    main()
