# atrace on the simulated device, driven by the real adb command line the
# way catapult drives it: categories, async start/stop with -z, host
# trace_marker writes, the state file, a sane inflated trace.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

start_sim

sadb shell atrace --list_categories >cats.txt
assert_contains cats.txt "         gfx - Graphics"
assert_contains cats.txt "       sched - CPU Scheduling"
assert_contains cats.txt "  binder_driver - Binder Kernel driver"
assert_contains cats.txt "         irq - IRQ Events"
assert_eq "tracing off at boot" 0 "$(sim_state tracing_on)"

sadb shell atrace -z -t 1 -b 4096 gfx view sched freq idle --async_start \
    >start.txt
assert_eq "start rc" 0 $?
assert_eq "start output" "capturing trace..." "$(cat start.txt)"
assert_eq "tracing on" 1 "$(sim_state tracing_on)"
assert_eq "categories" "gfx,view,sched,freq,idle" "$(sim_state categories)"
assert_eq "buffer" 4096 "$(sim_state buffer_kb)"
assert_eq "compress" 1 "$(sim_state compress)"
assert_eq "debug.atrace.tags.enableflags" 0xa \
    "$(sadb shell getprop debug.atrace.tags.enableflags)"

sleep 0.3
sadb shell 'echo trace_event_clock_sync: name=3b258e3e-1df4 > /sys/kernel/tracing/trace_marker'
assert_eq "marker recorded" 1 "$(sim_state markers)"

sadb exec-out atrace -z -t 1 -b 4096 gfx view sched freq idle --async_stop \
    >dump.bin
assert_eq "stop rc" 0 $?
assert_eq "tracing off" 0 "$(sim_state tracing_on)"
assert_eq "categories off" "" "$(sim_state categories)"
head -c 13 dump.bin >head.bin
assert_eq "dump prefix" " done
TRACE:" "$(cat head.bin)"
# zlib header of atrace -z (78 9c)
assert_eq "zlib header" "789c" "$(od -An -tx1 -j13 -N2 dump.bin | tr -d ' ')"

python3 "$TOP/tests/tools/ftrace_check.py" dump.bin >summary.json ||
    fail "trace does not check out"
python3 - summary.json <<'PYEOF' || fail "trace content"
import json, sys
s = json.load(open(sys.argv[1]))
ev = s['events']
assert s['cpus'] == [0, 1, 2, 3], s['cpus']
for name in ('sched_switch', 'sched_wakeup', 'sched_waking', 'cpu_idle',
             'cpu_frequency', 'tracing_mark_write'):
    assert ev.get(name, 0) > 10, (name, ev)
sync = s['clock_sync']
assert any(x.startswith('trace_event_clock_sync: parent_ts=') for x in sync)
assert any(x.startswith('trace_event_clock_sync: realtime_ts=') for x in sync)
assert 'trace_event_clock_sync: name=3b258e3e-1df4' in sync, sync
assert 0.2 < s['span'] < 30, s['span']
# surfaceflinger and the apps write gfx/view slices
assert 500 in s['pids'] and 1500 in s['pids'], s['pids']
PYEOF

# The buffer is empty after a dump: a second stop gives a header only.
sadb exec-out atrace --async_stop >again.txt
python3 "$TOP/tests/tools/ftrace_check.py" again.txt >again.json ||
    fail "empty dump"
grep -q '"lines": 0' again.json || fail "second dump is not empty"

# Unknown categories fail like real atrace.
sadb shell atrace nosuchcat --async_start >out.txt 2>err.txt
assert_eq "unknown category rc" 1 $?
assert_contains err.txt 'unknown tracing category "nosuchcat"'
assert_eq "still off" 0 "$(sim_state tracing_on)"

# Synchronous mode (-t 0, as catapult runs it last), uncompressed.
sadb shell atrace -t 0 sched >sync.txt
assert_contains sync.txt "capturing trace... done"
assert_contains sync.txt "# tracer: nop"
assert_eq "sync leaves tracing off" 0 "$(sim_state tracing_on)"

# echo 0 > tracing_on stops tracing (the SDK < 23 way).
sadb shell atrace sched --async_start >/dev/null
sadb shell 'echo 0 > /sys/kernel/tracing/tracing_on'
assert_eq "tracing_on written" 0 "$(sim_state tracing_on)"
assert_eq "cat tracing_on" 0 "$(sadb shell cat /sys/kernel/tracing/tracing_on)"
sadb exec-out atrace sched --async_dump >dump2.txt
python3 "$TOP/tests/tools/ftrace_check.py" dump2.txt >dump2.json ||
    fail "async_dump trace"
grep -q '"sched_switch"' dump2.json || fail "async_dump has no sched events"
assert_contains "$SIM_LOG" "run atrace -z -t 1 -b 4096 gfx view sched freq idle --async_start"

# --trace-file: the dump is that text, byte for byte (compressed or not).
cat >given.txt <<'TXT'
# tracer: nop
#
           <...>-19161 (-----) [001] ...1 683201.354908: tracing_mark_write: B|19161|given
           <...>-19161 (-----) [001] ...1 683201.354926: tracing_mark_write: E|19161
TXT
if [ -n "${CORPUS:-}" ] && [ -f "$CORPUS/atrace/systrace_test_data/decompressed_atrace_data.txt" ]; then
    cp "$CORPUS/atrace/systrace_test_data/decompressed_atrace_data.txt" given.txt
fi
start_sim --trace-file "$T/given.txt"
sadb shell atrace -z sched --async_start >/dev/null
sadb exec-out atrace -z sched --async_stop >given.z
python3 - given.z given.txt <<'PYEOF' || fail "--trace-file dump differs"
import sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d.startswith(b' done\nTRACE:\n'), d[:20]
assert zlib.decompress(d[13:]) == open(sys.argv[2], 'rb').read()
PYEOF
sadb exec-out atrace sched --async_dump >given.raw
tail -c +14 given.raw | cmp - given.txt || fail "uncompressed --trace-file dump"
exit 0

