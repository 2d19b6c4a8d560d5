# A device command that fails (here: never answers within --timeout) at each
# step that reads a command's output: the run fails with a message and the
# device is left clean.  Under `make asan`, LeakSanitizer makes any result
# buffer a failed command left unfreed fail the run (exit 23, not 1).
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

step() {   # HANG-ON-TEXT WHAT [systrace args...]
    hang=$1; what=$2; shift 2
    start_sim --hang-on "$hang"
    run_st 1 -o leak.html -t 1 --timeout 2 -e "$SIM_SERIAL" "$@"
    grep -qi "timed out\|timeout" err.txt || { cat err.txt; fail "$what: no timeout message"; }
    [ ! -e leak.html ] || fail "$what: a page was written"
    [ "$(sim_state tracing_on)" != 1 ] || fail "$what: the device was left tracing"
}
step "getprop ro.build.version.sdk" "the device probe" sched
step "ps -A" "the process snapshot" sched
step "async_start" "the start of tracing" sched
step "'profile' 'start'" "am profile start" --app-profile com.android.launcher3 sched
echo ok
