# The classic trace viewer (catapult's JSON importer, in headless Chromium)
# imports our timeline without warnings and nests it exactly as we do: the
# same number of slices, top-level slices and depth, thread names, thread
# CPU durations for dual-clock files.  Uses a sampling-style trace, where
# many calls share timestamps.  (The viewer nests by time bounds, so a
# zero-length slice starting where its previous sibling ended would be
# drawn inside it; sampling traces have none except frames entered at the
# very moment the recording stopped.)
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
python3 - >samp.txt <<'P'
import random
r = random.Random(5)
print("thread 1 main\nthread 7 RenderThread")
for i in range(30):
    print("method 0x%x v/V m%d ()V V.java %d" % (0x400 + 4 * i, i, i))
stacks = {1: [], 7: []}
print("xit 1 0x474 0 0")                     # running before tracing began
for n in range(1, 150):
    for tid in (1, 7):
        old = stacks[tid]
        new = [0x400 + 4 * min(29, d + r.randrange(3)) for d in range(r.randrange(1, 9))]
        keep = 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        for m in reversed(old[keep:]):
            print("xit %d 0x%x %d %d" % (tid, m, n * 500, n * 1000))
        for m in new[keep:]:
            print("ent %d 0x%x %d %d" % (tid, m, n * 500, n * 1000))
        stacks[tid] = new
P
# recording stopped a little after the last sample
mk samp.trace --format stream --vm art --pid 321 --elapsed 150500 <samp.txt
json_check samp.trace
python3 "$MT/viewercheck.py" out.json >viewer.json
rc=$?
[ $rc -eq 77 ] && skip "$(cat viewer.json)"
[ $rc -eq 0 ] || fail "viewer: $(cat viewer.json)"
python3 - <<'P' || fail "viewer disagrees: $(cat viewer.json) vs $(cat counts.json)"
import json
v = json.load(open("viewer.json"))
c = json.load(open("counts.json"))
assert v["warnings"] == [], v["warnings"]
assert v["slices"] == c["B"], (v["slices"], c["B"])
assert v["top"] == c["top"], (v["top"], c["top"])
assert v["max_depth"] == c["max_depth"], (v["max_depth"], c["max_depth"])
# (the viewer ignores a thread time of 0, which synthetic frames start at)
assert v["cpu"] >= c["B"] - c["synthetic_begin"], (v["cpu"], c["B"])
assert sorted(v["names"]) == ["RenderThread", "main"], v["names"]
P
