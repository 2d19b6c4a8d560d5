#!/usr/bin/env python3
"""pfcutcheck.py [--pids P,...] ORIG STDOUT: judges the Perfetto pieces systrace wrote
(--output-format=perfetto; STDOUT is systrace's output, whose lines
"Wrote Perfetto trace: NAME (ts:A..B, ...)" name each piece and its range)
with Perfetto's own trace processor (../shared/tools/perfetto).  For each
piece, against the original restricted to [A, B):
  - no error or data-loss stat the original lacks;
  - the same sched rows (ts, cpu, tid), counter values (ts, track, value)
    and logcat lines (ts, message); of a CPU's frequency and idle state, of
    atrace counters and of polled ones (process and system stats, battery)
    also the last value before A, set again at A (unless the original sets
    one at A);
  - every slice (of a thread, a CPU's irq, or a track event's) overlapping [A, B), once, cut to it: (max(ts, A), end
    min(end, B), name; one never ended ends at B unless B is past the
    trace's last event); a track event slice begun again at A carries the
    argument debug.cut_start (atrace slices have no arguments);
  - no thread with sched rows or slices left without a name that the
    original names;
  - with --pids (--process), the slices, process counters and logcat lines
    of those processes only (and of no process), the sched rows of all.
With several pieces, their ranges must follow each other with no gap.
Prints one line per piece; exit 1 with the difference, 77 without the
trace processor.
"""
import csv
import io
import os
import re
import subprocess
import sys

TOP = os.environ.get('TOP') or os.path.join(os.path.dirname(__file__), '..', '..')
TP = os.environ.get('TRACE_PROCESSOR') or os.path.join(
    TOP, '..', 'shared', 'tools', 'perfetto', 'trace_processor_shell')

Q = {
    'errors': "select name || '[' || ifnull(idx, '') || ']', value from stats "
              "where severity in ('error', 'data_loss', 'data_losses') and value > 0",
    'sched': "select ts, cpu, tid from sched join thread using(utid) where tid != 0",
    'slices': "select s.ts, s.dur, s.name, (select count(*) from args a where "
              "a.arg_set_id = s.arg_set_id and a.key = 'debug.cut_start'), "
              "ifnull(s.category, '') not in ('', 'workqueue', 'irq', 'softirq'), "
              "coalesce((select p.pid from thread_track tt join thread t using(utid) "
              "join process p using(upid) where tt.id = s.track_id), (select p.pid from "
              "process_track pt join process p using(upid) where pt.id = s.track_id), '') "
              "from slice s where s.track_id in "
              "(select id from thread_track) or s.category is not null",
    'counters': "select c.ts, t.name, c.value, coalesce((select p.pid from "
                "process_counter_track pt join process p using(upid) where pt.id = c.track_id), "
                "'') from counter c join track t on c.track_id = t.id",
    'carried': "select c.ts, t.name, c.value, coalesce((select p.pid from "
               "process_counter_track pt join process p using(upid) where pt.id = c.track_id), "
               "''), c.track_id from counter c join track t on c.track_id = t.id where t.type "
               "in ('cpu_frequency', 'cpu_idle', 'atrace_counter', 'process_memory', "
               "'oom_score_adj', 'meminfo', 'vmstat', 'battery_counter') "
               "order by c.ts, c.id",
    'logs': "select l.ts, hex(l.msg), coalesce((select p.pid from thread t join process p "
            "using(upid) where t.utid = l.utid), '') from android_logs l",
    'unnamed': "select tid from thread where (name is null or name = '') and tid != 0 and "
               "(utid in (select utid from sched) or utid in (select utid from thread_track tt "
               "join slice s on s.track_id = tt.id))",
    'last': "select max(ts) from (select ts from sched union all select ts from slice "
            "union all select ts from counter union all select ts from ftrace_event "
            "union all select ts from android_logs)",
}


def query(path):
    out = {}
    for k, q in Q.items():
        r = subprocess.run([TP, '-q', '/dev/stdin', path], input=q + ';\n', capture_output=True,
                           text=True)
        if r.returncode:
            sys.exit('%s: trace processor failed: %s' % (path, r.stderr[-2000:]))
        rows = list(csv.reader(io.StringIO(r.stdout)))[1:]
        out[k] = [tuple(x) for x in rows if x]
    return out


def num(x):
    return int(x) if x not in ('', None) else None


def only(rows, pids):
    """rows (pid last) of the processes kept (all without --pids), pid dropped"""
    return [r[:-1] for r in rows if pids is None or r[-1] == '' or int(r[-1]) in pids]


