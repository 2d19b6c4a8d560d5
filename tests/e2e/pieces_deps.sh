# --process-and-deps (issue 35): a process, plus those whose threads woke
# it or sent it binder transactions, or that it woke: here app (10) is woken
# by srv's thread 21 and calls db (30) over binder; log (40) is unrelated.
# Also: the piece's text keeps the other processes' CPU time as "other".
. "$TOP/tests/lib.sh"

cat >deps.txt <<'T'
# tracer: nop
#
#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |        |      |   ||||       |         |
     app-10 (   10) [000] ...1 1.000000: tracing_mark_write: B|10|app work
    srv2-21 (   20) [001] ...1 1.100000: tracing_mark_write: B|20|srv work
    srv2-21 (   20) [001] d..3 1.200000: sched_wakeup: comm=app pid=10 prio=120 target_cpu=000
     app-10 (   10) [000] ...1 1.300000: binder_transaction: transaction=7 dest_node=1 dest_proc=30 dest_thread=31 reply=0 flags=0x10 code=0x3
     db-31 (   30) [002] ...1 1.400000: tracing_mark_write: B|30|db work
     log-40 (   40) [003] ...1 1.500000: tracing_mark_write: B|40|log work
     log-40 (   40) [003] ...1 1.600000: tracing_mark_write: E|40
     db-31 (   30) [002] ...1 1.700000: tracing_mark_write: E|30
    srv2-21 (   20) [001] ...1 1.800000: tracing_mark_write: E|20
     app-10 (   10) [000] ...1 1.900000: tracing_mark_write: E|10
T
run_st 0 --from-file deps.txt --process-and-deps=app -j -o deps.json -q
python3 - deps.json <<'PY' || fail "--process-and-deps"
import json, sys
text = json.load(open(sys.argv[1]))['systemTraceEvents']
for kept in ('app work', 'srv work', 'db work'):
    assert kept in text, (kept, text)
assert 'log work' not in text, text
PY
run_st 0 --from-file deps.txt --process=app -j -o app.json -q
python3 - app.json <<'PY' || fail "--process"
import json, sys
text = json.load(open(sys.argv[1]))['systemTraceEvents']
assert 'app work' in text and 'binder_transaction' in text, text
for gone in ('srv work', 'db work', 'log work'):
    assert gone not in text, (gone, text)
# srv2's wakeup of app stays, as "other"'s
assert 'other-4194304 (4194304) [001] d..3 1.200000: sched_wakeup: comm=app pid=10' in text, text
PY
echo ok
