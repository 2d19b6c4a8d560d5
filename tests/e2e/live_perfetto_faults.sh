# --perfetto's waiting and its failure paths, through the real adb server:
# while the session records the host waits inside ONE device shell loop
# (no process per poll) that also ends the wait when the session ends on
# its own; a link that drops while recording (and comes back, or not); a
# pull that breaks off (fetched again) or is refused with cat refused too
# (nothing written, the session stopped and its file removed); a trace
# that cannot be converted (kept, named, byte for byte the device's).
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

no_outputs() {   # WHAT BASE: no page, no trace, no temporary file
    [ ! -e "$2.html" ] || fail "$1: a page was written"
    [ ! -e "$2.perfetto-trace" ] || fail "$1: a trace was kept"
    ! ls | grep -q '\.tmp\.' || fail "$1: temporary files left"
}

# -- one wait loop for the whole recording; [ and sleep run inside it
start_sim
run_st 0 --perfetto -t 1.5 -o loop.html -e "$SIM_SERIAL" sched
pid=$(sed -n 's/^sh while \[ -d \/proc\/\([0-9]*\) \].*/\1/p' "$SIM_LOG")
[ "$(pf_loops)" = 1 ] && [ -n "$pid" ] ||
    { grep '^sh ' "$SIM_LOG"; fail "not one device-side wait loop"; }
[ "$(grep -c "^run \[ -d /proc/$pid \]" "$SIM_LOG")" -gt 2 ] ||
    fail "the loop did not look at /proc/$pid while recording"
# the stop: one shell that signals and then sees the end
[ "$(grep -c "^sh kill -TERM $pid 2>/dev/null; while \[ -d /proc/$pid \]" "$SIM_LOG")" = 1 ] ||
    { grep "^sh .*$pid" "$SIM_LOG"; fail "not one stop shell"; }
others=$(grep '^sh ' "$SIM_LOG" | grep -v '^sh while' | grep -v "^sh kill -TERM $pid" |
         grep -c "/proc/$pid" || true)
[ "$others" = 0 ] || { grep "^sh .*/proc/$pid" "$SIM_LOG"; fail "$others polls besides the loop"; }
[ -s loop.html ] && pf_same loop.perfetto-trace
pf_no_session "wait loop"

# -- a session that ends on its own (untimed capture) ends the wait
n=$(pf_loops)
fresh_out
"$SYSTRACE" --perfetto -o own.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
st=$!
wait_recording "$n"
pid=$(sed -n 's/^sh while \[ -d \/proc\/\([0-9]*\) \].*/\1/p' "$SIM_LOG" | tail -1)
sadb shell kill -TERM "$pid" >/dev/null
wait_for 15 sh -c "! kill -0 $st" || { kill -KILL $st; fail "the wait did not end with the session"; }
wait $st || { cat out.txt err.txt; fail "a session ended on its own: exit $?"; }
assert_contains err.txt "was ended from outside after"
[ -s own.html ] && pf_same own.perfetto-trace
pf_no_session "ended on its own"

# -- the link drops while recording and comes back: the capture completes
start_sim --disconnect-perfetto-after 300 --reconnect-after 100
run_st 0 --perfetto -t 1.5 -o drop.html -e "$SIM_SERIAL" sched
grep -q "^link down" "$SIM_LOG" || fail "the link never dropped"
assert_contains err.txt "goes on recording on the device"
[ -s drop.html ] && pf_same drop.perfetto-trace
pf_no_session "link dropped while recording"

# -- ... and never comes back: a clear failure naming the way to stop it
start_sim --disconnect-perfetto-after 300 --reconnect-after never
run_st 1 --perfetto -t 1 --timeout 2 -o gone.html -e "$SIM_SERIAL" sched
assert_contains err.txt "adb -s $SIM_SERIAL shell kill "
no_outputs "link gone" gone

# -- the pull (no tail -f to follow the file with) breaks off: waited out,
# fetched again from the start
start_sim --no-tail-follow --disconnect-pull-after 20000 --reconnect-after 100
run_st 0 --perfetto -t 1 -o pull.html -e "$SIM_SERIAL" sched
grep -q "^link down after 20000" "$SIM_LOG" || fail "the pull did not break off"
[ -s pull.html ] && pf_same pull.perfetto-trace
pf_no_session "pull broke off"

# -- pull refused and cat refused too: stopped, removed, nothing written
start_sim --perfetto-unreadable
run_st 1 --perfetto -t 1 -o unread.html -e "$SIM_SERIAL" sched
assert_contains err.txt "could not fetch the Perfetto trace"
assert_contains err.txt "adb pull: "
assert_contains err.txt "cat: "
assert_contains err.txt "Permission denied"
assert_contains err.txt "its file removed"
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "more than one line"; }
[ "$(sim_state perfetto_finished)" = 1 ] || fail "the session was not stopped with its file"
no_outputs "pull and cat refused" unread
pf_no_session "pull and cat refused"

# -- the trace does not convert: kept, named, the device's bytes
start_sim --perfetto-corrupt
run_st 1 --perfetto -t 1 -o bad.html -e "$SIM_SERIAL" sched
assert_contains err.txt "kept in bad.perfetto-trace"
pf_same bad.perfetto-trace
[ ! -e bad.html ] || fail "a page was written from a trace that did not convert"
pf_no_session "conversion failed"
echo ok
