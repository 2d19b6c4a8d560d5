# Every output systrace writes goes back through --from-file and gives the
# same trace again (issue 11 item 14): a live capture's HTML page (process
# dump, ftrace text, clock-sync controller part) and its -j JSON, each
# converted into the other and back; --trace-events JSON; an atrace raw
# dump (what a failed capture keeps as .atrace); a method trace and its
# --method-json.  Pages are compared block by block (tools/htmlblocks reads
# them independently of the C code), JSON by parsing.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

blocks() { "$BUILD/tools/htmlblocks" "$1" count; }
same_blocks() {   # a.html b.html: the same trace-data blocks, in order
    [ "$(blocks "$1")" = "$(blocks "$2")" ] || fail "$1 and $2: block counts differ"
    i=1
    while [ $i -le "$(blocks "$1")" ]; do
        trace_block "$1" $i >x.1; trace_block "$2" $i >x.2
        cmp -s x.1 x.2 || { diff x.1 x.2 | head -5; fail "$1 and $2: block $i differs"; }
        i=$((i + 1))
    done
}

# a live page: process dump, ftrace text, controller part
run_st 0 -o live.html -t 1 sched gfx -q
assert_eq "live blocks" 3 "$(blocks live.html)"
trace_block live.html 2 | grep -q sched_switch || fail "live page has no sched_switch"

# HTML -> HTML, HTML -> -j -> HTML (the page that -j was written instead of)
run_st 0 --from-file live.html -o again.html -q
same_blocks live.html again.html
run_st 0 --from-file live.html -j -o live.json -q
run_st 0 --from-file live.json -o back.html -q
cmp -s again.html back.html || fail "HTML -> -j -> HTML is not the page HTML -> HTML gives"
run_st 0 --from-file live.json -j -o back.json -q
cmp -s live.json back.json || fail "-j -> -j changed the JSON"

# a live -j capture: every part comes back as its block, in order
run_st 0 -o cap.json -j -t 1 sched gfx -q
run_st 0 --from-file cap.json -o cap.html -q
python3 - <<'PY' || fail "-j parts are not the page's blocks"
import json, subprocess, sys
d = json.load(open('cap.json', encoding='utf-8'))
parts = [v for k, v in d.items() if k != 'controllerTraceDataKey']
assert [k for k in d][:3] == ['androidProcessDump', 'systemTraceEvents', 'systraceController'], list(d)
hb = __import__('os').environ['BUILD'] + '/tools/htmlblocks'
for i, want in enumerate(parts, 1):
    got = subprocess.run([hb, 'cap.html', str(i)],
                         capture_output=True, check=True).stdout.decode()
    assert got == want, (i, got[:200], want[:200])
assert 'sched_switch' in parts[1]
PY

# --trace-events JSON: one JSON part holding the same events
run_st 0 --from-file live.html --trace-events te.json -o te-src.html -q
run_st 0 --from-file te.json -o te.html -q
assert_eq "trace-events blocks" 1 "$(blocks te.html)"
python3 - <<'PY' || fail "--trace-events JSON did not come back"
import json, subprocess, os
got = subprocess.run([os.environ['BUILD'] + '/tools/htmlblocks', 'te.html', '1'],
                     capture_output=True, check=True).stdout
a, b = json.loads(got), json.load(open('te.json'))
assert a == b and len(a['traceEvents']) > 100, len(a['traceEvents'])
PY

# an atrace raw dump as a failed capture keeps it: notice, marker, zlib
trace_block live.html 2 >text.txt
python3 - <<'PY'
import zlib
t = open('text.txt', 'rb').read()
open('raw.atrace', 'wb').write(b'capturing trace... done\nTRACE:\n' + zlib.compress(t))
PY
run_st 0 --from-file raw.atrace -o raw.html -q
trace_block raw.html 1 | cmp -s - text.txt || fail "raw dump: text differs"

# a method trace, its page and its --method-json
python3 "$TOP/tests/tools/mktrace.py" m.trace <<'S'
thread 1 main
thread 2 worker
method 0x10 com/ex/A run ()V A.java
method 0x20 com/ex/A work ()V A.java
ent 1 0x10 100
ent 1 0x20 200
ent 2 0x20 250
xit 1 0x20 300
xit 2 0x20 350
xit 1 0x10 400
S
run_st 0 --from-file m.trace -o m.html -q
run_st 0 --from-file m.html -j -o m.json -q
run_st 0 --from-file m.json -o m2.html -q
cmp -s m.html m2.html || fail "method page -> -j -> page changed"
run_st 0 --method-json mj.json m.trace
run_st 0 --from-file mj.json -o mj.html -q
python3 - <<'PY' || fail "--method-json did not come back"
import json, subprocess, os
hb = os.environ['BUILD'] + '/tools/htmlblocks'
got = subprocess.run([hb, 'mj.html', '1'], capture_output=True, check=True).stdout
a = json.loads(got)
assert a == json.load(open('mj.json'))
assert len([e for e in a['traceEvents'] if e.get('ph') == 'B']) == 3
PY
ls | grep -q '\.tmp\.' && fail "temporary file left behind"
echo ok
