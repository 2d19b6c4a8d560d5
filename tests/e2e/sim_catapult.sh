# catapult's exact device command sequence (reference catapult-systrace.md
# section 3, devil's "( CMD ) 2>&1;echo %$?" wrapping) against the
# simulator through the real adb, and the consistency catapult relies on:
# pids/tids in the trace match `ps -AT` and the /proc task listing.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

start_sim
devil() {   # the command string as devil wraps it
    sadb shell "( $1 ) 2>&1;echo %\$?"
}
status_of() { LC_ALL=C sed -n '$s/.*%//p' "$1"; }

cats="am binder_driver camera dalvik freq gfx hal idle input memreclaim res sched sync view webview wm workq"
args="-z -t 1 -b 8192 $cats"

devil "getprop ro.build.version.sdk" >sdk.txt
assert_eq "sdk" "33
%0" "$(cat sdk.txt)"
devil "mount" >mount.txt
assert_contains mount.txt "tracefs on /sys/kernel/tracing"
devil "atrace --list_categories" >cats.txt
assert_eq "list status" 0 "$(status_of cats.txt)"
for c in $cats memory; do
    grep -q "^ *$c - " cats.txt || fail "category $c not listed"
done
devil "id" >id.txt
grep -q "^uid=0(root)" id.txt || fail "not root"

# cgroup agent
sadb pull /proc/cgroups cgroups.txt >/dev/null 2>&1 || fail "pull /proc/cgroups"
devil "TZ=utc ls -a -l /dev/cpuset/" >cpuset.txt
assert_eq "ls status" 0 "$(status_of cpuset.txt)"
assert_contains cpuset.txt " top-app"
sadb pull /dev/cpuset/top-app/tasks tasks.txt >/dev/null 2>&1 ||
    fail "pull cpuset tasks"

# process snapshot
devil "ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM&& ps -AT -o USER,PID,TID,CMD" >ps.txt
assert_eq "ps status" 0 "$(status_of ps.txt)"
assert_eq "ps header" "USER           PID  PPID     VSZ    RSS WCHAN            PC S NAME                        COMM" \
    "$(head -n 1 ps.txt | sed 's/ *$//')"
grep -q "^USER           PID   TID CMD" ps.txt || fail "no ps -AT header"

devil "atrace $args --async_start" >start.txt
assert_eq "start" "capturing trace...%0" "$(cat start.txt)"
assert_eq "tracing" 1 "$(sim_state tracing_on)"
assert_eq "cats" "gfx,input,view,webview,wm,am,camera,hal,res,dalvik,sched,freq,idle,sync,workq,memreclaim,binder_driver" \
    "$(sim_state categories)"

# clock sync through an interactive shell
printf 'echo trace_event_clock_sync: name=3b258e3e-1df4-471c-bf6b-02c03054222e > /sys/kernel/tracing/trace_marker\nexit\n' |
    sadb shell >/dev/null || fail "clock sync shell"

tmp=/data/local/tmp/temp_file-9f3a2b1c0d
sadb shell "( ( atrace $args --async_stop )>$tmp 2>&1 ) 2>&1;echo %\$?" >stop.txt
assert_eq "stop" "%0" "$(cat stop.txt)"
sadb pull "$tmp" dump.bin >/dev/null 2>&1 || fail "pull dump"
devil "rm -f $tmp" >rm.txt
assert_eq "rm" "%0" "$(cat rm.txt)"
devil "atrace $args -t 0" >last.txt
assert_eq "-t 0 status" 0 "$(status_of last.txt)"
assert_eq "left off" 0 "$(sim_state tracing_on)"
devil "echo -n /proc/[0-9]*/task/[0-9]*" >proc.txt
assert_eq "proc status" 0 "$(status_of proc.txt)"

python3 "$TOP/tests/tools/ftrace_check.py" dump.bin >sum.json ||
    fail "trace does not check out"
python3 - sum.json ps.txt proc.txt <<'PYEOF' || fail "trace, ps and /proc disagree"
import json, re, sys
s = json.load(open(sys.argv[1]))
ps = open(sys.argv[2]).read().split('\n')
proc = open(sys.argv[3]).read()
proc = proc[:proc.rindex('%')]
tid_to_pid = {}
for item in proc.split(' '):
    m = re.match(r'^/proc/(\d+)/task/(\d+)$', item)
    assert m, item
    tid_to_pid[int(m.group(2))] = int(m.group(1))
threads = {}
in_t = False
for line in ps:
    if line.startswith('USER') and 'TID' in line:
        in_t = True
        continue
    if in_t and line.strip() and not line.startswith('%'):
        f = line.split()
        threads[int(f[2])] = int(f[1])
assert threads == tid_to_pid, 'ps -AT and /proc differ'
ev = s['events']
for name in ('sched_switch', 'sched_wakeup', 'cpu_frequency', 'cpu_idle',
             'binder_transaction', 'workqueue_execute_start',
             'tracing_mark_write'):
    assert ev.get(name), name
for tid in s['tids']:
    assert tid == 0 or tid in tid_to_pid or tid >= 5000, tid
for pid in s['pids']:
    assert tid_to_pid.get(pid) == pid, pid
assert any('name=3b258e3e-1df4-471c-bf6b-02c03054222e' in x
           for x in s['clock_sync'])
PYEOF

# The exact commands the device saw.
for c in "getprop ro.build.version.sdk" "atrace $args --async_start" \
         "atrace $args --async_stop" "atrace $args -t 0" "rm -f $tmp"; do
    assert_contains "$SIM_LOG" "run $c"
done
exit 0
