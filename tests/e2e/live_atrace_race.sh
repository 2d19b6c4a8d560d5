# Two atrace captures started at once on one device: the busy check and
# the start are one step on the device (a short section under a mkdir
# lock), so one captures and the other is refused in one line, whichever
# way they capture (the one-shot dump, --stream) and on old SDKs (busy
# there means tracing_on=1).  --stall-on holds the first start inside the
# section while the second arrives: the race happens every time.  The
# device is left not tracing and without the lock; a lock left by a run
# killed inside the section is waited for, then named with how to remove
# it; a Ctrl-C inside the section leaves neither tracing nor the lock.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
LOCK=/data/local/tmp/systrace-atrace.lock
page_events() { trace_block "$1" 2 | grep -vc '^#'; }

# no_trace_left WHAT: the device does not trace and holds no lock
no_trace_left() {
    [ "$(sim_state tracing_on)" = 0 ] || fail "$1: the device was left tracing"
    [ ! -e "$SIM_FS$LOCK" ] || fail "$1: the lock was left on the device"
}

# race NAME STALL ADBSIM-OPTION... -- SYSTRACE-MODE...: A stalls inside its
# start, B arrives meanwhile; A captures, B is refused
race() {
    name=$1 stall=$2; shift 2
    sim_opts=""
    while [ "$1" != -- ]; do sim_opts="$sim_opts $1"; shift; done
    shift
    # shellcheck disable=SC2086
    start_sim $sim_opts --stall-on "$stall:1500"
    "$SYSTRACE" "$@" -t 3 -o a.html -e "$SIM_SERIAL" sched gfx >a.out 2>a.err </dev/null &
    a=$!
    track_pid $a
    wait_for 20 grep -q "^stall " "$SIM_LOG" || { cat a.err; fail "$name: A never started"; }
    "$SYSTRACE" "$@" -t 3 -o b.html -e "$SIM_SERIAL" sched freq >b.out 2>b.err </dev/null
    rb=$?
    wait $a; ra=$?
    [ $ra = 0 ] || { cat a.out a.err; fail "$name: A exited $ra"; }
    [ $rb != 0 ] || { cat b.out b.err; fail "$name: B was not refused"; }
    assert_contains b.err "the device is already tracing (another capture is running on it"
    [ "$(grep -c . b.err)" = 1 ] || { cat b.err; fail "$name: B said more than one line"; }
    [ ! -e b.html ] || fail "$name: B wrote a page"
    [ "$(page_events a.html)" -gt 100 ] || fail "$name: A's page has no events"
    # B started nothing (its categories, sched freq, reached no atrace)
    ! grep -q "^run .*atrace .*freq" "$SIM_LOG" ||
        { grep "^run .*atrace" "$SIM_LOG"; fail "$name: B started atrace too"; }
    no_trace_left "$name"
    kill "$SIM_PID"; wait "$SIM_PID" 2>/dev/null
}

race dump async_start --
race stream --stream -- --stream
race "dump, SDK 27" async_start --sdk 27 --
race "dump, SDK 22" async_start --sdk 22 --
race "stream, SDK 27" --stream --sdk 27 -- --stream
# an atrace that cannot stream: the lock is let go and taken again for the
# periodic dumps' start
race "stream falling back to dumps" async_start --no-stream -- --stream

# -- a lock left by a run killed inside the section: waited for (bounded),
# then refused in one line saying how to remove it; nothing started
start_sim
mkdir -p "$SIM_FS$LOCK"
echo 0b5e55ed-0000-4000-8000-000000000000 >"$SIM_FS$LOCK/id"
for mode in "" --stream; do
    run_st 1 $mode -t 1 -o stale.html -e "$SIM_SERIAL" sched
    assert_contains err.txt "if none runs there (one was killed while starting), remove the lock: adb -s $SIM_SERIAL shell rm -rf $LOCK"
    assert_eq "$mode: lines on stderr" 1 "$(wc -l <err.txt)"
    [ ! -e stale.html ] || fail "$mode: a page written without a capture"
    [ -e "$SIM_FS$LOCK/id" ] || fail "$mode: another run's lock was removed"
    [ "$(sim_state starts)" = 0 ] && [ "$(sim_state streams)" = 0 ] ||
        fail "$mode: tracing started under another run's lock"
done
sadb shell rm -rf "$LOCK"
run_st 0 -t 1 -o after.html -e "$SIM_SERIAL" sched
no_trace_left "after the lock was removed"

# -- Ctrl-C inside the section: the start it holds up still ends on the
# device (the shell's command under way completes without the host), so
# the Ctrl-C waits for the section's end; then tracing is stopped and no
# lock is left.  (Cut short, the reset came first and the device was left
# tracing.)
start_sim --stall-on async_start:3000
fresh_out
"$SYSTRACE" -t 3 -o int.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
p=$!
track_pid $p
wait_for 20 grep -q "^stall " "$SIM_LOG" || fail "the start never stalled"
kill -INT $p
wait $p; rc=$?
[ $rc = 130 ] || { cat err.txt; fail "an interrupted start exited $rc"; }
assert_contains err.txt "interrupted while starting; tracing stopped, nothing written"
no_trace_left "interrupted inside the section"
echo ok
