#!/usr/bin/env python3
"""Sanity checks for ftrace text as atrace dumps it (used by the simulator
tests).  Input: a file holding plain ftrace text, or atrace output
(anything up to "TRACE:\\n", then text or a zlib stream).

Checks: '# tracer:' header; every event line matches the catapult
viewer's TGID-column regex (or is a '##### CPU N buffer started ####'
marker); timestamps never go backwards on a CPU; on each CPU a
sched_switch's prev_pid is the previous switch's next_pid; B/E markers
never close more slices than a thread opened.

Prints a JSON summary on stdout (lines, events by name, cpus, pids, tids,
span, first/last timestamp, marker texts containing 'clock_sync');
exit status 1 with a message on stderr when a check fails.
Usage: ftrace_check.py FILE [--max-errors N]
"""
import json
import re
import sys
import zlib

TGID_RE = re.compile(
    r'^\s*(.+)-(\d+)\s+\(\s*(\d+|-+)\)\s\[(\d+)\]\s+[dX.][Nnp.][Hhs.][0-9a-f.]'
    r'\s+(\d+\.\d+):\s+(\S+):\s(.*)$')
OVERRUN_RE = re.compile(r'^#+ CPU \d+ buffer started')


def load(path):
    data = open(path, 'rb').read()
    i = data.find(b'TRACE:\n')
    if i >= 0:
        data = data[i + 7:]
        if not data.startswith(b'# tracer'):
            data = zlib.decompress(data)
    return data.decode('utf-8')


def main():
    path = sys.argv[1]
    text = load(path)
    errors = []
    if not text.startswith('# tracer:'):
        errors.append('no "# tracer:" header')
    last_ts = {}
    running = {}
    depth = {}
    events = {}
    pids, tids, cpus = set(), set(), set()
    first = last = None
    syncs = []
    overruns = 0
    nlines = 0
    for n, line in enumerate(text.split('\n'), 1):
        if not line or line.startswith('#') and not OVERRUN_RE.match(line):
            continue
        if OVERRUN_RE.match(line):
            overruns += 1
            continue
        nlines += 1
        m = TGID_RE.match(line)
        if not m:
            errors.append('line %d does not parse: %r' % (n, line[:120]))
            continue
        tid, cpu, ts = int(m.group(2)), int(m.group(4)), float(m.group(5))
        name, args = m.group(6), m.group(7)
        events[name] = events.get(name, 0) + 1
        cpus.add(cpu)
        tids.add(tid)
        first = ts if first is None else min(first, ts)
        last = ts if last is None else max(last, ts)
        if ts < last_ts.get(cpu, 0):
            errors.append('line %d: time goes back on CPU %d' % (n, cpu))
        last_ts[cpu] = ts
        if name == 'sched_switch':
            sm = re.search(r'prev_pid=(\d+) .* next_pid=(\d+)', args)
            prev, nxt = int(sm.group(1)), int(sm.group(2))
            if cpu in running and running[cpu] != prev:
                errors.append('line %d: CPU %d switches from %d but ran %d'
                              % (n, cpu, prev, running[cpu]))
            running[cpu] = nxt
        elif name == 'tracing_mark_write':
            if 'clock_sync' in args:
                syncs.append(args)
            parts = args.split('|')
            if len(parts) >= 2 and parts[0] in 'BECSF':
                pids.add(int(parts[1]))
            if parts[0] == 'B':
                depth[tid] = depth.get(tid, 0) + 1
            elif parts[0] == 'E':
                depth[tid] = depth.get(tid, 0) - 1
                if depth[tid] < 0:
                    errors.append('line %d: E without B on %d' % (n, tid))
    summary = {
        'lines': nlines, 'events': events, 'cpus': sorted(cpus),
        'pids': sorted(pids), 'tids': sorted(tids), 'first': first,
        'last': last, 'span': (last - first) if first is not None else 0,
        'clock_sync': syncs, 'overruns': overruns, 'bytes': len(text),
    }
    print(json.dumps(summary))
    if errors:
        for e in errors[:20]:
            print('ftrace_check: ' + e, file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
