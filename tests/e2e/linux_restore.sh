# The kernel is left exactly as systrace found it: the tracing settings read
# before and after a run are the same after success, an error, Ctrl-C, SIGHUP,
# SIGTERM and a double Ctrl-C, and a run killed outright (SIGKILL) is
# cleaned up by the next one.  Done twice: in systrace's own tracing
# instance (the default; the top level must not change at all), and in a
# directory given with SYSTRACE_FTRACE_DIR, where systrace changes the
# settings in place and must put every one back.
. "$TOP/tests/lib.sh"
. "$TOP/tests/linux-env.sh"
need_tracefs

# run_bg ARGS: systrace in the background, stdout/stderr in bg.out/bg.err
run_bg() {
    rm -f bg.out bg.err     # wait_tracing must not see the last run's output
    "$SYSTRACE" "$@" >bg.out 2>bg.err </dev/null &
    pid=$!
    track_pid $pid
}

# cases WHAT [DIR]: every way a run can end; DIR: settings of that directory
cases() {
    what=$1 dir=${2:-}
    kernel_state before.state "$dir"

    run_st 0 --target=linux -t 1 -o ok.html sched freq idle
    [ -s ok.html ] || fail "$what: no output"
    assert_kernel_as before.state "$what: success" "$dir"

    run_st 1 --target=linux -t 1 -b 100000000 -o big.html sched
    assert_contains err.txt "-b"
    [ ! -e big.html ] || fail "$what: output after an error"
    assert_kernel_as before.state "$what: -b error" "$dir"

    run_st 1 --target=linux -t 1 -k no_such_function_xyz -o k.html sched
    assert_contains err.txt "-k"
    assert_kernel_as before.state "$what: -k error" "$dir"

    run_bg --target=linux -t 30 -o int.html sched
    wait_tracing bg.out
    kill -INT $pid; wait $pid; rc=$?
    [ $rc -eq 0 ] || { cat bg.err; fail "$what: Ctrl-C exit $rc"; }
    [ -s int.html ] || fail "$what: Ctrl-C wrote no trace"
    assert_kernel_as before.state "$what: Ctrl-C" "$dir"

    # a closed terminal: stops early, keeps the trace, restores the kernel
    run_bg --target=linux -t 30 -o hup.html sched
    wait_tracing bg.out
    kill -HUP $pid; wait $pid; rc=$?
    [ $rc -eq 0 ] || { cat bg.err; fail "$what: SIGHUP exit $rc"; }
    [ -s hup.html ] || fail "$what: SIGHUP wrote no trace"
    assert_kernel_as before.state "$what: SIGHUP" "$dir"

    run_bg --target=linux -t 30 --stream -o term.html sched
    wait_tracing bg.out
    kill -TERM $pid; wait $pid; rc=$?
    [ $rc -eq 143 ] || { cat bg.err; fail "$what: SIGTERM exit $rc"; }
    [ ! -e term.html ] && [ ! -e term.ftrace ] || fail "$what: SIGTERM wrote output"
    ! ls | grep -q '^term\.' || fail "$what: SIGTERM left temporary files"
    assert_kernel_as before.state "$what: SIGTERM" "$dir"

    # the second Ctrl-C exits at once (130) unless collection already ended
    run_bg --target=linux -t 30 -o int2.html sched freq idle
    wait_tracing bg.out
    kill -INT $pid; sleep 0.02; kill -INT $pid; wait $pid; rc=$?
    [ $rc -eq 130 ] || [ $rc -eq 0 ] || { cat bg.err; fail "$what: double Ctrl-C exit $rc"; }
    assert_kernel_as before.state "$what: double Ctrl-C (exit $rc)" "$dir"
    ! ls | grep -q "^int2\..*tmp" || fail "$what: double Ctrl-C left a temporary file"
}

cases "own instance"

# SIGKILL: nothing can run; the next systrace removes what was left
run_bg --target=linux -t 30 --stream -o kill.html sched
wait_tracing bg.out
kill -KILL $pid; wait $pid
grep -q "systrace-tracefs-" /proc/mounts || fail "SIGKILL: expected a stale mount to clean up"
run_st 0 --target=linux -l
assert_contains err.txt "unmounted the tracefs left by an earlier systrace"
assert_contains err.txt "removed the tracing instance left by an earlier systrace: instances/systrace-$pid"
assert_contains out.txt "sched            :  CPU Scheduling"
assert_kernel_as before.state "SIGKILL then -l"
rm -f kill.ftrace.part kill.html.tmp.*

# SYSTRACE_FTRACE_DIR: an instance of ours with settings that differ from
# what systrace wants, changed in place and restored
mount -t tracefs nodev "$TFS" || fail "mount"
TEST_INSTANCE=systrace-test-restore
inst="$TFS/instances/$TEST_INSTANCE"
mkdir "$inst" || fail "cannot make an instance"
echo 555 >"$inst/buffer_size_kb"           # the kernel rounds it to pages
echo global >"$inst/trace_clock"
echo 1 >"$inst/options/overwrite"
echo 1 >"$inst/events/sched/sched_switch/enable"        # wanted, already on
echo 1 >"$inst/events/irq/irq_handler_entry/enable"     # not ours
export SYSTRACE_FTRACE_DIR="$inst"
cases "SYSTRACE_FTRACE_DIR" "$inst"
unset SYSTRACE_FTRACE_DIR
grep -q "^buffer_size_kb=5[5-9][0-9]$" before.state && grep -qx "options/overwrite=1" before.state &&
    grep -q "^trace_clock=.*\[global\]" before.state || fail "instance settings not as set"
rmdir "$inst" || fail "cannot remove the test instance"
TEST_INSTANCE=""
umount "$TFS"
echo ok
