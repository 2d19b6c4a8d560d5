# The summary's frame timeline (issue 33 part 2): from a Perfetto trace's
# FrameTimelineEvents, per process, what Perfetto's own
# android_frame_timeline_metric says of the same trace: total, missed (app,
# SurfaceFlinger), dropped frames and counts per jank type exact (tokens
# shared by two layers counted once), frame durations' max, mean and
# percentiles equal (first SUM_FTL_EXACT durations of a process) or within
# the histogram's 1/128 (a process with more frames); present types equal
# to trace_processor's count of distinct tokens.  A trace with no ftrace
# data no longer says "Trace: no events", names its frame source, and
# says what it did not convert ("N heap profiles not shown").
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
PROTOS=$TOP/../shared/reference/perfetto-protos
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's protos absent ($PROTOS)"
DATA=$TOP/tests/data/perfetto

python3 - >ftl.textproto <<'PY'
import random
r = random.Random(33)
bits = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]
presents = ['PRESENT_UNSPECIFIED', 'PRESENT_ON_TIME', 'PRESENT_LATE', 'PRESENT_EARLY',
            'PRESENT_DROPPED', 'PRESENT_UNKNOWN']
print('packet { trusted_packet_sequence_id: 1 timestamp: 1000 process_tree { '
      'processes { pid: 20 ppid: 1 cmdline: "/system/bin/surfaceflinger" } '
      'processes { pid: 30 ppid: 1 cmdline: "com.example.big" } '
      'processes { pid: 40 ppid: 1 cmdline: "com.example.small" } } }')
for i in range(3):
    print('packet { trusted_packet_sequence_id: 3 timestamp: %d profile_packet { index: %d } }' % (2000 + i, i))
FT = '[perfetto.protos.frame_timeline_event]'
cookie = 1
def frame(pid, token, ts, dur, jank, present, layers, display):
    global cookie
    kind = 'actual_display_frame_start' if display else 'actual_surface_frame_start'
    for l in range(layers):
        layer = '' if display else ' layer_name: "L%d" display_frame_token: %d' % (l, token + 1)
        print('packet { trusted_packet_sequence_id: 2 timestamp: %d %s { %s { cookie: %d '
              'token: %d pid: %d%s present_type: %s jank_type: %d } } }'
              % (ts, FT, kind, cookie, token, pid, layer, present, jank))
        print('packet { trusted_packet_sequence_id: 2 timestamp: %d %s { frame_end { cookie: %d } } }'
              % (ts + dur + l * 1000, FT, cookie))
        cookie += 1
ts = 10**9
for pid, n, disp in ((30, 5000, 0), (40, 200, 0), (20, 300, 1)):
    for i in range(n):
        j = r.choice(bits) | (r.choice(bits) if r.random() < 0.3 else 0)
        if j & ~1 and j & 1:
            j &= ~1
        frame(pid, pid * 100000 + i, ts, r.randint(2 * 10**6, 40 * 10**6), j,
              r.choice(presents), 2 if r.random() < 0.2 else 1, disp)
        ts += 16 * 10**6
PY
protoc --encode=perfetto.protos.Trace -I "$PROTOS" -I "$DATA" "$DATA/frametimeline.proto" \
    <ftl.textproto >ftl.perfetto-trace || fail "protoc cannot encode the trace"

run_st 0 --from-file ftl.perfetto-trace -o ftl.html --summary=sum.json
assert_not_contains out.txt "Trace: no events"
assert_contains out.txt "Frame timeline: com.example.big 5,000 frames"
assert_contains out.txt "3 heap profiles not shown"

"$TRACE_PROCESSOR" --run-metrics android_frame_timeline_metric --metrics-output=json \
    ftl.perfetto-trace >metric.json 2>tp.err || { cat tp.err; fail "Perfetto cannot read the trace"; }
cat >present.sql <<'SQL'
select p.pid, s.present_type, count(distinct s.name) from actual_frame_timeline_slice s
  join process p using (upid) group by 1, 2;
SQL
"$TRACE_PROCESSOR" -q present.sql ftl.perfetto-trace >present.csv 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read the trace"; }
python3 - sum.json metric.json present.csv <<'PY' || fail "the summary's frame timeline differs from Perfetto's metric"
import csv, json, sys
s = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))['android_frame_timeline_metric']
assert s['frames_source'] == 'frame_timeline', s['frames_source']
assert s['events'] > 0 and s['not_shown'] == {'heap profiles': 3}, (s['events'], s['not_shown'])
ours = {f['pid']: f for f in s['frame_timeline']}
assert sorted(ours) == [20, 30, 40], sorted(ours)
for p in m['process']:
    pid = p['process']['pid']
    o = ours[pid]
    for k in ('total_frames', 'missed_frames', 'missed_app_frames', 'missed_sf_frames',
              'dropped_frames'):
        assert o[k] == p[k], (pid, k, o[k], p[k])
    jt = {j['type']: j['total_count'] for j in p.get('jank_types', [])}
    assert o['jank_types'] == jt, (pid, o['jank_types'], jt)
    tol = 1e-6 if o['total_frames'] <= 4096 else None
    d = o['dur_ms']
    assert abs(d['max'] - p['frame_dur_max'] / 1e6) < 1e-6, (pid, d, p)
    assert abs(d['mean'] - p['frame_dur_avg'] / 1e6) < 1e-5, (pid, d, p)
    for q in ('p50', 'p90', 'p95', 'p99'):
        want = p['frame_dur_ms_' + q]
        err = tol if tol else want / 128
        assert abs(d[q] - want) <= err, (pid, q, d[q], want)
names = {'On Time': 'On-time Present'}
for row in list(csv.reader(open(sys.argv[3])))[1:]:
    pid, pt, n = int(row[0]), row[1], int(row[2])
    if pt in ('', '[NULL]'):
        continue
    assert ours[pid]['present_types'].get(pt) == n, (pid, pt, n, ours[pid]['present_types'])
print('frame timeline equal to Perfetto for', sorted(ours))
PY
echo "ok"
