# Sampling traces (records synthesised per sample, most sharing a
# timestamp, many frames open at the end): same profile as dmtracedump,
# a properly nested timeline, and the sampling heuristic fires.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
python3 - >samp.txt <<'P'
import random
r = random.Random(2)
print("thread 1 main\nthread 2 bg")
for i in range(40):
    print("method 0x%x s/S m%d ()V S.java %d" % (0x400 + 4 * i, i, i))
stacks = {1: [], 2: []}
for n in range(1, 400):
    for tid in (1, 2):
        t = n * 1000
        old = stacks[tid]
        new = [0x400 + 4 * min(39, d + r.randrange(3)) for d in range(r.randrange(1, 12))]
        keep = 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        for m in reversed(old[keep:]):
            print("xit %d 0x%x %d %d" % (tid, m, t, t))
        for m in new[keep:]:
            print("ent %d 0x%x %d %d" % (tid, m, t, t))
        stacks[tid] = new
P
mk samp.trace --format stream --vm art <samp.txt
mk sampc.trace --format v3 --vm art <samp.txt
if command -v dmtracedump >/dev/null 2>&1; then
    same_profile sampc.trace samp.trace
fi
json_check samp.trace
[ "$(jget synthetic_end)" -gt 0 ] || fail "no frames open at the end"
assert_eq "sampling detected" likely "$(jget other.sampling)"
