# A Perfetto trace (23 MB) whose prints fill the conversion's sort (every block of
# its 20 MB made) followed by a process tree over 16 KB (a record too big
# for a block): the conversion finishes and the page holds both.  Before,
# the sort flushed on with an empty index and hung at 100% CPU; timeout(1)
# turns a hang into a failure here.  The prints are long (about 180 bytes
# a record) so that the 20 MB of blocks fill before the sort's index does
# (256K records): with short prints the index flushed first, the blocks
# never all got made and the old code passed.  Checked against the sort
# before 40f9caf: killed after 60 s.
. "$TOP/tests/lib.sh"

python3 - <<'PY' || fail "could not write the trace"
import struct
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)
def field(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data
def vfield(num, v):
    return varint(num << 3) + varint(v)
pad = b"x" * 120
with open("big.pftrace", "wb") as f:
    ts = 1000000000
    for chunk in range(130):
        events = b""
        for i in range(1000):
            ts += 1000
            pr = field(2, b"B|100|slice number %d of a long trace %s\n" % (i, pad))
            events += field(2, vfield(1, ts) + vfield(2, 100) + field(3, pr))
        f.write(field(1, field(1, vfield(1, 0) + events)))
    threads = b"".join(field(2, vfield(1, 1000 + i) + field(2, b"worker-%d" % i) + vfield(3, 100))
                       for i in range(2500))
    tree = field(1, vfield(1, 100) + vfield(2, 1) + field(3, b"com.example.app")) + threads
    assert len(tree) > 35000
    f.write(field(1, vfield(8, ts + 1000) + field(2, tree)))
    bundle = vfield(1, 0) + field(2, vfield(1, ts + 2000) + vfield(2, 100) +
                                  field(3, field(2, b"E|100\n")))
    f.write(field(1, field(1, bundle)))
PY
timeout 60 "$SYSTRACE" --from-file big.pftrace -o out.html >out.txt 2>err.txt
rc=$?
[ $rc -ne 124 ] || fail "the conversion hung (killed after 60 s)"
[ $rc -eq 0 ] || { cat err.txt; fail "exit $rc"; }
grep -q 'slice number 999 of a long trace' out.html || fail "the prints are missing"
grep -q 'worker-2499' out.html || fail "the process tree's threads are missing"
exit 0
