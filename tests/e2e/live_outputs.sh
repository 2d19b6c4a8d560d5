# What a capture writes never destroys what is there, and a bad output is
# refused before the device starts tracing:
#   /dev/null, a FIFO: written in place (never replaced by a regular file)
#   a symlink: stays a link, its target gets the page
#   a replaced page keeps its mode; new files get 0666 minus the umask
#   -o DIR/, a missing or read-only directory, a bad --trace-events: exit 1
#     before tracing (the device never started)
#   a failed capture keeps its raw dump under a free name, never over an
#     earlier one, and says which; a full disk says so; --collection-timeout
#     names the dump it kept
#   a page written in place that cannot be written after the capture
#     (-o /dev/full, -o - into a full file) keeps the raw dump in the
#     working directory (the dump, --stream; a piece keeps the whole
#     capture) and the one error line names it; a reader that went away
#     (| head -c1) asked for no file
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim
umask 022

no_litter() {   # WHAT [DIR]
    ! ls -a "${2:-.}" | grep -E '\.tmp\.|\.part$' || fail "$1: temporary file left"
    ! ls "$TMPDIR" | grep -E '^systrace-out\.' || fail "$1: staging file left in TMPDIR"
}
starts() { sim_state starts; }

run_st 0 -o /dev/null -t 1 sched
[ -c /dev/null ] || fail "/dev/null is no longer a device"
no_litter /dev/null
[ ! -e /dev/null.atrace ] || fail "a file was made in /dev"

mkfifo page.fifo
cat page.fifo >from-fifo.html &
track_pid $!
run_st 0 -o page.fifo -t 1 sched
wait_for 10 grep -q "</html>" from-fifo.html || fail "FIFO reader got no page"
[ -p page.fifo ] || fail "the FIFO was replaced"
trace_block from-fifo.html 2 | grep -q sched_switch || fail "FIFO: no trace"

mkdir real
echo old >real/page.html
chmod 600 real/page.html
ln -s real/page.html link.html
run_st 0 -o link.html -t 1 sched
[ -L link.html ] || fail "the symlink was replaced by a file"
trace_block real/page.html 2 | grep -q sched_switch || fail "symlink target not written"
[ "$(stat -c %a real/page.html)" = 600 ] || fail "replaced page lost its mode 600"
run_st 0 -o new.html -t 1 sched
[ "$(stat -c %a new.html)" = 644 ] || fail "new page mode $(stat -c %a new.html), not 644"
no_litter symlink real

# refused before tracing
before=$(starts)
mkdir outdir
run_st 1 -o outdir/ -t 1 sched
assert_contains err.txt "outdir/: cannot write: is a directory name"
run_st 1 -o outdir -t 1 sched
assert_contains err.txt "outdir: cannot write: is a directory"
run_st 1 -o nodir/t.html -t 1 sched
assert_contains err.txt "nodir/t.html: cannot write: directory 'nodir' does not exist"
run_st 1 -o ok.html --trace-events nodir/t.json -t 1 sched
assert_contains err.txt "nodir/t.json: cannot write: directory 'nodir' does not exist"
[ ! -e ok.html ] || fail "output written although --trace-events was refused"
if mkdir ro && mount -t tmpfs -o ro,size=64k tmpfs ro 2>/dev/null; then
    run_st 1 -o ro/t.html -t 1 sched
    assert_contains err.txt "ro/t.html: cannot write: cannot create files in 'ro'"
    umount ro
fi
[ "$(starts)" = "$before" ] || fail "the device started tracing for a refused output"
no_litter refused

# a failed capture never overwrites a kept dump: it picks the next free name
start_sim --disconnect-after 200000 --size-mb 20
echo "an earlier run's dump" >cut.atrace
run_st 1 -o cut.html -t 1 sched gfx -e "$SIM_SERIAL"
assert_contains err.txt "kept in cut-1.atrace"
[ "$(cat cut.atrace)" = "an earlier run's dump" ] || fail "the earlier dump was overwritten"
[ -s cut-1.atrace ] || fail "raw bytes not kept"
no_litter "failed capture"

