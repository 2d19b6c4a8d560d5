# GPU render stages (GpuRenderStageEvent) from --from-file of a Perfetto
# trace: slices named by stage on a track per hardware queue, in the page
# and --trace-events.  The trace (tests/data/perfetto/gpustages.textproto,
# encoded by protoc with Perfetto's definitions) names queues and stages
# both ways a GPU producer does: interned specifications and the
# deprecated per-event lists.  Judges: Perfetto's trace processor reads
# from the JSON the same slices (queue, stage, start, duration) as from the
# trace, where they sit on its gpu tracks; the classic viewer imports the
# page with no warning and shows them on threads named by the queues.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

encode_trace gpustages gpu.perfetto-trace
run_st 0 --from-file gpu.perfetto-trace -o gpu.html --trace-events gpu.json
assert_not_contains err.txt "GPU render stages not shown"

echo "select t.name, s.name, s.ts, s.dur from slice s join gpu_track t on s.track_id = t.id
      order by 1, 3;" >trace.sql
echo "select th.name, s.name, s.ts, s.dur from slice s join thread_track t on s.track_id = t.id
      join thread th using (utid) order by 1, 3;" >json.sql
"$TRACE_PROCESSOR" -q trace.sql gpu.perfetto-trace >trace.csv 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read the trace"; }
"$TRACE_PROCESSOR" -q json.sql gpu.json >json.csv 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read gpu.json"; }
python3 - trace.csv json.csv <<'PY' || fail "Perfetto reads other GPU slices from gpu.json than from the trace"
import csv, sys
rows = lambda p: [r for r in csv.reader(open(p)) if r][1:]
t, j = rows(sys.argv[1]), rows(sys.argv[2])
assert len(t) == 3, t
assert t == j, ('trace', t, 'json', j)
print(t)
PY

node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 gpu.html gpu.json >classic.jsonl ||
    { cat classic.jsonl; fail "classic viewer: gpu.html gpu.json"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer shows other GPU slices"
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    assert c['ok'] and not c['importWarnings'], c
    assert c['slices'] == 3, (c['file'], c['slices'])
    assert sorted(c['threadNames']) == ['queue 0', 'queue B'], c
    assert c['processNames'] == ['GPU 0'], c
PY
echo "ok"
