# Pieces (issue 35) of a Perfetto trace (tests/tools/pfgen -m: ftrace,
# track events, counters, logs, frames: text and trace-event JSON parts
# of one clock), of a trace-event JSON file (B/E, X, C, M) and of a method
# trace: the time
# range and the processes judged by Perfetto's trace processor against the
# whole (tests/tools/piececheck.py: Perfetto reads a page's ftrace text,
# and the JSON file itself against the piece's trace-event block), opened
# by the classic viewer with no warning.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
PC="python3 $TOP/tests/tools/piececheck.py"
[ -x "$BUILD/tools/pfgen" ] || fail "$BUILD/tools/pfgen not built (make tools)"

"$BUILD/tools/pfgen" -m 2M m.pftrace 3 2>/dev/null || fail "pfgen"
run_st 0 --from-file m.pftrace -o whole.html -q
run_st 0 --from-file m.pftrace --time-range=0.1..0.25 -o range.html -q
$PC whole.html range.html 1000100000000 1000250000000 || fail "Perfetto: time range"
run_st 0 --from-file m.pftrace --time-range=0.1..0.25 --process=com.android.chrome4,1450 \
    -o proc.html -q
$PC whole.html proc.html 1000100000000 1000250000000 1200,1450 || fail "Perfetto: --process"

# trace-event JSON: slices across both ends (B/E and X), counters set
# before the range, names (M)
python3 - <<'PY'
import json, random
random.seed(5)
ev = [{'ph': 'M', 'name': 'process_name', 'pid': p, 'args': {'name': 'proc%d' % p}}
      for p in (1, 2)]
ev += [{'ph': 'M', 'name': 'thread_name', 'pid': p, 'tid': t, 'args': {'name': 't%d' % t}}
       for p, t in ((1, 10), (1, 11), (2, 20))]
for t, p in ((10, 1), (11, 1), (20, 2)):     # nested properly: no error stat
    ts = random.random() * 100
    while ts < 30000:
        if random.random() < 0.5:
            d = 100 + random.random() * 3000
            ev.append({'ph': 'X', 'name': 'x', 'pid': p, 'tid': t, 'ts': ts, 'dur': d})
        else:
            ev.append({'ph': 'B', 'name': 'b%d' % random.randrange(4), 'pid': p, 'tid': t,
                       'ts': ts})
            d = 10.0
            for _ in range(random.randrange(4)):
                ev.append({'ph': 'X', 'name': 'in', 'pid': p, 'tid': t, 'ts': ts + d,
                           'dur': 200})
                d += 200 + random.random() * 500
            ev.append({'ph': 'E', 'pid': p, 'tid': t, 'ts': ts + d})
        ev.append({'ph': 'C', 'name': 'c%d' % t, 'pid': p, 'tid': t, 'ts': ts + 1,
                   'args': {'v': random.randrange(9)}})
        ts += d + 5 + random.random() * 300
ev.sort(key=lambda e: e.get('ts', -1))
json.dump({'traceEvents': ev, 'displayTimeUnit': 'ns'}, open('te.json', 'w'))
PY
run_st 0 --from-file te.json --time-range=ts:0.005..0.02 -o jrange.html -q
trace_block jrange.html 1 >jrange.json
$PC te.json jrange.json 5000000 20000000 || fail "JSON: time range"
run_st 0 --from-file te.json --time-range=ts:0.005..0.02 --process=proc2 -o jproc.html -q
trace_block jproc.html 1 >jproc.json
$PC te.json jproc.json 5000000 20000000 2 || fail "JSON: --process"
grep -q '"x (cut)"' jrange.json || fail "JSON: no X marked as cut"

# a method trace (converted to atrace slices)
python3 - >mt.s <<'PY'
print('thread 1 main\nthread 7 worker')
for i in range(8):
    print('method 0x%x com/ex/A m%d ()V A.java %d' % (0x100 + 4 * i, i, i + 1))
t = 0
for r in range(200):
    for tid in (1, 7):
        outer, inner = 0x100 + 4 * (r % 8), 0x100 + 4 * ((r + 3) % 8)
        for kind, m in (('ent', outer), ('ent', inner), ('xit', inner), ('xit', outer)):
            print('%s %d 0x%x %d %d' % (kind, tid, m, t, t * 2))
            t += 50
PY
python3 "$TOP/tests/tools/mktrace.py" mt.trace --vm art --pid 4242 <mt.s || fail "mktrace"
run_st 0 --from-file mt.trace -o mwhole.html -q
run_st 0 --from-file mt.trace --time-range=0.05..0.1 -o mrange.html -q
$PC mwhole.html mrange.html 1050000000 1100000000 || fail "method trace: time range"

# the classic viewer: no warning but those of the whole (pfgen's trace has
# sched_waking, which it does not know, and threads sleeping in state I)
node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 whole.html range.html proc.html \
    jrange.html jproc.html mrange.html >classic.jsonl || { cat classic.jsonl; fail "classic viewer"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer warns"
import json, sys
kind = lambda w: w.split(' (')[0].split(' at ')[0]
cs = [json.loads(line) for line in open(sys.argv[1])]
known = {kind(w) for w in cs[0]['importWarnings']}
for c in cs[1:]:
    new = [w for w in c['importWarnings'] if kind(w) not in known]
    assert c['ok'] and not new and c['slices'] > 0, (c['file'], new)
    print('%s: the classic viewer: %d slices, no new warning' % (c['file'], c['slices']))
PY
echo ok
