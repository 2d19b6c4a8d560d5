# --perfetto and Ctrl-C after tracing was told to stop: a Ctrl-C while
# perfetto finalises its file (a slow flush) keeps the capture (page and
# trace written, exit 0); once the session has ended a Ctrl-C only says
# the page is still being written and the device file is still removed
# (a slow rm); a second abandons the page (exit 130) and says where the
# kept .perfetto-trace is; a third exits at once, naming the device file
# and the command that removes it.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
# under make asan a leak is reported at exit (the interrupted rm, the cleanup)
no_leak() { ! grep -q "ERROR: LeakSanitizer" err.txt || { cat err.txt; fail "$1: leaked"; }; }

# -- one Ctrl-C while perfetto flushes at the stop
start_sim --slow-flush 3000
fresh_out
"$SYSTRACE" --perfetto -t 1 -o flush.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
st=$!
wait_for 20 grep -q "flushing" "$SIM_LOG" || { cat err.txt; fail "the session never flushed"; }
kill -INT $st
wait $st
rc=$?
[ $rc = 0 ] || { cat out.txt err.txt; fail "Ctrl-C during the flush: exit $rc"; }
[ -s flush.html ] || fail "Ctrl-C during the flush: no page"
pf_same flush.perfetto-trace
pf_no_session "Ctrl-C during the flush"
no_leak "Ctrl-C during the flush"

# -- one Ctrl-C while the device file is removed: said, the page written,
# the file removed
start_sim --slow-rm 3000
fresh_out
"$SYSTRACE" --perfetto -t 1 -o rm.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
st=$!
wait_for 20 grep -q "rm -rf /data/misc/perfetto-traces/" "$SIM_LOG" ||
    { cat err.txt; fail "the file was never removed"; }
kill -INT $st
wait $st
rc=$?
[ $rc = 0 ] || { cat out.txt err.txt; fail "Ctrl-C during the rm: exit $rc"; }
assert_contains err.txt "still writing the page (Ctrl-C again to abandon it)"
[ -s rm.html ] || fail "Ctrl-C during the rm: no page"
pf_same rm.perfetto-trace
pf_no_session "Ctrl-C during the rm"
no_leak "Ctrl-C during the rm"

# -- two Ctrl-Cs there: the page abandoned (exit 130), the trace kept and
# said, the file still removed by the cleanup
start_sim --slow-rm 1500
fresh_out
"$SYSTRACE" --perfetto -t 1 -o two.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
st=$!
wait_for 20 grep -q "rm -rf /data/misc/perfetto-traces/" "$SIM_LOG" ||
    { cat err.txt; fail "the file was never removed"; }
kill -INT $st
wait_for 10 grep -q "still writing the page" err.txt || fail "the first Ctrl-C was not taken"
kill -INT $st
wait $st
rc=$?
[ $rc = 130 ] || { cat out.txt err.txt; fail "two Ctrl-Cs: exit $rc"; }
assert_contains err.txt "the Perfetto trace is kept in two.perfetto-trace"
pf_same two.perfetto-trace
[ ! -e two.html ] || fail "two Ctrl-Cs: a page was written"
pf_no_session "two Ctrl-Cs"
no_leak "two Ctrl-Cs"

# -- a device whose rm does not answer within --timeout: the capture is written and the file
# left on the device is named with the command that removes it
start_sim --slow-rm 20000
run_st 0 --perfetto -t 1 --timeout 2 -o hung.html -e "$SIM_SERIAL" sched
[ -s hung.html ] || fail "rm hangs: no page"
f=$(ls "$SIM_FS/data/misc/perfetto-traces" | grep "perfetto-trace$")
assert_contains err.txt "remove it with: adb -s $SIM_SERIAL shell rm -f /data/misc/perfetto-traces/$f"

# -- three Ctrl-Cs there: the second abandons the page and says where the
# trace is kept; the third exits at once naming the file left and the
# command that removes it
start_sim --slow-rm 30000
fresh_out
"$SYSTRACE" --perfetto -t 1 -o three.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
st=$!
wait_for 20 grep -q "rm -rf /data/misc/perfetto-traces/" "$SIM_LOG" ||
    { cat err.txt; fail "the file was never removed"; }
kill -INT $st
wait_for 10 grep -q "still writing the page" err.txt || fail "the first Ctrl-C was not taken"
kill -INT $st
wait_for 10 grep -q "Interrupted again" out.txt err.txt || fail "the second Ctrl-C was not taken"
assert_contains err.txt "the Perfetto trace is kept in three.perfetto-trace"
pf_same three.perfetto-trace
wait_for 10 sh -c "[ \$(grep -c 'rm -rf /data/misc/perfetto-traces/' '$SIM_LOG') -ge 2 ]" ||
    fail "the abandon did not remove the file again"
kill -INT $st
wait $st
rc=$?
[ $rc = 130 ] || { cat out.txt err.txt; fail "three Ctrl-Cs: exit $rc"; }
f=$(ls "$SIM_FS/data/misc/perfetto-traces" | grep "perfetto-trace$")
[ -n "$f" ] || fail "no file left (the slow rm was not under way?)"
assert_contains err.txt "adb -s $SIM_SERIAL shell rm -f /data/misc/perfetto-traces/$f"
[ ! -e three.html ] || fail "three Ctrl-Cs: a page was written"
! ls | grep -q '\.tmp\.' || fail "temporary files left"
echo ok
