# A live capture (the device simulator through the real adb server), as
# Perfetto's trace processor imports it and as the classic viewer shows
# it: the page (process dump, sched with circular-buffer overruns, atrace
# slices, counters, CPU frequency and idle) and its --trace-events JSON
# give the same counts in both viewers with no import errors; the JSON
# carries what Perfetto reads from the page (its atrace slices plus one
# slice per sched row of a real task) and names every thread and process
# Perfetto names from the page; -j JSON of the same trace reads the same
# (but for process names: Perfetto reads only systemTraceEvents from it).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
need_perfetto
start_adb_server
start_sim --overflow

run_st 0 -o live.html -t 1 sched gfx view freq idle --trace-events live.tev.json
trace_block live.html 2 | grep -q 'buffer started' || fail "the capture has no circular-buffer marker"
same_in_both live.html live.tev.json
all_named
python3 - tp-1.json <<'PY' || fail "content"
import json, sys
h = json.load(open(sys.argv[1]))
assert h['slices'] > 100 and h['cpuSlices'] > 1000 and h['counters'] >= 3, h
assert h['cpuCounters'] == 8, h                      # 4 CPUs: frequency, idle
assert 'surfaceflinger' in h['processNames'] and 'com.android.launcher3' in h['processNames'], h
PY
json_covers_page live.html live.tev.json
# catapult's -j form of the same trace: Perfetto reads the same
run_st 0 --from-file live.html -o live.json -j -q
tp live.json >tp-j.json
python3 - tp-1.json tp-j.json <<'PY' || fail "-j JSON in Perfetto"
import json, sys
h, j = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
keys = ['slices', 'cpuSlices', 'counters', 'counterSamples', 'cpuCounters', 'namedThreads',
        'errors']
assert {k: h[k] for k in keys} == {k: j[k] for k in keys}, ({k: (h[k], j[k]) for k in keys})
PY
echo ok
