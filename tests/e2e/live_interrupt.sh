# Never leave the device tracing: Ctrl-C while tracing stops early and still
# writes the trace; SIGTERM stops tracing and writes nothing; a dropped
# connection mid-dump keeps the raw bytes and says where.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

fresh_out
"$SYSTRACE" -o int.html -t 30 sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
wait_tracing
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "Ctrl-C: exit $rc"; }
assert_contains out.txt "Interrupted: stopping the trace early"
[ "$(sim_state tracing_on)" = 0 ] || fail "Ctrl-C left the device tracing"
trace_block int.html 2 | grep -q sched_switch || fail "Ctrl-C: trace not written"

fresh_out
"$SYSTRACE" -o term.html -t 30 sched >out.txt 2>err.txt </dev/null &
pid=$!
wait_tracing
kill -TERM $pid; wait $pid; rc=$?
[ $rc -eq 143 ] || { cat err.txt; fail "SIGTERM: exit $rc"; }
[ "$(sim_state tracing_on)" = 0 ] || fail "SIGTERM left the device tracing"
[ ! -e term.html ] || fail "SIGTERM wrote an output"
ls | grep -q '\.tmp\.' && fail "temp file left"

start_sim --disconnect-after 200000 --size-mb 20
run_st 1 -o cut.html -t 1 sched gfx -e "$SIM_SERIAL"
assert_contains err.txt "collecting the trace failed after"
assert_contains err.txt "kept in cut.atrace"
[ ! -e cut.html ] || fail "half output written"
[ -s cut.atrace ] || fail "raw bytes not kept"
# what was kept converts (it is truncated: exit 3 with a message)
"$SYSTRACE" --from-file cut.atrace -o kept.html -q 2>err2.txt; rc=$?
[ $rc -eq 3 ] || { cat err2.txt; fail "raw dump does not convert (exit $rc)"; }

# Ctrl-C, then more while the dump has sent only atrace's " done" line (no
# trace yet; tracing stopped, so the first of them only says the page is
# still being written): the next abandons it (n=2), the one after that exits
# at once (n=3); nothing that would not convert is kept, nor advertised
for n in 2 3; do
    start_sim --dump-delay 5000
    fresh_out
    "$SYSTRACE" -o quick$n.html -t 30 sched gfx -e "$SIM_SERIAL" >out.txt 2>err.txt </dev/null &
    pid=$!
    wait_tracing
    kill -INT $pid
    wait_for 10 grep -q "^run atrace.*--async_stop" "$SIM_LOG" || fail "no dump started"
    sleep 0.5
    kill -INT $pid
    wait_for 10 grep -q "still writing the page" err.txt || { cat err.txt; fail "$n: no note"; }
    kill -INT $pid
    [ $n = 3 ] && { sleep 0.2; kill -INT $pid; }
    wait $pid; rc=$?
    [ $rc -eq 130 ] || { cat err.txt; fail "$n Ctrl-Cs: exit $rc"; }
    ! ls | grep -q "^quick$n" || { ls -l; fail "$n Ctrl-Cs: a file was kept"; }
    assert_not_contains err.txt "convert them later"
done
echo ok
