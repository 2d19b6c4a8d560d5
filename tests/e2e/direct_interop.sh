# Keys interoperate with Debian's adb both ways:
#  1. a key the real adb server generates (private HOME) is read by us, our
#     public-key encoding of it equals its adbkey.pub, and the simulator
#     trusting that adbkey.pub accepts our signature;
#  2. a key we generate is used by a real adb server (HOME with our key)
#     connecting to a simulator that trusts only our adbkey.pub.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
. "$TOP/tests/direct-env.sh"
command -v adb >/dev/null 2>&1 || skip "adb is not installed"
no_server
mkdir -p adbhome
port=$(free_port)
HOME="$T/adbhome" adb -P "$port" nodaemon server >adb1.log 2>&1 &
pid=$!
track_pid "$pid"
wait_for 10 test -s "$T/adbhome/.android/adbkey.pub" || fail "adb made no key"
kill "$pid"
head -1 adbhome/.android/adbkey | grep -q "BEGIN" || fail "adb key not PEM"
dtool pubkey "$T/adbhome/.android/adbkey" >ours.b64 || fail "cannot read adb's key"
cut -d' ' -f1 adbhome/.android/adbkey.pub >theirs.b64
cmp -s ours.b64 theirs.b64 || fail "our adbkey.pub encoding differs from adb's"
cp adbhome/.android/adbkey.pub trusted1
dsim_start --auth-keys "$T/trusted1"
HOME="$T/adbhome" dtool -s "$DSIM_SERIAL" info >/dev/null 2>err.txt ||
    { cat err.txt; fail "adb's key refused"; }
grep -qx "auth signature ok" "$DSIM_LOG" || fail "signature with adb's key not verified"

# 2. our key, the real adb server
mkdir -p ourhome
HOME="$T/ourhome" dtool keygen "$T/ourhome/.android/adbkey" || fail keygen
cp ourhome/.android/adbkey.pub trusted2
dsim_start --auth-keys "$T/trusted2"
port=$(free_port)
export ANDROID_ADB_SERVER_PORT=$port
HOME="$T/ourhome" adb -P "$port" nodaemon server >adb2.log 2>&1 &
track_pid $!
wait_port "$port"
HOME="$T/ourhome" adb connect "$DSIM_SERIAL" >/dev/null 2>&1
wait_for 15 sh -c "adb devices | grep -q '^$DSIM_SERIAL	device\$'" ||
    { adb devices; cat "$DSIM_LOG"; fail "real adb not accepted with our key"; }
grep -qx "auth signature ok" "$DSIM_LOG" || fail "adb's signature with our key not verified"
grep -q "auth pubkey" "$DSIM_LOG" && fail "adb had to offer the public key"
[ "$(adb -s "$DSIM_SERIAL" shell echo hi)" = hi ] || fail "shell through adb"
echo ok
