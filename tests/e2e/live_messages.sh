# Live-capture messages say what happened in the user's terms, through the
# real adb server: --collection-timeout names the deadline (not
# "interrupted"), Ctrl-C before tracing started does not print the
# internal ps command, and nothing says "Received ... MB" after a failure.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

# a dump too slow for the deadline
start_sim --rate 200000 --size-mb 20
run_st 1 -o slow.html -t 1 --collection-timeout 2 sched -e "$SIM_SERIAL"
assert_contains err.txt "collection-timeout=2"
assert_not_contains err.txt "interrupted"
last=$(grep -n "systrace: $SIM_SERIAL: " err.txt | tail -n 1 | cut -d: -f1)
! sed -n "$((last + 1)),\$p" err.txt out.txt | grep -q "Received" ||
    fail "a Received line after the failure"

# Ctrl-C while the first process snapshot hangs: before tracing started
start_sim --hang-on 'ps -A'
fresh_out
"$SYSTRACE" -o int.html -t 10 -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_for 20 grep -q "^sh ps -A" "$SIM_LOG" || fail "the snapshot never started"
kill -INT $pid; wait $pid; rc=$?
[ $rc -ne 0 ] || fail "Ctrl-C before tracing: exit 0"
assert_not_contains err.txt "ps -A -o"
assert_contains err.txt "interrupted"
[ "$(sim_state tracing_on)" = 0 ] || fail "left tracing"
echo ok
