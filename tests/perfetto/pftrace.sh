# Perfetto protobuf traces in (--from-file): traces written as text protos
# (tests/data/perfetto/) and encoded with Debian's protoc and Perfetto's own
# definitions, independently of systrace's code.  The judge is Perfetto's
# trace processor: the page's ftrace lines equal its to_ftrace text for the
# trace (tests/tools/pfcompare.py: tid, CPU, timestamp, event, arguments;
# in timestamp order), and reading the page it finds the sched, slice,
# counter and process-name rows it finds reading the trace.  Forms: compact
# sched, prints, process trees, interned kernel symbols, compressed
# packets, gzip, any file name, standard input, -j and --trace-events; a
# truncated trace (exit 3, what was complete kept); no ftrace, junk, a bad length, a huge intern index
# (one line naming the file, no output).  Then the real trace of the corpus,
# and the classic viewer in headless Chromium.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
PROTOS=$TOP/../shared/reference/perfetto-protos
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's protos absent ($PROTOS)"
DATA=$TOP/tests/data/perfetto
CMP="python3 $TOP/tests/tools/pfcompare.py"

encode() {  # TEXTPROTO OUT
    protoc --encode=perfetto.protos.Trace -I "$PROTOS" "$PROTOS/perfetto_trace.proto" \
        <"$1" >"$2" || fail "protoc cannot encode $1"
}
encode "$DATA/sched.textproto" sched.perfetto-trace

# same_rows TRACE PAGE [KEY]: Perfetto reads as much from the page as from
# the trace (KEY left out: a -j JSON's process dump is not read by Perfetto)
same_rows() {
    tp "$1" >ref.json
    tp "$2" >got.json
    python3 - ref.json got.json "$2" "${3:-}" <<'PY' || fail "$2: Perfetto reads less from it than from $1"
import json, sys
ref, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
keys = [k for k in ['cpuSlices', 'slices', 'counters', 'counterSamples', 'cpuCounters',
                  'processNames', 'errors'] if k != sys.argv[4]]
diff = {k: (ref[k], got[k]) for k in keys if ref[k] != got[k]}
assert not diff, diff
print('%s: %s' % (sys.argv[3], ', '.join('%s %s' % (k, got[k]) for k in keys[:5])))
PY
}

# the page, the -j JSON and the trace-event JSON from one trace
run_st 0 --from-file sched.perfetto-trace -o sched.html --trace-events te.json
$CMP sched.perfetto-trace sched.html || fail "sched.html: not Perfetto's to_ftrace"
same_rows sched.perfetto-trace sched.html
assert_eq "processes named" '/system/bin/init,/system/bin/surfaceflinger,com.example.app' \
    "$(python3 -c 'import json; print(",".join(json.load(open("got.json"))["processNames"]))')"
run_st 0 --from-file sched.perfetto-trace -o sched.json -j -q
$CMP sched.perfetto-trace sched.json || fail "sched.json: not Perfetto's to_ftrace"
same_rows sched.perfetto-trace sched.json processNames
tp te.json >te-tp.json
grep -q '"com.example.app"' te.json || fail "--trace-events JSON does not name the app"
# the compact CPU's first switch (no prev_*) is dropped, as Perfetto drops it
trace_block sched.html 2 | grep -q '\[000\] .... 100.000350: sched_switch: prev_comm=surfaceflinger' ||
    fail "compact sched switch not rebuilt with prev_* of the switch before"
! trace_block sched.html 2 | grep -q '100.000050' || fail "first compact switch kept"

# any name, gzip, standard input
cp sched.perfetto-trace noext
gzip -c sched.perfetto-trace >sched.pftrace.gz
run_st 0 --from-file noext -o a.html -q
$CMP sched.perfetto-trace a.html || fail "a file without an extension"
run_st 0 --from-file sched.pftrace.gz -o b.html -q
$CMP sched.perfetto-trace b.html || fail "gzip"
same_rows sched.perfetto-trace b.html
"$SYSTRACE" --from-file - -o c.html -q <sched.pftrace.gz || fail "standard input"
$CMP sched.perfetto-trace c.html || fail "standard input"

# a bundle the kernel marked lost_events: converted, and the user told
sed '0,/    cpu: 0/s//    cpu: 0\n    lost_events: true/' "$DATA/sched.textproto" >lost.textproto
encode lost.textproto lost.pftrace
run_st 0 --from-file lost.pftrace -o lost.html
assert_contains err.txt "systrace: note: lost.pftrace: 1 ftrace bundles say the kernel lost events"
$CMP lost.pftrace lost.html || fail "lost events"

# compressed packets: the trace's packets deflated into one packet (field
# 50), framed by hand here
python3 - sched.perfetto-trace comp.perfetto-trace <<'PY'
import sys, zlib
def varint(n):
    out = b''
    while True:
        b = n & 0x7f
        n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out
data = open(sys.argv[1], 'rb').read()
half = len(data) // 2
# split at a packet boundary: walk the top-level packets
pos, cut = 0, 0
while pos < len(data):
    assert data[pos] == 0x0a
    pos += 1
    n, shift = 0, 0
    while True:
        b = data[pos]; pos += 1
        n |= (b & 0x7f) << shift; shift += 7
        if not b & 0x80:
            break
    pos += n
    if not cut and pos >= half:
        cut = pos
inner = zlib.compress(data[:cut])
pkt = b'\x92\x03' + varint(len(inner)) + inner          # field 50, bytes
open(sys.argv[2], 'wb').write(b'\x0a' + varint(len(pkt)) + pkt + data[cut:])
PY
run_st 0 --from-file comp.perfetto-trace -o comp.html -q
$CMP comp.perfetto-trace comp.html || fail "compressed packets"
same_rows comp.perfetto-trace comp.html

