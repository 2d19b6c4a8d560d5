#!/usr/bin/env python3
"""pfcutgen.py: a text proto (perfetto.protos.Trace) for the Perfetto
cutter's tests (tests/perfetto/pfcut.sh), to be encoded with protoc: 2 s
of a phone from T0 = 10 s (boot clock; the first event, a CPU frequency,
at exactly T0), with
  - compact sched on CPUs 0 and 1 (switches every 7 ms, wakings, 40 rows
    a bundle, so bundles cross any boundary), full events on CPU 2
    (sched_switch, atrace B/E prints: a long slice over almost all of it
    and short nested ones, cpu_frequency every 50 ms);
  - track events on an incremental clock (microseconds, sequence 10) on
    RenderThread (atrace slices are on main: one track would mix them):
    a long slice "outer" 0.2..1.8 s, "inner" slices every 50 ms, interned
    names cleared and sent again at 1 s, a counter track every 100 ms;
  - logcat lines every 100 ms on the realtime clock (2 packets);
  - process stats every 200 ms; process tree and descriptors naming all.
No event lies on a multiple of 10 ms from T0, so a boundary there never
meets one.  With --mono the trace's clock is MONOTONIC, 5 ms behind the
boot clock (the first snapshot's primary_trace_clock), so ftrace events
(boot time) and packets on no clock (process stats, and a track event
slice "plain" 0.3..1.7 s on surfaceflinger's thread, on the trace's clock
as they are) are on different clocks.
"""
import sys

MONO = '--mono' in sys.argv[1:]
T0 = 10_000_000_000
MS = 1_000_000
RT0 = 1_700_000_000_000_000_000
out = []
P = out.append

P('packet { trusted_packet_sequence_id: 1 timestamp: %d clock_snapshot { '
  'clocks { clock_id: 6 timestamp: %d } clocks { clock_id: 1 timestamp: %d } %s} }'
  % (T0, T0, RT0, 'clocks { clock_id: 3 timestamp: %d } primary_trace_clock: '
     'BUILTIN_CLOCK_MONOTONIC ' % (T0 - 5 * MS) if MONO else ''))
P('packet { trusted_packet_sequence_id: 1 system_info { utsname { sysname: "Linux" '
  'release: "5.10.107-android13-4" } } }')
P('packet { trusted_packet_sequence_id: 2 timestamp: %d process_tree { '
  'processes { pid: 100 ppid: 1 cmdline: "com.example.app" } '
  'processes { pid: 200 ppid: 1 cmdline: "/system/bin/surfaceflinger" } '
  'threads { tid: 101 tgid: 100 name: "main" } threads { tid: 102 tgid: 100 name: "RenderThread" } '
  'threads { tid: 201 tgid: 200 name: "surfaceflinger" } } }' % T0)

# CPU 2's frequency at exactly T0: the trace's first event
P('packet { trusted_packet_sequence_id: 3 ftrace_events { cpu: 2 event { timestamp: %d pid: 0 '
  'cpu_frequency { state: 1000000 cpu_id: 2 } } } }' % T0)

TASKS = [(101, 'main', 100), (102, 'RenderThread', 100), (201, 'surfaceflinger', 200),
         (0, 'swapper', 0)]


def compact(cpu):
    rows = []
    t = T0 + (cpu + 1) * 3 * MS + 123
    i = cpu
    while t < T0 + 2000 * MS:
        pid, comm, _ = TASKS[i % 4]
        rows.append((t, pid, comm))
        t += 7 * MS
        i += 1
    for b in range(0, len(rows), 40):
        part = rows[b:b + 40]
        names = []
        fields = []
        last = 0
        for (t, pid, comm) in part:
            if comm not in names:
                names.append(comm)
        for (t, pid, comm) in part:
            fields.append('switch_timestamp: %d switch_prev_state: 1 switch_next_pid: %d '
                          'switch_next_prio: 120 switch_next_comm_index: %d'
                          % (t - last, pid, names.index(comm)))
            last = t
        last = 0
        for (t, pid, comm) in part:
            if not pid:
                continue
            w = t - 2 * MS
            fields.append('waking_timestamp: %d waking_pid: %d waking_target_cpu: %d '
                          'waking_prio: 120 waking_comm_index: %d waking_common_flags: 1'
                          % (w - last, pid, cpu, names.index(comm)))
            last = w
        P('packet { trusted_packet_sequence_id: 3 ftrace_events { cpu: %d compact_sched { %s %s } } }'
          % (cpu, ' '.join('intern_table: "%s"' % n for n in names), ' '.join(fields)))


compact(0)
compact(1)

# CPU 2: full events in bundles of 100 ms
ev = []
t = T0 + 5 * MS + 311
prev = (0, 'swapper', 0)
i = 0
while t < T0 + 2000 * MS:
    nxt = TASKS[i % 3]
    ev.append((t, 'pid: %d sched_switch { prev_comm: "%s" prev_pid: %d prev_prio: 120 prev_state: 1 '
               'next_comm: "%s" next_pid: %d next_prio: 120 }' % (prev[0], prev[1], prev[0], nxt[1], nxt[0])))
    prev = nxt
    t += 11 * MS
    i += 1
