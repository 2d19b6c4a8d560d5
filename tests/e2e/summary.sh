# The summary after a capture and a conversion (issue 23), what a user
# sees: a few lines after "Wrote trace" (at most 8), none with -q, the
# same as JSON with --summary=FILE (written whole or not at all), kernel
# categories that recorded nothing named and those that did not left out,
# a trace without sched events saying so instead of 0%, one summary per
# device.  The numbers themselves are compared with Perfetto's in
# tests/perfetto/summary.sh.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim
lines_after_wrote() {   # FILE: the summary lines (after "Wrote trace ...")
    awk '/^Wrote trace/ {on = 1; next} on && NF' "$1"
}
# live: the simulator makes no memreclaim or sync events, but sched, workq
# and gfx/view ones
run_st 0 -o live.html -t 1 sched gfx view workq memreclaim sync --summary live.json
lines_after_wrote out.txt >sum.txt
n=$(wc -l <sum.txt)
[ "$n" -ge 3 ] && [ "$n" -le 8 ] || { cat out.txt; fail "$n summary lines"; }
# the device's model and Android release (the simulator's getprop answers)
grep -qE '^Trace: [0-9.]+ s, 4 CPUs, [0-9,]+ events, 0 lost \(SystraceSim, Android [0-9.]+\)$' \
    sum.txt || { cat sum.txt; fail "Trace line"; }
grep -qE '^CPU busy [0-9.]+%: .+ [0-9.]+%' sum.txt || { cat sum.txt; fail "CPU line"; }
grep -qE '^Frames: com\.[a-z.0-9]+ [0-9]+, [0-9]+ janky \(> 16\.7 ms\)' sum.txt ||
    { cat sum.txt; fail "Frames line"; }
grep -qx 'No events from: memreclaim, sync' sum.txt || { cat sum.txt; fail "empty categories"; }
python3 - live.json <<'PY' || fail "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ('duration_s', 'cpus', 'events', 'lost_events', 'processes', 'frames',
          'frame_budget_ms', 'categories_without_events'):
    assert k in d, k
assert 0.5 < d['duration_s'] < 5 and d['cpus'] == 4 and d['events'] > 1000, d
assert d['lost_events'] == 0 and abs(d['frame_budget_ms'] - 16.667) < 0.001, d
assert d['categories_without_events'] == ['memreclaim', 'sync'], d
p = d['processes']
assert len(p) >= 5 and all(set(x) >= {'pid', 'name', 'cpu_ms'} for x in p), p
assert [x['cpu_ms'] for x in p] == sorted((x['cpu_ms'] for x in p), reverse=True), p
assert any(x['name'] == 'surfaceflinger' for x in p[:8]), p
f = d['frames']
assert f and all(set(x) >= {'pid', 'process', 'frames', 'janky', 'worst_ms', 'worst_at_s'}
                 for x in f), f
assert all(0 <= x['janky'] <= x['frames'] for x in f), f
assert all(x['process'].startswith('com.') for x in f), f
assert d['device'], d
assert d['device_model'] == 'SystraceSim' and d['android_version'], d
PY
# -q: nothing on stdout, the JSON all the same
run_st 0 -q -o quiet.html -t 1 sched gfx --summary quiet.json
[ ! -s out.txt ] || { cat out.txt; fail "-q printed"; }
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["events"] > 0' quiet.json ||
    fail "-q JSON"
# a summary path that cannot be written is refused before tracing starts
run_st 1 -o never.html -t 1 sched --summary "$T/no/such/dir/s.json"
assert_contains err.txt "no/such/dir/s.json: cannot write"
[ "$(sim_state starts)" = 2 ] || fail "tracing started for an unwritable --summary"
[ ! -e never.html ] || fail "page written"
# several devices: one summary per device, lines prefixed with the serial
start_sim; B=$SIM_SERIAL
A=$(adb -P "$ADB_PORT" devices 2>/dev/null | awk 'NR > 1 && $2 == "device" {print $1}' | grep -vx "$B" | head -1)
safe() { echo "$1" | tr -c 'A-Za-z0-9._\n-' '_'; }
run_st 0 -e "$A" -e "$B" -t 1 -o m.html sched gfx --summary m.json
for s in "$A" "$B"; do
    grep -q "^$s: Trace: " out.txt || { cat out.txt; fail "no summary for $s"; }
    grep -q "^$s: CPU busy" out.txt || fail "no CPU line for $s"
    [ -s "m-$(safe "$s").json" ] || fail "no --summary file for $s"
done
# the same with a piece of each capture: the piece's summary, prefixed,
# its JSON naming the device
run_st 0 -e "$A" -e "$B" -t 2 --time-range=0.5..1.5 -o mp.html sched gfx --summary mp.json
for s in "$A" "$B"; do
    grep -q "^$s: Trace: 1.0 s" out.txt || { cat out.txt; fail "no piece summary for $s"; }
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert d["device"] == sys.argv[2] and d["device_model"] == "SystraceSim", d' \
        "mp-$(safe "$s").json" "$s" || fail "the piece's --summary file for $s"
done
# conversions: a trace without sched events says so; -q says nothing
need_corpus atrace
run_st 0 --from-file "$CORPUS/atrace/systrace_test_data/decompressed_atrace_data.txt" -o c.html
assert_contains out.txt "CPU: no sched_switch events, so no CPU time"
assert_contains out.txt "Frames: "
assert_not_contains out.txt "CPU busy"
grep -qE '^Trace: .* lost$' out.txt || { cat out.txt; fail "a conversion names no device"; }
run_st 0 -q --from-file "$CORPUS/atrace/systrace_test_data/atrace_data_raw" -o d.html --summary d.json
[ ! -s out.txt ] || fail "-q printed on a conversion"
python3 - d.json <<'PY' || fail "conversion JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['sched_switch_events'] == 72 and d['processes'] and d['frames'] == [], d
assert d['categories_without_events'] == [] and d['device'] is None, d
assert d['device_model'] is None and d['android_version'] is None, d
PY
echo ok
