#!/usr/bin/env python3
"""Writes about N MB of plain ftrace text for the huge-trace benchmark
(scripts/bench/bench-huge): 8 CPUs, sched_switch chains that are
consistent per CPU, sched_wakeup, balanced tracing_mark_write B/E slices
(depth <= 3) on 24 threads of 4 processes, a counter now and then.
NAME_LEN (default 0) pads slice names to about that many characters, the
way Android's "Lock contention on ..." and binder slices are long: fewer
events per MB.  Deterministic; timestamps increase.

  genhuge.py MB OUT [NAME_LEN]
"""
import sys


def main():
    mb, path = int(sys.argv[1]), sys.argv[2]
    pad = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    target = mb * 1000 * 1000
    out = open(path, 'wb')
    head = (b'# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:8\n#\n'
            b'#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
            b'#              | |        |      |   ||||       |         |\n')
    out.write(head)
    size = len(head)
    procs = [(1000, b'surfaceflinger'), (2000, b'system_server'), (3000, b'com.android.systemui'),
             (4000, b'com.example.app')]
    threads = [(pid + k, pid, (name if k == 0 else b'worker%d' % k)[:15])
               for pid, name in procs for k in range(6)]
    depth = [0] * len(threads)
    running = [0] * 8
    ts_us = 1000 * 1000000
    i = 0
    names = [b'Choreographer#doFrame', b'traversal', b'draw', b'binder transaction',
             b'inflate', b'RenderThread::drawFrame', b'queueBuffer', b'Lock contention']
    if pad:
        tail = (b' on thread list lock (owner tid: 1234) at void com.android.server.am.'
                b'ActivityManagerService.broadcastIntentLocked(ActivityManagerService.java:'
                b'17251) blocking from boolean com.android.server.wm.WindowManagerService.'
                b'relayoutWindow(WindowManagerService.java:2342)')
        names = [(n + tail * (pad // len(tail) + 1))[:pad] for n in names]
    while size < target:
        lines = []
        for _ in range(5000):
            i += 1
            ts_us += 3
            t = b'%d.%06d' % (ts_us // 1000000, ts_us % 1000000)
            cpu = i % 8
            th = (i * 7) % len(threads)
            tid, pid, comm = threads[th]
            pre = b'%16s-%-5d (%5d) [%03d] ' % (comm, tid, pid, cpu)
            k = i % 10
            if k < 3:
                prev = running[cpu]
                pt = threads[prev - 1] if prev else (0, 0, b'swapper/%d' % cpu)
                nxt = (i * 13) % (len(threads) + 1)
                nt = threads[nxt - 1] if nxt else (0, 0, b'swapper/%d' % cpu)
                lines.append(b'%16s-%-5d (%5d) [%03d] d..2 %s: sched_switch: prev_comm=%s '
                             b'prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=%s '
                             b'next_pid=%d next_prio=120\n'
                             % (pt[2], pt[0], pt[1], cpu, t, pt[2], pt[0], nt[2], nt[0]))
                running[cpu] = nxt
            elif k < 5:
                lines.append(pre + b'd..3 %s: sched_wakeup: comm=%s pid=%d prio=120 '
                             b'target_cpu=%03d\n' % (t, comm, tid, cpu))
            elif k < 9:
                if depth[th] < 3 and (k < 7 or depth[th] == 0):
                    depth[th] += 1
                    lines.append(pre + b'...1 %s: tracing_mark_write: B|%d|%s\n'
                                 % (t, pid, names[(i >> 3) % len(names)]))
                else:
                    depth[th] -= 1
                    lines.append(pre + b'...1 %s: tracing_mark_write: E|%d\n' % (t, pid))
            else:
                lines.append(pre + b'...1 %s: tracing_mark_write: C|%d|pending|%d\n'
                             % (t, pid, i % 17))
        chunk = b''.join(lines)
        size += len(chunk)
        out.write(chunk)
    out.close()


main()
