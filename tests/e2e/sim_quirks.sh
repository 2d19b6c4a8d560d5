# Device quirks of the simulator, seen through the real adb command line:
# --no-root, --no-z, --legacy-ps, --sdk, --no-shell-v2, --debugfs,
# --old-protocol, --overflow, --hang-on, --disconnect-after, --rate.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

# Unrooted user build, no -z, toolbox ps, Lollipop.
start_sim --no-root --no-z --legacy-ps --sdk 22
sadb shell id >id.txt
assert_contains id.txt "uid=2000(shell)"
assert_eq "release" "5.1.1" "$(sadb shell getprop ro.build.version.release)"
assert_eq "build type" "user" "$(sadb shell getprop ro.build.type)"
sadb shell atrace --list_categories >cats.txt
assert_contains cats.txt "       sched - CPU Scheduling"
assert_not_contains cats.txt " irq - "
assert_not_contains cats.txt " regulators - "
sadb shell atrace irq --async_start >out.txt 2>err.txt
assert_eq "root-only category" 1 $?
assert_contains err.txt 'category "irq" requires root privileges'
sadb shell atrace -z sched --async_start >out.txt 2>err.txt
assert_eq "-z rejected (atrace exits -1)" 255 $?
assert_contains err.txt "atrace: unknown option -- z"
assert_contains err.txt "usage: atrace [options] [categories...]"
assert_eq "not started" 0 "$(sim_state tracing_on)"
sadb shell atrace sched --async_start >/dev/null
assert_eq "started without -z" 1 "$(sim_state tracing_on)"
sadb shell atrace sched --async_stop >out.txt 2>err.txt
assert_eq "no --async_stop below SDK 23" 255 $?
assert_contains err.txt "atrace: unknown option -- async_stop"
assert_eq "still tracing" 1 "$(sim_state tracing_on)"
# catapult's SDK < 23 stop: tracing_on=0, then --async_dump
sadb shell 'echo 0 > /sys/kernel/tracing/tracing_on'
assert_eq "stopped by tracing_on" 0 "$(sim_state tracing_on)"
sadb exec-out atrace sched --async_dump >dump.txt
python3 "$TOP/tests/tools/ftrace_check.py" dump.txt >/dev/null ||
    fail "legacy dump"
sadb shell 'ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM&& ps -AT -o USER,PID,TID,CMD' >ps.txt 2>&1
[ $? -ne 0 ] || fail "toybox ps worked on a legacy device"
assert_contains ps.txt "bad pid"
sadb shell 'ps && ps -t' >ps.txt
assert_eq "legacy header" "USER     PID   PPID  VSIZE  RSS     WCHAN    PC        NAME" \
    "$(head -n 1 ps.txt)"
assert_contains ps.txt " S /system/bin/surfaceflinger"
assert_contains ps.txt " S RenderThread"
sadb shell su 0 id >/dev/null 2>&1
assert_eq "no su on a user build" 127 $?

# Toolbox's real behaviour: unknown options are a name filter.
start_sim --legacy-ps-headers
assert_eq "header only" 2 \
    "$(sadb shell 'ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM&& ps -AT -o USER,PID,TID,CMD' | wc -l)"

# No shell protocol: exit codes are lost, stderr is merged.
start_sim --no-shell-v2
adb -s "$SIM_SERIAL" features >feat.txt
assert_not_contains feat.txt shell_v2
sadb shell 'exit 3'; assert_eq "legacy shell exit code" 0 $?
sadb shell 'echo to-stderr >&2' 2>/dev/null >merged.txt
assert_contains merged.txt "to-stderr"
assert_contains "$SIM_LOG" "open shell:exit 3"

# debugfs only.
start_sim --debugfs
sadb shell mount >mount.txt
assert_contains mount.txt "debugfs on /sys/kernel/debug type debugfs"
assert_not_contains mount.txt "tracefs on /sys/kernel/tracing"
sadb shell test -e /sys/kernel/tracing/trace_marker
assert_eq "no tracefs" 1 $?
sadb shell test -e /sys/kernel/debug/tracing/trace_marker
assert_eq "debugfs tracing" 0 $?
sadb shell atrace sched --async_start >/dev/null
sadb shell 'echo 0 > /sys/kernel/debug/tracing/tracing_on'
assert_eq "debugfs tracing_on" 0 "$(sim_state tracing_on)"

# Old protocol: 4 KiB packets and checksums both ways.
start_sim --old-protocol
assert_eq "old protocol shell" SystraceSim \
    "$(sadb shell getprop ro.product.model)"
head -c 1500000 /dev/urandom >r.bin
sadb push r.bin /data/local/tmp/r.bin >/dev/null 2>&1 || fail "push (old)"
sadb exec-out cat /data/local/tmp/r.bin >r2.bin
cmp r.bin r2.bin || fail "exec-out over the old protocol differs"

# Circular buffer overrun markers.
start_sim --overflow
sadb shell atrace sched gfx --async_start >/dev/null
sleep 0.3
sadb exec-out atrace sched gfx --async_stop >ov.txt
python3 "$TOP/tests/tools/ftrace_check.py" ov.txt >ov.json || fail "overflow dump"
grep -q '"overruns": 3' ov.json || fail "expected 3 buffer-started markers"
assert_contains ov.txt "##### CPU 3 buffer started ####"

# A command that never answers; the device still serves others.
start_sim --hang-on please_hang
timeout 3 adb -s "$SIM_SERIAL" shell 'echo x; please_hang' >/dev/null
assert_eq "hang times out" 124 $?
assert_eq "other commands still answer" ok "$(sadb shell echo ok)"
assert_contains "$SIM_LOG" "sh echo x; please_hang"

# The connection drops in the middle of a dump.
start_sim --disconnect-after 50000
sadb shell atrace sched gfx --async_start >/dev/null
sleep 0.3
sadb exec-out atrace sched gfx --async_stop >cut.txt
size=$(wc -c <cut.txt)
[ "$size" -le 50013 ] || fail "got $size bytes, more than the cut"
[ "$size" -gt 1000 ] || fail "got only $size bytes before the cut"
assert_eq "stopped before the cut" 0 "$(sim_state tracing_on)"

# A slow link still delivers every byte.
start_sim --rate 400000
head -c 300000 /dev/urandom >s.bin
sadb push s.bin /data/local/tmp/s.bin >/dev/null 2>&1 || fail "push (slow)"
sadb pull /data/local/tmp/s.bin s2.bin >/dev/null 2>&1 || fail "pull (slow)"
cmp s.bin s2.bin || fail "slow pull differs"
exit 0
