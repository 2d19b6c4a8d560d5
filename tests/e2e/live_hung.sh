# One of two devices stops answering mid-capture (its simulator stopped
# with SIGSTOP): the other's page is written, the hung one fails naming the
# cause and the command that stops it, and the run waits about one
# --timeout for it, not one per step (clock sync, dump, ps, reset): it ends
# before two --timeouts have passed after the capture.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
safe() { echo "$1" | tr -c 'A-Za-z0-9._\n-' '_'; }
start_sim; A=$SIM_SERIAL
start_sim; B=$SIM_SERIAL; BP=$SIM_PID
trap 'kill -CONT $BP 2>/dev/null; _cleanup' EXIT
TO=8
for mode in "" --stream; do
    t0=$(date +%s)
    "$SYSTRACE" $mode -e "$A" -e "$B" -t 3 --timeout $TO -o h.html sched >out.txt 2>err.txt \
        </dev/null &
    pid=$!
    track_pid $pid
    wait_for 20 grep -q "Starting tracing" out.txt || fail "$mode: did not start"
    # B itself tracing (its probe can still be under way when A started)
    wait_for 20 sh -c "[ \"\$(sed -n 's/^tracing_on=//p' '$SIM_STATE')\" = 1 ]" ||
        fail "$mode: the second device did not start tracing"
    kill -STOP $BP
    wait $pid; rc=$?
    took=$(( $(date +%s) - t0 ))
    kill -CONT $BP
    [ $rc = 1 ] || { cat out.txt err.txt; fail "$mode: exit $rc"; }
    [ $took -lt $((3 + 2 * TO)) ] ||
        { cat err.txt; fail "$mode: the hung device held the run for $took s (--timeout $TO)"; }
    [ -s "h-$(safe "$A").html" ] || fail "$mode: the answering device lost its page"
    # (with --stream the first step to find it hung is the thread listing)
    grep -q "^$B: failed: .*the device stopped answering" out.txt ||
        { cat out.txt; fail "$mode: the hung device's failure does not say why"; }
    assert_contains err.txt "run \`adb -s $B shell atrace --async_stop\` to stop it"
    rm -f h-*
    wait_for 10 sh -c "adb -s $B shell atrace --async_stop" || fail "$B did not come back"
done
echo ok
