# CPU samples (PerfSample of linux.perf, StreamingProfilePacket of
# callstack sampling) from --from-file of a Perfetto trace, with their
# interned frames, callstacks and mappings: the page's traceEvents part
# and --trace-events carry them as the classic viewer reads them, a
# top-level "stackFrames" object and "samples" array.  The trace
# (tests/data/perfetto/cpusamples.textproto, encoded by protoc with
# Perfetto's definitions) holds 3 perf samples, one records-lost packet
# (no sample) and one streaming profile of 3 samples.  Judges: Perfetto's
# trace processor counts the trace's samples and their stacks' frames
# (perf_sample, cpu_profile_stack_sample, stack_profile_callsite); the
# classic viewer shows as many samples, with as many frames, from both
# outputs, with no warning.  Perfetto's JSON importer reads neither key
# (docs/perfetto.md): it is only asked to load the JSON.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

encode_trace cpusamples cs.perfetto-trace
run_st 0 --from-file cs.perfetto-trace -o cs.html --trace-events cs.json
assert_not_contains err.txt "perf samples not shown"
assert_not_contains err.txt "streaming profiles not shown"

# samples, the frames of their stacks (a callsite's depth + 1), the deepest
echo "with s as (select callsite_id from perf_sample union all
                select callsite_id from cpu_profile_stack_sample)
      select count(*), sum(c.depth + 1), max(c.depth + 1)
      from s join stack_profile_callsite c on c.id = s.callsite_id;" >trace.sql
"$TRACE_PROCESSOR" -q trace.sql cs.perfetto-trace >trace.csv 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read the trace"; }
"$TRACE_PROCESSOR" -q trace.sql cs.json >/dev/null 2>tp.err ||
    { cat tp.err; fail "Perfetto cannot read cs.json"; }

node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 cs.html cs.json >classic.jsonl ||
    { cat classic.jsonl; fail "classic viewer: cs.html cs.json"; }
python3 - trace.csv classic.jsonl <<'PY' || fail "the classic viewer shows other samples than the trace holds"
import csv, json, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r][1:]
want = [int(x) for x in rows[0]]
assert want == [6, 13, 3], ('Perfetto reads from the trace', want)
for line in open(sys.argv[2]):
    c = json.loads(line)
    assert c['ok'] and not c['importWarnings'], c
    got = [c['samples'], c['sampleFrames'], c['sampleMaxDepth']]
    assert got == want, (c['file'], 'classic', got, 'trace', want)
print(want)
PY
echo "ok"
