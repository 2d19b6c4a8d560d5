# A Perfetto trace's logcat (AndroidLogPacket, --from-file): each entry a
# thread instant (category android_log) named by its tag, with priority,
# tag and message as args, on the trace's clock (log timestamps are
# REALTIME: converted through the clock snapshots, one before the first
# snapshot too).  The trace (tests/data/perfetto/logcat.textproto, encoded
# by protoc from Perfetto's own definitions) has text entries (a message
# with quotes and a newline, an entry with no tag) and a binary one whose
# message is made of its args.  Judges: Perfetto's android_logs table of
# the trace equals, row for row (ts, tid, priority, tag, message), the
# android_log instants Perfetto loads from the --trace-events JSON; the
# classic viewer imports the page with no warning and shows one slice an
# entry; the note no longer says logcat is not shown.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

encode_trace logcat logcat.perfetto-trace
run_st 0 --from-file logcat.perfetto-trace -o logcat.html --trace-events logcat.json
assert_not_contains err.txt "Android log packets not shown"
Q=$TOP/tests/tools/pfquery.py
python3 "$Q" logcat.perfetto-trace "select l.ts, t.tid, l.prio, hex(l.tag) as x_tag,
    hex(l.msg) as x_msg from android_logs l left join thread t using(utid)
    order by l.ts, t.tid" >trace.json || fail "Perfetto cannot read the trace"
python3 "$Q" logcat.json "select s.ts, t.tid,
    extract_arg(s.arg_set_id, 'args.priority') as p,
    hex(extract_arg(s.arg_set_id, 'args.tag')) as x_tag,
    hex(extract_arg(s.arg_set_id, 'args.message')) as x_msg
    from slice s join thread_track tt on s.track_id = tt.id join thread t using(utid)
    where s.category = 'android_log' and s.dur = 0 order by s.ts, t.tid" >json.json ||
    fail "Perfetto cannot read logcat.json"
python3 - trace.json json.json <<'PY' || fail "Perfetto reads other log entries from the JSON"
import json, sys
trace, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
letters = {2: 'V', 3: 'D', 4: 'I', 5: 'W', 6: 'E', 7: 'F'}
want = [[ts, tid, letters[p], tag, msg] for ts, tid, p, tag, msg in trace]
assert len(want) == 6, want
assert got == want, ('json', got, 'trace', want)
PY

node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 logcat.html logcat.json \
    >classic.jsonl || { cat classic.jsonl; fail "classic viewer: logcat.html logcat.json"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer shows another trace than Perfetto"
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    assert c['ok'] and not c['importWarnings'], c
    assert c['slices'] == 6, (c['file'], c['slices'])  # an entry each
    assert c['processNames'] == ['com.example.app'], c
PY
echo "ok"
