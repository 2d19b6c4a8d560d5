# Exits without entries: frames that were already running when tracing
# began, at the start and mid-trace (a thread blocked in wait()).  The
# profile matches dmtracedump; the timeline opens those frames at trace
# start (flagged synthetic_begin) so every E has its B.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
mk o.trace --start 5000000 <<'S'
thread 1 main
thread 2 worker
method 0x100 a/A start ()V A.java 1
method 0x104 a/A run ()V A.java 2
method 0x108 a/A wait ()V A.java 3
method 0x10c a/B work ()V B.java 4
xit 1 0x100 5 10
ent 1 0x10c 8 20
xit 1 0x10c 12 30
ent 2 0x10c 1 100
xit 2 0x10c 3 110
xit 2 0x108 4 150
xit 2 0x104 6 160
S
if command -v dmtracedump >/dev/null 2>&1; then
    same_profile o.trace o.trace
fi
run_st 0 --method-profile o.trace --method-profile-format tsv
cp out.txt our.tsv
# A.run: 1 call, inclusive = its exit time (entry counted from 0)
assert_eq "A.run calls" 1 "$(tsv_method a/A.run 4)"
assert_eq "A.run inclusive" 6 "$(tsv_method a/A.run 6)"
json_check o.trace
assert_eq "synthetic begins" 3 "$(jget synthetic_begin)"
assert_eq "slices" 5 "$(jget B)"
# thread 2's frames open at the header start time, outermost first
python3 - <<'P' || fail "synthetic frames of thread 2 are wrong"
import json
ev = [e for e in json.load(open("out.json"))["traceEvents"]
      if e["ph"] == "B" and e["tid"] == 2]
assert [e["name"] for e in ev] == ["A.run", "A.wait", "B.work"], ev
assert ev[0]["ts"] == ev[1]["ts"] == 5000000, ev
assert ev[0]["args"]["synthetic_begin"] and "synthetic_begin" not in ev[2]["args"]
P
