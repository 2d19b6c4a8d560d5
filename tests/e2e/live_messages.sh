# Live-capture messages say what happened in the user's terms, through the
# real adb server: --collection-timeout names the deadline (not
# "interrupted"), Ctrl-C before tracing started does not print the
# internal ps command, nothing says "Received ... MB" after a failure, and
# a dump without events is an error, not a blank page.
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

# a dump of atrace's header and no event: no page (it would be blank),
# exit 1, and no advice about a full buffer (it was empty)
printf '# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:8\n#\n' >hdr.txt
start_sim --trace-file "$T/hdr.txt"
run_st 1 -o empty.html -t 1 sched -e "$SIM_SERIAL"
assert_contains err.txt "no trace events found: the device's trace holds only its header"
assert_not_contains err.txt "buffer"
[ ! -e empty.html ] || fail "a page without events was written"
[ "$(sim_state tracing_on)" = 0 ] || fail "left tracing"
echo ok
