# Text whose only header is `# tracer: nop` (what `traceconv systrace`
# writes, and many scripts), or no column header after other comments:
# Perfetto's importer takes a trace-data block for ftrace only when a `#`
# line with TASK-PID comes before the events, so the page must carry that
# column header whatever the input's header is.  Judged by Perfetto's own
# trace processor against the classic viewer, and against the same events
# under the full header.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

# the same events, generated here: two tasks switching on two CPUs, with
# and without the TGID column, and slices from trace_marker
python3 - <<'PY'
lines = []
t = 100.0
for i in range(200):
    cpu = i % 2
    a, b = ("app-1001", "render-1002") if i % 4 < 2 else ("render-1002", "app-1001")
    prev, nxt = a.split("-"), b.split("-")
    lines.append((a, cpu, t, "sched_switch: prev_comm=%s prev_pid=%s prev_prio=120 "
                  "prev_state=S ==> next_comm=%s next_pid=%s next_prio=120"
                  % (prev[0], prev[1], nxt[0], nxt[1])))
    lines.append((b, cpu, t + 0.0001, "tracing_mark_write: B|1001|work %d" % i))
    lines.append((b, cpu, t + 0.0002, "tracing_mark_write: E|1001"))
    t += 0.001
def body(tgid):
    out = []
    for task, cpu, ts, ev in lines:
        col = " (%5s)" % "1001" if tgid else ""
        out.append("%16s%s [%03d] ...1 %12.6f: %s\n" % (task, col, cpu, ts, ev))
    return "".join(out)
full = ("# tracer: nop\n#\n"
        "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
        "#              | |        |      |   ||||       |         |\n")
open("full.txt", "w").write(full + body(True))
open("nop.txt", "w").write("# tracer: nop\n" + body(True))
open("nop_notgid.txt", "w").write("# tracer: nop\n#\n" + body(False))
open("comments.txt", "w").write("# captured by a script\n# on host x\n\n" + body(True))
PY

for f in full nop nop_notgid comments; do
    run_st 0 --from-file $f.txt -o $f.html -q
    trace_block $f.html 1 | sed -n '/^[^#]/q;p' | grep -q 'TASK-PID' ||
        fail "$f: no TASK-PID column header before the events"
done
same_in_both full.html nop.html nop_notgid.html comments.html
python3 - tp-1.json tp-2.json tp-3.json tp-4.json <<'PY' || fail "Perfetto reads less than from the full header"
import json, sys
ref, *others = (json.load(open(f)) for f in sys.argv[1:])
assert ref['cpuSlices'] > 100 and ref['slices'] == 200, ref
for name, got in zip(('nop', 'nop without TGID', 'other comments'), others):
    for k in ('cpuSlices', 'slices'):
        assert got[k] == ref[k], (name, k, got[k], ref[k])
PY
# the input's own header lines are kept as they were
trace_block nop.html 1 | head -n 1 | grep -q '^# tracer: nop$' || fail "nop: its header line lost"
trace_block full.html 1 | grep -c 'TASK-PID' | grep -qx 1 || fail "full: a second column header"
echo ok
