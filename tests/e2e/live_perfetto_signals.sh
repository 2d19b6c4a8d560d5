# --perfetto where users stand: Ctrl-C twice (the second abandons the
# trace) and standard output into `head -c1` (SIGPIPE ignored, EPIPE)
# leave no session recording and no file on the device.
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

# -- the page to a pipe whose reader leaves at once
start_sim
"$SYSTRACE" --perfetto -t 1 -o - -e "$SIM_SERIAL" sched 2>pipe.err </dev/null | head -c1 >/dev/null
pf_no_session "stdout into head -c1"
echo ok
