# Pages split into several trace-data blocks (tracewriter.h; a small
# $SYSTRACE_SPLIT_BYTES stands in for the 256 MiB of real use): Perfetto's
# trace processor reads every block - one sched row per sched_switch line
# of the input (after the circular-buffer cut), the same counts as from
# the unsplit page, no import error at a boundary - and the classic viewer
# shows the same; also for a live capture split while it streams in.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
need_perfetto

python3 - <<'PY'
import random
random.seed(7)
out = open('big.txt', 'w')
out.write('# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
          '#              | |        |      |   ||||       |         |\n')
ts = 100.0
running = {}
for i in range(40000):
    ts += 0.00001
    if i == 3000:
        out.write('##### CPU 2 buffer started ####\n')
    cpu = i % 4
    tid = 100 + i % 5
    k = random.random()
    if k < 0.35:
        out.write('  t-%d  ( 100) [00%d] ...1 %.6f: tracing_mark_write: B|100|s%d<!--x\n'
                  % (tid, cpu, ts, i % 9))
    elif k < 0.7:
        out.write('  t-%d  ( 100) [00%d] ...1 %.6f: tracing_mark_write: E|100\n' % (tid, cpu, ts))
    elif k < 0.75:
        out.write('  t-%d  ( 100) [00%d] ...1 %.6f: tracing_mark_write: C|100|q|%d\n'
                  % (tid, cpu, ts, i % 13))
    else:
        prev = running.get(cpu, 0)
        nxt = 0 if k < 0.8 else 200 + i % 7
        out.write('  %s-%d  (%s) [00%d] d..2 %.6f: sched_switch: prev_comm=%s prev_pid=%d '
                  'prev_prio=120 prev_state=S ==> next_comm=%s next_pid=%d next_prio=120\n'
                  % ('<idle>' if not prev else 'w', prev, '-----' if not prev else '  200',
                     cpu, ts, 'swapper' if not prev else 'w', prev,
                     'swapper' if not nxt else 'w', nxt))
        running[cpu] = nxt
PY
# sched_switch lines Perfetto must find: those after the cut
switches=$(sed -n '/buffer started/,$p' big.txt | grep -c ': sched_switch: ')
run_st 0 --from-file big.txt -o whole.html -q
SYSTRACE_SPLIT_BYTES=100000 run_st 0 --from-file big.txt -o split.html
assert_contains err.txt "trace-data blocks so the classic viewer can load it"
blocks=$(trace_block split.html count)
[ "$blocks" -ge 20 ] || fail "expected >= 20 blocks, got $blocks"
sched="select count(*) from sched"
assert_eq "sched rows of the split page" "$switches" "$(tp_rows split.html "$sched")"
same_in_both whole.html split.html
python3 - tp-1.json tp-2.json <<'PY' || fail "split vs whole in Perfetto"
import json, sys
w, s = (json.load(open(f)) for f in sys.argv[1:])
keys = ['slices', 'asyncSlices', 'cpuSlices', 'counters', 'counterSamples', 'namedThreads',
        'threadNames', 'errors']
assert {k: w[k] for k in keys} == {k: s[k] for k in keys}, {k: (w[k], s[k]) for k in keys}
assert s['slices'] > 5000 and s['cpuSlices'] > 1000, s
PY

# a live capture split while it is written, with the process dump first
start_adb_server
start_sim --size-mb 3
SYSTRACE_SPLIT_BYTES=400000 run_st 0 -o live.html -t 1 sched gfx -e "$SIM_SERIAL"
assert_contains err.txt "trace-data blocks so the classic viewer can load it"
n=$(trace_block live.html count)
[ "$n" -ge 6 ] || fail "live capture: expected >= 6 blocks, got $n"
for i in $(seq 2 $((n - 1))); do trace_block live.html "$i"; echo; done >live_text.txt
switches=$(grep -c ': sched_switch: ' live_text.txt)
assert_eq "sched rows of the split capture" "$switches" "$(tp_rows live.html "$sched")"
same_in_both live.html
echo ok
