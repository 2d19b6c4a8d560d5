# sync: on the simulated device with the real adb: push and pull of a
# multi-megabyte file byte-exact (sync messages straddle WRTE packets),
# stat of missing files, directory listing, and catapult's "large output"
# dump: atrace into a device file, pull it, remove it.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

start_sim

head -c 5000000 /dev/urandom >big.bin
sadb push big.bin /data/local/tmp/big.bin >push.txt 2>&1 ||
    { cat push.txt; fail "push failed"; }
cmp big.bin "$SIM_FS/data/local/tmp/big.bin" || fail "pushed file differs"
sadb pull /data/local/tmp/big.bin back.bin >pull.txt 2>&1 ||
    { cat pull.txt; fail "pull failed"; }
cmp big.bin back.bin || fail "pulled file differs"
assert_contains "$SIM_LOG" "sync RECV /data/local/tmp/big.bin"

# A file the shell wrote, and a kernel file of size 0.
sadb shell 'echo hello > /data/local/tmp/h.txt'
sadb pull /data/local/tmp/h.txt h.txt >/dev/null 2>&1 || fail "pull h.txt"
assert_eq "small pull" hello "$(cat h.txt)"
sadb pull /proc/cgroups cgroups.txt >/dev/null 2>&1 || fail "pull cgroups"
assert_contains cgroups.txt "cpuset"

# Missing files: adb reports the device's errno.
sadb pull /data/local/tmp/nope x.txt >out.txt 2>&1
[ $? -ne 0 ] || fail "pull of a missing file succeeded"
assert_contains out.txt "No such file or directory"

# ls through sync (LIS2) and through the shell agree.
sadb ls /data/local/tmp >ls.txt 2>&1 || { cat ls.txt; fail "adb ls"; }
assert_contains ls.txt "big.bin"
assert_eq "shell ls" "big.bin
h.txt" "$(sadb shell ls /data/local/tmp)"

# catapult's large-output mode for the dump.
sadb shell atrace -z -b 4096 sched gfx --async_start >/dev/null
sleep 0.2
tmp=/data/local/tmp/temp_file-1b2f3c4d5e6f7
out=$(sadb shell "( ( atrace -z -b 4096 sched gfx --async_stop )>$tmp 2>&1 ) 2>&1;echo %\$?")
assert_eq "wrapped status" "%0" "$out"
sadb pull "$tmp" dump.bin >/dev/null 2>&1 || fail "pull of the dump"
python3 "$TOP/tests/tools/ftrace_check.py" dump.bin >sum.json ||
    fail "pulled dump is not a sane trace"
grep -q sched_switch sum.json || fail "no sched_switch in the pulled dump"
sadb shell "( rm -f $tmp ) 2>&1;echo %\$?" >rm.txt
assert_eq "rm" "%0" "$(cat rm.txt)"
[ -e "$SIM_FS$tmp" ] && fail "temp file left on the device"
sadb shell "test -e $tmp"; assert_eq "test -e after rm" 1 $?
assert_eq "tracing off" 0 "$(sim_state tracing_on)"
exit 0
