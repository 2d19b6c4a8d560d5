# --perfetto onto a full disk (a small tmpfs): the kept trace that does
# not fit says why ("No space left on device"), no temporary file is left
# and the session is stopped with its file removed.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
mkdir full
mount -t tmpfs -o size=64k tmpfs full 2>/dev/null || skip "cannot mount a tmpfs (needs root)"
trap 'cd "$T"; umount "$T/full" 2>/dev/null; _cleanup' EXIT
start_adb_server
start_sim
# the page is staged under $TMPDIR (-o /dev/null), the kept trace is
# ./trace.perfetto-trace on the full disk
cd full
TMPDIR=$T run_st 1 --perfetto -t 1 -o /dev/null -e "$SIM_SERIAL" sched
assert_contains err.txt "trace.perfetto-trace: cannot write: No space left on device"
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "more than one line"; }
! ls | grep -q '\.tmp\.' || fail "temporary files left"
[ ! -e trace.perfetto-trace ] || fail "a trace was kept"
cd "$T"
pf_no_session "full disk"
echo ok
