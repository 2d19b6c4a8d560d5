# The simulator against the real adb command line: connection, banner,
# shell v2 output and exit codes, exec-out, the command log.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

start_sim

adb devices -l >devices.txt
assert_contains devices.txt "$SIM_SERIAL"
assert_contains devices.txt "model:SystraceSim"
assert_contains devices.txt "device:sim"

assert_eq "sdk" 33 "$(sadb shell getprop ro.build.version.sdk)"
assert_eq "release" 13 "$(sadb shell getprop ro.build.version.release)"
assert_eq "features" "shell_v2,cmd,stat_v2,ls_v2" \
    "$(adb -s "$SIM_SERIAL" features | tr '\n' ',' | sed 's/,$//')"

# Exit codes travel through shell v2.
sadb shell false; assert_eq "false" 1 $?
sadb shell true; assert_eq "true" 0 $?
sadb shell 'exit 3'; assert_eq "exit 3" 3 $?
sadb shell 'true && exit 7 || exit 8'; assert_eq "&&" 7 $?
sadb shell no_such_cmd >out.txt 2>err.txt; assert_eq "unknown" 127 $?
assert_contains err.txt "no_such_cmd: not found"
[ -s out.txt ] && fail "stdout of an unknown command is not empty"

# stdout and stderr stay apart; order inside each is kept.
sadb shell 'echo one; echo two >&2; echo three' >out.txt 2>err.txt
assert_eq "stdout" "one
three" "$(cat out.txt)"
assert_eq "stderr" "two" "$(cat err.txt)"

# Quoting as the adb client sends it, variables and $?.
assert_eq "quotes" "a b|c" "$(sadb shell "echo 'a b'\"|c\"")"
assert_eq "status" "%1" "$(sadb shell 'false; echo %$?')"
assert_eq "devil" "hi
%0" "$(sadb shell '( echo hi ) 2>&1;echo %$?')"
assert_eq "var" "/sys/kernel/tracing" \
    "$(sadb shell 'P=/sys/kernel/tracing; echo "$P"')"

# exec-out is raw: binary-safe, no framing.
sadb exec-out 'echo -n abc' >raw.bin
assert_eq "exec-out" "abc" "$(cat raw.bin)"

# id / root.
sadb shell id >id.txt
assert_contains id.txt "uid=0(root)"

# The log names every opened service and every command string.
assert_contains "$SIM_LOG" "open shell,v2,TERM=xterm,raw:getprop ro.build.version.sdk"
assert_contains "$SIM_LOG" "sh getprop ro.build.version.sdk"
assert_contains "$SIM_LOG" "run getprop ro.build.version.sdk"
assert_contains "$SIM_LOG" "open exec:echo -n abc"
exit 0
