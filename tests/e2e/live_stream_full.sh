# --stream onto a full disk (a small tmpfs): what reached the spool before
# ENOSPC is kept and named (a rename needs no space) and converts; a page
# that does not fit says the disk is full, not that atrace failed, and the
# spool is kept.  The device is reset either way.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
mkdir full
mount -t tmpfs -o size=5m tmpfs full 2>/dev/null || skip "cannot mount a tmpfs (needs root)"
trap 'umount "$T/full" 2>/dev/null; _cleanup' EXIT
start_adb_server
state_is_clean() {   # WHAT
    [ "$(sim_state tracing_on)" = 0 ] || fail "$1: device left tracing"
    [ -z "$(sim_state categories)" ] || fail "$1: categories left: $(sim_state categories)"
}

# -- the spool fills the disk: the stream stops, what was written is kept
start_sim --event-rate 20000
run_st 1 --stream -t 20 -o full/s.html -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "writing the spool failed: No space left on device"
assert_contains err.txt "kept in full/s.atrace (convert them later with: systrace --from-file full/s.atrace)"
[ -s full/s.atrace ] || fail "the spool was not kept"
size=$(stat -c %s full/s.atrace)
assert_contains err.txt "the $size bytes written before that are kept"
[ ! -e full/s.html ] || fail "a page was written"
! ls full | grep -q '\.tmp\.' || fail "temporary files left"
state_is_clean "spool on a full disk"
run_st 0 --from-file full/s.atrace -o kept.html -q
n=$(trace_block kept.html 1 | grep -c ': sched_switch: ')
[ "$n" -gt 1000 ] || fail "the kept spool converts to $n sched_switch lines"

# -- the spool fits, the page does not: the message blames the disk
rm -f full/*
umount full && mount -t tmpfs -o size=9m tmpfs full || fail "remount"
run_st 1 --stream -t 2 -o full/p.html -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "full/p.html: cannot write: No space left on device"
assert_contains err.txt "writing the streamed trace into the page failed: No space left on device"
assert_not_contains err.txt "atrace exited"
assert_contains err.txt "kept in full/p.atrace"
[ -s full/p.atrace ] || fail "the spool was not kept"
[ ! -e full/p.html ] || fail "a half page was written"
! ls full | grep -q '\.tmp\.' || fail "temporary files left"
state_is_clean "page on a full disk"
run_st 0 --from-file full/p.atrace -o kept2.html -q
echo ok
