# Direct wire protocol details: the old protocol (0x01000000, 4 KiB
# payloads, checksums the simulator verifies), two streams at once on one
# connection (exec: and sync: interleaved), a refused service, and a
# device that drops the connection in the middle of a dump.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
. "$TOP/tests/direct-env.sh"
no_server
python3 -c 'import os; open("big", "wb").write(os.urandom(6 << 20))'

dsim_start --old-protocol
mkdir -p "$DSIM_FS/data/local/tmp"
cp big "$DSIM_FS/data/local/tmp/big"
SYSTRACE_DEBUG=adb dtool -s "$DSIM_SERIAL" pull /data/local/tmp/big got 2>err.txt ||
    { cat err.txt; fail "old protocol pull"; }
assert_contains err.txt "online: version 01000000 maxdata 4096"
cmp -s big got || fail "old protocol: pulled file differs"
dtool -s "$DSIM_SERIAL" run echo old >out.txt 2>&1 || fail "old protocol shell"
assert_contains out.txt old

dsim_start
mkdir -p "$DSIM_FS/data/local/tmp"
cp big "$DSIM_FS/data/local/tmp/big"
dtool -s "$DSIM_SERIAL" two /data/local/tmp/big one.out two.out 2>err.txt ||
    { cat err.txt; fail "two streams"; }
cmp -s big one.out || fail "exec stream corrupted by the concurrent sync"
cmp -s big two.out || fail "sync pull corrupted by the concurrent exec"
grep -c "^open " "$DSIM_LOG" | grep -qx 2 || fail "expected two opens on one connection"

dsim_start --disconnect-after 100000 --size-mb 5
run_st 1 --transport direct -e "$DSIM_SERIAL" -o cut.html -t 100ms sched
grep -qi "closed\|lost\|truncat" err.txt || { cat err.txt; fail "no word about the lost connection"; }
echo ok
