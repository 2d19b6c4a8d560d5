# Android's frame timeline (FrameTimelineEvent, written by SurfaceFlinger)
# from --from-file of a Perfetto trace: expected and actual frames of an
# app and SurfaceFlinger's display frames as async slices on tracks named
# "Expected Timeline" / "Actual Timeline", in the page and --trace-events.
# The trace is a text proto (tests/data/perfetto/frametimeline.textproto)
# encoded by protoc with Perfetto's definitions (FrameTimelineEvent is an
# extension of TracePacket that perfetto_trace.proto leaves out:
# tests/data/perfetto/frametimeline.proto adds it).  Judges: Perfetto's
# trace processor reads from the JSON, for every frame, the track, the
# process, the token (Perfetto's slice name; an arg in the JSON, whose
# importer names an async track after its slices), start, duration, layer,
# jank type, present type, on time finish, GPU composition and prediction
# type that its expected_ / actual_frame_timeline_slice tables hold
# loading the trace; the classic viewer imports the page with no warning
# and shows as many async slices; a frame_end of a cookie never started is
# counted in the note.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
PROTOS=$TOP/../shared/reference/perfetto-protos
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's protos absent ($PROTOS)"
DATA=$TOP/tests/data/perfetto

protoc --encode=perfetto.protos.Trace -I "$PROTOS" -I "$DATA" "$DATA/frametimeline.proto" \
    <"$DATA/frametimeline.textproto" >ft.perfetto-trace || fail "protoc cannot encode the trace"

run_st 0 --from-file ft.perfetto-trace -o ft.html --trace-events ft.json
assert_contains err.txt "ft.perfetto-trace: 1 slice ends without a begin (left out)"
assert_not_contains err.txt "frame timeline events not shown"

cat >trace.sql <<'SQL'
select 'Expected Timeline', p.pid, s.name, s.ts, s.dur, coalesce(s.layer_name, ''),
  '', '', '', '', '' from expected_frame_timeline_slice s join process p using (upid)
union all
select 'Actual Timeline', p.pid, s.name, s.ts, s.dur, coalesce(s.layer_name, ''),
  s.jank_type, s.present_type, s.on_time_finish, s.gpu_composition, s.prediction_type
  from actual_frame_timeline_slice s join process p using (upid)
order by 1, 2, 4;
SQL
cat >json.sql <<'SQL'
select s.name, p.pid,
  coalesce(extract_arg(s.arg_set_id, 'args.Surface frame token'),
           extract_arg(s.arg_set_id, 'args.Display frame token')),
  s.ts, s.dur, coalesce(extract_arg(s.arg_set_id, 'args.Layer name'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.Jank type'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.Present type'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.On time finish'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.GPU composition'), ''),
  coalesce(extract_arg(s.arg_set_id, 'args.Prediction type'), '')
  from slice s join process_track t on s.track_id = t.id join process p using (upid)
  where t.name = s.name
order by 1, 2, 4;
SQL
"$TRACE_PROCESSOR" -q trace.sql ft.perfetto-trace >trace.csv 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read the trace"; }
"$TRACE_PROCESSOR" -q json.sql ft.json >json.csv 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read ft.json"; }
python3 - trace.csv json.csv <<'PY' || fail "Perfetto reads other frames from ft.json than from the trace"
import csv, sys
def rows(path):
    r = [row for row in csv.reader(open(path)) if row][1:]
    return [[c.replace('[NULL]', '') for c in row] for row in r]
t, j = rows(sys.argv[1]), rows(sys.argv[2])
assert len(t) == 8, t       # 3 expected, 5 actual (one never ended: 4 + 1)
assert t == j, ('trace', t, 'json', j)
kinds = sorted({(r[0], r[1]) for r in t})
assert kinds == [('Actual Timeline', '20'), ('Actual Timeline', '30'),
                 ('Expected Timeline', '20'), ('Expected Timeline', '30')], kinds
print('%d frames equal' % len(t))
PY

# the classic viewer: the page, no warning, every frame an async slice
node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 ft.html ft.json >classic.jsonl ||
    { cat classic.jsonl; fail "classic viewer: ft.html ft.json"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer shows other frames"
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    assert c['ok'] and not c['importWarnings'], c
    assert c['asyncSlices'] == 8, (c['file'], c['asyncSlices'])
    assert 'com.example.app' in c['processNames'], c
PY
echo "ok"
