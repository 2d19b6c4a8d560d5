# Stopping a --stream on a slow link, through the real adb server: the
# stream's backlog holds up every command that shares the link, so atrace
# is stopped first (kill -INT before the process snapshot and anything
# else), and the clock-sync marker is written at the start of the stream,
# where nothing queues yet, so it comes back in the trace and the page has
# the host clock part.  Nothing of the backlog is lost.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

line_of() {   # REGEX: the first line number of the device's log that matches
    grep -n -E -m1 "$1" "$SIM_LOG" | cut -d: -f1
}

start_sim --rate 100000 --event-rate 600
fresh_out
"$SYSTRACE" --stream -e "$SIM_SERIAL" -o slow.html sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_tracing
sleep 4
before=$(wc -l <"$SIM_LOG")     # what the device was asked before Ctrl-C
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "Ctrl-C on a slow link: exit $rc"; }
stream=$(line_of '^run exec atrace .* --stream$')
marker=$(line_of '^run echo trace_event_clock_sync: name=')
kill=$(line_of '^run kill -INT [0-9]+$')
[ -n "$stream" ] && [ -n "$marker" ] && [ -n "$kill" ] || { cat "$SIM_LOG"; fail "commands missing"; }
# the second ps: the snapshot at the end
ps_end=$(grep -n -E '^run ps -A -o ' "$SIM_LOG" | sed -n 2p | cut -d: -f1)
[ -n "$ps_end" ] || fail "no process snapshot at the end"
[ "$marker" -gt "$stream" ] && [ "$marker" -le "$before" ] || fail "the clock sync is not at the start"
[ "$(grep -c '^run echo trace_event_clock_sync: name=' "$SIM_LOG")" = 1 ] ||
    fail "the clock sync was written again at the stop"
[ "$kill" -lt "$ps_end" ] || fail "the end snapshot was taken before atrace was stopped"
assert_not_contains err.txt "clock-sync marker did not come back"
trace_block slow.html 2 | grep -q "tracing_mark_write: trace_event_clock_sync: name=" ||
    fail "the marker is not in the trace"
trace_block slow.html 3 | grep -q '"clock-domain": "SYSTRACE"' || fail "no host clock part"
n=$(sed -n 's/^stream \([0-9]*\) events, .*; stopped by SIGINT$/\1/p' "$SIM_LOG" | tail -n 1)
assert_eq "events in the page (all the device served)" "$n" \
    "$(trace_block slow.html 2 | grep -vc '^#')"
[ "$(sim_state tracing_on)" = 0 ] || fail "the device is still tracing"
echo ok
