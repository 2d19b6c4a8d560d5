# Finding tracefs and the errors a user sees: without root a clear message
# saying root is needed (tracefs unmounted, or mounted but closed to us);
# tracefs mounted at /sys/kernel/tracing is used as it is (in a private
# mount namespace, so the machine's mounts never change); -l in catapult's
# format; unknown categories are named; nothing available is an error.
. "$TOP/tests/lib.sh"
. "$TOP/tests/linux-env.sh"
need_tracefs
command -v setpriv >/dev/null || skip "setpriv (util-linux) absent"

# a copy the unprivileged user can run, in a directory it can enter
pub=$(mktemp -d "$SYSTMP/systrace-test-pub.XXXXXX")
chmod 755 "$pub"
cp "$SYSTRACE" "$pub/systrace"
chmod 755 "$pub/systrace"
as_nobody() {
    (cd "$pub" && setpriv --reuid=65534 --regid=65534 --clear-groups ./systrace "$@")
}

kernel_state before.state
as_nobody --target=linux -t 1 sched >out.txt 2>err.txt; rc=$?
grep -q " /sys/kernel/tracing tracefs" /proc/mounts || assert_contains err.txt "tracefs is not mounted"
[ $rc -eq 1 ] || { cat err.txt; rm -rf "$pub"; fail "non-root: exit $rc"; }
assert_contains err.txt "needs root"

if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    # mounted where systrace looks first, but closed to others (mode 700)
    unshare -m sh -c '
        mount -t tracefs -o mode=700 nodev /sys/kernel/tracing || exit 9
        (cd "$1" && setpriv --reuid=65534 --regid=65534 --clear-groups ./systrace \
            --target=linux -t 1 sched) >nb.out 2>nb.err
        echo $? >nb.rc
        SYSTRACE_DEBUG=ftrace "$2" --target=linux -t 1 -o ns.html sched >ns.out 2>ns.err
        echo $? >ns.rc' sh "$pub" "$SYSTRACE"
    [ "$(cat nb.rc)" = 1 ] || { cat nb.err; fail "non-root, mounted: exit $(cat nb.rc)"; }
    assert_contains nb.err "is not accessible"
    assert_contains nb.err "needs root"
    [ "$(cat ns.rc)" = 0 ] || { cat ns.err; fail "root, /sys/kernel/tracing: exit $(cat ns.rc)"; }
    assert_contains ns.err "tracing in /sys/kernel/tracing/instances/systrace-"
    assert_not_contains ns.err "mounted tracefs on"
    [ -s ns.html ] || fail "no output with /sys/kernel/tracing"
    echo "checked in a private mount namespace"
fi
rm -rf "$pub"

run_st 0 --target=linux -l
head -1 out.txt | grep -qx "tracing config:" || fail "-l header"
assert_contains out.txt "sched            :  CPU Scheduling"
grep -q "^gfx " out.txt && fail "-l lists an Android category"

run_st 0 --target=linux -t 1 -o some.html sched gfx no_such_cat
assert_contains err.txt "These categories are unavailable: gfx no_such_cat"
run_st 0 --target=linux -t 1 -o ev.html --ftrace-categories=sched/sched_switch,irq/*
trace_block ev.html 2 | grep -q ": sched_switch: " || fail "SUBSYSTEM/EVENT not traced"
trace_block ev.html 2 | grep -q ": sched_wakeup: " && fail "more than the named event"

run_st 1 --target=linux -t 1 gfx view
assert_contains err.txt "none of the requested categories is available on this kernel"
[ ! -e trace.html ] || fail "output after an error"
assert_kernel_as before.state "errors"
echo ok
