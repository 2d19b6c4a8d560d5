# The main job: systrace -o trace.html -t N sched gfx against the simulated
# device through the real adb server.  Checks the exact device commands
# (catapult's sequence and argument order), the parts and their order,
# the TGID repair, the clock sync, and that the device ends not tracing.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim
run_st 0 -o trace.html -t 1 sched gfx
assert_contains out.txt "Starting tracing (1 seconds)"
assert_contains out.txt "Tracing completed. Collecting output..."
assert_contains out.txt "Wrote trace HTML file: file://$T/trace.html"
[ "$(sim_state tracing_on)" = 0 ] || fail "device left tracing"
grep -q "^run atrace -z -t 1 -b 4096 sched gfx --async_start$" "$SIM_LOG" ||
    fail "async_start argv differs from catapult's"
grep -q "^run atrace -z -t 1 -b 4096 sched gfx --async_stop$" "$SIM_LOG" ||
    fail "async_stop argv"
grep -q "^run echo trace_event_clock_sync: name=[0-9a-f-]\{36\}$" "$SIM_LOG" || fail "sync"
"$BUILD/tools/htmlblocks" trace.html check >/dev/null || fail layout
n=$("$BUILD/tools/htmlblocks" trace.html count)
[ "$n" = 3 ] || fail "$n parts, expected process dump, ftrace, controller"
trace_block trace.html 1 | head -1 | grep -q '^PROCESS DUMP$' || fail "part 1 not PROCESS DUMP"
trace_block trace.html 2 >ftrace.txt
head -1 ftrace.txt | grep -q '^# tracer: nop$' || fail "part 2 not ftrace"
grep -q 'TASK-PID' ftrace.txt || fail "no TASK-PID header line"
grep -q 'sched_switch' ftrace.txt || fail "no sched events"
grep -q 'tracing_mark_write: B|' ftrace.txt || fail "no gfx slices"
# TGID repair: the simulator's kernel prints (-----); most lines get fixed
fixed=$(grep -c '( *[0-9][0-9]*) \[' ftrace.txt)
left=$(grep -v '^ *<idle>' ftrace.txt | grep -c '(-----)')
[ "$fixed" -gt 100 ] || fail "only $fixed lines with a TGID"
[ "$left" -lt "$fixed" ] || fail "$left lines still without TGID"
id=$(sed -n 's/^run echo trace_event_clock_sync: name=//p' "$SIM_LOG")
grep -q "trace_event_clock_sync: name=$id" ftrace.txt || fail "sync marker not in trace"
trace_block trace.html 3 >ctl.json
python3 - "$id" <<'PY' || fail "controller part"
import json, sys
d = json.load(open('ctl.json'))
ev = d['traceEvents'][0]
assert d['metadata']['clock-domain'] == 'SYSTRACE'
assert ev['ph'] == 'c' and ev['args']['sync_id'] == sys.argv[1], ev
assert ev['args']['issue_ts'] <= ev['ts']
PY
ls | grep -q -e '\.tmp\.' -e '\.atrace' && fail "temporary or raw file left behind"
echo ok
