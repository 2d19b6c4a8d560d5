# --stream where users stand, through the real adb server: a closed
# terminal (SIGHUP) stops early and writes the page; stdout piped into
# `head -c1` loses the messages, not the stream; `-o` naming a directory is
# refused before the device is touched; a slow link that drops writes the
# page of what arrived.  Every time the device ends not tracing and no
# temporary file is left.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

not_tracing() {   # WHAT
    [ "$(sim_state tracing_on)" = 0 ] || fail "$1: the device is still tracing"
}
no_litter() {   # WHAT
    ! ls -a | grep -E '\.tmp\.|\.part$' || fail "$1: temporary file left"
    ! ls "$TMPDIR" | grep -E '^systrace-out\.' || fail "$1: staging file left in TMPDIR"
}
has_events() {   # FILE WHAT [BLOCK]
    trace_block "$1" "${3:-2}" | grep -q ': sched_switch: ' || fail "$2: no events in $1"
}

# a closed terminal
start_sim --event-rate 20000
fresh_out
"$SYSTRACE" --stream -t 60 -e "$SIM_SERIAL" -o hup.html sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_tracing
sleep 1
kill -HUP $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "SIGHUP: exit $rc"; }
assert_contains out.txt "Hang-up: stopping the trace early and collecting it"
has_events hup.html SIGHUP
not_tracing SIGHUP
no_litter SIGHUP

# stdout's reader leaves after one byte
{ "$SYSTRACE" --stream -t 2 -e "$SIM_SERIAL" -o pipe.html sched gfx 2>pipe.err </dev/null
  echo $? >pipe.rc; } | head -c1 >/dev/null
[ "$(cat pipe.rc)" = 0 ] || { cat pipe.err; fail "stdout closed: exit $(cat pipe.rc)"; }
has_events pipe.html "stdout closed"
not_tracing "stdout closed"
no_litter "stdout closed"

# -o naming a directory: refused before the stream starts
mkdir adir
: >"$SIM_LOG"
run_st 1 --stream -t 2 -e "$SIM_SERIAL" -o adir sched gfx
assert_contains err.txt "adir"
[ "$(grep -c . err.txt)" = 1 ] || { cat err.txt; fail "-o DIR: not one line"; }
! grep -qE "(^run |[;&|] *|exec )atrace( |$)" "$SIM_LOG" || fail "-o DIR: the device was asked to trace"
[ -z "$(ls adir)" ] || fail "-o DIR: something was written into it"

# a slow link that drops mid-stream and is back 0.1 s later: the page
# holds what arrived (exit 3), no raw file repeats it
start_sim --rate 300000 --event-rate 20000 --disconnect-after 400000 --reconnect-after 100
run_st 3 --stream -t 30 -e "$SIM_SERIAL" -o drop.html sched gfx
assert_contains err.txt "the trace stream ended early"
assert_contains err.txt "drop.html holds the 400000 bytes that arrived"
[ ! -e drop.atrace ] || fail "drop: a raw file repeats the page"
has_events drop.html "drop: the page"
not_tracing drop
no_litter drop

# Ctrl-C while a big stream is converted, tracing already off: the page is
# still written (one line says how to abandon it); the Ctrl-C after that
# abandons the page, keeps the spool, and says nothing of stopping tracing
start_sim --event-rate 400000
converting() {   # the stop phase is over: the /proc listing for the TGID fix
    wait_for 60 grep -q "task/\[0-9\]" "$SIM_LOG" || fail "the conversion never started"
}
noted() {   # until the first Ctrl-C's note is out (polled tightly: a quiet
            # machine converts this stream in well under a second)
    i=0
    while ! grep -q "still writing the page" err.txt; do
        i=$((i + 1)); [ $i -gt 2000 ] && fail "no note after the first Ctrl-C"
        sleep 0.005
    done
}
for n in 1 2; do
    # the second run traces longer, so its conversion outlasts the two Ctrl-Cs
    "$SYSTRACE" --stream -t $((n * 3)) -e "$SIM_SERIAL" -o conv$n.html sched gfx >out.txt \
        2>err.txt </dev/null &
    pid=$!
    converting
    kill -INT $pid
    [ $n = 2 ] && { noted; kill -INT $pid; }
    wait $pid; rc=$?
    [ $n = 2 ] || [ $rc = 0 ] || { cat out.txt err.txt; fail "one Ctrl-C during the conversion: exit $rc"; }
    assert_contains err.txt "tracing has stopped; still writing the page (Ctrl-C again to abandon it)"
    assert_not_contains err.txt "could not stop tracing"
    not_tracing "Ctrl-C $n during the conversion"
    : >"$SIM_LOG"   # opened for appending: the next run's lines start it again
done
[ $rc = 130 ] || { cat out.txt err.txt; fail "two Ctrl-Cs during the conversion: exit $rc"; }
assert_contains out.txt "Interrupted again: abandoning the page (tracing had stopped"
assert_contains err.txt "kept in conv2.atrace"
[ ! -e conv2.html ] || fail "the abandoned page was written"
[ -s conv1.html ] || fail "one Ctrl-C during the conversion lost the page"
rm -f conv2.atrace
echo ok
