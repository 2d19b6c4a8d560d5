# Old and odd devices: SDK 22 (no --async_stop: tracing_on=0, --async_dump,
# then a 0 s trace), no -z support (bionic's "unknown option -- z"), legacy toolbox ps, no shell v2, debugfs.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

start_sim --sdk 22 --legacy-ps --debugfs
run_st 0 -o old.html -t 1 sched gfx
grep -q "^run echo 0$" "$SIM_LOG" || grep -q "tracing_on" "$SIM_LOG" || fail "no tracing_on=0"
grep -q "debug/tracing/tracing_on" "$SIM_LOG" || fail "tracing_on not under debugfs"
grep -q "^run atrace -z -t 1 -b 4096 sched gfx --async_dump$" "$SIM_LOG" || fail "async_dump"
grep -q "^run atrace -z -t 1 -b 4096 sched gfx -t 0$" "$SIM_LOG" || fail "trailing -t 0"
grep -q "^run ps -t$" "$SIM_LOG" || fail "legacy ps fallback not used"
[ "$(sim_state tracing_on)" = 0 ] || fail "SDK 22 device left tracing"
trace_block old.html 1 | grep -q '^USER *PID *PPID *VSIZE' || fail "legacy ps in dump"
trace_block old.html 2 | grep -q 'sched_switch' || fail "no trace from SDK 22"

start_sim --no-z --no-shell-v2
run_st 0 -o noz.html -t 1 sched -e "$SIM_SERIAL"
assert_contains err.txt "cannot compress (-z); tracing uncompressed"
# the first try was refused with bionic's text, as a phone prints it
grep -q "^run atrace -z -t 1 -b 4096 sched --async_start$" "$SIM_LOG" || fail "no -z try"
sadb shell atrace -z sched --async_start 2>&1 | grep -q "^atrace: unknown option -- z" ||
    fail "the simulator does not print bionic's getopt text"
grep -q "^run atrace -t 1 -b 4096 sched --async_start$" "$SIM_LOG" || fail "retry without -z"
trace_block noz.html 2 | grep -q 'sched_switch' || fail "no trace without -z/shell v2"
[ "$(sim_state tracing_on)" = 0 ] || fail "left tracing"
echo ok
