# Every way the process can be told to end goes through the stop path: the
# device is never left tracing and no temporary file is left behind.
#   SIGHUP (a closed terminal)  stops early and still writes the trace
#   a reader that went away     (`| head -c1`) loses the messages, not the capture
#   two Ctrl-Cs 10 ms apart     abandon the trace, stop tracing, exit 130, and say so
#   a Ctrl-C during the dump    (tracing stopped) only says the page is still being
#                               written; the dump goes on; a second one abandons it
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

# (the stop's `atrace --async_stop` held back 3 s, so tracing is still on
# when the second one arrives: once the dump began, tracing had stopped and
# a Ctrl-C would only say that the page is still being written)
start_sim --stall-on --async_stop:3000
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

# a Ctrl-C while the dump crosses a slow link, -t having ended the tracing
# (atrace --async_stop stopped it before its first byte): the dump goes on
# and the page is written, exit 0, as for a --stream being converted; a
# second one abandons it (exit 130), keeping what arrived.  Never tracing.
# (4 KB packets, --old-protocol: the dump arrives as it is sent, as from a
# phone; 1 MB ones at 200 KB/s would come 5 s apart)
dumping() {   # WHAT: until the dump's first bytes are on their way
    wait_for 20 grep -q '^run atrace .*--async_stop$' "$SIM_LOG" ||
        { cat err.txt; fail "$1: the dump never started"; }
    sleep 0.5
}
for n in 1 2; do
    start_sim --old-protocol --rate 200000 --event-rate 8000
    fresh_out
    "$SYSTRACE" -e "$SIM_SERIAL" -t 1 --no-compress -o slow$n.html sched gfx >out.txt \
        2>err.txt </dev/null &
    pid=$!
    track_pid $pid
    dumping "$n Ctrl-Cs during the dump"
    kill -INT $pid
    wait_for 10 grep -q "still writing the page" err.txt ||
        { cat err.txt; fail "$n Ctrl-Cs during the dump: no note after the first"; }
    [ $n = 2 ] && kill -INT $pid
    wait $pid; rc=$?
    assert_contains err.txt "tracing has stopped; still writing the page (Ctrl-C again to abandon it)"
    not_tracing "$n Ctrl-Cs during the dump"
    no_litter "$n Ctrl-Cs during the dump"
    [ $n = 2 ] && break
    [ $rc -eq 0 ] || { cat err.txt; fail "one Ctrl-C during the dump: exit $rc"; }
    assert_not_contains err.txt "interrupted"
    trace_block slow1.html 2 | grep -q sched_switch || fail "one Ctrl-C during the dump: no trace"
done
[ $rc -eq 130 ] || { cat err.txt; fail "two Ctrl-Cs during the dump: exit $rc"; }
assert_contains out.txt "Interrupted again: abandoning the page (tracing had stopped"
assert_contains err.txt "collecting the trace failed after"
assert_contains err.txt "are kept in slow2.atrace"
[ -s slow2.atrace ] || fail "two Ctrl-Cs during the dump: what arrived was not kept"
[ ! -e slow2.html ] || fail "two Ctrl-Cs during the dump: the page was written"

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
