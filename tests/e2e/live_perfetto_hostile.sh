# A hostile device: its perfetto writes junk into the trace file while it
# records (adbsim --perfetto-junk: a top-level varint of 64 KiB after the
# first packet, before the process tree; valid packets after it).  The
# live conversion reads the junk as it arrives (tail -f), or the pulled
# file does where tail cannot follow.  Either way: exit 1, one line saying the trace is
# malformed and where the kept .perfetto-trace (the device's bytes) is; no
# page, no temporary file in the output folder or $TMPDIR; the session
# stopped and its file removed from the device.  Before 38f1659 the live
# feed fed the scan on past its error (no process tree seen yet: all held
# back) and each piece wrote past its varint buffer: a crash, .tmp files
# left, the session left recording.  Followed, the junk also ends the
# recording at once: without -t it would otherwise go on until a signal.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

hostile() {   # WHAT BASE: the outcome above
    python3 -c 'import sys; sys.exit(b"\xff" * 65536 not in open(sys.argv[1], "rb").read())' \
        "$2.perfetto-trace" || fail "$1: the device wrote no junk"
    [ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "$1: not one line"; }
    assert_contains err.txt "malformed Perfetto trace: a varint longer than 10 bytes"
    assert_contains err.txt "kept in $2.perfetto-trace"
    pf_same "$2.perfetto-trace"
    [ ! -e "$2.html" ] || fail "$1: a page was written"
    ! ls -A | grep -q 'tmp\.' || { ls -A; fail "$1: temporary files left here"; }
    [ -z "$(ls -A "$TMPDIR")" ] || { ls -A "$TMPDIR"; fail "$1: temporary files left in TMPDIR"; }
    pf_no_session "$1"
}

# -- read while the device writes it (tail -f)
start_sim --perfetto-junk
run_st 1 --perfetto -t 2 -o live.html -e "$SIM_SERIAL" sched gfx
grep -q "^run tail -c +1 -f " "$SIM_LOG" || fail "the file was not followed"
hostile "followed" live

# -- without -t: the junk ends the recording (it would go on until a
# signal, to fail at the end all the same)
start_sim --perfetto-junk
timeout 60 "$SYSTRACE" --perfetto -o untimed.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null
rc=$?
[ "$rc" = 1 ] || { cat err.txt; fail "untimed: exit $rc, expected 1 (124: it recorded on)"; }
assert_contains err.txt "malformed Perfetto trace: a varint longer than 10 bytes"
[ ! -e untimed.html ] || fail "untimed: a page was written"
pf_no_session "untimed"

# -- pulled after the stop (no tail -f on the device)
start_sim --perfetto-junk --no-tail-follow
run_st 1 --perfetto -t 1 -o pulled.html -e "$SIM_SERIAL" sched
hostile "pulled" pulled
echo ok
