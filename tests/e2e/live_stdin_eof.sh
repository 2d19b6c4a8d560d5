# No -t and a standard input that can never deliver an Enter (a script,
# cron, CI, `&`: /dev/null or a closed pipe), through the real adb server:
# the capture does not end at once with nothing ("Received 0.0 MB", exit 0)
# but traces until a signal, saying so in one line; Ctrl-C and SIGHUP then
# write the page, and the device ends not tracing.  A pipe that does send
# an Enter still ends it.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

not_tracing() {   # WHAT
    [ "$(sim_state tracing_on)" = 0 ] || fail "$1: the device is still tracing"
}
still_tracing() {   # PID WHAT: two seconds after the start, still at it
    sleep 2
    kill -0 "$1" 2>/dev/null || { cat out.txt err.txt; fail "$2: the capture ended by itself"; }
    [ "$(sim_state tracing_on)" = 1 ] || fail "$2: the device stopped tracing"
}

# standard input is /dev/null; Ctrl-C ends it and the page is written
fresh_out
"$SYSTRACE" -e "$SIM_SERIAL" -o null.html sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_tracing
still_tracing $pid "/dev/null"
assert_contains out.txt "tracing until interrupted"
assert_contains out.txt "use -t for a fixed time"
[ "$(grep -c "tracing until interrupted" out.txt)" = 1 ] || fail "said more than once"
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "/dev/null then Ctrl-C: exit $rc"; }
trace_block null.html 2 | grep -q ': sched_switch: ' || fail "/dev/null: no events in the page"
not_tracing "/dev/null"

# a pipe whose writer is gone (`true | systrace ...`), ended by SIGHUP
fresh_out
true | { "$SYSTRACE" --stream -e "$SIM_SERIAL" -o pipe.html sched >out.txt 2>err.txt &
         echo $! >pid; wait; }  &
track_pid $!
wait_for 10 test -s pid || fail "no pid"
pid=$(cat pid)
wait_tracing
still_tracing $pid "closed pipe"
assert_contains out.txt "tracing until interrupted"
kill -HUP $pid
wait_for 30 sh -c "! kill -0 $pid" || fail "SIGHUP did not end it"
trace_block pipe.html 2 | grep -q ': sched_switch: ' || fail "closed pipe: no events in the page"
not_tracing "closed pipe"

# a pipe that sends an Enter still ends it, without the note
{ sleep 1; echo; } | "$SYSTRACE" -e "$SIM_SERIAL" -o enter.html sched >out.txt 2>err.txt ||
    { cat err.txt; fail "Enter from a pipe"; }
assert_not_contains out.txt "tracing until interrupted"
[ -s enter.html ] || fail "Enter from a pipe: no page"
echo ok
