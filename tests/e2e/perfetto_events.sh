# Perfetto event text: the project's formatter (formats/perfetto/pfevent.h,
# driven by build/tools/pfbody) against Perfetto's own to_ftrace, the text
# behind `traceconv systrace`.  Traces are written as text protos and turned
# into binary by Debian's protoc with Perfetto's definitions, independently
# of this project's code: every event type with edge values
# (tests/data/perfetto/events/gen-all.py), hand-written cases (sched.textproto:
# prev_state bits on each kernel layout, compact sched, print bodies, generic
# events, gfp_flags, interned kernel symbols), a benchmark trace of
# tests/tools/pfgen, and the real trace of the corpus.  For each, "TS NAME:BODY" of every event equals what
# `select ts, to_ftrace(id) from ftrace_event` gives after the line prefix,
# but for an empty comm of sched_switch or sched_wakeup, written "<...>"
# (which the classic viewer needs; to_ftrace writes nothing).
# With the kernel version applied (pfbody -k), prev_state letters agree with
# Perfetto's own sched table (end_state), which honours the version.
. "$TOP/tests/lib.sh"
SHARED="$TOP/../shared"
PROTOS="$SHARED/reference/perfetto-protos"
TPS="$SHARED/tools/perfetto/trace_processor_shell"
PFBODY="$BUILD/tools/pfbody"
DATA="$TOP/tests/data/perfetto/events"
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's definitions absent ($PROTOS)"
[ -x "$TPS" ] || skip "Perfetto's trace processor absent ($TPS)"
"$TPS" --version >/dev/null 2>&1 || skip "trace processor does not run (apt-get install -y libprotobuf32)"
[ -x "$PFBODY" ] || fail "$PFBODY not built (make tools)"

cat >cmp.py <<'EOF'
import collections, csv, re, sys
ours = [l.rstrip('\n') for l in open(sys.argv[1], encoding='utf-8', errors='surrogateescape')]
theirs = []
prefix = re.compile(r'\] \.\.\.\. \d+\.\d{6}: ')
with open(sys.argv[2], newline='', encoding='utf-8', errors='surrogateescape') as f:
    rows = csv.reader(f)
    next(rows)
    for ts, line in rows:
        m = prefix.search(line)
        if not m:
            sys.exit('unexpected to_ftrace line: %r' % line)
        body = line[m.end():].replace('\n', '\\n')
        # the one deviation: an empty comm of a switch or wakeup is "<...>"
        if body.startswith('sched_switch: '):
            body = re.sub(r' (prev|next)_comm= ', r' \1_comm=<...> ', body)
        elif body.startswith('sched_wakeup: comm= '):
            body = body.replace(' comm= ', ' comm=<...> ', 1)
        theirs.append('%s %s' % (ts, body))
a, b = collections.Counter(ours), collections.Counter(theirs)
if not ours or a != b:
    for l in sorted((a - b).elements())[:20]:
        print('ours:   ' + l[:300])
    for l in sorted((b - a).elements())[:20]:
        print('Perfetto: ' + l[:300])
    sys.exit('%s: %d of %d events differ' % (sys.argv[3], sum((b - a).values()), len(theirs)))
print('%s: %d events, %d types, same text' %
      (sys.argv[3], len(ours), len({l.split(' ', 1)[1].split(':')[0] for l in ours})))
EOF
echo "select ts, to_ftrace(id) from ftrace_event order by id;" >q.sql

encode() {   # TEXTPROTO OUT
    protoc --encode=perfetto.protos.Trace -I "$PROTOS" perfetto_trace.proto <"$1" >"$2" ||
        fail "protoc cannot encode $1"
}
same_as_perfetto() {   # TRACE NAME
    "$TPS" -q q.sql "$1" >theirs.csv 2>tp.err || { tail -5 tp.err; fail "trace processor on $2"; }
    "$PFBODY" "$1" >ours.txt || fail "pfbody on $2"
    python3 cmp.py ours.txt theirs.csv "$2" || fail "$2: event text differs from Perfetto's"
}

