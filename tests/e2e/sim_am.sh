# am profile start/stop on the simulated device: the method trace file it
# writes is valid (Debian's dmtracedump reads it) or, with
# --method-trace, a byte-exact copy of the given host file.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

start_sim
sadb shell am profile start com.android.systemui /data/local/tmp/ui.trace
assert_eq "start" 0 $?
sadb shell test -e /data/local/tmp/ui.trace
assert_eq "nothing written before stop" 1 $?
sadb shell am profile stop com.android.systemui
assert_eq "stop" 0 $?
sadb pull /data/local/tmp/ui.trace ui.trace >/dev/null 2>&1 || fail "pull"
assert_eq "magic" "*version" "$(head -n 1 ui.trace)"
if command -v dmtracedump >/dev/null 2>&1; then
    dmtracedump -o ui.trace >dump.txt 2>&1 || { cat dump.txt; fail "dmtracedump"; }
    assert_contains dump.txt "com.example.sim.Main.run"
    assert_contains dump.txt "1500 main"
fi
sadb shell am profile start no.such.app /data/local/tmp/x.trace >out.txt 2>&1
[ $? -ne 0 ] || fail "profiling an unknown process succeeded"
assert_contains out.txt "Unknown process: no.such.app"

head -c 70000 /dev/urandom >host.trace
start_sim --method-trace "$T/host.trace"
sadb shell 'am profile start --sampling 1000 1500 /data/local/tmp/s.trace && am profile stop 1500' ||
    fail "am by pid"
sadb pull /data/local/tmp/s.trace s.trace >/dev/null 2>&1 || fail "pull copy"
cmp host.trace s.trace || fail "--method-trace copy differs"
exit 0
