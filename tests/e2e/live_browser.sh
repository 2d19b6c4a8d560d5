# A live capture (HTML and -j JSON) opens in headless Chromium: CPU slices
# on every CPU, process names from the process dump, app slices, and the
# clock-sync controller part accepted (no "Import error").
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
need_browser
start_adb_server
start_sim
run_st 0 -o live.html -t 1 sched gfx freq idle
run_st 0 -o live.json -j -t 1 sched gfx
python3 -c "
import json; d = json.load(open('live.json'))
assert 'sched_switch' in d['systemTraceEvents'] and d['androidProcessDump'].startswith('PROCESS DUMP')
assert d['controllerTraceDataKey'] == 'systraceController'
json.loads(d['systraceController'])" || fail "live JSON"
browser_check live.html --expect ok=true cpus=4 'processNames~surfaceflinger' \
    'processNames~com.android.systemui' 'threadNames~RenderThread'
python3 - <<'PY' || fail "browser counts"
import json
d = json.loads(open('browser.json').readline())
assert d['cpuSlices'] > 1000 and d['slices'] > 100 and d['counters'] >= 1, d
PY
echo ok