# truncated mid-packet: every complete packet converted, exit 3
size=$(wc -c <sched.perfetto-trace)
head -c $((size - 40)) sched.perfetto-trace >cut.perfetto-trace
run_st 3 --from-file cut.perfetto-trace -o cut.html
assert_contains err.txt "cut.perfetto-trace: the trace is cut short inside packet"
[ "$(grep -c . err.txt)" = 1 ] || fail "more than one line about the cut: $(cat err.txt)"
# the page holds what the complete packets hold: Perfetto's text for them
python3 - sched.perfetto-trace complete.perfetto-trace $((size - 40)) <<'PY'
import sys
data, limit = open(sys.argv[1], 'rb').read(), int(sys.argv[3])
pos, keep = 0, 0
while pos < len(data):
    start = pos
    pos += 1
    n, shift = 0, 0
    while True:
        b = data[pos]; pos += 1
        n |= (b & 0x7f) << shift; shift += 7
        if not b & 0x80:
            break
    pos += n
    if pos > limit:
        break
    keep = pos
open(sys.argv[2], 'wb').write(data[:keep])
PY
$CMP complete.perfetto-trace cut.html || fail "truncated: not every complete packet"

# nothing to show (no ftrace, track events on no track): one line naming
# the file, what it holds and why none of it is shown, no page
encode "$DATA/noftrace.textproto" app.perfetto-trace
run_st 1 --from-file app.perfetto-trace -o app.html
assert_contains err.txt "app.perfetto-trace: a Perfetto trace with nothing systrace shows (it holds 2 track events"
assert_contains err.txt "2 track events on no track (left out)"
assert_contains err.txt "https://ui.perfetto.dev"
[ "$(grep -c . err.txt)" = 1 ] || fail "no ftrace: more than one line"
[ ! -e app.html ] || fail "no ftrace: a page was written"

# junk, a bad length, a long varint, a huge intern index: one line, no page
bad() {  # NAME WANT_TEXT
    run_st 1 --from-file "$1" -o bad.html
    assert_contains err.txt "$1: $2"
    [ "$(grep -c . err.txt)" = 1 ] || fail "$1: more than one line: $(cat err.txt)"
    [ ! -e bad.html ] || fail "$1: a page was written"
}
{ head -c 300 sched.perfetto-trace; head -c 2000 /dev/urandom | tr '\012' '\013'; } >junk.pftrace
python3 -c "import sys; d=open('sched.perfetto-trace','rb').read(); sys.stdout.buffer.write(d + b'\x00' * 8)" >zeros.pftrace
bad zeros.pftrace "not a Perfetto trace (or a corrupt one): no packet starts at byte $size"
cp sched.perfetto-trace longvarint.pftrace
printf '\012\377\377\377\377\377\377\377\377\377\377\001' >>longvarint.pftrace
bad longvarint.pftrace "malformed Perfetto trace: a varint longer than 10 bytes"
sed 's/switch_next_comm_index: 3/switch_next_comm_index: 4000000000/' "$DATA/sched.textproto" >idx.textproto
encode idx.textproto idx.pftrace
bad idx.pftrace "malformed Perfetto trace: compact sched intern index 4000000000 past its table"
# a packet claiming more bytes than the file has: the cut, not a crash
cp sched.perfetto-trace biglen.pftrace
printf '\012\377\377\377\017\010\001' >>biglen.pftrace
run_st 3 --from-file biglen.pftrace -o big.html
assert_contains err.txt "biglen.pftrace: the trace is cut short inside packet 7"
$CMP sched.perfetto-trace big.html || fail "a bad length at the end: the packets before it"
# junk after good packets: whatever the bytes, one line and no page
"$SYSTRACE" --from-file junk.pftrace -o junk.html -q 2>junk.err </dev/null
rc=$?
[ "$rc" = 1 ] || [ "$rc" = 3 ] || fail "junk: exit $rc"
[ "$(grep -c . junk.err)" = 1 ] || fail "junk: $(cat junk.err)"

# the real trace (full events, no compact sched, no process tree)
if [ -f "$CORPUS/perfetto/test_trace.perfetto-trace" ]; then
    R=$CORPUS/perfetto/test_trace.perfetto-trace
    run_st 0 --from-file "$R" -o real.html -q
    $CMP "$R" real.html || fail "corpus trace: not Perfetto's to_ftrace"
    tp "$R" >ref.json
    tp real.html >got.json
    python3 - <<'PY' || fail "corpus trace: Perfetto reads less from the page"
import json
ref, got = json.load(open('ref.json')), json.load(open('got.json'))
assert got['cpuSlices'] == ref['cpuSlices'] > 9000, (ref['cpuSlices'], got['cpuSlices'])
assert got['cpuCounters'] == ref['cpuCounters'], (ref, got)
assert got['errors'] == [], got['errors']
# no process tree in it: the processes task_newtask/task_rename name
assert got['processNames'] == ref['processNames'] != [], (ref['processNames'],
                                                          got['processNames'])
PY
    reals="real.html --expect ok=true cpuSlices=9613 cpus=5"
else
    echo "corpus perfetto/ absent: the real trace is not checked"
    reals=""
fi

# the classic viewer: CPU slices (as many as Perfetto's), named processes,
# the atrace slices and counter, and one warning per unknown event name
# (sched_waking: 3 lines) rather than one per line
# shellcheck disable=SC2086
browser_check sched.html --expect ok=true cpus=2 cpuSlices=5 slices=2 counters=1 \
    'processNames~com.example.app' 'processNames~/system/bin/surfaceflinger' \
    importWarningCount=3 'importWarnings~Unknown event sched_waking (3 lines like' $reals
echo ok
