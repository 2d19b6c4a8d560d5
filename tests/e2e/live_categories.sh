# Categories: unavailable ones are named and dropped (catapult's warning),
# root-only ones explained without root, defaults and -b rules, -l output.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --no-root
run_st 0 -o t.html -t 1 gfx nosuchcat irq sched webview
assert_contains err.txt "These categories are unavailable: nosuchcat irq"
assert_contains err.txt "irq: kernel categories that need root"
grep -q "^run atrace -z -t 1 -b 8192 gfx sched webview --async_start$" "$SIM_LOG" ||
    fail "argv with webview+sched should use -b 8192"
# -l lists what the device offers, and says root would give more
run_st 0 -l
assert_contains out.txt " gfx - Graphics"
assert_not_contains out.txt " irq - "
assert_contains out.txt "NOTE: more categories may be available with adb root"
assert_not_contains out.txt "no root needed"
# --perfetto -l: Perfetto records the kernel categories atrace hides
# without root (traced_probes writes their ftrace events): listed, marked
run_st 0 --perfetto -l
assert_contains out.txt " gfx - Graphics"
assert_contains out.txt "        irq - IRQ Events [--perfetto: no root needed]"
assert_contains out.txt "       disk - Disk I/O [--perfetto: no root needed]"
assert_not_contains out.txt "sched - CPU Scheduling ["
[ "$(grep -c ' irq - ' out.txt)" -eq 1 ] || fail "--perfetto -l: irq listed twice"
assert_contains out.txt "NOTE: categories marked [--perfetto: no root needed] need adb root"
# ... and what it lists records: no category dropped
run_st 0 --perfetto -o p.html -t 1 irq disk gfx
assert_not_contains err.txt "dropped"
assert_not_contains err.txt "unavailable"
# defaults: catapult's 18 categories, minus what the device lacks; -b given wins
run_st 0 -o d.html -t 1 -b 1234 --no-compress
grep -q "^run atrace -t 1 -b 1234 am binder_driver camera dalvik freq gfx hal idle input" \
    "$SIM_LOG" || fail "default category list"
# --atrace-categories, a comma list; positional categories win over it
run_st 0 -o c.html -t 1 --atrace-categories=view,wm
grep -q "^run atrace -z -t 1 view wm --async_start$" "$SIM_LOG" || fail "--atrace-categories"
# quoting: a category with shell metacharacters is not available, never run
run_st 0 -o q.html -t 1 'gfx;reboot' gfx
assert_contains err.txt "These categories are unavailable: gfx;reboot"
grep -q reboot "$SIM_LOG" && fail "metacharacters reached the device"
echo ok
