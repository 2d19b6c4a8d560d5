# On a terminal: a countdown while tracing, then bytes received and the
# rate while collecting; Enter stops a trace without -t; a second Ctrl-C
# during collection, before the dump began, abandons the trace, stops
# tracing and exits 130.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
command -v script >/dev/null || skip "script(1) absent (bsdutils)"
start_adb_server
start_sim --size-mb 30 --rate 6000000
# script(1) gives systrace a pseudo-terminal; its output is the screen
script -qec "'$SYSTRACE' -o tty.html -t 2 sched gfx" screen.txt </dev/null >/dev/null 2>&1 ||
    { cat screen.txt; fail "systrace on a pty failed"; }
grep -q "Tracing: 2 s left" screen.txt || { cat screen.txt; fail "no countdown"; }
grep -q "Collecting trace: [0-9.]* MB received ([0-9.]* MB/s)" screen.txt ||
    { cat screen.txt; fail "no collection progress"; }
[ -s tty.html ] || fail "no output"

# no stale count stays on screen: every progress line is erased before the
# next message (ESC [K after the carriage return)
grep -q "$(printf '\r\033\[K')Tracing: 2 s left" screen.txt || fail "countdown not erased"

# without -t, on a terminal: the elapsed time, until Enter
start_sim
{ sleep 2.5; echo; } | script -qec "'$SYSTRACE' -o enter-tty.html -e '$SIM_SERIAL' sched" \
    screen2.txt >/dev/null 2>&1 || { cat screen2.txt; fail "Enter on a pty failed"; }
grep -q "Tracing: 0:01 (press Enter to stop)" screen2.txt ||
    { cat screen2.txt; fail "no elapsed time while waiting for Enter"; }
[ -s enter-tty.html ] || fail "Enter on a pty: no output"

# without -t, Enter stops the trace
{ sleep 2; echo; } | "$SYSTRACE" -o enter.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt ||
    { cat err.txt; fail "Enter run failed"; }
assert_contains out.txt "Starting tracing (stop with enter)"
[ "$(sim_state tracing_on)" = 0 ] || fail "left tracing"

# Ctrl-C while tracing stops early; a second one during the (slow)
# collection, before the dump began (the stop held back 3 s; after, it
# would only say that the page is still being written), abandons it:
# tracing stopped, nothing written, status 130
start_sim --size-mb 40 --rate 1000000 --stall-on --async_stop:3000
fresh_out
"$SYSTRACE" -o twice.html -t 60 -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
pid=$!
wait_tracing ||
    fail "tracing never started"
kill -INT $pid
wait_for 20 grep -q "Collecting output" out.txt || fail "collection never started"
sleep 0.3
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] || { cat err.txt; fail "second Ctrl-C: exit $rc, expected 130"; }
assert_contains out.txt "Interrupted again: abandoning the trace and stopping tracing"
[ "$(sim_state tracing_on)" = 0 ] || fail "second Ctrl-C left the device tracing"
[ ! -e twice.html ] || fail "output written after abort"
ls | grep -q "\.tmp\." && fail "temporary file left after the second Ctrl-C"
echo ok
