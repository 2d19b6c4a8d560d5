# A device that is already tracing is someone else's capture: a second
# systrace (--stream or not) is refused at start with one line saying so and
# how to stop the other, changes nothing on the device, and the first one
# keeps every event; a session started by hand is left running.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
served() { sed -n 's/^stream \([0-9]*\) events, .*/\1/p' "$SIM_LOG" | tail -n 1; }
page_events() { trace_block "$1" 2 | grep -vc '^#'; }

start_sim --event-rate 20000
"$SYSTRACE" --stream -t 6 -o first.html -e "$SIM_SERIAL" sched gfx >out1.txt 2>err1.txt \
    </dev/null &
p1=$!
track_pid $p1
wait_for 20 grep -q "Starting tracing" out1.txt || fail "the first capture did not start"
starts=$(grep -c "^run atrace .*-\(-async_start\|-stream\)" "$SIM_LOG")
for mode in --stream ""; do
    run_st 1 $mode -t 1 -o second.html -e "$SIM_SERIAL" sched
    assert_contains err.txt "the device is already tracing (another capture is running on it"
    assert_contains err.txt "stop it first with \`adb -s $SIM_SERIAL shell atrace --async_stop\`"
    [ "$(grep -c . err.txt)" = 1 ] || { cat err.txt; fail "$mode: not one line"; }
    [ ! -e second.html ] || fail "$mode: the second capture wrote a page"
done
[ "$(grep -c "^run atrace .*-\(-async_start\|-stream\)" "$SIM_LOG")" = "$starts" ] ||
    { grep "^run atrace" "$SIM_LOG"; fail "the refused captures started atrace"; }
wait $p1; rc=$?
[ $rc = 0 ] || { cat out1.txt err1.txt; fail "the first capture: exit $rc"; }
assert_contains out1.txt "(0 lost)"
assert_eq "the first capture's events" "$(served)" "$(page_events first.html)"
[ "$(sim_state tracing_on)" = 0 ] || fail "the device was left tracing"

# a session started by hand: refused, and left running
sadb shell atrace --async_start -b 1024 sched >/dev/null 2>&1
[ "$(sim_state tracing_on)" = 1 ] || fail "atrace --async_start by hand did not start tracing"
run_st 1 -t 1 -o third.html -e "$SIM_SERIAL" gfx
assert_contains err.txt "the device is already tracing"
[ "$(sim_state tracing_on)" = 1 ] || fail "the session started by hand was stopped"
[ "$(sim_state categories)" = sched ] || fail "its categories were changed: $(sim_state categories)"
sadb shell atrace --async_stop >/dev/null 2>&1
echo ok
