#!/usr/bin/env python3
"""genpieces.py OUT [LINES] [SEED]: atrace text for the piece tests
(--time-range, --process, --split): three processes (com.example.app,
surfaceflinger, logd) on 4 CPUs over about 10 s from ts 1000: sched_switch
chains per CPU (each CPU's previous task is the one it switched to),
wakeups, cpu_frequency, nested B/E slices on the running thread (some
long, so that any cut crosses them), counters (C), async slices (S/F)
and the clock sync marker.  Deterministic for a seed."""
import random
import sys

out = open(sys.argv[1], 'w')
lines = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
PROCS = {100: ('com.example.app', [100, 101, 102]), 200: ('surfaceflinger', [200, 201]),
         300: ('logd', [300, 301])}
COMM = {100: 'example.app', 101: 'RenderThread', 102: 'hwuiTask1', 200: 'surfaceflinger',
        201: 'RenderEngine', 300: 'logd', 301: 'logd.writer'}
TGID = {t: p for p, (_, ts) in PROCS.items() for t in ts}
THREADS = sorted(TGID)
out.write('# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
          '#              | |        |      |   ||||       |         |\n')
ts = 1000.0
running = {c: 0 for c in range(4)}
depth = {t: 0 for t in THREADS}
asyncs = {}
step = 10.0 / lines


def who(tid):
    if tid == 0:
        return '<idle>-0     (-----)'
    return '%s-%d (%5d)' % (COMM[tid], tid, TGID[tid])


def line(tid, cpu, body):
    out.write('%24s [%03d] d..3 %.6f: %s\n' % (who(tid), cpu, ts, body))


line(100, 0, 'tracing_mark_write: trace_event_clock_sync: parent_ts=1000.000000')
for i in range(lines):
    ts += step * (0.5 + random.random())
    cpu = random.randrange(4)
    cur = running[cpu]
    k = random.random()
    if k < 0.25 or cur == 0:
        busy = set(running.values())
        free = [t for t in THREADS if t not in busy]
        nxt = 0 if (k < 0.05 or not free) else random.choice(free)
        if nxt == cur:
            continue
        line(cur, cpu, 'sched_switch: prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s '
             '==> next_comm=%s next_pid=%d next_prio=120'
             % (COMM.get(cur, 'swapper/%d' % cpu), cur, 'S' if cur else 'R',
                COMM.get(nxt, 'swapper/%d' % cpu), nxt))
        running[cpu] = nxt
    elif k < 0.32:
        t = random.choice(THREADS)
        line(cur, cpu, 'sched_wakeup: comm=%s pid=%d prio=120 target_cpu=%03d'
             % (COMM[t], t, random.randrange(4)))
    elif k < 0.35:
        line(cur, cpu, 'cpu_frequency: state=%d cpu_id=%d'
             % (random.choice([300000, 1200000, 2000000]), cpu))
    elif k < 0.62:
        if depth[cur] < 6 and (depth[cur] == 0 or random.random() < 0.55):
            line(cur, cpu, 'tracing_mark_write: B|%d|work%d' % (TGID[cur], random.randrange(5)))
            depth[cur] += 1
        elif depth[cur] > 1 or (depth[cur] == 1 and random.random() < 0.1):
            line(cur, cpu, 'tracing_mark_write: E|%d' % TGID[cur])
            depth[cur] -= 1
    elif k < 0.72:
        line(cur, cpu, 'tracing_mark_write: C|%d|queue%d|%d'
             % (TGID[cur], random.randrange(2), random.randrange(50)))
    elif k < 0.76:
        key = (TGID[cur], TGID[cur] * 10 + random.randrange(3))  # cookies unique
        if key in asyncs:
            line(cur, cpu, 'tracing_mark_write: F|%d|load|%d' % key)
            del asyncs[key]
        else:
            line(cur, cpu, 'tracing_mark_write: S|%d|load|%d' % key)
            asyncs[key] = 1
