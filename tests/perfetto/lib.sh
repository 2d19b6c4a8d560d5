# Helpers for tests/perfetto/*.sh, sourced after tests/lib.sh: each case
# imports systrace's outputs with Perfetto's own trace processor (v58.2,
# ../shared/tools/perfetto; tests/tools/tpcheck.py counts) and with the
# classic viewer in headless Chromium (tests/browser/check.mjs), and
# asserts both show the same trace.  Cases skip with the reason when the
# trace processor (or its libprotobuf32), Chromium or playwright is absent.
#
#   need_perfetto                 skip unless the trace processor runs
#   tp FILE [--sql Q] >out.json   Perfetto's counts of FILE (tpcheck.py)
#   same_in_both FILE...          Perfetto == classic viewer for each FILE
#   all_named                     ... and every thread with slices named
#   tp_rows FILE SQL              the rows of one query, one per line
#   json_covers_page PAGE JSON    --trace-events JSON has what the page has

TPC="python3 $TOP/tests/tools/tpcheck.py"
TRACE_PROCESSOR=${TRACE_PROCESSOR:-$TOP/../shared/tools/perfetto/trace_processor_shell}
export TRACE_PROCESSOR

need_perfetto() {
    [ -x "$TRACE_PROCESSOR" ] ||
        skip "Perfetto's trace processor absent ($TRACE_PROCESSOR; ../shared/tools/perfetto)"
    "$TRACE_PROCESSOR" --version >/dev/null 2>&1 ||
        skip "Perfetto's trace processor does not run here (apt-get install -y libprotobuf32)"
    need_browser
}

tp() {
    $TPC "$@" || fail "Perfetto's trace processor cannot read $1"
}

tp_rows() {   # FILE SQL: the first column of each row
    $TPC "$1" --sql "$2" | python3 -c 'import json, sys
for r in json.load(sys.stdin)["rows"]:
    print(r[0])' || fail "query on $1: $2"
}

# same_in_both FILE...: Perfetto imports FILE without error or data-loss
# stats and with the counts the classic viewer's model has: thread
# slices, finished async slices (a JSON b never ended is one to the
# classic viewer, not to Perfetto), CPU (sched) slices, counters and their
# samples, CPU counters, threads with slices and those the trace names.
# Leaves tp-N.json and classic-N.json (N = 1, 2, ...) for further checks.
# $TP_ERRORS: the error stats expected instead of none ("name=value,...",
# for problems of the input itself that a test counted independently);
# $TP_CPU_SLACK: how many CPU slices the viewers may differ by (each
# handles a sched_switch from a task that was not running its own way).
# all_named: in every file of the last same_in_both, Perfetto names every
# thread with slices (for our own outputs, which name all of them).
same_in_both() {
    node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 "$@" >classic.jsonl ||
        { cat classic.jsonl; fail "classic viewer: $*"; }
    # one Python for all files' counts and one for the comparisons
    rm -f tp-*.json classic-*.json
    $TPC "$@" >tp.jsonl || fail "Perfetto's trace processor cannot read one of: $*"
    python3 - tp.jsonl classic.jsonl <<'PY' || fail "Perfetto and the classic viewer differ"
import json, os, sys
tps = [json.loads(l) for l in open(sys.argv[1])]
classics = [json.loads(l) for l in open(sys.argv[2])]
assert len(tps) == len(classics), (len(tps), len(classics))
want = [e for e in os.environ.get('TP_ERRORS', '').split(',') if e]
keys = ['slices', 'asyncSlices', 'cpuSlices', 'counters', 'counterSamples', 'cpuCounters',
        'sliceThreads', 'namedSliceThreads']
slack = int(os.environ.get('TP_CPU_SLACK') or 0)
for n, (p, c) in enumerate(zip(tps, classics), 1):
    for name, d in (('tp-%d.json' % n, p), ('classic-%d.json' % n, c)):
        with open(name, 'w') as f:
            f.write(json.dumps(d) + '\n')
    what = p['file']
    assert c['ok'], (what, c)
    assert p['errors'] == want, (what, 'Perfetto import errors', p['errors'], 'expected', want)
    c['asyncSlices'] -= c['unfinishedAsyncSlices']    # Perfetto's count: finished ones
    if abs(p['cpuSlices'] - c['cpuSlices']) <= slack:
        c['cpuSlices'] = p['cpuSlices']
    diff = {k: (p[k], c[k]) for k in keys if p[k] != c[k]}
    assert not diff, (what, 'perfetto vs classic', diff)
    print('%s: both viewers: %s' % (what, ', '.join('%s %d' % (k, p[k]) for k in keys)))
PY
}

all_named() {
    python3 - tp-*.json <<'PY' || fail "threads with slices but no name in Perfetto"
import json, sys
for f in sys.argv[1:]:
    p = json.load(open(f))
    assert p['namedSliceThreads'] == p['sliceThreads'], (p['file'], p['sliceThreads'],
                                                         p['namedSliceThreads'])
PY
}

# json_covers_page PAGE JSON: Perfetto reads from the --trace-events JSON
# what it reads from the page: its thread slices plus one slice per sched
# row of a real task (still running at the end included), its finished
# async slices, its counters plus the CPU counters (on the JSON's "CPUs"
# process), and every thread and process it names from the page is named.
json_covers_page() {
    tp "$1" >cover-page.json
    tp "$2" >cover-json.json
    _jcp_sched=$(tp_rows "$1" "select count(*) from sched join thread using(utid) where tid != 0")
    _jcp_cpu=$(tp_rows "$1" "select count(*) from counter c join cpu_counter_track t on c.track_id = t.id")
    python3 - cover-page.json cover-json.json "$_jcp_sched" "$_jcp_cpu" <<'PY' || fail "$2 lacks what Perfetto reads from $1"
import json, sys
h, j = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
sched, cpu = int(sys.argv[3]), int(sys.argv[4])
want = {'slices': h['slices'] + sched, 'asyncSlices': h['asyncSlices'],
        'counters': h['counters'] + h['cpuCounters'],
        'counterSamples': h['counterSamples'] + cpu, 'errors': []}
diff = {k: (v, j[k]) for k, v in want.items() if j[k] != v}
assert not diff, ('want vs JSON', diff)
missing = set(h['namedTids']) - set(j['namedTids'])
assert not missing, ('threads named from the page, not in the JSON', sorted(missing))
missing = set(h['processNames']) - set(j['processNames'])
assert not missing, ('processes named from the page, not in the JSON', sorted(missing))
print('%s covers %s: slices %d = %d + %d sched' % (sys.argv[2], sys.argv[1], j['slices'],
                                                  h['slices'], sched))
PY
}

# need_protos: protoc and Perfetto's own definitions (skips without them);
# PROTOS is their folder.
need_protos() {
    command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
    PROTOS=$TOP/../shared/reference/perfetto-protos
    [ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's protos absent ($PROTOS)"
}

# encode_trace NAME OUT: tests/data/perfetto/NAME.textproto as the binary
# trace a phone would write, made by protoc (not by systrace's code).
encode_trace() {
    need_protos
    protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
        <"$TOP/tests/data/perfetto/$1.textproto" >"$2" 2>protoc.err ||
        { cat protoc.err; fail "protoc cannot encode $1.textproto"; }
}
