# Pieces of atrace text (issue 35): --time-range (seconds from the start,
# ts:, slice:) and --process, judged by Perfetto's trace processor against
# the whole trace (tests/tools/piececheck.py: the sched rows, slices and
# counters of the window, a cut slice once, no error stat, every thread
# with events named) and opened by the classic viewer with no warning; the
# tees (--trace-events) see the piece; JSON (-j) pieces alike.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
PC="python3 $TOP/tests/tools/piececheck.py"

python3 "$TOP/tests/tools/genpieces.py" g.txt 20000 || fail "genpieces"
run_st 0 --from-file g.txt -o whole.html -q
# the first event is at 1000.000000: 3.5 s from the start is ts 1003.5
run_st 0 --from-file g.txt --time-range=3.5..6.25 -o rel.html -q
run_st 0 --from-file g.txt --time-range=ts:1003.5..1006.25 -o ts.html -q
cmp -s rel.html ts.html || fail "3.5..6.25 and ts:1003.5..1006.25 differ"
$PC whole.html ts.html 1003500000000 1006250000000 || fail "time range"
grep -q 'work[0-9] (cut)' ts.html || fail "no slice marked as cut"
# the whole result and the piece in blocks of 100 kB (as 256 MiB ones): the same piece
SYSTRACE_SPLIT_BYTES=100000 run_st 0 --from-file g.txt --time-range=ts:1003.5..1006.25 \
    -o blocks.html -q
[ "$(trace_block blocks.html count)" -gt 4 ] || fail "blocks.html: not in blocks"  # 500 kB
$PC whole.html blocks.html 1003500000000 1006250000000 || fail "time range, in blocks"

# only two processes: the others' CPU time as "other"
run_st 0 --from-file g.txt --time-range=ts:1003.5..1006.25 --process=example.app,300 \
    -o proc.html -q
$PC whole.html proc.html 1003500000000 1006250000000 100,300 || fail "--process"
assert_eq "other's sched rows" 1 "$(tp_rows proc.html \
    "select count(*) > 0 from sched join thread using(utid) where thread.name = 'other'")"
assert_eq "surfaceflinger's threads" 0 "$(tp_rows proc.html \
    "select count(*) from thread where tid in (200, 201)")"

# around the fifth slice work3, 1 ms each side
tp_rows whole.html "select ts || ' ' || dur from slice where name = 'work3' order by ts
    limit 1 offset 4" >s.txt
read -r sts sdur <s.txt
run_st 0 --from-file g.txt --time-range='slice:work3#5+-1ms' -o slice.html -q
$PC whole.html slice.html $((sts - 1000000)) $((sts + sdur + 1000001)) || fail "slice:"

# JSON pieces, and the trace events JSON of a piece holds only the piece
run_st 0 --from-file g.txt --time-range=ts:1003.5..1006.25 -j -o ts.json -q \
    --trace-events te.json
$PC whole.html ts.json 1003500000000 1006250000000 || fail "time range, -j"
python3 - te.json <<'PY' || fail "--trace-events of a piece"
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))['traceEvents'] if 'ts' in e and e['ph'] != 'M']
assert ev and all(1003500000 <= e['ts'] <= 1006250000 for e in ev), \
    [e for e in ev if not 1003500000 <= e['ts'] <= 1006250000][:3]
print('trace events of the piece: %d, all in the window' % len(ev))
PY

# text out of time order across threads (each thread in order, as a
# method trace's come): the lines of processes 100 and 300 2 s later in
# the text than the others'.  In one pass (a file) and two (standard
# input), a range holds exactly the whole's rows in it, and a split's
# pieces together hold every slice
python3 - g.txt u.txt <<'PY' || fail "reordering g.txt"
import re, sys
head, ev = [], []
for line in open(sys.argv[1]):
    m = re.match(r'\s*\S.*?-\d+\s+\(\s*(\d+)\)\s.*?\s(\d+\.\d+): ', line)
    if not m or line.startswith('#'):
        (head if not ev else ev).append((0, len(ev), line)) if not m else None
        continue
    late = 2.0 if int(m.group(1)) in (100, 300) else 0.0
    ev.append((float(m.group(2)) + late, len(ev), line))
ev.sort()
open(sys.argv[2], 'w').write(''.join(l for _, _, l in head + ev))
PY
run_st 0 --from-file u.txt -o uwhole.html -q
run_st 0 --from-file u.txt --time-range=ts:1003.5..1006.25 -o u1.html -q
$PC uwhole.html u1.html 1003500000000 1006250000000 || fail "out of order, one pass"
"$SYSTRACE" --from-file - --time-range=ts:1003.5..1006.25 -o u2.html -q <u.txt ||
    fail "out of order, from standard input"
$PC uwhole.html u2.html 1003500000000 1006250000000 || fail "out of order, two passes"
run_st 0 --from-file u.txt --split=2s -o usp.html -q
q="select count(*) from slice join thread_track on slice.track_id = thread_track.id"
want=$(tp_rows uwhole.html "$q")
got=0
for f in usp.*.html; do     # async slices keep their names when cut
    got=$((got + $(tp_rows "$f" "$q where slice.name not like '% (cut)'")))
done
[ "$got" = "$want" ] || fail "out of order, --split=2s: $got thread slices in the pieces, $want in all"

same_in_both ts.html proc.html slice.html
python3 - classic-*.json <<'PY' || fail "the classic viewer warns"
import json, sys
for f in sys.argv[1:]:
    c = json.load(open(f))
    assert not c['importWarnings'], (c['file'], c['importWarnings'])
PY
echo ok
