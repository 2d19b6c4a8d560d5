#!/usr/bin/env python3
"""App startups as atrace text for the summary's startup test
(tests/perfetto/startups.sh): usage mkstartup.py PS_OUT TRACE_OUT [metricslogger].
Android 10 shape: system_server's `launching: PKG` async slice around each
launch; the app's main thread with bindApplication (cold), activityStart
(cold, warm), activityResume, sleeping (S), blocked (D) and preempted (R);
cold, warm and hot starts, one with reportFullyDrawn.  With
`metricslogger`, each launch is preceded by
MetricsLogger:launchObserverNotifyIntentStarted (Android 10+'s start)."""
import sys

L = []
ML = len(sys.argv) > 3 and sys.argv[3] == 'metricslogger'


def line(task, pid, tgid, cpu, us, ev, args):
    L.append((us, len(L), '%16s-%-5d (%5d) [%03d] ...1 %d.%06d: %s: %s' % (
        task, pid, tgid, cpu, us // 10**6, us % 10**6, ev, args)))


def mark(task, pid, tgid, cpu, us, a):
    line(task, pid, tgid, cpu, us, 'tracing_mark_write', a)


def sw(cpu, us, pc, pp, ps, nc, np_):
    line(pc, pp, pp, cpu, us, 'sched_switch',
         'prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s '
         'next_pid=%d next_prio=120' % (pc, pp, ps, nc, np_))


SS = 1000


def launch(pkg, pid, cpu, t0, kind, rfd=False):
    comm = pkg[-15:]
    if ML:
        mark('system_server', 1010, SS, 0, t0 - 500, 'B|%d|MetricsLogger:launchObserverNotifyIntentStarted' % SS)
        mark('system_server', 1010, SS, 0, t0 - 400, 'E|%d' % SS)
    mark('system_server', 1010, SS, 0, t0, 'S|%d|launching: %s|%d' % (SS, pkg, t0 % 97))
    t = t0 + 900
    sw(cpu, t, 'swapper/%d' % cpu, 0, 'R', comm, pid)
    names = {'cold': ['bindApplication', 'activityStart', 'activityResume'],
             'warm': ['activityStart', 'activityResume'], 'hot': ['activityResume']}[kind]
    for nm in names:
        mark(comm, pid, pid, cpu, t + 10, 'B|%d|%s' % (pid, nm))
        mark(comm, pid, pid, cpu, t + 100, 'B|%d|inflate' % pid)
        mark(comm, pid, pid, cpu, t + 2100, 'E|%d' % pid)
        mark(comm, pid, pid, cpu, t + 2200, 'B|%d|Lock contention on a monitor lock' % pid)
        sw(cpu, t + 2300, comm, pid, 'S', 'swapper/%d' % cpu, 0)
        sw(cpu, t + 5300, 'swapper/%d' % cpu, 0, 'R', comm, pid)
        mark(comm, pid, pid, cpu, t + 5400, 'E|%d' % pid)
        sw(cpu, t + 6000, comm, pid, 'D', 'swapper/%d' % cpu, 0)
        sw(cpu, t + 7500, 'swapper/%d' % cpu, 0, 'R', comm, pid)
        sw(cpu, t + 8000, comm, pid, 'R+', 'kworker/0:1', 77)
        sw(cpu, t + 8700, 'kworker/0:1', 77, 'S', comm, pid)
        mark(comm, pid, pid, cpu, t + 9000, 'B|%d|OpenDexFilesFromOat(/data/app/base.apk)' % pid)
        mark(comm, pid, pid, cpu, t + 9800, 'E|%d' % pid)
        mark('HeapTaskDaemon', pid + 7, pid, cpu + 1, t + 9000,
             'B|%d|young concurrent copying GC' % pid)
        mark('HeapTaskDaemon', pid + 7, pid, cpu + 1, t + 11000, 'E|%d' % pid)
        mark(comm, pid, pid, cpu, t + 12000, 'E|%d' % pid)
        t += 12500
    mark(comm, pid, pid, cpu, t + 10, 'B|%d|Choreographer#doFrame 1' % pid)
    mark(comm, pid, pid, cpu, t + 8000, 'E|%d' % pid)
    mark('system_server', 1010, SS, 0, t + 9000, 'F|%d|launching: %s|%d' % (SS, pkg, t0 % 97))
    if ML:
        mark('system_server', 1010, SS, 0, t + 9100, 'B|%d|MetricsLogger:launchObserverNotifyActivityLaunchFinished' % SS)
        mark('system_server', 1010, SS, 0, t + 9200, 'E|%d' % SS)
    if rfd:
        mark(comm, pid, pid, cpu, t + 20000, 'B|%d|reportFullyDrawn' % pid)
        mark(comm, pid, pid, cpu, t + 20500, 'E|%d' % pid)
    sw(cpu, t + 30000, comm, pid, 'S', 'swapper/%d' % cpu, 0)


launch('com.example.coldstart.app', 2000, 1, 100000000, 'cold', rfd=True)
launch('com.example.warm', 3000, 2, 100300000, 'warm')
launch('com.example.coldstart.app', 2000, 1, 100600000, 'hot')
with open(sys.argv[1], 'w') as f:
    f.write('PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN ADDR S NAME COMMAND\n'
            'system 1000 1 1 1 0 0 S system_server system_server\n'
            'u0_a50 2000 1 1 1 0 0 S com.example.coldstart.app com.example.coldstart.app\n'
            'u0_a51 3000 1 1 1 0 0 S com.example.warm com.example.warm\n')
with open(sys.argv[2], 'w') as f:
    f.write('# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n')
    for _, _, ln in sorted(L):
        f.write(ln + '\n')
