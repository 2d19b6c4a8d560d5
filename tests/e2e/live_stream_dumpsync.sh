# --stream on a device whose atrace cannot stream (periodic --async_dump
# instead): the clock-sync marker, written at the stop, is in every page.
# A dump clears the buffer it has read, so a marker written while a dump
# was read went with it: "the clock-sync marker did not come back", no host
# clock part (about 1 run in 4 with -t 1, whose stop meets the first dump).
# Made to happen every time below: a slow link keeps the first dump (1 s
# in) going past the stop (2 s in), and the marker's command is held back
# 0.7 s (--stall-on), into that dump; then a few plain runs.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

synced() {   # FILE WHAT
    assert_not_contains err.txt "clock-sync marker did not come back"
    trace_block "$1" 2 | grep -q "tracing_mark_write: trace_event_clock_sync: name=" ||
        { cat err.txt; fail "$2: the marker is not in the page"; }
    [ "$(sim_state tracing_on)" = 0 ] || fail "$2: the device is still tracing"
}

start_sim --no-stream --rate 200000 --stall-on trace_event_clock_sync:700
run_st 0 --stream -t 2 -e "$SIM_SERIAL" -o stalled.html sched gfx
grep -q '^run atrace .* --async_dump$' "$SIM_LOG" || fail "no periodic dump"
grep -q '^stall echo trace_event_clock_sync' "$SIM_LOG" || { cat "$SIM_LOG"; fail "not stalled"; }
synced stalled.html "a marker held back into a dump"

start_sim --no-stream
for i in 1 2 3; do
    run_st 0 --stream -t 1 -e "$SIM_SERIAL" -o plain$i.html sched gfx
    synced plain$i.html "run $i"
done
echo ok
