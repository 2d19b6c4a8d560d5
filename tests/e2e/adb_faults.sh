#!/bin/sh
# The adb library when things go wrong, against the real adb server and
# the simulator: a command that never answers hits the per-step timeout
# (ST_ETIMEOUT); Ctrl-C (SIGINT -> self-pipe -> cancel fd) interrupts a
# command that would wait forever (ST_EINTR); a device that drops off in
# the middle of a shell v2 dump is reported (no exit status), not taken
# for a complete run.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
TOOL="$BUILD/tools/adbtool"
[ -x "$TOOL" ] || skip "$TOOL not built (make tools)"
unset ANDROID_SERIAL

start_sim --hang-on hangme --size-mb 4 --disconnect-after 300000

# timeout: the device accepts the command but never answers
"$TOOL" -t 500 script shell 'echo hangme' >out.txt 2>err.txt && fail "a hanging command succeeded"
assert_contains err.txt "error ST_ETIMEOUT"

# Ctrl-C with no timeout at all
fresh_out
"$TOOL" -t 0 script shell 'echo hangme; echo second' >out.txt 2>err.txt &
pid=$!
track_pid $pid
wait_for 10 grep -q "hangme; echo second" "$SIM_LOG" || fail "command never reached the device"
kill -INT $pid
wait_for 10 sh -c "! kill -0 $pid 2>/dev/null" || fail "adbtool ignored the cancel fd"
wait $pid
assert_eq "adbtool exit code" 2 $?
assert_contains err.txt "error ST_EINTR"

# the device drops the connection in the middle of a shell v2 dump
sadb shell atrace -b 4096 sched gfx --async_start >/dev/null
sleep 0.2
"$TOOL" stream shell atrace -b 4096 sched gfx --async_stop >dump.txt 2>err.txt &&
    fail "a dump cut by a disconnect looked complete"
grep -q "error ST_ECLOSED\|error ST_ETRUNCATED" err.txt || { cat err.txt; fail "wrong error"; }
[ -s dump.txt ] || fail "nothing of the dump arrived before the disconnect"
exit 0
