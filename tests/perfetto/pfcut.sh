# A piece of a Perfetto trace written as a Perfetto trace (issue 35:
# --time-range (START..END, ts:, slice:NAME#N+-D), --split with
# --output-format=perfetto or -o
# NAME.perfetto-trace).  Judge: Perfetto's own trace processor loads each
# piece alone with no error stat the original lacks and finds exactly the
# original's rows in the piece's range (tests/tools/pfcutcheck.py: sched
# rows, thread and track-event slices with one crossing a boundary ended
# and begun again there - marked cut - counter values, logcat lines), and
# every thread with events named; the pieces of a split follow each other
# with no gap, so together they hold the whole.  Traces: one written by
# protoc from tests/tools/pfcutgen.py's text proto (compact sched in
# bundles that cross the boundaries, atrace B/E, track events on an
# incremental clock with interned names cleared midway, logcat on the
# realtime clock, process stats; with --mono the same on a MONOTONIC trace
# clock, also converted to a page and a range of it), pfgen's mixed trace, and the corpus
# trace when present; with --process, only those processes' slices,
# logcat and process counters.  Bad input: one line, exit 1, nothing written and
# an existing output left alone.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
[ -x "$TRACE_PROCESSOR" ] || skip "Perfetto's trace processor absent ($TRACE_PROCESSOR)"
"$TRACE_PROCESSOR" --version >/dev/null 2>&1 ||
    skip "Perfetto's trace processor does not run here (apt-get install -y libprotobuf32)"
need_protos
CHECK="python3 $TOP/tests/tools/pfcutcheck.py"

python3 "$TOP/tests/tools/pfcutgen.py" >cut.textproto || fail "pfcutgen.py"
protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
    <cut.textproto >cut.pftrace || fail "protoc cannot encode pfcutgen.py's trace"

# a range in seconds from the trace's start, cutting slices of every kind
run_st 0 --from-file cut.pftrace --time-range=0.46..1.31 -o piece.perfetto-trace
assert_contains out.txt "Wrote Perfetto trace: piece.perfetto-trace (ts:10.460000000..11.310000000,"
cp out.txt rel.out
$CHECK cut.pftrace rel.out >check.txt || { cat check.txt; fail "the piece differs from the original's range"; }
cat check.txt
# the long track event slice and an inner one are begun again at the start
grep -q "slices 38 of which 2 marked cut" check.txt || fail "expected 2 slices marked cut"
# the same range on the trace's own clock gives the same bytes
run_st 0 --from-file cut.pftrace --time-range=ts:10.46..11.31 --output-format=perfetto \
    -o ts.pftrace
cmp piece.perfetto-trace ts.pftrace || fail "ts: range differs from the same relative range"
# an open end: to the trace's end
run_st 0 --from-file cut.pftrace --time-range=1.5.. -o tail.perfetto-trace
$CHECK cut.pftrace out.txt >check.txt || { cat check.txt; fail "the tail differs"; }

