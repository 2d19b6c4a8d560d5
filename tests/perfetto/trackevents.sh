# A Perfetto trace's track events and descriptors (--from-file): a
# traceEvents part in the page beside the ftrace text, and the same events
# in --trace-events.  The trace is written as a text proto
# (tests/data/perfetto/trackevents.textproto) and encoded with Debian's
# protoc and Perfetto's own definitions, independently of systrace's code.
# Judges: Perfetto's trace processor loading the --trace-events JSON finds
# what it finds loading the trace (tests/tools/pftevcheck.py: thread slices
# and instants, async slices, counters with every value, thread and process
# names, flows, slice names); the classic viewer imports the page and the
# JSON with no warning and shows Perfetto's counts of the trace.  Each
# feature is asserted by what it adds: descriptors (names), interned names
# and categories, default tracks, thread slices, process and custom async
# tracks, counters, instants, flows, debug annotations; bad input (a name
# never interned, a track never described, an end without a begin, a
# counter value on a slice track) and packets not converted are counted in
# the note, the rest kept.  A trace with ftrace too keeps its ftrace text
# byte for byte; standard input works the same.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
PROTOS=$TOP/../shared/reference/perfetto-protos
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's protos absent ($PROTOS)"
DATA=$TOP/tests/data/perfetto

encode() {  # TEXTPROTO OUT
    protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
        <"$1" >"$2" || fail "protoc cannot encode $1"
}
encode "$DATA/trackevents.textproto" te.perfetto-trace
encode "$DATA/sched.textproto" sched.perfetto-trace

# a trace of track events only is converted, not refused
run_st 0 --from-file te.perfetto-trace -o te.html --trace-events te.json
python3 "$TOP/tests/tools/pftevcheck.py" te.perfetto-trace te.json >check.json ||
    fail "Perfetto reads another trace from te.json than from the trace"
# what each piece adds, as Perfetto reads it from the trace and the JSON
python3 - check.json <<'PY' || fail "te.json lacks events of the trace"
import json, sys
c = json.load(open(sys.argv[1]))
want = {
    'threadSlices': 4,      # doFrame > draw (default track, interned), render, on sequence 3
    'threadInstants': 2,    # vsync (inline name), one named by an iid never interned
    'asyncSlices': 3,       # GET /a > GET /b on a custom track; one on a track never described
    'counters': [['queue depth', 3000, 3.0], ['queue depth', 4000, 5.0],
                 ['queue depth', 5000, 1.5]],
    'threadNames': [[11, 'main'], [12, 'RenderThread']],
    'processNames': [[10, 'com.example.app']],
    'flows': 1,             # doFrame -> render
}
diff = {k: (v, c[k]) for k, v in want.items() if c[k] != v}
assert not diff, diff
PY
grep -q '"cat":"gfx"' te.json || fail "interned category not written"
grep -q '"args":{"frame_id":42}' te.json || fail "interned debug annotation name not written"
grep -q '"args":{"s":"hello \\"x\\""}' te.json || fail "string annotation not escaped"
# the note: kinds not converted, with their counts; bad input counted
assert_not_contains err.txt "perf samples not shown"     # converted: perfetto/cpusamples
assert_not_contains err.txt "Android log packets not shown"     # converted: perfetto/logcat
assert_contains err.txt "1 track event names, categories or annotation names never defined (kept unnamed)"
assert_contains err.txt "1 tracks used but never described (their events shown on global tracks)"
assert_contains err.txt "1 slice ends without a begin (left out)"
assert_contains err.txt "1 counter values on slice tracks or slices on counter tracks (left out)"
assert_not_contains err.txt "no ftrace text to convert"

# the classic viewer: the page and the JSON, no warning, Perfetto's counts
tp te.perfetto-trace >tp-trace.json
node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 te.html te.json >classic.jsonl ||
    { cat classic.jsonl; fail "classic viewer: te.html te.json"; }
