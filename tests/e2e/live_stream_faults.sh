# --stream on Android when things go wrong, through the real adb server:
# the link drops mid-stream (the page holds what arrived, exit 3; the
# device, whose atrace died with tracing on, is reset once back, or the
# message says how), a slow link makes the device's kernel
# overwrite events (counted, said, kept as comments), an atrace without
# --stream (periodic --async_dump instead, said), -k without root, and two
# devices streaming at once, each keeping every event it served.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

served() {   # [LOG]: events the device's last stream served
    sed -n 's/^stream \([0-9]*\) events, .*/\1/p' "${1:-$SIM_LOG}" | tail -n 1
}
page_events() {   # FILE [BLOCK]
    trace_block "$1" "${2:-2}" | grep -vc '^#'
}
state_is_clean() {   # WHAT
    [ "$(sim_state tracing_on)" = 0 ] || fail "$1: device left tracing"
    [ -z "$(sim_state categories)" ] || fail "$1: categories left: $(sim_state categories)"
    [ "$(sim_state buffer_kb)" = 1 ] || fail "$1: buffer left at $(sim_state buffer_kb) KB"
}

# -- the link drops after 2 MB and is back 0.1 s later: the device's atrace
# died writing (tracing left on), the page holds what arrived, the device reset
# (more in live_stream_cut.sh)
start_sim --disconnect-after 2000000 --reconnect-after 100
run_st 3 --stream -t 30 -o drop.html -e "$SIM_SERIAL" sched gfx
grep -q "^stream .* killed by SIGPIPE$" "$SIM_LOG" || fail "the device's atrace did not die"
assert_contains err.txt "the trace stream ended early, after 2.0 MB (the connection to the device dropped"
assert_contains err.txt "drop.html holds the 2000000 bytes that arrived"
assert_contains out.txt "Tracing ended on its own"
grep -q "^run atrace --async_stop$" "$SIM_LOG" || fail "the device was not reset"
state_is_clean "link drop"
n=$(served)
k=$(page_events drop.html)
[ "$k" -ge "$n" ] && [ "$k" -le $((n + 1)) ] || fail "the page has $k events, the device served $n"

# -- the device never comes back: bounded wait, the page written, the command
# that stops the device named
start_sim --disconnect-after 1000000 --reconnect-after never
run_st 3 --stream -t 30 --timeout 3 -o gone.html -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "waiting up to 3 s for it to come back"
assert_contains err.txt "run \`adb -s $SIM_SERIAL shell atrace --async_stop\` to stop it"
assert_contains err.txt "gone.html holds the 1000000 bytes that arrived"
[ -s gone.html ] || fail "no page"

# -- a slow link: the device's kernel overwrites what atrace could not send
start_sim --rate 500000 --event-rate 40000
run_st 0 --stream -t 3 -b 64 -o lost.html -e "$SIM_SERIAL" sched gfx view
lost=$(sim_state stream_lost)
[ "$lost" -gt 0 ] || fail "the simulator lost nothing: the test is void"
assert_contains err.txt "the device's kernel overwrote $lost events before atrace read them"
assert_contains out.txt "($lost lost)"
assert_eq "events in the page" "$(served)" "$(page_events lost.html)"
trace_block lost.html 2 | grep -q "^# CPU:0 \[LOST [0-9]* EVENTS\]$" || fail "no LOST comment"

# -- an atrace without --stream: --async_dump every second instead, said once
# (stopped by Ctrl-C after three dumps: on a loaded machine a dump can take
# longer than its second, and a fixed -t then saw fewer)
start_sim --no-stream
fresh_out
"$SYSTRACE" --stream -t 60 -o dumps.html -e "$SIM_SERIAL" sched gfx >out.txt 2>err.txt </dev/null &
pid=$!
track_pid $pid
dumps() { [ "$(grep -c '^run atrace -z -t 60 -b 16384 sched gfx --async_dump$' "$SIM_LOG")" -ge "$1" ]; }
wait_for 50 dumps 3 || fail "not dumped periodically"
kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 0 ] || { cat err.txt; fail "Ctrl-C while dumping: exit $rc"; }
assert_contains err.txt "the device's atrace cannot stream (atrace: unknown option -- stream); dumping its trace buffer every 1 s instead (-b 16384 KB per CPU)"
grep -q '^run atrace -z -t 60 -b 16384 sched gfx --async_stop$' "$SIM_LOG" || fail "no last dump"
trace_block dumps.html 2 >dumps.txt
assert_eq "ftrace headers" 1 "$(grep -c '^# tracer:' dumps.txt)"
python3 - dumps.txt <<'PY' || fail "the dumps do not cover the capture"
import re, sys
ts = [float(m.group(1)) for m in (re.search(r' (\d+\.\d{6}): ', l) for l in open(sys.argv[1]))
      if m]
assert len(ts) > 1000, len(ts)
assert max(ts) - min(ts) > 2.5, (min(ts), max(ts))
PY
state_is_clean "no --stream"
# the kernel's own count of overwritten events, from each dump's header
start_sim --no-stream --overflow
run_st 0 --stream -t 2 -b 256 -o over.html -e "$SIM_SERIAL" sched
assert_contains err.txt "the device's trace buffer overflowed between dumps and"
grep -q '^run atrace -z -t 2 -b 256 sched --async_dump$' "$SIM_LOG" || fail "-b not used"

# -- -k without root: atrace says it cannot start; the device is reset
start_sim --no-root
run_st 1 --stream -k vfs_read -t 1 -o k.html -e "$SIM_SERIAL" sched
assert_contains err.txt "atrace --stream failed: "
assert_contains err.txt "kernel function tracing (-k) needs root"
state_is_clean "-k without root"

# -- two devices stream at once: one page each, every event each served
start_sim --event-rate 30000; A=$SIM_SERIAL; LA=$SIM_LOG; SA=$SIM_STATE
start_sim --event-rate 50000 --seed 7; B=$SIM_SERIAL; LB=$SIM_LOG; SB=$SIM_STATE
run_st 0 --stream -e "$A" -e "$B" -t 3 -o two.html sched gfx
safe() { echo "$1" | tr -c 'A-Za-z0-9._\n-' '_'; }
assert_eq "device A: events" "$(served "$LA")" "$(page_events "two-$(safe "$A").html")"
assert_eq "device B: events" "$(served "$LB")" "$(page_events "two-$(safe "$B").html")"
assert_contains out.txt "$A: wrote two-$(safe "$A").html"
assert_contains out.txt "$B: wrote two-$(safe "$B").html"
[ "$(grep -c 'Starting tracing' out.txt)" = 1 ] || fail "not one shared wait"
for s in "$SA" "$SB"; do
    [ "$(sim_state tracing_on "$s")" = 0 ] || fail "a device is still tracing ($s)"
done
! ls | grep -E '\.tmp\.' || fail "temporary files left"
echo ok
