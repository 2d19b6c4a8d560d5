# Threads with an empty name in a Perfetto trace (full and compact sched,
# sched_wakeup): the page names them "<...>", as the kernel prints a comm
# it does not know, where to_ftrace prints nothing ("next_comm= next_pid=409").
# The classic viewer rejects an empty comm ("Malformed sched_switch event")
# and showed fewer CPU slices than Perfetto; now both viewers show the CPU
# slices Perfetto reads from the trace itself.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto

encode_trace unnamed t.pftrace

run_st 0 --from-file t.pftrace -o t.html -q
for i in $("$BUILD/tools/htmlblocks" t.html count | xargs seq); do trace_block t.html "$i"; done >text.txt
assert_not_contains text.txt "_comm= "
assert_not_contains text.txt "sched_wakeup: comm= "
assert_contains text.txt "next_comm=<...> next_pid=409 "
assert_contains text.txt "prev_comm=<...> prev_pid=409 "
assert_contains text.txt "next_comm=<...> next_pid=410 "
assert_contains text.txt "sched_wakeup: comm=<...> pid=410 "
same_in_both t.html
want=$(tp_rows t.pftrace "select count(*) from sched")
assert_eq "CPU slices Perfetto reads from the page and from the trace" "$want" \
    "$(tp_rows t.html "select count(*) from sched")"
[ "$want" -ge 6 ] || fail "only $want CPU slices in the trace"
