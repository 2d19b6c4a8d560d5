#!/usr/bin/env python3
"""Does a page (or -j JSON) made from a Perfetto trace hold the ftrace
events Perfetto itself derives from that trace?  The reference is Perfetto's
own trace processor: `select to_ftrace(id) from ftrace_event` (the text of
`traceconv systrace`).  Each line is compared as (tid, cpu, timestamp,
event, arguments), as a multiset; thread names and TGIDs are not compared
(a streaming reader may name a thread Perfetto calls <unknown>, and the
other way round), but a page line naming a thread differently from a name
Perfetto knows is counted and shown.  The page's lines must also be in
timestamp order.

  pfcompare.py TRACE OUTPUT        (OUTPUT: .html page or -j .json)
Exit 0 equal, 1 different, 77 when the trace processor cannot run.
Independent of the C code on purpose.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = os.environ.get('TOP') or os.path.join(os.path.dirname(__file__), '..', '..')
TP = os.environ.get('TRACE_PROCESSOR') or os.path.join(
    TOP, '..', 'shared', 'tools', 'perfetto', 'trace_processor_shell')
HB = os.path.join(os.environ.get('BUILD') or os.path.join(TOP, 'build'), 'tools', 'htmlblocks')

LINE = re.compile(r'^\s*(.*?)-(\d+)\s+\(\s*([\d-]+)\)\s+\[(\d+)\]\s+\S+\s+(\d+\.\d+): '
                  r'([^:]+):(.*)$')


def reference(trace):
    if not os.access(TP, os.X_OK):
        print('Perfetto trace processor absent (%s)' % TP)
        sys.exit(77)
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write('select hex(to_ftrace(id)) from ftrace_event order by ts;\n')
    try:
        r = subprocess.run([TP, '-q', f.name, trace], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit('trace processor failed on %s' % trace)
    rows = [l.strip().strip('"') for l in r.stdout.split('\n')[1:] if l.strip()]
    return [bytes.fromhex(h).decode('utf-8', 'replace') for h in rows]


def page_lines(out):
    data = open(out, 'rb').read()
    if out.endswith('.json'):
        text = json.loads(data)['systemTraceEvents']
    else:
        n = int(subprocess.run([HB, out, 'count'], capture_output=True,
                               text=True, check=True).stdout)
        parts = [subprocess.run([HB, out, str(i + 1)], capture_output=True,
                                check=True).stdout.decode('utf-8', 'replace')
                 for i in range(n)]
        text = '\n'.join(p for p in parts if 'TASK-PID' in p[:400])
    return [l for l in text.split('\n') if l.strip() and not l.startswith('#')]


def parse(lines, what):
    out = []
    for l in lines:
        m = LINE.match(l)
        if not m:
            sys.exit('%s: not an ftrace line: %r' % (what, l))
        name, tid, _tgid, cpu, ts, ev, args = m.groups()
        out.append(((int(tid), int(cpu), ts, ev, args.rstrip()), name.strip()))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ref = parse(reference(sys.argv[1]), 'to_ftrace')
    got = parse(page_lines(sys.argv[2]), sys.argv[2])
    rc, gc = collections.Counter(k for k, _ in ref), collections.Counter(k for k, _ in got)
    missing, extra = rc - gc, gc - rc
    names = {}
    for k, n in ref:
        if n != '<unknown>':
            names[(k[0], k[2])] = n
    renamed = [(k, n, names[(k[0], k[2])]) for k, n in got
               if (k[0], k[2]) in names and names[(k[0], k[2])] != n and k[0] != 0]
    order = [i for i in range(1, len(got)) if float(got[i][0][2]) < float(got[i - 1][0][2])]
    print('%s: %d lines, Perfetto %d; missing %d, extra %d, names differing %d, '
          'out of order %d' % (sys.argv[2], len(got), len(ref), sum(missing.values()),
                               sum(extra.values()), len(renamed), len(order)))
    for k in list(missing)[:8]:
        print('  only in Perfetto:', k)
    for k in list(extra)[:8]:
        print('  only in the page:', k)
    for k, n, want in renamed[:5]:
        print('  name %r, Perfetto %r: %s' % (n, want, k))
    sys.exit(1 if missing or extra or order or not ref else 0)


if __name__ == '__main__':
    main()
