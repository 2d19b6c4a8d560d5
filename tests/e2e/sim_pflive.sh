# The simulator's perfetto with write_into_file, and its tail, through the
# real adb server, as a host that reads the trace while it is recorded
# sees them: the file grows by whole packets every file_write_period_ms;
# `tail -c +1 -f` over exec: delivers exactly the file's bytes and ends
# when the host hangs up; after kill -TERM and the pid gone the file is
# complete (the state's CRC and size, Perfetto's trace processor reads it
# with every event Debian's protoc finds in it, and the process names);
# kill -KILL keeps what was written; tail's byte ranges, kill, missing
# files, --perfetto-unreadable and --no-tail-follow.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
TPS=${TRACE_PROCESSOR:-$TOP/../shared/tools/perfetto/trace_processor_shell}
PROTOS="$TOP/../shared/reference/perfetto-protos"
D=/data/misc/perfetto-traces
CFG='buffers { size_kb: 4096 }
data_sources { config { name: "linux.process_stats" } }
data_sources { config { name: "linux.ftrace" ftrace_config {
  ftrace_events: "sched/sched_switch" ftrace_events: "sched/sched_waking"
  ftrace_events: "power/cpu_frequency" ftrace_events: "power/cpu_idle"
  atrace_categories: "gfx" compact_sched { enabled: true } } } }
write_into_file: true
file_write_period_ms: 100'

dsize() {   # the size of a device file, as ls -l shows it
    sadb shell ls -l "$1" | awk '{ print $5 }'
}
bigger() {   # FILE N: the device file holds more than N bytes
    [ "$(dsize "$1")" -gt "$2" ]
}
no_pid() {   # NAME: pidof finds no such process on the device
    [ -z "$(sadb shell pidof "$1")" ]
}
hsize() { wc -c <"$1" | tr -d ' '; }
record() {   # FILE: start a session, print its pid
    sadb shell "echo '$CFG' | perfetto --background --txt -o $1 -c -" | tr -dc 0-9
}

start_sim

# -- a session writing into its file, read by tail -f while it grows
pid=$(record $D/live.pftrace)
[ -n "$pid" ] || fail "perfetto printed no pid"
case "$(sim_state perfetto_config)" in
    *"write_into_file=1 period_ms=100"*) ;;
    *) fail "config: $(sim_state perfetto_config)" ;;
esac
adb -s "$SIM_SERIAL" exec-out "tail -c +1 -f $D/live.pftrace" >tailed.bin 2>tail.err &
tailpid=$!
track_pid "$tailpid"
wait_for 10 bigger $D/live.pftrace 0 || fail "the file stays empty while recording"
s1=$(dsize $D/live.pftrace)
wait_for 10 bigger $D/live.pftrace "$s1" || fail "the file does not grow past $s1 bytes"
wait_for 10 test -s tailed.bin || fail "tail -f delivered nothing while recording"
[ -n "$(sadb shell pidof tail)" ] || fail "pidof lists no tail"
[ -n "$(sadb shell pidof perfetto)" ] || fail "pidof lists no perfetto"

sadb shell kill -TERM "$pid" || fail "kill -TERM $pid"
wait_for 10 no_pid perfetto || fail "perfetto still runs after kill -TERM"
final=$(dsize $D/live.pftrace)
assert_eq "size when the pid is gone" "$(sim_state perfetto_last_size)" "$final"
[ "$(sim_state perfetto_finished)" = 1 ] || fail "the session was not finalised"
adb -s "$SIM_SERIAL" exec-out "cat $D/live.pftrace" >device.bin
pf_same device.bin
wait_for 10 sh -c "[ \$(wc -c <tailed.bin) -ge $final ]" ||
    fail "tail -f delivered $(hsize tailed.bin) of $final bytes"
cmp tailed.bin device.bin || fail "tail -f did not deliver the file's bytes"
kill "$tailpid"
wait "$tailpid" 2>/dev/null
wait_for 10 no_pid tail || fail "tail still runs on the device after the host hung up"

if [ -x "$TPS" ] && "$TPS" --version >/dev/null 2>&1; then
    TRACE_PROCESSOR=$TPS python3 "$TOP/tests/tools/tpcheck.py" device.bin \
        --sql "select name, count(*) from ftrace_event group by name" >tp.json ||
        fail "Perfetto's trace processor cannot read the trace"
    python3 - tp.json <<'EOF' || fail "Perfetto's view of the trace"
