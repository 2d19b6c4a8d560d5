# A --stream cut short by its link, through the real adb server: the page
# is written from what arrived with everything the capture already has
# (the process dump taken at the start, the TGID repair), the message says
# the capture was cut short, the exit status is 3 (written from a
# truncated input), and no raw file repeats what the page holds.  The
# same for a device that never comes back, and for one device of two.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

served() {   # [LOG]: events the device's last stream served
    sed -n 's/^stream \([0-9]*\) events, .*/\1/p' "${1:-$SIM_LOG}" | tail -n 1
}
page_events() {   # FILE
    trace_block "$1" 2 | grep -vc '^#'
}
has_names() {   # FILE WHAT: the process dump first, with the device's names
    trace_block "$1" 1 | grep -q "^PROCESS DUMP" || fail "$2: no process dump before the trace"
    trace_block "$1" 1 | grep -q "surfaceflinger" || fail "$2: no process names"
}

# -- the link drops after 2 MB and is back 0.1 s later
start_sim --disconnect-after 2000000 --reconnect-after 100
run_st 3 --stream -t 30 -o drop.html -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "the trace stream ended early, after 2.0 MB (the connection to the device dropped"
assert_contains err.txt "cut short"
assert_contains err.txt "drop.html holds the 2000000 bytes that arrived"
[ -s drop.html ] || fail "link drop: no page"
[ ! -e drop.atrace ] || fail "link drop: a raw file repeats the page"
has_names drop.html "link drop"
n=$(served)
k=$(page_events drop.html)
[ "$k" -ge "$n" ] && [ "$k" -le $((n + 1)) ] || fail "the page has $k events, the device served $n"
trace_block drop.html 2 | grep -q "^ *surfaceflinger-500 ( 500) " || fail "no TGID repair"
grep -q "^run atrace --async_stop$" "$SIM_LOG" || fail "the device was not reset"
[ "$(sim_state tracing_on)" = 0 ] || fail "link drop: device left tracing"
! ls -a | grep -E '\.tmp\.' || fail "link drop: temporary file left"

# -- the device never comes back: the page still, and the stop command named
start_sim --disconnect-after 1000000 --reconnect-after never
run_st 3 --stream -t 30 --timeout 3 -o gone.html -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "run \`adb -s $SIM_SERIAL shell atrace --async_stop\` to stop it"
assert_contains err.txt "cut short"
[ -s gone.html ] || fail "device gone: no page"
[ ! -e gone.atrace ] || fail "device gone: a raw file repeats the page"
has_names gone.html "device gone"
[ "$(page_events gone.html)" -gt 1000 ] || fail "device gone: the page lacks the events"

# -- one device of two drops: both pages, the run exits 3, the summary says which
start_sim --event-rate 30000; A=$SIM_SERIAL
start_sim --disconnect-after 1000000 --reconnect-after 100; B=$SIM_SERIAL
run_st 3 --stream -e "$A" -e "$B" -t 3 -o two.html sched gfx
safe() { echo "$1" | tr -c 'A-Za-z0-9._\n-' '_'; }
assert_contains out.txt "$A: wrote two-$(safe "$A").html"
assert_contains out.txt "$B: wrote two-$(safe "$B").html"
grep -q "^$B: wrote .*cut short" out.txt || fail "the summary does not say which was cut short"
[ "$(page_events "two-$(safe "$B").html")" -gt 1000 ] || fail "device B: the page lacks the events"
! grep -q "devices failed" err.txt || fail "a cut-short device counted as failed"
echo ok
