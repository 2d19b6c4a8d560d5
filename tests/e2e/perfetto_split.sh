# Huge ftrace parts are split into several trace-data blocks (tracewriter.h)
# with a boundary Perfetto reads through: with a small split size
# ($SYSTRACE_SPLIT_BYTES, for tests) Perfetto reads exactly the events of
# the unsplit output (a boundary is a comment line to it), the classic
# layout rules still hold, the circular-buffer cut still applies, the split
# file converts back to the same trace, and consecutive ftrace blocks of an
# input page are joined so Perfetto reads them all.
. "$TOP/tests/lib.sh"
PC="python3 $TOP/tests/tools/perfetto_check.py"
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }

python3 - <<'PY'
import random
random.seed(7)
out = open('big.txt', 'w')
out.write('# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
          '#              | |        |      |   ||||       |         |\n')
ts = 100.0
for i in range(20000):
    ts += 0.00001
    if i == 3000:
        out.write('##### CPU 2 buffer started ####\n')
    tid = 100 + i % 5
    k = random.random()
    if k < 0.4:
        out.write('  t-%d  ( 100) [00%d] ...1 %.6f: tracing_mark_write: B|100|s%d<!--x\n'
                  % (tid, i % 4, ts, i % 9))
    elif k < 0.8:
        out.write('  t-%d  ( 100) [00%d] ...1 %.6f: tracing_mark_write: E|100\n' % (tid, i % 4, ts))
    else:
        out.write('  t-%d  ( 100) [00%d] d..2 %.6f: sched_switch: prev_comm=t prev_pid=%d '
                  'prev_prio=120 prev_state=S ==> next_comm=u next_pid=%d next_prio=120\n'
                  % (tid, i % 4, ts, tid, tid + 1))
PY
run_st 0 --from-file big.txt -o whole.html -q
SYSTRACE_SPLIT_BYTES=100000 run_st 0 --from-file big.txt -o split.html
assert_contains err.txt "trace-data blocks so the classic viewer can load it"
$PC whole.html >p_whole.json || fail "whole"
$PC split.html >p_split.json || fail "split breaks a Perfetto rule"
$PC big.txt --cut >p_ref.json
blocks=$(field p_split.json "['trace_data_blocks']")
[ "$blocks" -ge 10 ] || fail "expected >= 10 blocks, got $blocks"
assert_eq "whole is one block" 1 "$(field p_whole.json "['trace_data_blocks']")"
assert_eq "events (split vs reference)" "$(field p_ref.json "['events']")" \
    "$(field p_split.json "['events']")"
assert_eq "events (split vs whole)" "$(field p_whole.json "['events']")" \
    "$(field p_split.json "['events']")"
assert_eq "no unparsable line at a boundary" 0 "$(field p_split.json "['parse_failures']")"
assert_eq "note names the block count" 1 "$(grep -c "as $blocks trace-data blocks" err.txt)"
# every block is near the split size and starts with the ftrace header
python3 - <<'PY' || fail "block layout"
import re
d = open('split.html', 'rb').read()
tag = b'<script class="trace-data" type="application/text">\n'
bodies = re.findall(re.escape(tag) + rb'(.*?)</script', d, re.S | re.I)
assert len(bodies) >= 10, len(bodies)
for b in bodies:
    assert b.startswith(b'# tracer: nop\n'), b[:40]
    assert len(b) < 100000 + 4096, len(b)
    assert b'</script' not in b.lower() and b'<!--' not in b
PY
# back through --from-file: the same trace comes out (the boundaries are not
# part of it; the replayed headers and the "#" boundary line are comments)
run_st 0 --from-file split.html -o again.html -q
$PC again.html >p_again.json || fail "re-converted split file"
assert_eq "events after re-conversion" "$(field p_whole.json "['events']")" \
    "$(field p_again.json "['events']")"
lines() {   # the non-comment lines of all blocks
    n=$(trace_block "$1" count)
    for i in $(seq "$n"); do trace_block "$1" "$i"; echo; done | grep -v '^#' | grep .
}
lines again.html >again.txt
lines whole.html >whole.txt
cmp -s again.txt whole.txt || fail "re-converted events differ"
# JSON output is never split
SYSTRACE_SPLIT_BYTES=100000 run_st 0 --from-file big.txt -o split.json -j -q
$PC split.json >p_json.json || fail "json"
assert_eq "JSON events" "$(field p_whole.json "['events']")" "$(field p_json.json "['events']")"

# An input page with two ftrace blocks: Perfetto reads only the first of
# them from the input, but both from the output, where they are joined
mk() { printf '# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
       printf '  a-1  ( 1) [000] ...1 %s: tracing_mark_write: B|1|x\n' "$1"; }
mk 1.000000 >p1.txt
mk 2.000000 >p2.txt
python3 "$TOP/tests/browser/mkpage.py" two.html p1.txt p2.txt
$PC two.html >p_two_in.json
assert_eq "Perfetto reads the input's first block only" 1 "$(field p_two_in.json "['ftrace_events']")"
run_st 0 --from-file two.html -o two_out.html -q
$PC two_out.html >p_two_out.json || fail "joined"
assert_eq "Perfetto reads both joined blocks" 2 "$(field p_two_out.json "['ftrace_events']")"
assert_eq "still two script elements" 2 "$(field p_two_out.json "['trace_data_blocks']")"
echo ok
