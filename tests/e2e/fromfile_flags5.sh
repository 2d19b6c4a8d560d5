# Kernels >= 5.18 (Android 14 GKI 6.1, current desktops) print five flag
# characters (d..2.), which the classic viewer cannot parse: without care
# every CPU slice vanishes.  --from-file normalises them (the line keeps its
# length; Perfetto reads no flags), and leaves four-column traces alone.
. "$TOP/tests/lib.sh"
{
    printf '# tracer: nop\n#\n#           TASK-PID    TGID   CPU#  |||||  TIMESTAMP  FUNCTION\n'
    i=0
    while [ $i -lt 20 ]; do
        printf '  bash-100  ( 100) [00%d] d..2. 5.%06d: sched_switch: prev_comm=bash prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=cat next_pid=200 next_prio=120\n' $((i % 2)) $((i * 1000))
        printf '   cat-200  ( 200) [00%d] dN.2. 5.%06d: sched_switch: prev_comm=cat prev_pid=200 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=100 next_prio=120\n' $((i % 2)) $((i * 1000 + 500))
        i=$((i + 1))
    done
} >five.txt
run_st 0 --from-file five.txt -o five.html -q
trace_block five.html 1 >got.txt
grep -c '\] d[.N]\.2\. ' got.txt | grep -qx 0 || fail "five-column flags left"
[ "$(grep -c '\] d[.N]\.2  ' got.txt)" = 40 ] || fail "flags not normalised on every line"
[ "$(wc -c <got.txt)" = "$(wc -c <five.txt)" ] || fail "line lengths changed"
run_st 0 --from-file "$TOP/tests/data/sample.txt" -o four.html -q
trace_block four.html 1 | cmp -s - "$TOP/tests/data/sample.txt" || fail "four-column trace changed"
if [ -d "$TOP/tests/browser/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
    # 20 switches on each CPU make 19 slices there (the last one never ends)
    browser_check five.html --expect ok=true cpus=2 cpuSlices=38 importWarningCount=0
fi
echo ok
