# The simulator's frame timeline (issue 33): `--perfetto --preset frames`
# (and `--launch` with --perfetto, whose startup preset asks for it too)
# against the simulator through the real adb server records SurfaceFlinger's
# FrameTimelineEvents; the summary's frame_timeline[] of the live capture
# equals Perfetto's android_frame_timeline_metric on the kept
# .perfetto-trace (frames, missed app / SurfaceFlinger / dropped, counts
# per jank type exact, several types present; durations within Perfetto's
# rounding; present types equal to trace_processor's count of distinct
# tokens, five of them), the --trace-events JSON holds every frame Perfetto's tables
# hold (expected and actual, token, time, layer, jank and present type),
# and the page as many frame-timeline async slices.  A capture without the
# data source has no frame timeline: none in the trace, the summary counts
# doFrame/DrawFrame frames, no timeline slices in the JSON.  With --launch
# (cold) the launcher's frames begin after the launch's first frame.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
need_perfetto
start_adb_server
start_sim

# same_as_metric SUMMARY TRACE: frame_timeline[] == the metric on TRACE
same_as_metric() {
    "$TRACE_PROCESSOR" --run-metrics android_frame_timeline_metric --metrics-output=json \
        "$2" >metric.json 2>tp.err || { cat tp.err; fail "Perfetto cannot read $2"; }
    cat >present.sql <<'SQL'
select p.pid, s.present_type, count(distinct s.name) from actual_frame_timeline_slice s
  join process p using (upid) group by 1, 2;
SQL
    "$TRACE_PROCESSOR" -q present.sql "$2" >present.csv 2>tp.err ||
        { cat tp.err; fail "Perfetto cannot read $2"; }
    python3 - "$1" metric.json present.csv <<'PY' || fail "$1: the frame timeline differs from Perfetto's metric"
import csv, json, sys
s = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))['android_frame_timeline_metric']
assert s['frames_source'] == 'frame_timeline', s['frames_source']
ours = {f['pid']: f for f in s['frame_timeline']}
theirs = {p['process']['pid']: p for p in m['process']}
assert sorted(ours) == sorted(theirs) and 500 in ours, (sorted(ours), sorted(theirs))
for pid, p in theirs.items():
    o = ours[pid]
    for k in ('total_frames', 'missed_frames', 'missed_app_frames', 'missed_sf_frames',
              'dropped_frames'):
        assert o[k] == p[k], (pid, k, o[k], p[k])
    jt = {j['type']: j['total_count'] for j in p.get('jank_types', [])}
    assert o['jank_types'] == jt, (pid, o['jank_types'], jt)
    d = o['dur_ms']
    assert abs(d['max'] - p['frame_dur_max'] / 1e6) < 1e-6, (pid, d, p)
    assert abs(d['mean'] - p['frame_dur_avg'] / 1e6) < 1e-5, (pid, d, p)
    for q in ('p50', 'p90', 'p95', 'p99'):
        assert abs(d[q] - p['frame_dur_ms_' + q]) < 1e-6, (pid, q, d[q], p)
presents = set()
for row in list(csv.reader(open(sys.argv[3])))[1:]:
    pid, pt, n = int(row[0]), row[1], int(row[2])
    presents.add(pt)
    assert ours[pid]['present_types'].get(pt) == n, (pid, pt, n, ours[pid]['present_types'])
assert len(presents) >= 5, ('too few present types', presents)
janks = {k for o in ours.values() for k in o['jank_types']} - {'None'}
assert len(janks) >= 6, ('too few jank types', janks)
missed = sum(o['missed_app_frames'] for o in ours.values())
assert missed > 0 and sum(o['missed_sf_frames'] for o in ours.values()) > 0, ours
print('%s: frame timeline equal to Perfetto for %s; jank types %s' %
      (sys.argv[1], sorted(ours), sorted(janks)))
PY
}

