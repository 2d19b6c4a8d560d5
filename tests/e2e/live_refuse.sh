# Fail before tracing, not after (issue 11 items 9 and 10): when none of
# the requested categories exists on the device, nothing is started and
# nothing written (one line naming them, pointing at -l); when atrace
# cannot start (-k on a user build: it prints "unable to start tracing"
# and still exits 0), the capture stops at once, says root is needed, and
# the device is reset.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --no-root

no_litter() {
    ls | grep -q "^$1" && { ls; fail "$1: files left"; }
    return 0
}

# -- every category unavailable
run_st 1 -o none.html -t 1 nosuchcat irq -e "$SIM_SERIAL"
assert_contains err.txt "none of the requested categories is available on the device (nosuchcat irq); \`systrace -l\` lists the ones it offers"
assert_contains err.txt "irq need root"
assert_eq "one line" 1 "$(wc -l <err.txt)"
assert_not_contains out.txt "Starting tracing"
no_litter 'none\.'
assert_eq "device never started" 0 "$(sim_state starts)"
grep -q "async_start" "$SIM_LOG" && fail "atrace was started"
# one available category is enough (the others are named and dropped)
run_st 0 -o some.html -t 1 nosuchcat sched -e "$SIM_SERIAL"
assert_contains err.txt "These categories are unavailable: nosuchcat"

# -- what the simulator's atrace does with -k and no root (a user build)
sadb shell atrace -k schedule sched --async_start >kcmd.out 2>kcmd.err
assert_eq "atrace -k exits 0 anyway" 0 $?
assert_contains kcmd.err "error opening /sys/kernel/tracing/current_tracer: Permission denied (13)"
assert_contains kcmd.err "unable to start tracing"
assert_not_contains kcmd.out "capturing trace"
assert_eq "and leaves tracing on" 1 "$(sim_state tracing_on)"
sadb shell atrace --async_stop >/dev/null
assert_eq "reset by --async_stop" "" "$(sim_state categories)"

# -- the capture: stopped at start, root named, device reset, nothing written
run_st 1 -o k.html -t 30 -k schedule -b 8000 sched -e "$SIM_SERIAL"
assert_contains err.txt "atrace --async_start failed: error opening /sys/kernel/tracing/current_tracer: Permission denied (13); kernel function tracing (-k) needs root: on a userdebug or eng build run \`adb root\` first"
assert_not_contains out.txt "Starting tracing"
no_litter 'k\.'
assert_eq "tracing stopped" 0 "$(sim_state tracing_on)"
assert_eq "categories reset" "" "$(sim_state categories)"
assert_eq "buffer reset" 1 "$(sim_state buffer_kb)"
# with root, -k is accepted (the simulator ignores the functions)
start_sim
run_st 0 -o kroot.html -t 1 -k schedule sched -e "$SIM_SERIAL"
echo ok