python3 - tp-trace.json classic.jsonl <<'PY' || fail "the classic viewer shows another trace than Perfetto"
import json, sys
p = json.load(open(sys.argv[1]))
for line in open(sys.argv[2]):
    c = json.loads(line)
    assert c['ok'] and not c['importWarnings'], c
    # Perfetto: 6 thread slices (instants as slices of no duration), 2 async
    # on described tracks + 1 instant on the undescribed one
    got = {'slices': c['slices'], 'asyncSlices': c['asyncSlices'] + 1,
           'counters': c['counters'], 'counterSamples': c['counterSamples']}
    want = {k: p[k] for k in got}
    assert got == want, (c['file'], 'classic', got, 'perfetto', want)
    assert c['processNames'] == ['com.example.app'], c
    assert sorted(c['threadNames']) == ['RenderThread', 'main'], c
    print('%s: %s' % (c['file'], got))
PY

# from a pipe: the same events
"$SYSTRACE" --from-file - -o pipe.html --trace-events pipe.json -q <te.perfetto-trace ||
    fail "from a pipe: not converted"
cmp te.json pipe.json || fail "from a pipe: other trace events"

# ftrace and track events in one trace: the ftrace text as without them
cat sched.perfetto-trace te.perfetto-trace >mixed.perfetto-trace
run_st 0 --from-file sched.perfetto-trace -o sched.html -q
run_st 0 --from-file mixed.perfetto-trace -o mixed.html --trace-events mixed.json -q
trace_block sched.html 2 >sched.txt
trace_block mixed.html 2 >mixed.txt
cmp sched.txt mixed.txt || fail "track events changed the ftrace text"
grep -q '"name":"doFrame"' mixed.json || fail "mixed: track events not in --trace-events"
grep -q '"name":"surfaceflinger"\|sched' mixed.json || fail "mixed: ftrace not in --trace-events"
# the classic viewer takes both parts of the page in one clock (the JSON
# part names the ftrace clock domain: else "No clock sync markers")
node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 mixed.html --expect ok=true \
    --expect sliceNames~doFrame --expect asyncSlices=2 >classic-mixed.jsonl ||
    { cat classic-mixed.jsonl; fail "classic viewer: mixed.html"; }
# -j: the track events are the result's "traceEvents" array beside the
# ftrace text (as a string inside it, Perfetto refused the whole file:
# "traceEvents is not an array")
run_st 0 --from-file mixed.perfetto-trace -j -o mixed-j.json -q
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d["traceEvents"], list), type(d["traceEvents"])
assert any(e.get("name") == "doFrame" for e in d["traceEvents"])
assert "sched_switch" in d["systemTraceEvents"]' mixed-j.json || fail "-j: traceEvents not an array of the track events"
want=$(tp_rows mixed.json "select count(*) from slice where name = 'doFrame'")
got=$(tp_rows mixed-j.json "select count(*) from slice where name = 'doFrame'")
[ "$want" -gt 0 ] && [ "$got" = "$want" ] || fail "-j: Perfetto finds $got doFrame slices, --trace-events $want"
node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 mixed-j.json --expect ok=true \
    --expect sliceNames~doFrame >classic-mixed-j.jsonl ||
    { cat classic-mixed-j.jsonl; fail "classic viewer: mixed-j.json"; }
# slices that do not nest in time on one thread (pfgen -m's rounds
# overlap): a thread's end names no slice, so it ends the one on top as
# Perfetto's SLICE_END does; named, Perfetto counted 42 misplaced ends
"$BUILD/tools/pfgen" -m 2M gen.pftrace 3 >/dev/null 2>&1 || fail "pfgen -m"
run_st 0 --from-file gen.pftrace -o gen.html --trace-events gen.json -q
tp gen.json >gen-tp.json
python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["errors"]; assert not e, e' \
    gen-tp.json || fail "Perfetto reports errors reading gen.json"
echo "ok"
