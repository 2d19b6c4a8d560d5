#!/usr/bin/env python3
"""Writes atrace text captures of one app for `systrace compare` tests.

    genruns.py OUT SEED [--slow NAME=FACTOR ...] [--spread S]

An app (com.example.app, pid 1234) draws 60 frames (Choreographer#doFrame
about 8 ms each, with inflate and measure slices inside), starts once
(bindApplication, about 120 ms), and runs on the CPU between frames
(sched_switch).  Every duration is multiplied by log-normal noise of
sigma S (0.03 by default) drawn from SEED; --slow NAME=F multiplies the
slices named NAME (or 'frames' for doFrame and what it holds, 'cpu' for
the app's CPU slices) by F more.
"""
import argparse
import random

ap = argparse.ArgumentParser()
ap.add_argument('out')
ap.add_argument('seed', type=int)
ap.add_argument('--slow', action='append', default=[])
ap.add_argument('--spread', type=float, default=0.03)
a = ap.parse_args()
slow = {}
for s in a.slow:
    k, v = s.split('=')
    slow[k] = float(v)
r = random.Random(a.seed)
run = r.lognormvariate(0, a.spread)     # this run's speed, shared by all


def d(ms, name):
    return ms * run * r.lognormvariate(0, a.spread / 3) * slow.get(name, 1.0) / 1000


lines = ['# tracer: nop', '#', '# entries-in-buffer/entries-written: 0/0   #P:4', '#',
         '#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION',
         '#              | |        |      |   ||||       |         |']
T = 100.0


def mark(ts, tid, text, task='com.example.app'):
    lines.append('%16s-%-5d (%5d) [000] ...1 %12.6f: tracing_mark_write: %s'
                 % (task, tid, 1234, ts, text))


def switch(ts, prev, prev_pid, nxt, nxt_pid):
    lines.append('%16s-%-5d (%5d) [001] d..3 %12.6f: sched_switch: prev_comm=%s prev_pid=%d '
                 'prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120'
                 % (prev, prev_pid, prev_pid if prev_pid else 0, ts, prev, prev_pid, nxt,
                    nxt_pid))


t = T
b = d(120, 'bindApplication')
mark(t, 1234, 'B|1234|bindApplication')
mark(t + b, 1234, 'E|1234')
t += b + 0.001
for i in range(60):
    f0 = t
    mark(t, 1234, 'B|1234|Choreographer#doFrame %d' % i)
    inf = d(3, 'inflate') * slow.get('frames', 1.0)
    mark(t + 0.0001, 1234, 'B|1234|inflate')
    mark(t + 0.0001 + inf, 1234, 'E|1234')
    mea = d(4, 'measure') * slow.get('frames', 1.0)
    mark(t + 0.0002 + inf, 1234, 'B|1234|measure')
    mark(t + 0.0002 + inf + mea, 1234, 'E|1234')
    end = t + 0.0003 + inf + mea + d(1, 'draw') * slow.get('frames', 1.0)
    mark(end, 1234, 'E|1234')
    c = d(2, 'cpu')
    switch(end + 0.0001, 'swapper/1', 0, 'com.example.app', 1234)
    switch(end + 0.0001 + c, 'com.example.app', 1234, 'swapper/1', 0)
    t = f0 + 0.0167
lines.sort(key=lambda l: float(l.split(': ')[0].split()[-1]) if not l.startswith('#') else 0)
with open(a.out, 'w') as f:
    f.write('\n'.join(lines) + '\n')