python3 "$DATA/gen-all.py" "$PROTOS/perfetto_trace.proto" >all.textproto || fail "gen-all.py"
encode all.textproto all.pftrace
same_as_perfetto all.pftrace "every event type"
n=$(cut -d' ' -f2 ours.txt | cut -d: -f1 | sort -u | wc -l)
[ "$n" -gt 500 ] || fail "only $n event types compared"

for rel in none 3.18.140 4.4.302 4.9.337 5.10.43-android12-9-g1; do
    if [ "$rel" = none ]; then
        : >sched.textproto
    else
        printf 'packet { system_info { utsname { sysname: "Linux" release: "%s" } } }\n' \
            "$rel" >sched.textproto
    fi
    cat "$DATA/sched.textproto" >>sched.textproto
    encode sched.textproto sched-$rel.pftrace
    same_as_perfetto sched-$rel.pftrace "sched, kernel $rel"
    assert_contains ours.txt "tracing_mark_write: B|10|slice name"
    assert_contains ours.txt "sched_blocked_reason: pid=12 iowait=1 caller=do_sys_poll"
done

# The kernel's own letters: with -k, each switch's prev_state is the
# end_state Perfetto's importer gives the slice it ends (no separators
# there; cases past its 3-character cut are left out).
for rel in 4.4.302 4.9.337 5.10.43-android12-9-g1; do
    echo "select ts + dur, end_state from sched where end_state is not null;" >st.sql
    "$TPS" -q st.sql sched-$rel.pftrace >st.csv 2>/dev/null || fail "sched query ($rel)"
    "$PFBODY" -k sched-$rel.pftrace >k.txt || fail "pfbody -k ($rel)"
    python3 - k.txt st.csv "$rel" <<'EOF' || fail "prev_state with kernel $rel differs from Perfetto's sched table"
import csv, re, sys
ends = {int(r[0]): r[1] for r in list(csv.reader(open(sys.argv[2])))[1:]}
n = 0
for l in open(sys.argv[1]):
    m = re.match(r'(\d+) sched_switch: .* prev_state=(\S+) ==>', l)
    if not m or int(m.group(1)) not in ends:
        continue
    ours, theirs = m.group(2).replace('|', ''), ends[int(m.group(1))]
    if len(theirs) > 2 or ours == '?':
        continue
    if ours != theirs:
        sys.exit('kernel %s, ts %s: prev_state %s, Perfetto %s' % (sys.argv[3], m.group(1), ours, theirs))
    n += 1
if n < 10:
    sys.exit('only %d states compared' % n)
EOF
done
grep -q 'prev_state=I ==>' k.txt || fail "5.10: no I state with -k"

# The benchmark generator's traces: Perfetto reads them without errors,
# and their text (compact sched, prints, cpu_idle/frequency) matches.
"$BUILD/tools/pfgen" 1M gen.pftrace 7 || fail "pfgen"
echo "select name, value from stats where severity in ('error', 'data_loss') and value > 0;" >stats.sql
"$TPS" -q stats.sql gen.pftrace >stats.csv 2>/dev/null || fail "trace processor on the pfgen trace"
[ "$(wc -l <stats.csv)" = 1 ] || { cat stats.csv; fail "pfgen trace: Perfetto reports errors"; }
same_as_perfetto gen.pftrace "pfgen trace"
for e in sched_switch sched_waking tracing_mark_write cpu_idle cpu_frequency; do
    grep -q " $e: " ours.txt || fail "pfgen trace has no $e"
done

if [ -f "$CORPUS/perfetto/test_trace.perfetto-trace" ]; then
    same_as_perfetto "$CORPUS/perfetto/test_trace.perfetto-trace" "corpus test_trace"
else
    echo "corpus trace absent: skipped that part"
fi
exit 0
