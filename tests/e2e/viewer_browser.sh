# Screenshots and model checks in headless Chromium (tests/browser/check.mjs)
# of: a corpus conversion, the same trace as --trace-events JSON loaded
# through the viewer's JSON importer, a trace split into many blocks
# against the same trace in one block, and a live capture from the
# simulator with its trace-event JSON.  Screenshots are kept in
# $BUILD/screenshots/viewer-N.png; each must show a drawn timeline (many
# colours; a blank page or an error overlay has few).
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
need_browser
need_corpus atrace/systrace_test_data
D=$CORPUS/atrace/systrace_test_data

run_st 0 --from-file "$D/decompressed_atrace_data.txt" -o corpus.html \
    --trace-events corpus.tev.json -q
run_st 0 --from-file corpus.tev.json -o corpus_json.html -q

python3 - <<'PY'
o = open('big.txt', 'w')
o.write('# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n')
ts = 10.0
for i in range(6000):
    ts += 0.00002
    tid, cpu = 300 + i % 6, i % 4
    p = '  app-%d  ( 300) [%03d] ...1 %.6f: ' % (tid, cpu, ts)
    if i % 3 == 0:
        o.write(p + 'tracing_mark_write: B|300|work %d\n' % (i % 13))
    elif i % 3 == 1:
        o.write(p + 'tracing_mark_write: E|300\n')
    else:
        o.write(p.replace('...1', 'd..2') + 'sched_switch: prev_comm=app prev_pid=%d prev_prio=120 '
                'prev_state=S ==> next_comm=app next_pid=%d next_prio=120\n' % (tid, 300 + (i + 1) % 6))
    if i % 500 == 0:
        o.write(p + 'tracing_mark_write: C|300|queue|%d\n' % i)
PY
run_st 0 --from-file big.txt -o whole.html -q
SYSTRACE_SPLIT_BYTES=40000 run_st 0 --from-file big.txt -o split.html -q
[ "$(grep -c '^# </SCRIPT>  <script class="trace-data"' split.html)" -ge 8 ] || fail "split.html has too few blocks"

start_adb_server
start_sim
run_st 0 -o live.html -t 1 sched gfx freq idle --trace-events live.tev.json -q
run_st 0 --from-file live.tev.json -o live_json.html -q

mkdir -p "$BUILD/screenshots"
browser_check --screenshot "$BUILD/screenshots/viewer.png" \
    corpus.html --expect ok=true processes=2 threads=5 slices=463 counters=7 asyncSlices=9 \
    corpus_json.html --expect ok=true slices=463 counters=7 \
    whole.html --expect ok=true fastTracks=tracks_,expandedStateChanged_ \
    split.html --expect ok=true \
    live.html --expect ok=true cpus=4 'processNames~surfaceflinger' \
    live_json.html --expect ok=true 'processNames~surfaceflinger' 'processNames~CPUs'
cat browser.json
python3 - <<'PY' || fail "model counts"
import json
r = [json.loads(l) for l in open('browser.json')]
corpus, cj, whole, split, live, lj = r
# the JSON import: the corpus slices; its 9 S/F pairs plus the 8 S that
# never end (written as lone "b" events)
assert cj['asyncSlices'] == 17, cj['asyncSlices']
# split: the same model, block boundaries and all
for k in ('processes', 'threads', 'slices', 'cpus', 'cpuSlices', 'counters'):
    assert whole[k] == split[k], (k, whole[k], split[k])
assert whole["slices"] == 2000 and whole["cpuSlices"] > 1900, whole
# live: trace events carry the app slices plus one slice per CPU run
assert live['cpuSlices'] > 1000 and live['slices'] > 100, live
assert lj['slices'] >= live['slices'] + live['cpuSlices'] // 2, (lj['slices'], live)
assert lj['counters'] >= live['counters'], (lj['counters'], live['counters'])
PY
for i in 1 2 3 4 5 6; do
    python3 "$TOP/tests/tools/pngstat.py" "$BUILD/screenshots/viewer-$i.png" >png.json
    python3 -c "
import json; p = json.load(open('png.json'))
assert p['colours'] >= 400 and p['foreground'] >= 0.2, p" ||
        fail "screenshot $i does not show a drawn timeline: $(cat png.json)"
done
echo ok
