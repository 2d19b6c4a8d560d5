# Huge ftrace parts are split into several trace-data blocks (tracewriter.h)
# with a small split size ($SYSTRACE_SPLIT_BYTES, for tests): every block
# is near the split size and starts with the ftrace header, no trace text
# can end a block, the boundary is the one line both viewers read past,
# the circular-buffer cut still applies, the split file converts back to
# the same trace, -j JSON is never split, and consecutive ftrace blocks of
# an input page are joined.  (What Perfetto's importer and the classic
# viewer read from such pages: tests/perfetto/split.sh, fromfile.sh.)
. "$TOP/tests/lib.sh"

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
blocks=$(trace_block split.html count)
[ "$blocks" -ge 10 ] || fail "expected >= 10 blocks, got $blocks"
assert_eq "whole is one block" 1 "$(trace_block whole.html count)"
assert_eq "note names the block count" 1 "$(grep -c "as $blocks trace-data blocks" err.txt)"
assert_eq "boundary lines" "$((blocks - 1))" \
    "$(grep -c '^# </SCRIPT>  <script class="trace-data" type="application/text">$' split.html)"
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
lines() {   # the non-comment lines of all blocks
    n=$(trace_block "$1" count)
    for i in $(seq "$n"); do trace_block "$1" "$i"; echo; done | grep -v '^#' | grep .
}
lines whole.html >whole.txt
lines split.html >split.txt
cmp -s split.txt whole.txt || fail "the split page's events differ from the whole page's"
# the circular-buffer cut: nothing before the marker survives
[ "$(grep -c . whole.txt)" = "$(sed -n '/buffer started/,$p' big.txt | grep -vc '^#')" ] ||
    fail "the cut kept the wrong lines"
# back through --from-file: the same trace comes out (the boundaries are not
# part of it; the replayed headers and the boundary line are comments)
run_st 0 --from-file split.html -o again.html -q
lines again.html >again.txt
cmp -s again.txt whole.txt || fail "re-converted events differ"
# JSON output is never split
SYSTRACE_SPLIT_BYTES=100000 run_st 0 --from-file big.txt -o split.json -j -q
grep -q 'SCRIPT' split.json && fail "-j JSON has a split boundary"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' split.json || fail "-j JSON"

# An input page with two ftrace blocks: joined in the output (so Perfetto
# reads both), still two script elements for the classic viewer
mk() { printf '# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
       printf '  a-1  ( 1) [000] ...1 %s: tracing_mark_write: B|1|x\n' "$1"; }
mk 1.000000 >p1.txt
mk 2.000000 >p2.txt
python3 "$TOP/tests/browser/mkpage.py" two.html p1.txt p2.txt
run_st 0 --from-file two.html -o two_out.html -q
assert_eq "still two script elements" 2 "$(trace_block two_out.html count)"
assert_eq "joined by the boundary line" 1 "$(grep -c '^# </SCRIPT>  <script class="trace-data"' two_out.html)"
echo ok
