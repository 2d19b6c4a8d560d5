# --app-profile during a live capture: am profile start/stop on the
# simulated device, the method trace pulled and removed, its slices in
# the HTML (as atrace B/E text joined to atrace's block) on "(methods)"
# tracks of the app, and aligned with atrace: the
# simulated app's clock is 1500 us off the one atrace's clock-sync marker
# describes (a ms-level error, like parent_ts's float rounding), and each
# Trace.beginSection call must land on its B|pid|SimSection#k line (the
# sim writes that line 5 us after the call) within 20 us.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
export ADBSIM_APP_CLOCK_SKEW_US=1500
start_adb_server
start_sim
run_st 0 -o app.html -t 2 --app-profile com.android.launcher3 sched view gfx
assert_contains out.txt "app profile aligned: offset"
grep -a "am profile start com.android.launcher3 /data/local/tmp/systrace-" "$SIM_LOG" >/dev/null ||
    fail "am profile start not run"
grep -a "am profile stop com.android.launcher3" "$SIM_LOG" >/dev/null || fail "not stopped"
ls "$SIM_DIR/fs/data/local/tmp/" | grep -q '^systrace-.*\.trace$' && fail "device file left"
ls "${TMPDIR:-/tmp}" | grep -q "^systrace-app-" && fail "host temp file left"
trace_block app.html 2 >ftrace.txt
trace_block app.html 3 >methods.txt
python3 - out.txt ftrace.txt methods.txt <<'PY' || fail "alignment"
import json, re, sys
note = [l for l in open(sys.argv[1]) if 'app profile aligned' in l][0]
m = re.search(r'offset (-?\d+) us, residual (\d+) us from (\d+) matched', note)
assert m, note
off, resid, n = int(m[1]), int(m[2]), int(m[3])
assert abs(off - (5 - 1500)) <= 20, note          # the truth: 5 - skew
assert resid <= 20 and n >= 100, note
b = {}
for line in open(sys.argv[2]):
    m = re.search(r'-(\d+) +(?:\([^)]*\) +)?\[\d+\] \S+ +(\d+)\.(\d+): tracing_mark_write: B\|2000\|SimSection#(\d+)$', line.rstrip())
    if m:
        b[int(m[4])] = (int(m[1]), int(m[2]) * 1000000 + int(m[3]))
line = re.compile(r'^(.+)-(\d+) \((\d+)\) \[000\] \.\.\.1 (\d+)\.(\d{6}): '
                  r'tracing_mark_write: (?:B\|2000\|(.*)|E\|2000)$')
names, calls = {}, []
for l in open(sys.argv[3]):
    if l.startswith('#'):
        continue
    m = line.match(l.rstrip('\n'))
    assert m, l
    tid = int(m[2])
    names[tid] = m[1]
    if m[6] == 'Trace.beginSection':
        calls.append((int(m[4]) * 1000000 + int(m[5]), tid))
calls.sort()
assert 'main (methods)' in names.values() and 'RenderThread (methods)' in names.values(), names
assert len(calls) >= 100 and len(b) >= 100, (len(calls), len(b))
worst = 0
for k, (tid, ts) in b.items():
    cts, ctid = calls[k]
    assert ctid == 100000000 + tid, (k, ctid, tid)
    worst = max(worst, abs(ts - cts))
assert worst <= 20, worst
print('matched', len(b), 'sections; worst |B - beginSection| =', worst, 'us; note:', note.strip())
PY
if [ -d "$TOP/tests/browser/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
    browser_check app.html --expect ok=true 'threadNames~main (methods)' \
        'threadNames~RenderThread (methods)' 'sliceNames~Main.frame' \
        'sliceNames~SimSection#1'
fi
echo ok
