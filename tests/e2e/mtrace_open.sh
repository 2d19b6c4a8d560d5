# Entries still open when the data ends: closed at the thread's last time
# for the profile (as dmtracedump does: inclusive time, no exclusive), at
# the end of the recording (elapsed-time-usec) on the timeline, flagged
# synthetic_end.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
mk open.trace --elapsed 100 <<'S'
thread 1 main
method 0x100 a/A outer ()V A.java 1
method 0x104 a/A inner ()V A.java 2
method 0x108 a/A leaf ()V A.java 3
ent 1 0x100 0 0
ent 1 0x104 10 10
ent 1 0x108 20 20
xit 1 0x108 25 25
ent 1 0x108 30 40
S
if command -v dmtracedump >/dev/null 2>&1; then
    same_profile open.trace open.trace
fi
run_st 0 --method-profile open.trace --method-profile-format tsv
cp out.txt our.tsv
assert_eq "outer inclusive" 30 "$(tsv_method a/A.outer 6)"
assert_eq "leaf calls" 2 "$(tsv_method a/A.leaf 4)"
assert_eq "leaf exclusive" 5 "$(tsv_method a/A.leaf 7)"
json_check open.trace
assert_eq "synthetic ends" 3 "$(jget synthetic_end)"
python3 - <<'P' || fail "open frames do not end at the last time"
import json
ev = json.load(open("out.json"))["traceEvents"]
ends = [e for e in ev if e["ph"] == "E" and e.get("args", {}).get("synthetic_end")]
assert len(ends) == 3 and all(e["ts"] == 1000100 and e["tts"] == 30 for e in ends), ends
P
