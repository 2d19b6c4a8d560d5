# Timeouts: a device command that never answers, and a collection slower
# than --collection-timeout; both clear errors, and tracing is stopped.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --hang-on list_categories
run_st 1 -o h.html -t 1 --timeout 2 sched
assert_contains err.txt "$SIM_SERIAL"
grep -qi "timed out\|timeout" err.txt || fail "no timeout message"

start_sim --rate 200000 --size-mb 8
run_st 1 -o slow.html -t 1 --collection-timeout 2 sched -e "$SIM_SERIAL"
assert_contains err.txt "collection-timeout=2"
[ ! -e slow.html ] || fail "output written after a timeout"
[ "$(sim_state tracing_on)" = 0 ] || fail "left tracing after collection timeout"
echo ok
