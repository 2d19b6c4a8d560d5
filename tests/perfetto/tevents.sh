# --trace-events JSON of --from-file conversions as Perfetto's trace
# processor imports it and as the classic viewer's JSON importer shows it:
# the same counts in both, no import errors, and it carries what Perfetto
# reads from the page written alongside (json_covers_page): a generated
# trace with every event kind the converter knows, names needing JSON
# escapes, a circular-buffer restart, unmatched and unfinished slices,
# threads named only by sched events or the process dump; corpus traces.
# (Not atrace's I|pid|name instants: the classic viewer drops them,
# Perfetto shows them as slices of no duration.)
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

python3 - <<'PY'
import random
random.seed(3)
o = open('gen.txt', 'w', encoding='latin-1')  # \xe9: invalid UTF-8
o.write('# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n')
ts = 50.0
running = {}
for i in range(6000):
    ts += 0.000013
    if i == 1000:
        o.write('##### CPU 3 buffer started ####\n')
    tid = 200 + i % 7
    cpu = i % 4
    k = random.random()
    task = '<...>' if tid == 206 else 'w\\"%d' % tid
    pre = '  %s-%d  ( 200) [%03d] ...1 %.6f: ' % (task, tid, cpu, ts)
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
    elif k < 0.8:
        o.write(pre.replace('...1', 'd..3') + 'sched_waking: comm=Worker_%d pid=%d prio=120 '
                'target_cpu=%03d\n' % (tid, tid, cpu))
    elif k < 0.9:
        prev = running.get(cpu, 0)
        nxt = 0 if i % 5 == 0 else tid + 1
        o.write('  %s-%d  (%s) [%03d] d..2 %.6f: sched_switch: prev_comm=%s prev_pid=%d '
                'prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n'
                % ('task_%d' % prev if prev else '<idle>', prev, ' 200' if prev else '-----',
                   cpu, ts, 'task_%d' % prev if prev else 'swapper/%d' % cpu, prev,
                   'task_%d' % nxt if nxt else 'swapper/%d' % cpu, nxt))
        running[cpu] = nxt
    elif k < 0.95:
        o.write('  <idle>-0  (-----) [%03d] d..2 %.6f: cpu_frequency: state=%d cpu_id=%d\n'
                % (cpu, ts, 300000 + i, cpu))
    else:
        o.write('  <idle>-0  (-----) [%03d] d..2 %.6f: cpu_idle: state=%d cpu_id=%d\n'
                % (cpu, ts, 4294967295 if i % 2 else 1, cpu))
PY
printf 'PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN PC S NAME COMM\n' >pd.txt
printf 'u0_a1 200 1 0 0 0 0 S com.example.gen gen\nroot 300 1 0 0 0 0 S idle.daemon d\n' >>pd.txt
printf 'USER PID TID CMD\nu0_a1 200 206 Decoder\nroot 300 301 pool\n' >>pd.txt
python3 "$TOP/tests/browser/mkpage.py" gen_in.html pd.txt gen.txt
run_st 0 --from-file gen_in.html -o gen.html --trace-events gen.tev.json -q
same_in_both gen.html gen.tev.json
json_covers_page gen.html gen.tev.json
python3 - tp-2.json <<'PY' || fail "names in the JSON"
import json, sys
j = json.load(open(sys.argv[1]))
# task columns, sched names (the latest wins, as in Perfetto), the dump's
assert {'pool', 'w\\"203', 'task_206'} <= set(j['threadNames']), j['threadNames']
assert 'Decoder' not in j['threadNames'] and 'Worker_201' not in j['threadNames']
assert {'com.example.gen', 'idle.daemon', 'CPUs'} <= set(j['processNames']), j['processNames']
PY

D=$CORPUS/atrace/systrace_test_data
if [ -d "$D" ]; then
    set --
    for f in decompressed_atrace_data.txt atrace_fixed_tgids; do
        run_st 0 --from-file "$D/$f" -o "$f.html" --trace-events "$f.tev.json" -q
        json_covers_page "$f.html" "$f.tev.json"
        set -- "$@" "$f.tev.json"
    done
    same_in_both "$@"
else
    echo "corpus $D absent: generated trace only"
fi
echo ok