import json, sys
t = json.load(open(sys.argv[1]))
assert not t['errors'], t['errors']
assert t['cpuSlices'] > 100, t['cpuSlices']
names = set(t["processNames"])
assert {'system_server', '/system/bin/surfaceflinger'} <= names, names
open('tp.counts', 'w').write(''.join('%s %s\n' % (r[0], r[1]) for r in t['rows']))
EOF
    if command -v protoc >/dev/null && [ -f "$PROTOS/perfetto_trace.proto" ]; then
        protoc --decode=perfetto.protos.Trace -I "$PROTOS" perfetto_trace.proto \
            <device.bin >device.txt || fail "protoc cannot decode the trace"
        # every event of every period's bundles; Perfetto drops the first
        # compact switch and waking of each CPU (it cannot complete them)
        python3 - device.txt tp.counts <<'EOF' || fail "Perfetto lost events"
import re, sys
txt = open(sys.argv[1]).read()
tp = dict(l.split() for l in open(sys.argv[2]))
want = {'sched_switch': txt.count('switch_timestamp:'),
        'sched_waking': txt.count('waking_timestamp:')}
for ev in ('cpu_frequency', 'cpu_idle', 'print'):
    want[ev] = len(re.findall(r'\n *%s \{' % ev, txt))
bundles = len(re.findall(r'\n  ftrace_events \{', txt))
assert bundles > 8, bundles
for ev, n in want.items():
    got = int(tp.get(ev, 0))
    slack = 4 if ev.startswith('sched') else 0
    assert n > 0 and n - slack <= got <= n, (ev, n, got)
print('%d bundles, protoc %s, Perfetto %s' % (bundles, want, tp))
EOF
    else
        echo "protoc or Perfetto's definitions absent: event counts not compared"
    fi
else
    echo "trace processor absent: the Perfetto checks are skipped"
fi

# -- tail's byte ranges, against the host's tail on the same bytes
adb -s "$SIM_SERIAL" exec-out "tail -c +1001 $D/live.pftrace" >from.bin
tail -c +1001 device.bin | cmp - from.bin || fail "tail -c +1001"
adb -s "$SIM_SERIAL" exec-out "tail -c 777 $D/live.pftrace" >last.bin
tail -c 777 device.bin | cmp - last.bin || fail "tail -c 777"
sadb shell tail -c +1 -f /data/local/tmp/none >none.out 2>none.err
assert_eq "tail of a missing file" 1 $?
assert_contains none.err "tail: /data/local/tmp/none: No such file or directory"

# -- kill PID ends a tail -f (it runs as the shell: exec)
sadb shell 'echo $$; exec tail -f /proc/version' >killed.out 2>&1 &
shpid=$!
track_pid "$shpid"
wait_for 10 sh -c "[ \$(wc -l <killed.out) -ge 2 ]" || fail "tail -f printed nothing"
sadb shell kill "$(head -n 1 killed.out | tr -dc 0-9)" || fail "kill of tail"
wait "$shpid"
assert_eq "tail -f killed by SIGTERM" 143 $?

# -- kill -KILL: the file keeps what was written
pid=$(record $D/killed.pftrace)
wait_for 10 bigger $D/killed.pftrace 0 || fail "the file stays empty while recording"
sadb shell kill -KILL "$pid"
no_pid perfetto || fail "perfetto still runs after kill -KILL"
[ "$(dsize $D/killed.pftrace)" -gt 0 ] || fail "kill -KILL emptied the file"
[ "$(sim_state perfetto_killed)" = 1 ] || fail "not counted as killed"

# -- the refusals: --perfetto-unreadable as for cat, --no-tail-follow
start_sim --perfetto-unreadable --no-tail-follow
sadb shell "echo x > $D/f; echo y > /data/local/tmp/f"
sadb shell tail -c +1 $D/f >ur.out 2>ur.err
assert_eq "tail of an unreadable trace" 1 $?
assert_contains ur.err "tail: $D/f: Permission denied"
sadb shell tail -c +1 -f /data/local/tmp/f >nf.out 2>nf.err
assert_eq "tail -f without -f" 1 $?
assert_contains nf.err "tail: Unknown option 'f'"
[ ! -s nf.out ] || fail "tail without -f printed: $(cat nf.out)"
assert_eq "tail without -f still reads" y "$(sadb shell tail -c +1 /data/local/tmp/f)"
exit 0
