# The summary's startups[] (--summary JSON) are Perfetto's android_startup
# metric on the same page (tests/tools/startupcheck.py: package, type,
# start, to_first_frame, reportFullyDrawn, the main thread's time by
# state, the well-known slices; within 1 us): cold, warm and hot starts
# of Android 10's launching: slices (tests/tools/mkstartup.py), the same
# with MetricsLogger's intent-started slices, and the same events as
# plain atrace text (no process dump: the app found by its comm).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
metric() {  # page out.json
    "$TRACE_PROCESSOR" --run-metrics android_startup --metrics-output=json "$1" >"$2" 2>tp.err ||
        { cat tp.err; fail "Perfetto's metric on $1"; }
}
check() {   # metrics.json summary.json
    python3 "$TOP/tests/tools/startupcheck.py" "$1" "$2" 3 || fail "startups of $2: $(cat "$2")"
}
for v in launching metricslogger; do
    python3 "$TOP/tests/tools/mkstartup.py" ps.txt $v.txt $v || fail "mkstartup $v"
    python3 "$TOP/tests/browser/mkpage.py" $v.html ps.txt $v.txt || fail "mkpage $v"
    metric $v.html $v.metric.json
    run_st 0 --from-file $v.html -o out.html --summary $v.sum.json
    check $v.metric.json $v.sum.json
    grep -q '^Startups: com.example.coldstart.app cold [0-9.]* ms (fully drawn [0-9.]* ms), com.example.warm warm ' out.txt err.txt ||
        fail "no Startups line: $(cat out.txt err.txt)"
    run_st 0 --from-file $v.txt -o out.html --summary $v.txt.json -q
    check $v.metric.json $v.txt.json
done
echo ok
