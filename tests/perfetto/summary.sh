# The summary's numbers (--summary JSON) are Perfetto's on the same page
# (tests/tools/sumcheck.py: CPU time of the top processes within 1%,
# frames and janky frames per app exact, sched_switch and event counts
# exact): a live capture from the simulator through the real adb server,
# with circular-buffer overruns (the summary must forget what the page
# cut), the same capture with --stream, and --from-file of corpus
# captures (doFrame slices, sched with and without TGIDs).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
[ -x "$TRACE_PROCESSOR" ] && "$TRACE_PROCESSOR" --version >/dev/null 2>&1 ||
    skip "Perfetto's trace processor cannot run here ($TRACE_PROCESSOR; libprotobuf32)"
check() {   # page json [sumcheck options]
    python3 "$TOP/tests/tools/sumcheck.py" "$@" >cmp.json || { cat cmp.json; fail "summary of $1"; }
}
start_adb_server
start_sim --overflow
run_st 0 -o live.html -t 1 sched gfx view --summary live.json
trace_block live.html 2 | grep -q 'buffer started' || fail "the capture has no circular-buffer marker"
check live.html live.json --min-frames 10 --min-procs 5
run_st 0 -o stream.html -t 1 --stream sched gfx view --summary stream.json
check stream.html stream.json --min-frames 10 --min-procs 5
# a 120 Hz display (SurfaceFlinger's VSYNC-app flips every 8.33 ms): frames
# of 10 ms are janky there; Perfetto counts them against the same budget
python3 - >vsync120.txt <<'PY'
print('# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION')
us, out = 100000000, []
for i in range(240):
    out.append((us + i * 8333, '  surfaceflinger-50    (   50) [000] ...1 %d.%06d: '
                'tracing_mark_write: C|50|VSYNC-app|%d' % ((us + i * 8333) // 10**6,
                                                          (us + i * 8333) % 10**6, i & 1)))
for k, ms in enumerate([5, 7, 9, 10, 12, 20, 4, 8, 9, 30]):
    b = us + 3000 + k * 40000
    for t, what in ((b, 'B|100|Choreographer#doFrame %d' % k), (b + ms * 1000, 'E|100')):
        out.append((t, '  com.example.app-100   (  100) [001] ...1 %d.%06d: '
                    'tracing_mark_write: %s' % (t // 10**6, t % 10**6, what)))
for _, line in sorted(out):
    print(line)
PY
run_st 0 --from-file vsync120.txt -o v.html --summary v.json -q
grep -q '"display_hz": 120' v.json || fail "a 120 Hz trace not seen as one: $(cat v.json)"
grep -q '"janky": 6' v.json || fail "frames over 8.33 ms: $(cat v.json)"
check v.html v.json --min-frames 10
if [ -d "$CORPUS/atrace" ]; then
    for f in systrace_test_data/decompressed_atrace_data.txt \
             aosp_marshmallow_test_data/atrace_data_with_thread_list \
             systrace_test_data/atrace_missing_tgids systrace_test_data/atrace_data_raw; do
        run_st 0 --from-file "$CORPUS/atrace/$f" -o c.html --summary c.json -q
        check c.html c.json
    done
else
    echo "corpus $CORPUS/atrace absent: only the live captures compared"
fi
echo ok
