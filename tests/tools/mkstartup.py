#!/usr/bin/env python3
"""App startups as atrace text for the summary's startup test
(tests/perfetto/startups.sh): usage mkstartup.py PS_OUT TRACE_OUT [VARIANT];
TRACE_OUT ending in .textproto: the same as a Perfetto trace in text form
(atrace markers as ftrace print events, a process tree; protoc encodes it).
Android 10 shape: system_server's `launching: PKG` async slice around each
launch; the app's main thread with bindApplication (cold), activityStart
(cold, warm), activityResume, sleeping (S), blocked (D) and preempted (R);
cold, warm and hot starts, one with reportFullyDrawn.  With
`metricslogger`, each launch is preceded by
MetricsLogger:launchObserverNotifyIntentStarted (Android 10+'s start) and
followed by launchObserverNotifyActivityLaunchFinished but the last, a
launch that never finished (Perfetto counts no startup for it).  With
`android12`, Android 12+'s launch events: an async `launchingActivity#N`
slice around each launch (`launching: PKG` inside it) and the instant
`launchingActivity#N:completed-TYPE:PKG` (one unqualified `completed`,
one `canceled` launch that is no startup).  With `android14`, Android
14's results (ActivityMetricsLogger.LaunchingState.stopTrace): every
completed one with its type, and besides a canceled launch two more that
are no startup, `completed-same-process:PKG` (an activity of a process
already in front) and `failed` (no package: nothing was launched)."""
import sys

L = []
V = sys.argv[3] if len(sys.argv) > 3 else 'launching'
ML = V == 'metricslogger'
A14 = V == 'android14'
A12 = V == 'android12' or A14
STATE = {'R': 0, 'R+': 0x100, 'S': 1, 'D': 2}


def line(task, pid, tgid, cpu, us, ev, args, proto=None):
    L.append((us, len(L), '%16s-%-5d (%5d) [%03d] ...1 %d.%06d: %s: %s' % (
        task, pid, tgid, cpu, us // 10**6, us % 10**6, ev, args), cpu, pid, proto))


def mark(task, pid, tgid, cpu, us, a):
    line(task, pid, tgid, cpu, us, 'tracing_mark_write', a,
         'print { ip: 0 buf: "%s\\n" }' % a)


def sw(cpu, us, pc, pp, ps, nc, np_):
    line(pc, pp, pp, cpu, us, 'sched_switch',
         'prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s '
         'next_pid=%d next_prio=120' % (pc, pp, ps, nc, np_),
         'sched_switch { prev_comm: "%s" prev_pid: %d prev_prio: 120 prev_state: %d '
         'next_comm: "%s" next_pid: %d next_prio: 120 }' % (pc, pp, STATE[ps], nc, np_))


SS = 1000


def launch(pkg, pid, cpu, t0, kind, rfd=False, finish=True, result=None, seq=[0]):
    comm = pkg[-15:]
    seq[0] += 1
    la = 'launchingActivity#%d' % seq[0]
    if ML:
        mark('system_server', 1010, SS, 0, t0 - 500, 'B|%d|MetricsLogger:launchObserverNotifyIntentStarted' % SS)
        mark('system_server', 1010, SS, 0, t0 - 400, 'E|%d' % SS)
    if A12:
        mark('system_server', 1010, SS, 0, t0 - 700, 'S|%d|%s|0' % (SS, la))
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
    if ML and finish:
        mark('system_server', 1010, SS, 0, t + 9100, 'B|%d|MetricsLogger:launchObserverNotifyActivityLaunchFinished' % SS)
        mark('system_server', 1010, SS, 0, t + 9200, 'E|%d' % SS)
    if A12:
        mark('system_server', 1010, SS, 0, t + 9300, 'F|%d|%s|0' % (SS, la))
        mark('system_server', 1010, SS, 0, t + 9300, 'I|%d|%s:failed' % (SS, la)
             if result == 'failed' else 'I|%d|%s:%s:%s' % (
                 SS, la, result or 'completed-' + kind, pkg))
    if rfd:
        mark(comm, pid, pid, cpu, t + 20000, 'B|%d|reportFullyDrawn' % pid)
        mark(comm, pid, pid, cpu, t + 20500, 'E|%d' % pid)
    sw(cpu, t + 30000, comm, pid, 'S', 'swapper/%d' % cpu, 0)


launch('com.example.coldstart.app', 2000, 1, 100000000, 'cold', rfd=True)
# overlap: the warm app launched while the cold one still starts (their
# threads' slices interleave in time)
OVERLAP = len(sys.argv) > 4 and sys.argv[4] == 'overlap'
launch('com.example.warm', 3000, 2, 100030000 if OVERLAP else 100300000, 'warm')
launch('com.example.coldstart.app', 2000, 1, 100600000, 'hot',
       result=None if A14 else 'completed')
launch('com.example.warm', 3000, 2, 100900000, 'warm', finish=False, result='canceled')
if A14:
    launch('com.example.warm', 3000, 2, 101200000, 'hot', result='completed-same-process')
    launch('com.example.coldstart.app', 2000, 1, 101500000, 'warm', result='failed')
with open(sys.argv[1], 'w') as f:
    f.write('PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN ADDR S NAME COMMAND\n'
            'system 1000 1 1 1 0 0 S system_server system_server\n'
            'u0_a50 2000 1 1 1 0 0 S com.example.coldstart.app com.example.coldstart.app\n'
            'u0_a51 3000 1 1 1 0 0 S com.example.warm com.example.warm\n')
PROCS = [(1000, 'system_server', [1010]), (2000, 'com.example.coldstart.app', [2007]),
         (3000, 'com.example.warm', [3007])]


def textproto(f):
    """The events as a Perfetto trace: a process tree first, then one
    ftrace bundle per CPU (Perfetto sorts them by time)."""
    f.write('packet { timestamp: 99000000000 trusted_packet_sequence_id: 1 system_info { '
            'utsname { sysname: "Linux" release: "5.10.107-android13-4" } } }\n')
    f.write('packet {\n  timestamp: 99500000000\n  trusted_packet_sequence_id: 2\n  process_tree {\n')
    for pid, name, tids in PROCS:
        f.write('    processes { pid: %d ppid: 1 cmdline: "%s" }\n' % (pid, name))
        for tid in tids:
            f.write('    threads { tid: %d tgid: %d }\n' % (tid, pid))
    f.write('  }\n}\n')
    for cpu in sorted({e[3] for e in L}):
        f.write('packet {\n  trusted_packet_sequence_id: 3\n  ftrace_events {\n    cpu: %d\n' % cpu)
        for us, _, _, c, pid, proto in sorted(L):
            if c == cpu:
                f.write('    event { timestamp: %d pid: %d %s }\n' % (us * 1000, pid, proto))
        f.write('  }\n}\n')


with open(sys.argv[2], 'w') as f:
    if sys.argv[2].endswith('.textproto'):
        textproto(f)
        sys.exit(0)
    f.write('# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n')
    for e in sorted(L):
        f.write(e[2] + '\n')
