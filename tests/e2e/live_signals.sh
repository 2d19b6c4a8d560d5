# Every way the process can be told to end goes through the stop path: the
# device is never left tracing and no temporary file is left behind.
#   SIGHUP (a closed terminal)  stops early and still writes the trace
#   a reader that went away     (`| head -c1`) loses the messages, not the capture
#   two Ctrl-Cs 10 ms apart     abandon the trace, stop tracing, exit 130, and say so
#   a third Ctrl-C              exits at once and prints the command that stops the device
#   SIGQUIT                     like SIGTERM: stop, write nothing, exit 131
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

no_litter() {   # WHAT
    ! ls -a | grep -E '\.tmp\.|\.part$' || fail "$1: temporary file left"
}
not_tracing() {   # WHAT
    [ "$(sim_state tracing_on)" = 0 ] || fail "$1: the device is still tracing"
}
bg_run() {   # OUT ARGS... (on the device started last)
    fresh_out
    "$SYSTRACE" -e "$SIM_SERIAL" -o "$@" >out.txt 2>err.txt </dev/null &
    pid=$!
    track_pid $pid
    wait_tracing
}

bg_run hup.html -t 30 sched gfx
kill -HUP $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "SIGHUP: exit $rc"; }
assert_contains out.txt "Hang-up: stopping the trace early and collecting it"
trace_block hup.html 2 | grep -q sched_switch || fail "SIGHUP: trace not written"
not_tracing SIGHUP
no_litter SIGHUP

# stdout is a pipe whose reader leaves after one byte
{ "$SYSTRACE" -o pipe.html -t 2 sched gfx 2>pipe.err </dev/null; echo $? >pipe.rc; } |
    head -c1 >/dev/null
[ "$(cat pipe.rc)" = 0 ] || { cat pipe.err; fail "stdout closed: exit $(cat pipe.rc)"; }
trace_block pipe.html 2 | grep -q sched_switch || fail "stdout closed: trace not written"
not_tracing "stdout closed"
no_litter "stdout closed"

# (a slow link and a dump that waits 3 s, so the collection is still under
# way when the second one arrives: a short dump at 200 KB/s could be done
# by then on a loaded machine, and then the trace is written: exit 0)
start_sim --rate 200000 --dump-delay 3000
bg_run twice.html -t 30 sched gfx
kill -INT $pid
# the second once the first was taken: two sent at once can merge into one
# pending signal on a loaded machine (then the trace is written, exit 0)
wait_for 10 grep -q "Collecting output" out.txt || fail "the first Ctrl-C did not stop tracing"
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || { cat err.txt; fail "two Ctrl-Cs: exit $rc"; }
assert_contains out.txt "Interrupted again: abandoning the trace and stopping tracing"
[ ! -e twice.html ] || fail "two Ctrl-Cs: output written"
not_tracing "two Ctrl-Cs"
no_litter "two Ctrl-Cs"

start_sim
bg_run quit.html -t 30 sched
kill -QUIT $pid; wait $pid; rc=$?
[ $rc -eq 131 ] || { cat err.txt; fail "SIGQUIT: exit $rc"; }
[ ! -e quit.html ] || fail "SIGQUIT: output written"
not_tracing SIGQUIT
no_litter SIGQUIT

# a device that never answers the stop: the third Ctrl-C leaves at once and
# says how to stop the device by hand
start_sim --hang-on "--async_stop"
fresh_out
"$SYSTRACE" -o hang.html -t 30 -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_tracing
kill -INT $pid
wait_for 20 grep -q "Collecting output" out.txt || fail "collection never started"
sleep 0.3
kill -INT $pid
wait_for 20 grep -q "Interrupted again" out.txt || fail "second Ctrl-C not taken"
sleep 0.3
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || { cat err.txt; fail "third Ctrl-C: exit $rc"; }
assert_contains err.txt "exiting now"
assert_contains err.txt "adb -s $SIM_SERIAL shell atrace --async_stop"
[ ! -e hang.html ] || fail "third Ctrl-C: output written"
no_litter "third Ctrl-C"
echo ok
