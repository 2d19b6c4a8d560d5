# --trace-events FILE with --from-file: Chrome trace-event JSON that a real
# JSON parser accepts, whose events match what an independent count of the
# ftrace input expects (tests/tools/tevents_expect.py), written atomically
# and alongside the HTML or -j output.  (What Perfetto and the classic
# viewer import from it: tests/perfetto/tevents.sh.)
. "$TOP/tests/lib.sh"
TE="python3 $TOP/tests/tools/tevents_expect.py"

# a generated trace with everything the converter knows, a circular-buffer
# restart, names needing JSON escapes, nesting, unmatched E, open B and S
python3 - <<'PY'
import random
random.seed(3)
o = open('gen.txt', 'w', encoding='latin-1')  # \xe9: invalid UTF-8
o.write('# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n')
ts = 50.0
for i in range(6000):
    ts += 0.000013
    if i == 1000:
        o.write('##### CPU 3 buffer started ####\n')
    tid = 200 + i % 7
    cpu = i % 4
    k = random.random()
    pre = '  w\\"%d-%d  ( 200) [%03d] ...1 %.6f: ' % (tid, tid, cpu, ts)
    if k < 0.3:
        o.write(pre + 'tracing_mark_write: B|200|slice "%d" \\ \x01 \xe9\n' % (i % 11))
    elif k < 0.58:
        o.write(pre + 'tracing_mark_write: E|200\n')
    elif k < 0.65:
        o.write(pre + 'tracing_mark_write: C|200|ctr%d|%d\n' % (i % 3, i - 3000))
    elif k < 0.7:
        o.write(pre + 'tracing_mark_write: S|200|load|%d\n' % (i % 5))
    elif k < 0.74:
        o.write(pre + 'tracing_mark_write: F|200|load|%d\n' % (i % 5))
    elif k < 0.76:
        o.write(pre + 'tracing_mark_write: I|200|tick\n')
    elif k < 0.9:
        o.write(pre.replace('...1', 'd..2') + 'sched_switch: prev_comm=w prev_pid=%d prev_prio=120 '
                'prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n'
                % (tid, 'swapper/%d' % cpu if i % 5 == 0 else 'task %d' % i, 0 if i % 5 == 0 else tid + 1))
    elif k < 0.95:
        o.write('  <idle>-0  (-----) [%03d] d..2 %.6f: cpu_frequency: state=%d cpu_id=%d\n'
                % (cpu, ts, 300000 + i, cpu))
    else:
        o.write('  <idle>-0  (-----) [%03d] d..2 %.6f: cpu_idle: state=%d cpu_id=%d\n'
                % (cpu, ts, 4294967295 if i % 2 else 1, cpu))
PY
run_st 0 --from-file gen.txt -o gen.html --trace-events gen.tev.json
assert_contains out.txt "Wrote trace HTML file: file://$T/gen.html"
assert_contains out.txt "Wrote trace events JSON file: file://$T/gen.tev.json ("
$TE gen.txt gen.tev.json --cut >counts.json || fail "counts from the raw input"
cat counts.json
# the same against the text the HTML holds (after the repair's cut)
trace_block gen.html 1 >gen_block.txt
$TE gen_block.txt gen.tev.json || fail "counts from the HTML's ftrace text"
python3 - <<'PY' || fail "content"
import json
d = json.load(open('gen.tev.json'))
ev = d['traceEvents']
names = {e['args'].get('name') for e in ev if e['ph'] == 'M'}
assert 'CPUs' in names and 'CPU 0' in names, names
assert 'w\\"203' in names, names     # task names kept, escaped
assert any(e['name'] == 'slice "3" \\ \x01 \ufffd' for e in ev if e['ph'] == 'X'), 'escapes'
assert all(isinstance(e['ts'], (int, float)) for e in ev if e['ph'] != 'M')
assert any(e['ph'] == 'C' and e['name'] == 'CPU 1 idle' and e['args']['value'] == -1 for e in ev)
assert min(e['ts'] for e in ev if e['ph'] != 'M') >= 50.0e6
PY

# with -j and with the corpus
run_st 0 --from-file gen.txt -o gen.json -j --trace-events gen2.tev.json -q
cmp -s gen.tev.json gen2.tev.json || fail "trace events differ between HTML and -j runs"
if [ -d "$CORPUS/atrace/systrace_test_data" ]; then
    D=$CORPUS/atrace/systrace_test_data
    for f in decompressed_atrace_data.txt atrace_fixed_tgids compressed_atrace_data.txt; do
        run_st 0 --from-file "$D/$f" -o c.html --trace-events c.tev.json -q
        trace_block c.html 1 >c.txt
        $TE c.txt c.tev.json >/dev/null || fail "$f: counts"
    done
    # a JSON input has no ftrace text: its own trace events come out as
    # they are, all of them, in a valid file
    run_st 0 --from-file "$D/profile-chrome_systrace_perf_chrome_data" -o j.html \
        --trace-events j.tev.json
    assert_not_contains err.txt "no ftrace text to convert"
    python3 - "$D/profile-chrome_systrace_perf_chrome_data" j.tev.json <<'PY' || fail "JSON input: its events not in --trace-events"
import json, sys
src = json.load(open(sys.argv[1]))
src = src['traceEvents'] if isinstance(src, dict) else src
got = json.load(open(sys.argv[2]))['traceEvents']
assert len(src) > 0 and got == src, (len(src), len(got))
PY
fi

# a failed conversion leaves no trace-events file; an unwritable path fails
printf 'garbage\0' >bad.bin
run_st 1 --from-file bad.bin -o bad.html --trace-events bad.tev.json
[ ! -e bad.tev.json ] || fail "a failed conversion left a trace-events file"
run_st 1 --from-file gen.txt -o x.html --trace-events /nonexistent/dir/t.json
assert_contains err.txt "/nonexistent/dir/t.json: cannot write"
[ ! -e x.html ] || fail "HTML written although --trace-events could not be opened"
ls -A | grep -q '\.tmp\.' && fail "temporary files left: $(ls -A)"
echo ok
