# Layouts and method-line styles: v1 (1-byte thread ids), v2, v3 single
# and dual clock, wider records; Dalvik 6-column lines, ART 5-column lines
# with an empty file column, bare names, id "0", UTF-8 names.  Profiles
# match dmtracedump; the timeline carries tts only for dual clocks and
# says when ts is thread-CPU time.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
cat >names.txt <<'S'
thread 1 main_ò
thread 2 Binder:_1@x
method 0 com.x.Art run ()V Art.java
method 0x4 com.x.Art ˊˋ (I)V \t
method 0x8 justAName
method 0x62830738 android/os/Debugò startMethodTracingô ()V Debug.java 60
ent 1 0 1 1
ent 1 0x4 2 3
ent 1 0x8 4 6
xit 1 0x8 5 8
xit 1 0x4 6 9
ent 2 0x62830738 1 10
xit 2 0x62830738 3 12
xit 1 0 7 15
S
for fmt in v1 v2 v3; do
    mk $fmt.trace --format $fmt <names.txt
    if command -v dmtracedump >/dev/null 2>&1; then
        same_profile $fmt.trace $fmt.trace
    fi
done
json_check v3.trace
python3 - <<'P' || fail "names in the timeline"
import json
d = json.load(open("out.json"))
ev = d["traceEvents"]
names = {e["args"]["name"] for e in ev if e["ph"] == "M"}
assert {"main ò", "Binder: 1@x"} <= names, names
b = [e for e in ev if e["ph"] == "B"]
assert [e["name"] for e in b] == ["Art.run", "Art.ˊˋ", "justAName",
                                  "Debugò.startMethodTracingô"], b
assert b[3]["args"] == {"class": "android/os/Debugò", "signature": "()V",
                        "file": "Debug.java", "line": 60}, b[3]
assert b[1]["args"] == {"class": "com.x.Art", "signature": "(I)V"}, b[1]
assert all("tts" in e for e in b) and d["otherData"]["clock"] == "dual"
assert b[1]["ts"] == 1000003 and b[1]["tts"] == 2, b[1]
P
json_check v2.trace
python3 - <<'P' || fail "thread-cpu timeline"
import json
d = json.load(open("out.json"))
b = [e for e in d["traceEvents"] if e["ph"] == "B"]
assert not any("tts" in e for e in b) and "note" in d["otherData"], d["otherData"]
assert b[1]["ts"] == 1000002, b[1]
P
mk wall.trace --format v2 --clock wall <names.txt
json_check wall.trace
grep -q '"note"' out.json && fail "wall clock flagged as thread-cpu"
run_st 1 --method-profile wall.trace --method-clock cpu
assert_eq "no cpu clock" "systrace: wall.trace: this trace has no thread-cpu clock (clock=wall)" "$(cat err.txt)"
# v1 writes thread ids as one byte
[ "$(wc -c <v1.trace)" -lt "$(wc -c <v2.trace)" ] || fail "v1 records not smaller"
