# Live captures (simulated device, real adb server) follow Perfetto's rules:
# doctype at byte 0, PROCESS DUMP before the ftrace section (so Perfetto
# uses it), a "# ... TASK-PID" header, every event line tokenized; -j
# tokenizes line by line; --trace-events matches the capture's ftrace text;
# a circular-buffer capture is cut the same way in HTML and JSON; a large
# capture split into blocks is read by Perfetto through all of them.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
PC="python3 $TOP/tests/tools/perfetto_check.py"
TE="python3 $TOP/tests/tools/tevents_expect.py"
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }
start_adb_server
start_sim --overflow

run_st 0 -o live.html -t 1 sched gfx freq idle --trace-events live.tev.json
head -c 15 live.html | grep -q '^<!DOCTYPE html>$' || fail "doctype not at byte 0"
$PC live.html >p.json || fail "live HTML breaks a Perfetto rule"
cat p.json
python3 - <<'PY' || fail "Perfetto's view of the live capture"
import json
p = json.load(open('p.json'))
assert p['sections'][:2] == ['process_dump', 'ftrace'], p['sections']
assert p['process_dump_before_ftrace'] and p['process_dump_rows'] > 10, p
assert p['ftrace_events'] > 1000 and p['parse_failures'] == 0, p
assert p['events'].get('sched_switch') and p['events'].get('tracing_mark_write'), p['events']
PY
trace_block live.html 2 >ftrace.txt
head -n 1 ftrace.txt | grep -q '^# tracer' || fail "block 2 is not the ftrace text"
grep -q 'buffer started' ftrace.txt || fail "the capture has no circular-buffer marker"
$TE ftrace.txt live.tev.json >counts.json || fail "trace events vs the capture's text"
cat counts.json
$PC live.tev.json >/dev/null || fail "trace events break Perfetto's JSON rules"
python3 - <<'PY' || fail "names from the process dump"
import json
ev = json.load(open('live.tev.json'))['traceEvents']
procs = {e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
assert 'surfaceflinger' in procs and 'CPUs' in procs, procs
PY

run_st 0 -o live.json -j -t 1 sched gfx
$PC live.json >pj.json || fail "live -j JSON: a line would be fatal in Perfetto"
[ "$(field pj.json "['ftrace_events']")" -gt 1000 ] || fail "live JSON events"

# a capture of several blocks: Perfetto reads every one
start_sim --size-mb 3
SYSTRACE_SPLIT_BYTES=400000 run_st 0 -o split.html -t 1 sched gfx -e "$SIM_SERIAL" \
    --trace-events split.tev.json
assert_contains err.txt "trace-data blocks so the classic viewer can load it"
$PC split.html >ps.json || fail "split live capture"
python3 - <<'PY' || fail "Perfetto reads all blocks"
import json, re
d = open('split.html', encoding='utf-8', errors='replace').read()
p = json.load(open('ps.json'))
splits = d.count('\n# </SCRIPT>  <script class="trace-data" type="application/text">\n')
assert splits >= 5, splits
assert p['parse_failures'] == 0, p['parse_failures']
line = re.compile(r'-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*'
                  r'([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):')
blocks = re.findall(r'<script class="trace-data" type="application/text">\n(.*?)</script',
                    d, re.S | re.I)
n = sum(1 for b in blocks if b.startswith('# tracer') for l in b.split('\n')
        if l and not l.startswith('#') and line.search(l))
assert p['ftrace_events'] == n, (p['ftrace_events'], n)
PY
n=$(trace_block split.html count)
for i in $(seq 2 $((n - 1))); do trace_block split.html "$i"; echo; done >split_text.txt
$TE split_text.txt split.tev.json >/dev/null || fail "trace events of the split capture"
echo ok
