#!/bin/sh
# The adb library end to end: real adb server + simulated device, driven
# through tests/tools/adbtool and compared with the real adb client:
# features, shell v2 (stdout/stderr apart, exit status), quoting of
# hostile arguments, exec of binary data, a multi-megabyte streamed atrace
# dump, sync pull/cat/stat/ls byte-exact, missing files, and device
# selection with several devices (one of them without shell_v2).
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
TOOL="$BUILD/tools/adbtool"
[ -x "$TOOL" ] || skip "$TOOL not built (make tools)"
unset ANDROID_SERIAL

start_sim --size-mb 6
A=$SIM_SERIAL; A_FS=$SIM_FS; A_LOG=$SIM_LOG

"$TOOL" features >feat.txt 2>&1 || fail "features: $(cat feat.txt)"
assert_contains feat.txt "shell_v2"
assert_contains feat.txt "stat_v2"

# shell v2: same stdout as the real client, exit status kept
"$TOOL" run shell getprop ro.build.version.sdk >sdk.txt 2>sdk.err || fail "$(cat sdk.err)"
assert_eq "getprop" "$(sadb shell getprop ro.build.version.sdk)" "$(cat sdk.txt)"
assert_contains sdk.err "adbtool: exit 0"
"$TOOL" script shell 'echo out; echo err >&2; exit 3' >o.txt 2>e.txt || fail "$(cat e.txt)"
assert_eq "stdout" out "$(cat o.txt)"
assert_contains e.txt "err"
assert_contains e.txt "adbtool: exit 3"
sadb shell 'echo out; echo err >&2; exit 3' >/dev/null 2>&1
assert_eq "real adb exit status" 3 $?

# argv elements reach the device as single words, nothing expanded
"$TOOL" run shell echo "it's \$HOME; touch /data/local/tmp/pwned" '`id`' >q.txt 2>q.err ||
    fail "$(cat q.err)"
assert_eq "quoted args" "it's \$HOME; touch /data/local/tmp/pwned \`id\`" "$(cat q.txt)"
[ -e "$A_FS/data/local/tmp/pwned" ] && fail "a quoted argument ran a command"
assert_contains "$A_LOG" "open shell,v2,raw:'echo' 'it'"
assert_contains "$A_LOG" "run echo it's \$HOME; touch /data/local/tmp/pwned \`id\`"

# exec: binary-clean, compared with the file and with adb exec-out
mkdir -p "$A_FS/data/local/tmp"
head -c 3000000 /dev/urandom >bin.dat
cp bin.dat "$A_FS/data/local/tmp/bin.dat"
"$TOOL" stream exec cat /data/local/tmp/bin.dat >exec.out 2>exec.err || fail "$(cat exec.err)"
cmp bin.dat exec.out || fail "exec output differs from the file"
assert_contains exec.err "adbtool: exit unknown"

# a multi-megabyte atrace dump (text) streamed through exec
sadb shell atrace -b 4096 sched gfx --async_start >/dev/null
sleep 0.2
"$TOOL" stream exec atrace -b 4096 sched gfx --async_stop >dump.bin 2>dump.err ||
    fail "$(cat dump.err)"
python3 "$TOP/tests/tools/ftrace_check.py" dump.bin >sum.json || fail "streamed dump is not a sane trace"
grep -q sched_switch sum.json || fail "no sched_switch in the streamed dump"
[ "$(wc -c <dump.bin)" -gt 3000000 ] || fail "dump smaller than expected: $(wc -c <dump.bin)"
assert_eq "tracing off" 0 "$(sim_state tracing_on)"

# sync: pull, cat, stat, ls; byte-exact for a multi-megabyte file
head -c 5000000 /dev/urandom >big.bin
cp big.bin "$A_FS/data/local/tmp/big.bin"
"$TOOL" pull /data/local/tmp/big.bin pulled.bin 2>pull.err || fail "$(cat pull.err)"
cmp big.bin pulled.bin || fail "pulled file differs"
"$TOOL" cat /data/local/tmp/big.bin >cat.bin 2>cat.err || fail "$(cat cat.err)"
cmp big.bin cat.bin || fail "sync cat differs"
"$TOOL" stat /data/local/tmp/big.bin >stat.txt 2>&1 || fail "$(cat stat.txt)"
assert_contains stat.txt "size 5000000"
"$TOOL" ls /data/local/tmp >ls.txt 2>&1 || fail "$(cat ls.txt)"
assert_contains ls.txt " 5000000 big.bin"
assert_not_contains ls.txt " .."
"$TOOL" pull /proc/cgroups cg.txt 2>cg.err || fail "$(cat cg.err)"
sadb pull /proc/cgroups cg.real >/dev/null 2>&1
cmp cg.txt cg.real || fail "size-0 kernel file differs from adb pull"
"$TOOL" pull /data/local/tmp/nope nope.txt >out.txt 2>err.txt && fail "missing file pulled"
assert_contains err.txt "error ST_ENOENT"
assert_contains err.txt "No such file or directory"
[ -e nope.txt ] && fail "a failed pull left a file"
ls ./nope.txt.* >/dev/null 2>&1 && fail "a failed pull left a temp file"

# a second device without shell_v2: legacy shell, exit status unknown
start_sim --no-shell-v2 --sdk 23
B=$SIM_SERIAL
"$TOOL" run shell true >out.txt 2>err.txt && fail "two devices, no serial, but it worked"
assert_contains err.txt "error ST_EMULTIDEV"
assert_contains err.txt "$A"
assert_contains err.txt "$B"
"$TOOL" -s "$B" features >featb.txt 2>&1 || fail "$(cat featb.txt)"
assert_not_contains featb.txt "shell_v2"
"$TOOL" -s "$B" script shell 'echo out; echo err >&2; exit 3' >o.txt 2>e.txt || fail "$(cat e.txt)"
assert_contains o.txt "out"
assert_contains o.txt "err"             # merged into stdout
assert_contains e.txt "adbtool: exit unknown"
"$TOOL" -s "$B" script v2 'true' >o.txt 2>e.txt && fail "v2 demanded on a legacy device"
assert_contains e.txt "error ST_EUNSUPPORTED"
ANDROID_SERIAL=$B "$TOOL" run shell getprop ro.build.version.sdk >sdk.txt 2>sdk.err ||
    fail "$(cat sdk.err)"
assert_eq "B via ANDROID_SERIAL" 23 "$(cat sdk.txt)"
exit 0
