# Several devices in one run (-e A -e B ..., --all-devices) through one real
# adb server: traced at once, one page per device (trace-SERIAL.html, and
# likewise --trace-events and raw dumps), one line per device at the end.
# A device that fails mid-dump or is unauthorized costs the others nothing
# (exit 1, its raw data kept); Ctrl-C ends tracing on all; no device is
# ever left tracing.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
safe() { echo "$1" | tr -c 'A-Za-z0-9._\n-' '_'; }
page_ok() {   # FILE WHAT
    [ -s "$1" ] || fail "$2: no page $1"
    trace_block "$1" 2 | grep -q ": sched_switch: " || fail "$2: $1 has no sched_switch"
}
all_stopped() {   # WHAT
    for s in "$T"/sim*/state; do
        [ "$(sim_state tracing_on "$s")" = 0 ] ||
            { cat out.txt err.txt "${s%/state}/out" 2>/dev/null | tail -40
              fail "$1: a device is still tracing ($s)"; }
    done
}

start_sim; A=$SIM_SERIAL
start_sim --disconnect-after 200000 --size-mb 20; B=$SIM_SERIAL
start_sim --sdk 22 --no-shell-v2 --legacy-ps; C=$SIM_SERIAL
run_st 1 -e "$A" -e "$B" -e "$C" -t 2 -o multi.html --trace-events t.json sched gfx
page_ok "multi-$(safe "$A").html" "device A"
page_ok "multi-$(safe "$C").html" "old device C"
[ -s "t-$(safe "$A").json" ] && [ -s "t-$(safe "$C").json" ] || fail "--trace-events per device"
[ ! -e "multi-$(safe "$B").html" ] || fail "the failed device got a page"
[ -s "multi-$(safe "$B").atrace" ] || fail "the failed device's raw bytes were not kept"
assert_contains out.txt "$A: wrote multi-$(safe "$A").html"
assert_contains out.txt "$B: failed: collecting the trace failed after"
assert_contains out.txt "$C: wrote multi-$(safe "$C").html"
assert_contains err.txt "1 of 3 devices failed"
grep -c "Starting tracing" out.txt | grep -qx 1 || fail "not one shared countdown"
for s in sim1 sim2 sim3; do
    [ "$(grep -c '^run atrace.*--async_start' "$T/$s/log")" = 1 ] ||
        fail "$s: not started exactly once"
done
all_stopped "one failed mid-dump"
! ls | grep -E '\.tmp\.|\.part$' || fail "temporary files left"

# an unauthorized device next to a good one
mkdir -p sim_u && : >sim_u/keys
"$ADBSIM" --port 0 --port-file sim_u/port --state-file sim_u/state --auth-keys sim_u/keys \
    >sim_u/out 2>&1 &
track_pid $!
wait_for 10 test -s sim_u/port || fail "unauthorized simulator did not start"
U=127.0.0.1:$(cat sim_u/port)
adb connect "$U" >/dev/null 2>&1
wait_for 10 sh -c "adb devices | grep -q '^$U	unauthorized'" || { adb devices; fail "not unauthorized"; }
run_st 1 -e "$A" -e "$U" -t 1 -o auth.html sched
page_ok "auth-$(safe "$A").html" "next to an unauthorized device"
assert_contains out.txt "$U: failed:"
assert_contains err.txt "unauthorized"
[ "$(sim_state starts sim_u/state)" = 0 ] || [ -z "$(sim_state starts sim_u/state)" ] ||
    fail "the unauthorized device was started"
adb disconnect "$U" >/dev/null 2>&1

# --all-devices: every device in state "device"; Ctrl-C ends tracing on all
fresh_out
"$SYSTRACE" --all-devices -t 30 -o all.html sched >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_for 20 grep -q "Starting tracing" out.txt || { cat err.txt; fail "--all-devices did not start"; }
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 1 ] || { cat out.txt err.txt; fail "--all-devices Ctrl-C: exit $rc (B fails its dump)"; }
page_ok "all-$(safe "$A").html" "--all-devices after Ctrl-C"
page_ok "all-$(safe "$C").html" "--all-devices after Ctrl-C"
all_stopped "--all-devices Ctrl-C"

# two Ctrl-Cs on slow links: nothing written, every device stopped (the
# stops held back 3 s: once both dumps began, tracing had stopped and the
# second would only say that the pages are still being written)
start_sim --rate 200000 --stall-on --async_stop:3000; D=$SIM_SERIAL
start_sim --rate 200000 --stall-on --async_stop:3000; E=$SIM_SERIAL
fresh_out
"$SYSTRACE" -e "$D" -e "$E" -t 30 -o two.html sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_for 20 grep -q "Starting tracing" out.txt || fail "did not start"
# the second once the first was taken: two sent at once can arrive as one
kill -INT $pid
wait_for 10 grep -q "Interrupted: stopping" out.txt || { cat out.txt err.txt; fail "Ctrl-C not taken"; }
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] || { cat out.txt err.txt; fail "two Ctrl-Cs: exit $rc"; }
! ls | grep -q '^two-' || fail "two Ctrl-Cs: a page was written"
all_stopped "two Ctrl-Cs"

run_st 2 -e "$A" -e "$A" -t 1
assert_contains err.txt "-e $A given twice"

# a server with no device at all
# Ctrl-Cs while both devices have sent only atrace's " done" line of their
# dumps (tracing stopped on both: the first only says the pages are still
# being written, the next abandons them): no 6-byte raw file is kept or
# offered for conversion
start_sim --dump-delay 5000; F=$SIM_SERIAL; LF=$SIM_LOG
start_sim --dump-delay 5000; G=$SIM_SERIAL; LG=$SIM_LOG
fresh_out
"$SYSTRACE" -e "$F" -e "$G" -t 30 -o early.html sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
wait_for 20 grep -q "Starting tracing" out.txt || fail "did not start"
kill -INT $pid
wait_for 10 grep -q "^run atrace.*--async_stop" "$LF" && wait_for 10 grep -q "^run atrace.*--async_stop" "$LG" ||
    fail "the dumps did not start"
sleep 0.5
kill -INT $pid
wait_for 10 grep -q "still writing the page" err.txt || { cat err.txt; fail "no note"; }
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] || { cat out.txt err.txt; fail "Ctrl-C during the dumps' start: exit $rc"; }
assert_contains err.txt "collecting the trace failed after 6 bytes: interrupted"
! ls | grep -q '^early' || { ls -l; fail "a raw file with no trace was kept"; }
assert_not_contains err.txt "convert them later"
all_stopped "Ctrl-C during the dumps' start"

kill "$ADB_SERVER_PID"; wait "$ADB_SERVER_PID" 2>/dev/null
unset ADB_PORT; start_adb_server
run_st 1 --all-devices -t 1
assert_contains err.txt "--all-devices: no device is in state \"device\""
echo ok
