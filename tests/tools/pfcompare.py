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

One known deviation is compared precisely, not skipped: a sched_switch's
prev_state is not to_ftrace's (4.4 letters whatever the kernel) but the
letters that give the slice it ends the end state Perfetto's sched table
gives it reading the trace (its importer decodes by the kernel version):
"R" and "R+" as they are, else the first two letters joined by '|' (the
most the classic viewer reads), "?" where the end state is empty (an
invalid state).  A switch that ends no slice (the first on each CPU) has
its prev_state left out on both sides.  And an empty comm of a
sched_switch or sched_wakeup is "<...>" in the page (to_ftrace: nothing).

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


def query(trace, sql):
    if not os.access(TP, os.X_OK):
        print('Perfetto trace processor absent (%s)' % TP)
        sys.exit(77)
    with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
        f.write(sql + '\n')
    try:
        r = subprocess.run([TP, '-q', f.name, trace], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit('trace processor failed on %s' % trace)
    return [l.strip().strip('"') for l in r.stdout.split('\n')[1:] if l.strip()]


def reference(trace):
    rows = query(trace, 'select hex(to_ftrace(id)) from ftrace_event order by ts;')
    return [bytes.fromhex(h).decode('utf-8', 'replace') for h in rows]


def end_states(trace):
    """(cpu, microseconds, tid) of each switch that ends a CPU slice -> the
    end states of the slices ending there, in timestamp order."""
    rows = query(trace, "select s.cpu || ',' || ((s.ts + s.dur) / 1000) || ',' || t.tid || "
                        "',' || ifnull(s.end_state, '') from sched s join thread t using (utid) "
                        "where s.dur >= 0 order by s.ts + s.dur;")
    ends = collections.defaultdict(list)
    for r in rows:
        cpu, us, tid, st = r.split(',')
        ends[(int(cpu), int(us), int(tid))].append(st)
    return ends


def letters(end_state):
    if end_state in ('R', 'R+'):
        return end_state
    return '|'.join(end_state[:2]) if end_state else '?'


STATE = re.compile(r' prev_state=(\S*) ==>')


def prev_states(ref, got, ends):
    """The deviation above, applied to both sides' sched_switch lines."""
    def key(k):
        secs, us = k[2].split('.')
        return (k[1], int(secs) * 1000000 + int(us), k[0])
    taken = collections.Counter()
    for side in (ref, got):
        taken.clear()
        for i, (k, n) in enumerate(side):
            if k[3] != 'sched_switch':
                continue
            sts = ends.get(key(k), [])
            j = taken[key(k)]
            taken[key(k)] += 1
            want = letters(sts[j]) if j < len(sts) else '*'
            if side is ref or want == '*':
                side[i] = (k[:4] + (STATE.sub(' prev_state=%s ==>' % want, k[4], 1),), n)


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


def no_comm(ev, args):
    """The other deviation: an empty comm of a switch or wakeup is "<...>"."""
    if ev == 'sched_switch':
        return re.sub(r' (prev|next)_comm= ', r' \1_comm=<...> ', args)
    if ev == 'sched_wakeup' and args.startswith(' comm= '):
        return args.replace(' comm= ', ' comm=<...> ', 1)
    return args


def parse(lines, what):
    out = []
    for l in lines:
        m = LINE.match(l)
        if not m:
            sys.exit('%s: not an ftrace line: %r' % (what, l))
        name, tid, _tgid, cpu, ts, ev, args = m.groups()
        if what == 'to_ftrace':
            args = no_comm(ev, args)
        out.append(((int(tid), int(cpu), ts, ev, args.rstrip()), name.strip()))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ref = parse(reference(sys.argv[1]), 'to_ftrace')
    got = parse(page_lines(sys.argv[2]), sys.argv[2])
    prev_states(ref, got, end_states(sys.argv[1]))
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
