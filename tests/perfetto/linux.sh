# --target=linux (this machine's kernel through tracefs) as Perfetto's
# trace processor imports it and as the classic viewer shows it: the page
# and its --trace-events JSON give the same counts in both viewers with
# no import errors, Perfetto reads one sched row per sched_switch line of
# the page's text, names the busy process from the host process dump, and
# finds in the JSON what it reads from the page.  Needs root and tracefs
# (tests/linux-env.sh takes the lock other checkouts' host tracing tests
# share, and skips with the reason otherwise).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/linux-env.sh"
need_perfetto
need_tracefs

# a busy process with a name of its own, and switches on every CPU
host_load

run_st 0 --target=linux -t 2 -o host.html --trace-events host.tev.json sched freq idle
stop_host_load
trace_block host.html 2 >ftrace.txt
# a switch whose prev_pid is not the task the CPU's last switch put there
# (seen in sandboxed kernels: a task switched in never switches out) is
# the kernel's; Perfetto counts it as an error of the input
mismatched=$(python3 - <<'PY'
import re
last, n = {}, 0
for l in open('ftrace.txt'):
    m = re.search(r'\[(\d+)\] \S+\s+\d+\.\d+: sched_switch: .*prev_pid=(\d+) .* next_pid=(\d+)', l)
    if m:
        n += m[1] in last and last[m[1]] != m[2]
        last[m[1]] = m[3]
print(n)
PY
)
[ "$mismatched" = 0 ] || { echo "the kernel's data has $mismatched mismatched switches";
                          export TP_ERRORS="mismatched_sched_switch_tids=$mismatched"; }
TP_CPU_SLACK=$mismatched same_in_both host.html
all_named
TP_ERRORS= same_in_both host.tev.json
all_named
switches=$(grep -c ': sched_switch: ' ftrace.txt)
[ "$switches" -gt 100 ] || fail "only $switches sched_switch lines"
assert_eq "sched rows" "$switches" "$(tp_rows host.html "select count(*) from sched")"
tp host.html >tp-host.json
python3 - tp-host.json <<'PY' || fail "names"
import json, sys
h = json.load(open(sys.argv[1]))
assert 'linuxtestbusy' in h['processNames'], h['processNames'][:50]
assert h['cpuSlices'] > 20, h   # the exact count is compared with Perfetto's above
PY
json_covers_page host.html host.tev.json
echo ok
