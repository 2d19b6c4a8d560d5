#!/usr/bin/env python3
"""Writes a synthetic `atrace -z` dump (TRACE:\\n + zlib) of about N MB of
ftrace text for benchmarks: sched_switch/sched_wakeup on 4 CPUs and
tracing_mark_write slices, timestamps increasing.  Deterministic."""
import sys
import zlib

def main():
    mb = int(sys.argv[1])
    out = open(sys.argv[2], 'wb')
    target = mb * 1000 * 1000
    z = zlib.compressobj(6)
    out.write(b'TRACE:\n')
    head = (b'# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:4\n#\n'
            b'#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
            b'#              | |        |      |   ||||       |         |\n')
    out.write(z.compress(head))
    size = len(head)
    ts = 1000.0
    names = [b'surfaceflinger', b'RenderThread', b'system_server', b'kworker/1:2',
             b'binder:1234_5', b'com.android.systemui']
    i = 0
    while size < target:
        lines = []
        for k in range(2000):
            i += 1
            cpu = i % 4
            n = names[i % len(names)]
            pid = 1000 + (i % 97)
            ts += 0.000013
            t = b'%.6f' % ts
            if i % 3 == 0:
                lines.append(b'%16s-%-5d (%5d) [%03d] d..2 %s: sched_switch: prev_comm=%s '
                             b'prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=%s '
                             b'next_pid=%d next_prio=120\n' % (n, pid, pid, cpu, t, n, pid,
                                                               names[(i + 1) % 6], pid + 1))
            elif i % 3 == 1:
                lines.append(b'%16s-%-5d (%5d) [%03d] d..3 %s: sched_wakeup: comm=%s pid=%d '
                             b'prio=120 target_cpu=%03d\n' % (n, pid, pid, cpu, t, n, pid + 2, cpu))
            else:
                lines.append(b'%16s-%-5d (%5d) [%03d] ...1 %s: tracing_mark_write: '
                             b'B|%d|Choreographer#doFrame %d\n' % (n, pid, pid, cpu, t, pid, i))
        chunk = b''.join(lines)
        size += len(chunk)
        out.write(z.compress(chunk))
    out.write(z.flush())
    out.close()

main()