# --collection-timeout: the message names what was kept
start_sim --size-mb 40 --rate 1000000
run_st 1 -o slow.html -t 1 --no-compress --collection-timeout 3 -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "took longer than --collection-timeout=3 s"
assert_contains err.txt "kept in slow.atrace"
[ -s slow.atrace ] || fail "collection timeout: raw bytes not kept"
[ "$(sim_state tracing_on)" = 0 ] || fail "collection timeout left the device tracing"

# no -o: an earlier capture's trace.html is kept, this one gets a free name
start_sim; A=$SIM_SERIAL
echo "an earlier capture" >trace.html
run_st 0 -t 1 -e "$A" sched
assert_contains err.txt "trace.html already exists and is left alone; this capture goes to trace-1.html"
assert_contains out.txt "Wrote trace HTML file: file://$T/trace-1.html"
[ "$(cat trace.html)" = "an earlier capture" ] || fail "default name: the earlier page was replaced"
trace_block trace-1.html 2 | grep -q sched_switch || fail "default name: no trace in trace-1.html"
# ... and with several devices, each device's own default name
start_sim; B=$SIM_SERIAL
run_st 0 -t 1 -e "$A" -e "$B" sched
run_st 0 -t 1 -e "$A" -e "$B" sched
for s in "$A" "$B"; do
    f=trace-$(echo "$s" | tr ':' '_')
    [ -s "$f.html" ] && [ -s "$f-1.html" ] || fail "several devices: $f.html and $f-1.html"
    assert_contains err.txt "$f.html already exists and is left alone; this capture goes to $f-1.html"
done
[ "$(cat trace.html)" = "an earlier capture" ] || fail "several devices wrote trace.html"
no_litter "default names"

# the page cannot be written in place after the capture: nothing is lost
start_sim
mkdir inplace && cd inplace
run_st 1 -o /dev/full -t 1 -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "/dev/full: cannot write: No space left on device; the "
assert_contains err.txt " bytes received are kept in trace.atrace (convert them later with: systrace --from-file trace.atrace)"
[ "$(grep -c . err.txt)" = 1 ] || { cat err.txt; fail "-o /dev/full: not one error line"; }
[ "$(sim_state tracing_on)" = 0 ] || fail "-o /dev/full left the device tracing"
run_st 0 --from-file trace.atrace -o dump.html
trace_block dump.html 1 | grep -q sched_switch || fail "-o /dev/full: the kept dump holds no trace"
run_st 1 --stream -o /dev/full -t 1 -e "$SIM_SERIAL" sched gfx
assert_contains err.txt " bytes streamed are kept in trace-1.atrace (convert them later with: systrace --from-file trace-1.atrace)"
run_st 0 --from-file trace-1.atrace -o stream.html
trace_block stream.html 1 | grep -q sched_switch || fail "--stream: the kept spool holds no trace"
"$SYSTRACE" -o - -t 1 -e "$SIM_SERIAL" sched gfx >/dev/full 2>err.txt </dev/null
assert_eq "-o - into a full file: exit" 1 $?
assert_contains err.txt "-: cannot write: No space left on device; the "
assert_contains err.txt " bytes received are kept in trace-2.atrace"
[ -s trace-2.atrace ] || fail "-o - into a full file: no trace-2.atrace"
"$SYSTRACE" -o - -t 1 --time-range=0.2..0.6 -e "$SIM_SERIAL" sched gfx >/dev/full 2>err.txt </dev/null
assert_eq "a piece into a full file: exit" 1 $?
assert_contains err.txt "the whole capture is kept in trace.whole.json"
{ "$SYSTRACE" -o - -t 1 -e "$SIM_SERIAL" sched gfx 2>err.txt </dev/null; echo $? >rc.txt; } |
    head -c1 >/dev/null
assert_eq "-o - into head -c1: exit" 1 "$(cat rc.txt)"
assert_contains err.txt "-: cannot write: Broken pipe"
assert_not_contains err.txt "kept"
[ ! -e trace-3.atrace ] || fail "a reader that went away: a dump was kept"
no_litter "in place" .
cd ..

# a full disk is named as such
if mkdir full && mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
    start_sim
    run_st 1 -o full/t.html -t 1 -e "$SIM_SERIAL" sched gfx
    assert_contains err.txt "full/t.html: cannot write: No space left on device"
    [ "$(sim_state tracing_on)" = 0 ] || fail "full disk left the device tracing"
    no_litter "full disk" full
    umount full
fi
echo ok
