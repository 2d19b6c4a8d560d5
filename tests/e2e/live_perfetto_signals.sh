# --perfetto where users stand: Ctrl-C twice (the second abandons the
# trace), timeout(1) (two SIGTERMs at once) and standard output into
# `head -c1` (SIGPIPE ignored, EPIPE) leave no session recording and no
# file on the device.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
# the stop never answers, so the second Ctrl-C always comes while it is
# under way (the trace is read while it records: the rest of a stop takes
# a few ms, and a second Ctrl-C after it would find the page written)
start_sim --hang-on "kill -TERM"

running() { [ "$(sed -n 's/^perfetto_running=//p' "$SIM_STATE")" = 1 ]; }

# -- Ctrl-C twice: nothing written, exit 130, the device clean
fresh_out
"$SYSTRACE" --perfetto -t 30 -o twice.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
st=$!
wait_for 20 running || { cat err.txt; fail "no session started"; }
kill -INT $st
# the second once the stop is under way (the first was seen)
wait_for 10 grep -q "kill -TERM" "$SIM_LOG" || fail "the first Ctrl-C did not stop the session"
kill -INT $st
wait $st
rc=$?
[ $rc = 130 ] || { cat out.txt err.txt; ls; fail "Ctrl-C twice: exit $rc"; }
wait_for 10 sh -c "[ \"\$(sed -n 's/^perfetto_running=//p' '$SIM_STATE')\" = 0 ]" || true
pf_no_session "Ctrl-C twice"
! ls | grep -q '\.tmp\.' || fail "temporary files left"

# -- timeout(1) sends SIGTERM to systrace and then to its whole process
# group: two at once, one request. Nothing written (exit 124, timeout's),
# and still no session recording and no file left (the second used to
# exit at once, leaving both: a busy capture takes the first before the
# second comes, as here with a large trace)
start_sim --size-mb 20
timeout -s TERM 3 "$SYSTRACE" --perfetto -o timeout.html -e "$SIM_SERIAL" sched \
    >out.txt 2>err.txt </dev/null
rc=$?
[ $rc = 124 ] || { cat out.txt err.txt; fail "timeout: exit $rc"; }
assert_not_contains err.txt "exiting now"
[ ! -e timeout.html ] || fail "timeout: a page was written"
pf_no_session "timeout(1)"

# -- the page to a pipe whose reader leaves at once
start_sim
"$SYSTRACE" --perfetto -t 1 -o - -e "$SIM_SERIAL" sched 2>pipe.err </dev/null | head -c1 >/dev/null
pf_no_session "stdout into head -c1"
echo ok