def carried(rows, a, pids):
    """the counters the cutter sets again at a: each track's last value
    before a, unless it has one at a (rows in time order)"""
    before, at = {}, set()
    for ts, name, value, pid, track in rows:
        if int(ts) < a:
            before[track] = (str(a), name, value, pid)
        elif int(ts) == a:
            at.add(track)
    return only([v for t, v in before.items() if t not in at], pids)


def check(orig, piece, a, b, last, pids):
    bad = []
    orig = dict(orig)
    piece = dict(piece)
    for k in ('slices', 'counters', 'logs'):
        orig[k] = only(orig[k], pids)
        piece[k] = only(piece[k], None)
    extra = set(piece['errors']) - set(orig['errors'])
    if extra:
        bad.append('error stats not in the original: %s' % sorted(extra))
    inr = lambda ts: a <= int(ts) < b
    want = sorted(r for r in orig['sched'] if inr(r[0]))
    got = sorted(piece['sched'])
    if want != got:
        bad.append('sched rows differ: %d wanted, %d got; first missing %s, first extra %s'
                   % (len(want), len(got), sorted(set(want) - set(got))[:3],
                      sorted(set(got) - set(want))[:3]))
    for k in ('counters', 'logs'):
        want = sorted(r for r in orig[k] if inr(r[0]))
        if k == 'counters':
            want = sorted(want + carried(orig['carried'], a, pids))
        got = sorted(piece[k])
        if want != got:
            bad.append('%s differ: %d wanted, %d got; missing %s, extra %s'
                       % (k, len(want), len(got), sorted(set(want) - set(got))[:3],
                          sorted(set(got) - set(want))[:3]))
    want = []
    for ts, dur, name, _, _ in orig['slices']:
        ts, dur = int(ts), int(dur)
        # never ended: ended at b, unless b is past the trace's last event
        end = (None if b > last else b) if dur < 0 else ts + dur
        if ts >= b or (end is not None and end <= a and not (dur == 0 and ts >= a)):
            continue    # not overlapping [a, b) (an instant at a does)
        s = max(ts, a)
        e = end if end is None or end <= b else b
        want.append((s, -1 if e is None else e - s, name))
    got = sorted((int(ts), int(dur), name) for ts, dur, name, _, _ in piece['slices'])
    want.sort()
    if want != got:
        bad.append('slices differ: %d wanted, %d got; missing %s, extra %s'
                   % (len(want), len(got), sorted(set(want) - set(got))[:4],
                      sorted(set(got) - set(want))[:4]))
    unmarked = [r for r in piece['slices'] if int(r[0]) == a and r[3] == '0' and r[4] == '1']
    begun = [r for r in orig['slices'] if int(r[0]) < a]
    if unmarked and begun:
        bad.append('slices begun again at the start without debug.cut_start: %s' % unmarked[:3])
    unnamed = set(piece['unnamed']) - set(orig['unnamed'])
    if unnamed:
        bad.append('threads with events but no name (named in the original): %s'
                   % sorted(unnamed)[:5])
    return bad


def main():
    if not os.access(TP, os.X_OK):
        print("Perfetto's trace processor absent (%s)" % TP)
        sys.exit(77)
    args = sys.argv[1:]
    pids = None
    if args[0] == '--pids':     # --process: only these processes' slices, counters, logs
        pids = set(int(x) for x in args[1].split(','))
        args = args[2:]
    orig_path, stdout = args[0], open(args[1]).read()
    pieces = [(m.group(1), m.group(2), m.group(3)) for m in re.finditer(
        r'Wrote Perfetto trace: (\S+) \(ts:(-?[0-9.]+)\.\.(-?[0-9.]+),', stdout)]
    if not pieces:
        sys.exit('no piece named in %s' % sys.argv[2])
    orig = query(orig_path)
    last = orig['last'][0][0] if orig['last'] else ''
    last = int(last) if last.lstrip('-').isdigit() else 2**63
    ns = lambda s: int(round(float(s) * 1e9)) if '.' not in s else \
        int(s.split('.')[0]) * 10**9 + int((s.split('.')[1] + '000000000')[:9])
    prev = None
    fails = 0
    for name, sa, sb in pieces:
        a, b = ns(sa), ns(sb)
        if prev is not None and a != prev:
            print('%s: starts at %d, not where the piece before ends (%d)' % (name, a, prev))
            fails += 1
        prev = b
        p = query(name)
        bad = check(orig, p, a, b, last, pids)
        cut = sum(1 for r in p['slices'] if r[3] != '0')
        print('%s: %s (sched %d, slices %d of which %d marked cut, counters %d, logs %d)'
              % (name, 'ok' if not bad else 'DIFFERS', len(p['sched']), len(p['slices']), cut,
                 len(p['counters']), len(p['logs'])))
        for x in bad:
            print('  ' + x)
        fails += bool(bad)
    sys.exit(1 if fails else 0)


main()
