# A Perfetto trace's timestamps on other clocks than the trace's
# (--from-file): converted through its ClockSnapshot packets to the trace's
# clock (BOOTTIME) as Perfetto converts them, for the traceEvents part of
# the page and --trace-events.  The trace (tests/data/perfetto/clocks.textproto,
# encoded by protoc from Perfetto's own definitions) has a MONOTONIC clock
# drifting from BOOTTIME between two snapshots (a packet's own
# timestamp_clock_id, one before the first snapshot, a sequence's
# TracePacketDefaults), the SDK's incremental sequence-scoped clock 64 in
# µs units and another sequence's own clock 64 in ns, Chrome's legacy
# timestamp_delta_us / timestamp_absolute_us from a ThreadDescriptor, and
# a packet on a clock no snapshot names (left out by both, said in the
# note).  Judge: Perfetto's trace processor loading the JSON gives every
# slice the ts and dur it gives loading the trace (tests/tools/pftevcheck.py,
# sliceTimes); the classic viewer imports the page with no warning and
# shows Perfetto's slices.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

encode_trace clocks clocks.perfetto-trace
run_st 0 --from-file clocks.perfetto-trace -o clocks.html --trace-events clocks.json
python3 "$TOP/tests/tools/pftevcheck.py" clocks.perfetto-trace clocks.json >check.json ||
    fail "Perfetto reads other slice times from clocks.json than from the trace"
python3 - check.json <<'PY' || fail "clocks.json lacks slices of the trace"
import json, sys
c = json.load(open(sys.argv[1]))
got = {n: (ts, dur) for ts, dur, n in c['sliceTimes']}
want = {
    'mono early': (1100000000, 100000000),          # MONOTONIC + 600 ms (first snapshot)
    'mono late': (2100000000, 50000000),            # + 700 ms (the second)
    'mono before the first snapshot': (700000000, 0),
    'default mono': (2300000000, 50000000),         # TracePacketDefaults' clock
    'own boottime over the default': (1400000000, 0),
    'incremental': (1710000000, 4000000),           # clock 64, µs deltas
    'incremental inner': (1712500000, 500000),
    'seq 5 own clock 64': (1800001000, 2000),       # its own sequence's clock 64
    'legacy delta': (2200100000, 50000),            # Chrome's µs on MONOTONIC
    'legacy absolute': (2210000000, 0),
}
assert got == want, {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
PY
assert_contains err.txt "1 events on a clock no clock snapshot relates to the trace's (left out)"

node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 clocks.html clocks.json \
    >classic.jsonl || { cat classic.jsonl; fail "classic viewer: clocks.html clocks.json"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer shows another trace than Perfetto"
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    assert c['ok'] and not c['importWarnings'], c
    assert c['slices'] == 10, (c['file'], c['slices'])  # Perfetto's, instants included
PY
echo "ok"
