# The summary's startups[] (--summary JSON) are Perfetto's android_startup
# metric on the same trace (tests/tools/startupcheck.py: package, type,
# start, to_first_frame, reportFullyDrawn, the main thread's time by
# state, the well-known slices; within 1 us): cold, warm and hot starts
# (tests/tools/mkstartup.py) of Android 9's launching: slices, of Android
# 10-11's with MetricsLogger's intent-started and launch-finished slices
# (a launch that never finished: no startup), and of Android 12+'s
# launchingActivity#N slices and completed events (a canceled launch: no
# startup), and of Android 14's (every completed event with its type;
# canceled, completed-same-process and failed launches: no startup); each as a page, as plain atrace text (no process dump: the app
# found by its comm) and as a Perfetto trace written by protoc (the markers
# as ftrace print events, a process tree); and two launches at once.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
PROTOS=$TOP/../shared/reference/perfetto-protos
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "no $PROTOS"
metric() {  # trace out.json
    "$TRACE_PROCESSOR" --run-metrics android_startup --metrics-output=json "$1" >"$2" 2>tp.err ||
        { cat tp.err; fail "Perfetto's metric on $1"; }
}
check() {   # metrics.json summary.json
    python3 "$TOP/tests/tools/startupcheck.py" "$1" "$2" 3 || fail "startups of $2: $(cat "$2")"
}
for v in launching metricslogger android12 android14; do
    python3 "$TOP/tests/tools/mkstartup.py" ps.txt $v.txt $v || fail "mkstartup $v"
    python3 "$TOP/tests/browser/mkpage.py" $v.html ps.txt $v.txt || fail "mkpage $v"
    metric $v.html $v.metric.json
    run_st 0 --from-file $v.html -o out.html --summary $v.sum.json
    check $v.metric.json $v.sum.json
    grep -q '^Startups: com.example.coldstart.app cold [0-9.]* ms (fully drawn [0-9.]* ms), com.example.warm warm ' out.txt err.txt ||
        fail "no Startups line: $(cat out.txt err.txt)"
    run_st 0 --from-file $v.txt -o out.html --summary $v.txt.json -q
    check $v.metric.json $v.txt.json
    python3 "$TOP/tests/tools/mkstartup.py" ps.txt $v.textproto $v || fail "mkstartup $v proto"
    protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
        <$v.textproto >$v.perfetto-trace || fail "protoc cannot encode $v"
    metric $v.perfetto-trace $v.pf.metric.json
    run_st 0 --from-file $v.perfetto-trace -o out.html --summary $v.pf.json -q
    check $v.pf.metric.json $v.pf.json
done
# two launches at once: each app's slices are its own (before, a slice of
# one closed at another's end: the warm app's inflate 11.7 ms, not 4.0)
for v in launching android12; do
    python3 "$TOP/tests/tools/mkstartup.py" ps.txt o$v.txt $v overlap || fail "mkstartup $v"
    python3 "$TOP/tests/browser/mkpage.py" o$v.html ps.txt o$v.txt || fail "mkpage o$v"
    metric o$v.html o$v.metric.json
    run_st 0 --from-file o$v.html -o out.html --summary o$v.sum.json -q
    check o$v.metric.json o$v.sum.json
done
echo ok