# around a slice (the Nth so called, by begin, as Perfetto matches ends):
# a track event's on the incremental clock, an atrace one, each with the
# piece checked like any other
run_st 0 --from-file cut.pftrace --time-range=slice:inner#3+-5ms -o sl.perfetto-trace
assert_contains out.txt "sl.perfetto-trace (ts:10.146101000..10.176101001,"
$CHECK cut.pftrace out.txt >check.txt || { cat check.txt; fail "the slice's piece differs"; }
run_st 0 --from-file cut.pftrace --time-range=slice:atrace_short_4 -o sl.perfetto-trace
assert_contains out.txt "sl.perfetto-trace (ts:10.445000909..10.515000910,"
$CHECK cut.pftrace out.txt >check.txt || { cat check.txt; fail "the slice's piece differs"; }
# atrace_long's E is the last of three at its end (Perfetto pops the top)
long_end=$(python3 "$TOP/tests/tools/tpcheck.py" cut.pftrace --sql \
    "select ts + dur from slice where name = 'atrace_long'" | python3 -c 'import json, sys
print(json.load(sys.stdin)["rows"][0][0])')
run_st 0 --from-file cut.pftrace --time-range=slice:atrace_long -o sl.perfetto-trace
assert_contains out.txt "sl.perfetto-trace (ts:10.100000303..$(python3 -c "
e = int('$long_end') + 1
print('%d.%09d' % (e // 10**9, e % 10**9))"),"

# split by time: four pieces that hold the whole trace between them
run_st 0 --from-file cut.pftrace --split=500ms -o s.perfetto-trace
assert_eq "pieces" 4 "$(grep -c 'Wrote Perfetto trace: s.00[1-4].perfetto-trace' out.txt)"
$CHECK cut.pftrace out.txt >check.txt || { cat check.txt; fail "a piece of the split differs"; }
cat check.txt
# a piece's name already taken is left alone (the piece: the next free name)
echo mine >s.002.perfetto-trace
run_st 0 --from-file cut.pftrace --split=500ms -o s.perfetto-trace
[ "$(cat s.002.perfetto-trace)" = mine ] || fail "--split overwrote s.002.perfetto-trace"
[ -s s.002-1.perfetto-trace ] || fail "--split: the second piece is missing"
assert_contains err.txt "s.002.perfetto-trace already exists and was left alone"
rm -f s.002.perfetto-trace s.002-1.perfetto-trace

# split by size: every piece at most the size
run_st 0 --from-file cut.pftrace --split=16kb -o z.perfetto-trace
$CHECK cut.pftrace out.txt >check.txt || { cat check.txt; fail "a piece of the size split differs"; }
for f in z.*.perfetto-trace; do
    [ "$(wc -c <"$f")" -le 16384 ] || fail "$f is over 16kb: $(wc -c <"$f")"
done

# pfgen's mixed trace (SDK track events, frame timeline, logcat, samples,
# stats beside the ftrace), in pieces of 1 MB
"$BUILD/tools/pfgen" -m 3M mixed.pftrace 2>/dev/null || fail "pfgen"
run_st 0 --from-file mixed.pftrace --split=1mb -o m.perfetto-trace
$CHECK mixed.pftrace out.txt >check.txt || { cat check.txt; fail "a piece of pfgen's trace differs"; }
cat check.txt
for f in m.*.perfetto-trace; do
    [ "$(wc -c <"$f")" -le 1048576 ] || fail "$f is over 1mb: $(wc -c <"$f")"
done

# --process: those processes' slices, logcat, process counters and track
# events only (by name, by pid, a name cut to 15 bytes as the kernel cuts a
# comm), the CPU tracks whole
run_st 0 --from-file cut.pftrace --time-range=0.46..1.31 --process=com.example.app \
    -o p.perfetto-trace
$CHECK --pids 100 cut.pftrace out.txt >check.txt || { cat check.txt; fail "--process differs"; }
# counters: 34 in the range, and the CPU frequency, RSS and oom_score_adj set
# before it again at its start
grep -q "sched 259, slices 38 of which 2 marked cut, counters 37, logs 8" check.txt ||
    { cat check.txt; fail "--process=com.example.app: not what was expected"; }
run_st 0 --from-file cut.pftrace --process=200 -o p.perfetto-trace
$CHECK --pids 200 cut.pftrace out.txt >check.txt || { cat check.txt; fail "--process=200 differs"; }
grep -q "slices 0 of which 0 marked cut, counters 41, logs 0" check.txt ||
    { cat check.txt; fail "--process=200: the other process's slices or logs kept"; }
run_st 0 --from-file mixed.pftrace --split=1mb --process=com.android.chrome:svc28,3000 \
    -o mp.perfetto-trace
$CHECK --pids 2400,3000 mixed.pftrace out.txt >check.txt ||
    { cat check.txt; fail "--process on pfgen's trace differs"; }
cat check.txt

# many sequences (an SDK writer per thread): 600 of them, each a slice
# across the boundary; and the clocks case (MONOTONIC, incremental clocks,
# legacy track events, a clock never snapshotted, which no piece holds)
python3 - >seqs.textproto <<'PY'
print('packet { trusted_packet_sequence_id: 1 timestamp: 1000 track_descriptor { uuid: 1 '
      'process { pid: 10 process_name: "app" } } }')
for i in range(600):
    print('packet { trusted_packet_sequence_id: 1 timestamp: 1000 track_descriptor { uuid: %d '
          'parent_uuid: 1 thread { pid: 10 tid: %d thread_name: "t%d" } } }' % (100 + i, 100 + i, i))
for i in range(600):
    print('packet { trusted_packet_sequence_id: %d timestamp: %d track_event { type: TYPE_SLICE_BEGIN '
          'track_uuid: %d name: "s%d" } }' % (10 + i, 1000000 + i, 100 + i, i))
    print('packet { trusted_packet_sequence_id: %d timestamp: %d track_event { type: TYPE_SLICE_END '
          'track_uuid: %d } }' % (10 + i, 3000000 + i, 100 + i))
PY
protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
    <seqs.textproto >seqs.pftrace || fail "protoc cannot encode seqs.textproto"
run_st 0 --from-file seqs.pftrace --split=1ms -o q.perfetto-trace
$CHECK seqs.pftrace out.txt >check.txt || { cat check.txt; fail "600 sequences: a piece differs"; }
grep -q "slices 600 of which 600 marked cut" check.txt || { cat check.txt; fail "600 sequences"; }
encode_trace clocks clocks.pftrace
run_st 0 --from-file clocks.pftrace --time-range=ts:1.45..1.79 -o k.perfetto-trace
$CHECK clocks.pftrace out.txt >check.txt || { cat check.txt; fail "the clocks case differs"; }
cat check.txt
run_st 0 --from-file clocks.pftrace --split=100ms -o k.perfetto-trace
assert_contains err.txt "note: clocks.pftrace: 1 timestamps on a clock no clock snapshot leads from are in no piece"
$CHECK clocks.pftrace out.txt >check.txt || { cat check.txt; fail "the clocks split differs"; }
grep -q "k.016.perfetto-trace: ok (sched 0, slices 2 of which 0" check.txt ||
    { cat check.txt; fail "the legacy track events are not in their piece"; }

# a trace whose clock is MONOTONIC (primary_trace_clock), 5 ms behind boot
# time: ftrace events (boot time) are placed by their time on MONOTONIC,
# packets on no clock are on it already, and every kept packet keeps its
# time: the whole rewritten, a range and a split hold the original's rows
python3 "$TOP/tests/tools/pfcutgen.py" --mono >mono.textproto || fail "pfcutgen.py --mono"
protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
    <mono.textproto >mono.pftrace || fail "protoc cannot encode pfcutgen.py --mono's trace"
run_st 0 --from-file mono.pftrace -o mw.perfetto-trace
# from the first event, a CPU frequency at boot time 10 s
assert_contains out.txt "Wrote Perfetto trace: mw.perfetto-trace (ts:9.995000000..11.993000124,"
$CHECK mono.pftrace out.txt >check.txt || { cat check.txt; fail "MONOTONIC: the rewrite differs"; }
cat check.txt
run_st 0 --from-file mono.pftrace --time-range=0.46..1.31 -o mr.perfetto-trace
assert_contains out.txt "mr.perfetto-trace (ts:10.455000000..11.305000000,"
$CHECK mono.pftrace out.txt >check.txt || { cat check.txt; fail "MONOTONIC: the range differs"; }
grep -q "slices 39 of which 3 marked cut" check.txt || { cat check.txt; fail "MONOTONIC: cut slices"; }
run_st 0 --from-file mono.pftrace --split=500ms -o ms.perfetto-trace
$CHECK mono.pftrace out.txt >check.txt || { cat check.txt; fail "MONOTONIC: the split differs"; }
cat check.txt
# ... and as a page: its ftrace text on the trace's clock too, so a range
# holds the sched rows Perfetto shows the original in it (to the µs, as
# ftrace text has them)
same_sched() {   # PAGE [RANGE-CONDITION]: the page's sched rows, the original's
    _q="select (ts / 1000) || ' ' || cpu || ' ' || tid from sched join thread using(utid)
        where tid != 0"
    tp_rows mono.pftrace "$_q ${2:-} order by 1" >want.txt
    tp_rows "$1" "$_q order by 1" >got.txt
    [ -s want.txt ] && cmp -s want.txt got.txt ||
        { diff want.txt got.txt | head; fail "MONOTONIC: $1's sched rows differ"; }
}
run_st 0 --from-file mono.pftrace -o mono.html -q
same_sched mono.html
run_st 0 --from-file mono.pftrace --time-range=ts:10.455..11.305 -o mono-r.html -q
same_sched mono-r.html "and ts / 1000 >= 10455000 and ts / 1000 < 11305000"

# a workqueue slice (an interned kernel symbol's name) across a boundary:
# ended and begun again on its bundle's sequence, so it keeps its name
encode_trace sched sched.pftrace
run_st 0 --from-file sched.pftrace --split=1ms -o w.perfetto-trace
$CHECK sched.pftrace out.txt >check.txt || { cat check.txt; fail "the workqueue slice differs"; }
grep -q "w.002.perfetto-trace: ok (sched 0, slices 1 " check.txt ||
    { cat check.txt; fail "the workqueue slice is not begun again"; }

# bad input: one line, exit 1, nothing written, an existing output kept
echo keep >x.perfetto-trace
bad() {   # EXPECTED-TEXT ARGS...
    _bad=$1; shift
    run_st 1 "$@"
    assert_eq "error lines of $*" 1 "$(wc -l <err.txt)"
    assert_contains err.txt "$_bad"
    assert_eq "x.perfetto-trace after $*" keep "$(cat x.perfetto-trace)"
    ls | grep -q '^x\.0' && fail "$*: pieces left behind"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "$*: temporary files left: $(ls -A "$TMPDIR")"
}
bad "outside the trace: cut.pftrace spans 0 s .. 1.998 s from its start (ts:10.000000000..11.998000123)" \
    --from-file cut.pftrace --time-range=5..6 -o x.perfetto-trace
bad "outside the trace" --from-file cut.pftrace --time-range=ts:1..2 -o x.perfetto-trace
echo "not a trace" >t.txt
bad "needs a Perfetto trace as the input; t.txt is not a trace systrace knows" \
    --from-file t.txt -o x.perfetto-trace
gzip -c cut.pftrace >cut.pftrace.gz
bad "cut.pftrace.gz is gzip-compressed" --from-file cut.pftrace.gz -o x.perfetto-trace
mkdir adir
bad "systrace: adir: is a directory" --from-file adir --time-range=0..1 -o x.perfetto-trace
# an explicit format that the output's name contradicts: refused, not
# overruled by the name
run_st 2 --from-file cut.pftrace --output-format=html -o x.perfetto-trace
assert_contains err.txt "--output-format=html: -o x.perfetto-trace names a Perfetto trace"
assert_eq "x.perfetto-trace after --output-format=html" keep "$(cat x.perfetto-trace)"
head -c 5000 cut.pftrace >short.pftrace
bad "short.pftrace: the trace is cut short inside a packet" \
    --from-file short.pftrace --time-range=0..1 -o x.perfetto-trace
bad "not standard input" --from-file - -o x.perfetto-trace
bad "--time-range=slice:inner#99: cut.pftrace has 35 slices called inner" \
    --from-file cut.pftrace --time-range=slice:inner#99 -o x.perfetto-trace
bad "has 0 slices called nope" --from-file cut.pftrace --time-range=slice:nope -o x.perfetto-trace
bad "--process: nope: no such process in cut.pftrace" --from-file cut.pftrace --process=nope \
    -o x.perfetto-trace
bad "--process: 4242: no such process" --from-file cut.pftrace --process=100,4242 \
    -o x.perfetto-trace
bad "--process-and-deps is not yet supported" --from-file cut.pftrace --process-and-deps=100 \
    -o x.perfetto-trace
"$SYSTRACE" --from-file cut.pftrace --split=1ms -o x.perfetto-trace >out.txt 2>err.txt
assert_eq "--split=1ms exit" 1 $?
assert_contains err.txt "more than 512 pieces"
# an empty range: one line, exit 1, as for a range outside the trace
run_st 1 --from-file cut.pftrace --time-range=2..1 -o x.perfetto-trace
assert_contains err.txt "the range is empty"
[ ! -e x.perfetto-trace ] || [ "$(cat x.perfetto-trace)" = keep ] || fail "2..1 wrote"
# a live capture is not cut: said before anything starts
run_st 2 -o x.perfetto-trace sched
assert_contains err.txt "cuts a Perfetto trace given with --from-file"
assert_eq "x.perfetto-trace" keep "$(cat x.perfetto-trace)"

# the corpus trace (a phone's), a range and a split
TRACE=$CORPUS/perfetto/test_trace.perfetto-trace
if [ -f "$TRACE" ]; then
    run_st 0 --from-file "$TRACE" --time-range=1..2.5 -o c.perfetto-trace
    $CHECK "$TRACE" out.txt >check.txt || { cat check.txt; fail "the corpus piece differs"; }
    run_st 0 --from-file "$TRACE" --split=4s -o cs.perfetto-trace
    $CHECK "$TRACE" out.txt >check.txt || { cat check.txt; fail "a corpus piece differs"; }
    cat check.txt
else
    echo "corpus trace absent ($TRACE): its part skipped"
fi
echo "ok"
