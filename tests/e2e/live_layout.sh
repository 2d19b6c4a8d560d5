# Live captures (simulated device, real adb server) lay their outputs out
# as both viewers need (what Perfetto then imports is tests/perfetto/):
# doctype at byte 0, the process dump in the first block, the ftrace text
# (with its circular-buffer marker) after it; --trace-events matches the
# capture's ftrace text (tests/tools/tevents_expect.py) and names the
# processes of the dump; a large capture split into blocks converts to
# the same trace events.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
TE="python3 $TOP/tests/tools/tevents_expect.py"
start_adb_server
start_sim --overflow

run_st 0 -o live.html -t 1 sched gfx freq idle --trace-events live.tev.json
head -c 15 live.html | grep -q '^<!DOCTYPE html>$' || fail "doctype not at byte 0"
trace_block live.html 1 | head -n 1 | grep -qx 'PROCESS DUMP' || fail "block 1 is not the process dump"
trace_block live.html 2 >ftrace.txt
head -n 1 ftrace.txt | grep -q '^# tracer' || fail "block 2 is not the ftrace text"
grep -q 'buffer started' ftrace.txt || fail "the capture has no circular-buffer marker"
$TE ftrace.txt live.tev.json >counts.json || fail "trace events vs the capture's text"
cat counts.json
python3 - <<'PY' || fail "names from the process dump"
import json
ev = json.load(open('live.tev.json'))['traceEvents']
procs = {e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
assert 'surfaceflinger' in procs and 'CPUs' in procs, procs
PY

# a capture of several blocks
start_sim --size-mb 3
SYSTRACE_SPLIT_BYTES=400000 run_st 0 -o split.html -t 1 sched gfx -e "$SIM_SERIAL" \
    --trace-events split.tev.json
assert_contains err.txt "trace-data blocks so the classic viewer can load it"
n=$(trace_block split.html count)
[ "$n" -ge 6 ] || fail "expected >= 6 blocks, got $n"
for i in $(seq 2 $((n - 1))); do trace_block split.html "$i"; echo; done >split_text.txt
$TE split_text.txt split.tev.json >/dev/null || fail "trace events of the split capture"
echo ok
