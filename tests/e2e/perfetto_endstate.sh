# A sched_switch's end state, read by Perfetto's own trace processor from
# the page as from the trace: traces written as text protos (Debian's protoc,
# Perfetto's definitions) hold full and compact sched_switch events with
# every prev_state a kernel of each layout writes (4.4: p->state, preempted
# 0x800; 4.9: preempted 0x1000; 4.14 to 6.6: one report bit, preempted
# 0x100), under SystemInfo.utsname releases 4.4 to 6.6 and none.  Perfetto's
# sched importer decodes prev_state by that version; the page must carry
# letters that give each CPU slice the same end state
# (`select end_state, count(*) from sched group by 1` equal).  Before the
# fix the page copied to_ftrace's 4.4 letters: R+ read as W, I as K.
. "$TOP/tests/lib.sh"
SHARED="$TOP/../shared"
PROTOS="$SHARED/reference/perfetto-protos"
TPS="$SHARED/tools/perfetto/trace_processor_shell"
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's definitions absent ($PROTOS)"
[ -x "$TPS" ] || skip "Perfetto's trace processor absent ($TPS)"
"$TPS" --version >/dev/null 2>&1 || skip "trace processor does not run (apt-get install -y libprotobuf32)"

cat >gen.py <<'EOF'
import sys
rel, major_minor = sys.argv[1], sys.argv[2]
v = tuple(int(x) for x in major_minor.split('.'))
if v >= (4, 14):
    states = [0, 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x100]
else:   # the task's state itself (killable, stopped, traced, idle) or preempted
    states = [0, 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400, 0x82, 0x84,
              0x88, 0x402, 0x1000 if v >= (4, 8) else 0x800]
seq = [s for i, s in enumerate(states) for _ in range(i % 3 + 1)]
out = []
if rel != 'none':
    out.append('packet { system_info { utsname { sysname: "Linux" release: "%s" } } }' % rel)
sw = ('event { timestamp: %d pid: %d sched_switch { prev_comm: "%s" prev_pid: %d prev_prio: 120 '
      'prev_state: %d next_comm: "%s" next_pid: %d next_prio: 120 } }')
out.append('packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 0')
ts = 2000000000
for s in seq:
    out.append(sw % (ts, 10, 'a', 10, s, 'b', 11))
    out.append(sw % (ts + 1000, 11, 'b', 11, 1, 'a', 10))
    ts += 2000
out.append('} }')
# compact: thread 20 and 21 take turns on CPU 1, 20 leaving in each state
out.append('packet { trusted_packet_sequence_id: 1 ftrace_events { cpu: 1 compact_sched {')
out.append('intern_table: "c" intern_table: "d"')
rows = [(0, 20, 0)]
for s in seq:
    rows += [(s, 21, 1), (1, 20, 0)]
last = 0
for i, (s, pid, comm) in enumerate(rows):
    t = 3000000000 + 1000 * i
    out.append('switch_timestamp: %d switch_prev_state: %d switch_next_pid: %d '
               'switch_next_prio: 120 switch_next_comm_index: %d' % (t - last, s, pid, comm))
    last = t
out.append('} } }')
print('\n'.join(out))
EOF
echo "select cpu, end_state, count(*) from sched where end_state is not null group by 1, 2 order by 1, 2;" >q.sql

n=0
for k in none:4.4 4.4.302:4.4 4.9.337:4.9 4.14.336:4.14 4.19.191-g1:4.19 5.4.210:5.4 \
         5.10.43-android12-9-g1:5.10 5.15.94-android14-11:5.15 6.1.25-android14-11:6.1 \
         6.6.30-android15-8:6.6; do
    rel=${k%%:*}
    python3 gen.py "$rel" "${k#*:}" >t.textproto || fail "gen.py $rel"
    protoc --encode=perfetto.protos.Trace -I "$PROTOS" perfetto_trace.proto <t.textproto \
        >t.pftrace || fail "protoc ($rel)"
    run_st 0 --from-file t.pftrace -o t.html -q
    "$TPS" -q q.sql t.pftrace >trace.csv 2>tp.err || { tail -3 tp.err; fail "trace processor on the trace ($rel)"; }
    "$TPS" -q q.sql t.html >page.csv 2>tp.err || { tail -3 tp.err; fail "trace processor on the page ($rel)"; }
    [ "$(wc -l <trace.csv)" -gt 10 ] || { cat trace.csv; fail "kernel $rel: too few end states"; }
    if ! cmp -s trace.csv page.csv; then
        diff trace.csv page.csv | head -20
        fail "kernel $rel: the page gives other end states than the trace (cpu 0 full, 1 compact)"
    fi
    n=$((n + 1))
done
assert_eq "kernels compared" 10 "$n"
# the letters themselves, on a 4.14+ kernel: preempted R+, idle I
grep -q 'prev_state=R+ ==>' t.html || fail "6.6: no R+ for a preempted task"
grep -q 'prev_state=I ==>' t.html || fail "6.6: no I for an idle task"
grep -q 'prev_state=P ==>' t.html || fail "6.6: no P for a parked task"
