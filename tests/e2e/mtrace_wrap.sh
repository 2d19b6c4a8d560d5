# 32-bit µs times wrap after 71.6 minutes: a run that crosses the wrap
# (both clocks) has the same profile as the same run without it, and its
# timeline never goes back in time.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
off=$(( (1 << 32) - 20000 ))
mk wrap.trace --random 20000 --time-offset $off --seed 4
mk plain.trace --random 20000 --seed 4
mk plainwall.trace --format v2 --clock wall --time-column 1 --random 20000 \
    --seed 4
wc=$(python3 -c 'import struct,sys
d = open("wrap.trace","rb").read(); i = d.find(b"*end\n") + 5 + 32
t = [struct.unpack_from("<I", d, p + 10)[0] for p in range(i, len(d) - 13, 14)]
print(sum(1 for a, b in zip(t, t[1:]) if b < a - (1 << 31)))')
[ "$wc" -gt 0 ] || fail "generated file does not wrap"
if command -v dmtracedump >/dev/null 2>&1; then
    same_profile plain.trace wrap.trace
    same_profile plainwall.trace wrap.trace --method-clock wall
else
    run_st 0 --method-profile plain.trace --method-profile-format tsv
    cp out.txt plain.tsv
    run_st 0 --method-profile wrap.trace --method-profile-format tsv
    cmp -s out.txt plain.tsv || fail "wrapped profile differs"
fi
json_check wrap.trace
python3 - <<'P' || fail "wrapped timeline jumps"
import json
ev = [e for e in json.load(open("out.json"))["traceEvents"] if e["ph"] != "M"]
ts = [e["ts"] for e in ev]
assert max(ts) - min(ts) < 200000, (min(ts), max(ts))
P
