#!/bin/sh
# The adb library against the REAL adb server (Debian's adb), started
# privately on a free port with its own HOME: server version, device
# listing, the "no device" / "unknown serial" errors (compared with what
# the real adb client says), server address from the environment, and a
# port where no server answers.  The server must still be the same
# process at the end: the library never kills or restarts it.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
TOOL="$BUILD/tools/adbtool"
[ -x "$TOOL" ] || skip "$TOOL not built (make tools)"
unset ANDROID_SERIAL ADB_SERVER_SOCKET ANDROID_ADB_SERVER_ADDRESS
export ADB_LOCAL_TRANSPORT_MAX_PORT=5554    # no emulator port scan: no devices
start_adb_server
PORT=$ADB_PORT
SERVER=$ADB_SERVER_PID
wait_for 15 "$TOOL" version || fail "adbtool cannot reach the server"
"$TOOL" version >version.txt 2>&1 || fail "version: $(cat version.txt)"

# version: what the real client reports (1.0.41 -> 41)
want=$(adb -P "$PORT" version | sed -n 's/^Android Debug Bridge version 1\.0\.\([0-9]*\).*/\1/p')
assert_eq "server version" "$want" "$(cat version.txt)"
ANDROID_ADB_SERVER_PORT=1 ADB_SERVER_SOCKET=tcp:127.0.0.1:$PORT "$TOOL" version >v2.txt 2>&1 ||
    fail "ADB_SERVER_SOCKET: $(cat v2.txt)"
assert_eq "version via ADB_SERVER_SOCKET" "$want" "$(cat v2.txt)"

"$TOOL" devices >devices.txt 2>&1 || fail "devices: $(cat devices.txt)"
assert_eq "device list" "" "$(cat devices.txt)"

# no device: both clients say so
"$TOOL" run shell echo hi >out.txt 2>err.txt && fail "shell without a device succeeded"
assert_contains err.txt "error ST_ENODEVICE"
assert_contains err.txt "no devices/emulators found"
adb -P "$PORT" shell echo hi >real.txt 2>&1
assert_contains real.txt "no devices/emulators found"

# unknown serial, explicit and from $ANDROID_SERIAL
"$TOOL" -s nosuch run shell echo hi >out.txt 2>err.txt && fail "unknown serial succeeded"
assert_contains err.txt "error ST_ENOENT"
assert_contains err.txt "device 'nosuch' not found"
adb -P "$PORT" -s nosuch shell echo hi >real.txt 2>&1
assert_contains real.txt "device 'nosuch' not found"
ANDROID_SERIAL=envserial "$TOOL" pull /x y >out.txt 2>err.txt && fail "env serial succeeded"
assert_contains err.txt "'envserial' (from \$ANDROID_SERIAL) not found"

# a port where nobody listens
NOPORT=$(free_port)
ANDROID_ADB_SERVER_PORT=$NOPORT "$TOOL" version >out.txt 2>err.txt && fail "no server, but version worked"
assert_contains err.txt "error ST_ECONNECT"
assert_contains err.txt "no adb server answers at 127.0.0.1:$NOPORT"
assert_contains err.txt "adb start-server"
ANDROID_ADB_SERVER_PORT=notaport "$TOOL" version >out.txt 2>err.txt && fail "bad port accepted"
assert_contains err.txt "error ST_EINVAL"

# the server we started is still the one answering
kill -0 "$SERVER" 2>/dev/null || fail "the adb server process is gone"
"$TOOL" version >v3.txt 2>&1 || fail "server stopped answering: $(cat v3.txt)"
exit 0
