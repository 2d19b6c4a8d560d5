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