# json_has_frames TRACE JSON PAGE: every frame of TRACE in JSON, as many in PAGE
json_has_frames() {
    cat >trace.sql <<'SQL'
select 'Expected Timeline', p.pid, s.name, s.ts, s.dur, coalesce(s.layer_name, ''),
  '', '' from expected_frame_timeline_slice s join process p using (upid)
union all
select 'Actual Timeline', p.pid, s.name, s.ts, s.dur, coalesce(s.layer_name, ''),
  s.jank_type, s.present_type from actual_frame_timeline_slice s join process p using (upid)
order by 1, 2, 4, 3;
SQL
    cat >json.sql <<'SQL'
select s.name, p.pid,
  coalesce(extract_arg(s.arg_set_id, 'args.Surface frame token'),
           extract_arg(s.arg_set_id, 'args.Display frame token')),
  s.ts, s.dur, coalesce(extract_arg(s.arg_set_id, 'args.Layer name'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.Jank type'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.Present type'), '')
  from slice s join process_track t on s.track_id = t.id join process p using (upid)
  where t.name = s.name
order by 1, 2, 4, 3;
SQL
    "$TRACE_PROCESSOR" -q trace.sql "$1" >trace.csv 2>tp.err ||
        { cat tp.err; fail "Perfetto cannot read $1"; }
    "$TRACE_PROCESSOR" -q json.sql "$2" >json.csv 2>tp.err ||
        { cat tp.err; fail "Perfetto cannot read $2"; }
    page=$(grep -o '"name":"[A-Za-z]* Timeline"' "$3" | wc -l)
    python3 - trace.csv json.csv "$page" <<'PY' || fail "$2: not the frames of $1"
import csv, sys
def rows(path):
    r = [row for row in csv.reader(open(path)) if row][1:]
    return [[c.replace('[NULL]', '') for c in row] for row in r]
t, j = rows(sys.argv[1]), rows(sys.argv[2])
assert len(t) > 100, len(t)
assert t == j, ('trace', t[:3], 'json', j[:3], len(t), len(j))
assert int(sys.argv[3]) == 2 * len(t), ('page: begin/end events', sys.argv[3], len(t))
print('%d frame timeline slices in the JSON and the page' % len(t))
PY
}

# -- --preset frames: the data source asked for, the frames recorded
run_st 0 --perfetto --preset frames -t 2 -e "$SIM_SERIAL" -o f.html --summary f.json \
    --trace-events f.tev.json
[ -s f.perfetto-trace ] || fail "no f.perfetto-trace kept"
assert_contains out.txt "Frame timeline: com.android.systemui"
same_as_metric f.json f.perfetto-trace
json_has_frames f.perfetto-trace f.tev.json f.html

# -- without the data source: no frame timeline anywhere
run_st 0 --perfetto -t 1 -e "$SIM_SERIAL" -o n.html --summary n.json --trace-events n.tev.json \
    sched gfx view
n=$(tp_rows n.perfetto-trace "select (select count(*) from actual_frame_timeline_slice) + (select count(*) from expected_frame_timeline_slice)")
assert_eq "frame timeline slices without the data source" 0 "$n"
assert_not_contains out.txt "Frame timeline:"
assert_not_contains n.tev.json "Actual Timeline"
assert_not_contains n.html "Actual Timeline"
python3 -c "import json,sys; s=json.load(open('n.json')); assert s['frames_source'] != 'frame_timeline' and not s.get('frame_timeline'), (s['frames_source'], s.get('frame_timeline'))" ||
    fail "the summary of a capture without the data source has a frame timeline"

# -- --launch with --perfetto (the startup preset): the launcher draws
# from its first frame on
run_st 0 --perfetto --launch=com.android.launcher3 -e "$SIM_SERIAL" -o l.html --summary l.json
same_as_metric l.json l.perfetto-trace
first=$(tp_rows l.perfetto-trace "select min(s.ts) from actual_frame_timeline_slice s join process p using (upid) where p.pid = 2000")
python3 - l.json "$first" <<'PY' || fail "--launch: the launcher drew before its first frame"
import json, sys
s = json.load(open(sys.argv[1]))
st = s['startups']
assert len(st) == 1 and st[0]['type'] == 'cold', st
drawn = st[0]['ts'] / 1e9 + st[0]['to_first_frame_ms'] / 1e3
first = int(sys.argv[2]) / 1e9
assert first >= drawn - 0.017, ('first launcher frame', first, 'first frame drawn', drawn)
print('launcher frames from %.3f s, first frame drawn at %.3f s' % (first, drawn))
PY
echo ok
