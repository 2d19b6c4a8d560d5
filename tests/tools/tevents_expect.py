#!/usr/bin/env python3
"""Independent check of a --trace-events file against the ftrace text it
came from.  Reads TEXT (plain ftrace text: what systrace put in the HTML's
ftrace block, or a raw input with --cut), counts what the converter must
produce, parses JSON with Python's json module, and compares:

  X cat atrace   matched tracing_mark_write B/E pairs (per thread stack)
  B              B left open at the end
  C (not CPU)    C|tgid|name|integer markers
  b / e          S markers / F markers closing an open S (tgid,name,cookie;
                 a second S of the same key replaces the open one)
  i              I markers
  X cat sched    sched_switch slices of non-idle tasks (closed by the next
                 switch on that CPU, or by the end of the trace)
  C CPU ...      cpu_frequency and cpu_idle lines
  M              process_name/thread_name with string names

  tevents_expect.py TEXT JSON [--cut]
Prints both count tables as JSON; exit 1 if they differ or the file is not
valid JSON.
"""
import collections
import json
import re
import sys

LINE_RE = re.compile(r'-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*'
                     r'([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):')
MARKER_RE = re.compile(r'^#+ CPU \d+ buffer started')


def cut(lines):
    h = next((i for i, l in enumerate(lines) if not l.startswith('#')), None)
    ms = [i for i, l in enumerate(lines) if MARKER_RE.match(l)]
    if h is None or not ms or ms[-1] <= h:
        return lines
    return lines[:h] + lines[ms[-1]:]


def expected(text, do_cut):
    lines = text.split('\n')
    if do_cut:
        lines = cut(lines)
    n = collections.Counter()
    depth = collections.Counter()
    opens = collections.Counter()
    running = {}
    for line in lines:
        if line.startswith('#') or not line.strip():
            continue
        m = LINE_RE.search(line)
        if not m:
            continue
        tid, cpu, ev = int(m.group(1)), int(m.group(3)), m.group(6)
        args = line[m.end():].strip()
        if ev == 'tracing_mark_write':
            f = args.rstrip('\n').split('|')
            ph = f[0]
            if ph == 'B' and len(f) >= 3 and f[1].isdigit():
                depth[tid] += 1
            elif ph == 'E':
                if depth[tid]:
                    depth[tid] -= 1
                    n['X atrace'] += 1
            elif ph == 'C' and len(f) >= 4 and f[1].isdigit() and re.fullmatch(r'-?\d+', f[3]):
                n['C'] += 1
            elif ph in 'SF' and len(f) >= 4 and f[1].isdigit():
                key = (f[1], '|'.join(f[2:-1]), f[-1])
                if ph == 'S':       # replaces an open S of its key (both viewers)
                    opens[key] = 1
                    n['b'] += 1
                elif opens[key]:
                    opens[key] -= 1
                    n['e'] += 1
            elif ph == 'I' and len(f) >= 3 and f[1].isdigit():
                n['i'] += 1
        elif ev == 'sched_switch':
            nm = re.search(r' next_pid=(\d+)', args)
            if not nm or ' ==> ' not in args:
                continue
            if running.get(cpu):
                n['X sched'] += 1
            running[cpu] = int(nm.group(1)) != 0
        elif ev in ('cpu_frequency', 'cpu_idle'):
            n['C cpu'] += 1
    n['X sched'] += sum(1 for v in running.values() if v)
    n['B'] = sum(depth.values())
    return {k: v for k, v in n.items() if v}


def actual(path):
    doc = json.load(open(path))
    n = collections.Counter()
    for e in doc['traceEvents']:
        ph = e['ph']
        if ph == 'X':
            n['X ' + e['cat']] += 1
        elif ph == 'C':
            n['C cpu' if e['name'].startswith('CPU ') else 'C'] += 1
        elif ph == 'M':
            assert isinstance(e['args'].get('name', e['args'].get('sort_index')), (str, int))
        else:
            n[ph] += 1
    return {k: v for k, v in n.items() if v}


def main():
    text = open(sys.argv[1], encoding='utf-8', errors='replace').read()
    want = expected(text, '--cut' in sys.argv[3:])
    got = actual(sys.argv[2])
    print(json.dumps({'expected': want, 'actual': got}, sort_keys=True))
    if want != got:
        sys.stderr.write('tevents_expect: counts differ: expected %s, got %s\n' % (want, got))
        sys.exit(1)


main()