for k in range(40):
    ev.append((T0 + k * 50 * MS + 20 * MS + 777, 'pid: 0 cpu_frequency { state: %d cpu_id: 2 }' % (1000000 + k * 1000)))


def pr(t, s):
    ev.append((t, 'pid: 101 print { ip: 0 buf: "%s\\n" }' % s))


pr(T0 + 100 * MS + 303, 'B|100|atrace_long')
pr(T0 + 1900 * MS + 303, 'E|100')
for k in range(1, 19):
    b = T0 + k * 100 * MS + 45 * MS + 909
    pr(b, 'B|100|atrace_short_%d' % k)
    pr(b + 3 * MS, 'B|100|atrace_nested')
    pr(b + 60 * MS, 'E|100')
    pr(b + 70 * MS, 'E|100')
ev.sort()
for b in range(0, 20):
    part = [e for e in ev if T0 + b * 100 * MS <= e[0] < T0 + (b + 1) * 100 * MS]
    if part:
        P('packet { trusted_packet_sequence_id: 3 ftrace_events { cpu: 2 %s } }'
          % ' '.join('event { timestamp: %d %s }' % e for e in part))

# track events: descriptors, then sequence 10 on an incremental clock (us)
P('packet { trusted_packet_sequence_id: 9 timestamp: %d track_descriptor { uuid: 1000 process { pid: 100 process_name: "com.example.app" } } }' % T0)
P('packet { trusted_packet_sequence_id: 9 timestamp: %d track_descriptor { uuid: 1001 parent_uuid: 1000 thread { pid: 100 tid: 102 thread_name: "RenderThread" } } }' % T0)
P('packet { trusted_packet_sequence_id: 9 timestamp: %d track_descriptor { uuid: 1002 parent_uuid: 1000 name: "queue" counter { } } }' % T0)


def state(t_us):
    P('packet { trusted_packet_sequence_id: 10 timestamp: %d timestamp_clock_id: 6 sequence_flags: 1 '
      'clock_snapshot { clocks { clock_id: 6 timestamp: %d } clocks { clock_id: 64 timestamp: %d '
      'is_incremental: true unit_multiplier_ns: 1000 } } '
      'trace_packet_defaults { timestamp_clock_id: 64 track_event_defaults { track_uuid: 1001 } } '
      'interned_data { event_names { iid: 1 name: "outer" } event_names { iid: 2 name: "inner" } '
      'event_categories { iid: 1 name: "app" } } }' % (t_us * 1000, t_us * 1000, t_us))


tev = [(T0 // 1000 + 200_303, 'type: TYPE_SLICE_BEGIN name_iid: 1 category_iids: 1'),
       (T0 // 1000 + 1_800_303, 'type: TYPE_SLICE_END')]
for k in range(1, 36):
    b = T0 // 1000 + k * 50_000 + 1_101
    tev.append((b, 'type: TYPE_SLICE_BEGIN name_iid: 2 category_iids: 1'))
    tev.append((b + 20_000, 'type: TYPE_SLICE_END'))
for k in range(20):
    tev.append((T0 // 1000 + k * 100_000 + 3_003,
                'type: TYPE_COUNTER track_uuid: 1002 counter_value: %d' % (k * 3 + 1)))
tev.sort()
state(T0 // 1000 + 100)
last = T0 // 1000 + 100
cleared = False
for (t, body) in tev:
    if not cleared and t > T0 // 1000 + 1_000_000:
        state(T0 // 1000 + 1_000_017)
        last = T0 // 1000 + 1_000_017
        cleared = True
    P('packet { trusted_packet_sequence_id: 10 timestamp: %d sequence_flags: 2 track_event { %s } }'
      % (t - last, body))
    last = t

# --mono: track events on no clock (the trace's), a slice across boundaries
if MONO:
    P('packet { trusted_packet_sequence_id: 9 timestamp: %d track_descriptor { uuid: 1003 '
      'parent_uuid: 1000 thread { pid: 200 tid: 201 thread_name: "surfaceflinger" } } }' % T0)
    for t, body in ((300, 'TYPE_SLICE_BEGIN track_uuid: 1003 name: "plain"'),
                    (1700, 'TYPE_SLICE_END track_uuid: 1003')):
        P('packet { trusted_packet_sequence_id: 11 timestamp: %d track_event { type: %s } }'
          % (T0 + t * MS + 1_001, body))

# logcat: realtime clock, two packets of ten lines
for half in range(2):
    lines = ' '.join(
        'events { log_id: LID_DEFAULT pid: 100 tid: 101 timestamp: %d tag: "app" prio: PRIO_INFO '
        'message: "line %d" }' % (RT0 + k * 100 * MS + 50 * MS + 5_005, k)
        for k in range(half * 10, half * 10 + 10))
    P('packet { trusted_packet_sequence_id: 20 timestamp: %d android_log { %s } }'
      % (T0 + (half + 1) * 1000 * MS, lines))

for k in range(10):
    P('packet { trusted_packet_sequence_id: 21 timestamp: %d process_stats { processes { pid: 100 '
      'vm_rss_kb: %d oom_score_adj: 0 } } }' % (T0 + k * 200 * MS + 7_007, 1000 + k))

print('\n'.join(out))
