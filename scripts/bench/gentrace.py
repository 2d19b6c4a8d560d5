#!/usr/bin/env python3
"""Writes a synthetic `atrace -z` dump (TRACE:\\n + zlib) of about N MB of
ftrace text for benchmarks: sched_switch/sched_wakeup on 4 CPUs and
tracing_mark_write slices, timestamps increasing.  Deterministic.

App launches are woven in (issue 33: the summary's startups cost what the
benchmark measures), in tests/tools/mkstartup.py's shape: one every
LAUNCH_EVERY lines (about 0.5 s of trace), cold, warm and hot in turn, of
8 apps, as Android 12+ writes them (a trace of one Android version:
Perfetto's metric counts only these where there are any): system_server's
`launchingActivity#N` async slice with its `completed-TYPE` instant and
the `launching: PKG` slice inside it,
the app's main thread with bindApplication / activityStart /
activityResume, inflate, lock contention, dex loading, GC on
HeapTaskDaemon, sleeping, blocked and preempted, its first doFrame and
reportFullyDrawn."""
import heapq
import sys
import zlib

LAUNCH_EVERY = 38000
SS = 1000


def launch(n, t0):
    """(timestamp, line) of launch n starting at t0 (seconds)."""
    out = []
    pkg = 'com.example.a%d' % (n % 8)     # its main thread's comm in full
    pid = 5000 + (n % 8) * 10
    comm = pkg[-15:].encode()
    cpu = n % 4
    kind = ('cold', 'warm', 'hot')[n % 3]
    la = b'launchingActivity#%d' % (n + 1)

    def line(task, tid, tgid, us, ev, args):
        out.append((t0 + us / 1e6, b'%16s-%-5d (%5d) [%03d] ...1 %%s: %s: %s\n'
                    % (task, tid, tgid, cpu, ev, args)))

    def mark(task, tid, tgid, us, a):
        line(task, tid, tgid, us, b'tracing_mark_write', a)

    def sw(us, pc, pp, ps, nc, np_):
        line(pc, pp, pp, us, b'sched_switch', b'prev_comm=%s prev_pid=%d prev_prio=120 '
             b'prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120' % (pc, pp, ps, nc, np_))

    idle = b'swapper/%d' % cpu
    mark(b'system_server', 1010, SS, 0, b'S|%d|%s|0' % (SS, la))
    mark(b'system_server', 1010, SS, 700, b'S|%d|launching: %s|%d' % (SS, pkg.encode(), n))
    t = 1600
    sw(t, idle, 0, b'R', comm, pid)
    names = {'cold': [b'bindApplication', b'activityStart', b'activityResume'],
             'warm': [b'activityStart', b'activityResume'], 'hot': [b'activityResume']}[kind]
    for nm in names:
        mark(comm, pid, pid, t + 10, b'B|%d|%s' % (pid, nm))
        mark(comm, pid, pid, t + 100, b'B|%d|inflate' % pid)
        mark(comm, pid, pid, t + 2100, b'E|%d' % pid)
        mark(comm, pid, pid, t + 2200, b'B|%d|Lock contention on a monitor lock' % pid)
        sw(t + 2300, comm, pid, b'S', idle, 0)
        sw(t + 5300, idle, 0, b'R', comm, pid)
        mark(comm, pid, pid, t + 5400, b'E|%d' % pid)
        sw(t + 6000, comm, pid, b'D', idle, 0)
        sw(t + 7500, idle, 0, b'R', comm, pid)
        sw(t + 8000, comm, pid, b'R+', b'kworker/0:1', 77)
        sw(t + 8700, b'kworker/0:1', 77, b'S', comm, pid)
        mark(comm, pid, pid, t + 9000, b'B|%d|OpenDexFilesFromOat(/data/app/base.apk)' % pid)
        mark(comm, pid, pid, t + 9800, b'E|%d' % pid)
        mark(b'HeapTaskDaemon', pid + 7, pid, t + 9000, b'B|%d|young concurrent copying GC' % pid)
        mark(b'HeapTaskDaemon', pid + 7, pid, t + 11000, b'E|%d' % pid)
        mark(comm, pid, pid, t + 12000, b'E|%d' % pid)
        t += 12500
    mark(comm, pid, pid, t + 10, b'B|%d|Choreographer#doFrame 1' % pid)
    mark(comm, pid, pid, t + 8000, b'E|%d' % pid)
    mark(b'system_server', 1010, SS, t + 9000, b'F|%d|launching: %s|%d' % (SS, pkg.encode(), n))
    mark(b'system_server', 1010, SS, t + 9300, b'F|%d|%s|0' % (SS, la))
    mark(b'system_server', 1010, SS, t + 9300, b'I|%d|%s:completed-%s:%s'
         % (SS, la, kind.encode(), pkg.encode()))
    mark(comm, pid, pid, t + 20000, b'B|%d|reportFullyDrawn' % pid)
    mark(comm, pid, pid, t + 20500, b'E|%d' % pid)
    sw(t + 30000, comm, pid, b'S', idle, 0)
    return out


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
    pending = []        # a launch's lines not yet due: (ts, order, line)
    order = 0
    i = 0
    while size < target:
        lines = []
        for k in range(2000):
            i += 1
            cpu = i % 4
            n = names[i % len(names)]
            pid = 1000 + (i % 97)
            ts += 0.000013
            if i % LAUNCH_EVERY == 0:
                for when, text in launch(i // LAUNCH_EVERY - 1, ts):
                    order += 1
                    heapq.heappush(pending, (when, order, text))
            while pending and pending[0][0] <= ts:
                when, _, text = heapq.heappop(pending)
                lines.append(text % (b'%.6f' % when))
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
