# A run without categories uses catapult's default list; the ones of it
# the device lacks (memory before Android 7) are dropped without a word,
# as catapult does: the user never asked for them.  Categories the user
# names are still named when unavailable.  Through the real adb server.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --sdk 23
sadb shell atrace --list_categories | grep -q '^ *memory ' && skip "the simulator offers memory"

run_st 0 -o default.html -t 1 -e "$SIM_SERIAL"
assert_not_contains err.txt "unavailable"
assert_not_contains err.txt "memory"
grep -q '^run atrace -z -t 1 -b 8192 am .* sched .* --async_start$' "$SIM_LOG" ||
    fail "the default categories were not traced"
! grep -q '^run atrace .* memory .*--async_start$' "$SIM_LOG" || fail "memory was asked for"
trace_block default.html 2 | grep -q ': sched_switch: ' || fail "no events"

# the user's own
run_st 0 -o own.html -t 1 -e "$SIM_SERIAL" sched memory
assert_contains err.txt "These categories are unavailable: memory"
echo ok
