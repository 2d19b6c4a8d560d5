# --app-profile: the app's method slices are in what Perfetto imports from
# the page (its HTML importer reads only the first ftrace section, so they
# are atrace text joined to atrace's), exactly as in the classic viewer:
# same counts in both viewers for the page and its --trace-events JSON;
# every B line of the method text is a slice on a "(methods)" track of the
# app's process in Perfetto, nested as deep as the text nests, and those
# tracks are the JSON's too.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
need_perfetto
export ADBSIM_APP_CLOCK_SKEW_US=1500
start_adb_server
start_sim

run_st 0 -o app.html -t 2 --app-profile com.android.launcher3 sched view gfx \
    --trace-events app.tev.json
assert_contains out.txt "app profile aligned: offset"
same_in_both app.html app.tev.json
all_named
trace_block app.html 3 >methods.txt
python3 - methods.txt >want.txt <<'PY' || fail "the method text"
import re, sys
line = re.compile(r'^(.+)-(\d+) \((\d+)\) \[000\] \.\.\.1 \d+\.\d{6}: '
                  r'tracing_mark_write: (?:B\|2000\|(.*)|E\|2000)$')
depth, deepest, begins = {}, 0, 0
for l in open(sys.argv[1]):
    if l.startswith('#'):
        continue
    m = line.match(l.rstrip('\n'))
    assert m and m[1].endswith(' (methods)') and m[3] == '2000', l
    tid = int(m[2])
    if m[4] is not None:
        begins += 1
        depth[tid] = depth.get(tid, 0) + 1
        deepest = max(deepest, depth[tid])
    else:
        depth[tid] -= 1
assert begins > 1000, begins
print(begins, deepest - 1)
PY
read -r begins deepest <want.txt
methods="from slice s join thread_track t on s.track_id = t.id join thread using(utid)
         join process using(upid) where thread.name like '% (methods)' and process.pid = 2000"
assert_eq "method slices in Perfetto" "$begins" "$(tp_rows app.html "select count(*) $methods")"
assert_eq "method nesting in Perfetto" "$deepest" "$(tp_rows app.html "select max(depth) $methods")"
assert_eq "method slices in the JSON" "$begins" "$(tp_rows app.tev.json "select count(*) $methods")"
tracks=$(tp_rows app.html "select thread.name $methods group by utid order by 1" | tr '\n' ,)
assert_eq "method tracks" "RenderThread (methods),main (methods)," "$tracks"
python3 - classic-1.json <<'PY' || fail "classic viewer tracks"
import json, sys
c = json.load(open(sys.argv[1]))
assert 'main (methods)' in c['threadNames'] and 'RenderThread (methods)' in c['threadNames'], c
PY
echo ok
