# Several simulated devices on one private adb server, each with its own
# state; a device that goes away shows up as offline / unreachable.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"

start_sim --sdk 30
A=$SIM_SERIAL; A_STATE=$SIM_STATE; A_PID=$SIM_PID
start_sim --sdk 24
B=$SIM_SERIAL; B_STATE=$SIM_STATE
start_sim
C=$SIM_SERIAL

adb devices >devs.txt
for s in "$A" "$B" "$C"; do
    grep -q "^$s	device\$" devs.txt || { cat devs.txt; fail "$s not listed"; }
done
adb shell true >out.txt 2>&1
[ $? -ne 0 ] || fail "adb shell without -s worked with three devices"
assert_contains out.txt "more than one device"

assert_eq "A sdk" 30 "$(adb -s "$A" shell getprop ro.build.version.sdk)"
assert_eq "B sdk" 24 "$(adb -s "$B" shell getprop ro.build.version.sdk)"

# Tracing state is per device.
adb -s "$A" shell atrace sched --async_start >/dev/null
assert_eq "A tracing" 1 "$(sim_state tracing_on "$A_STATE")"
assert_eq "B not tracing" 0 "$(sim_state tracing_on "$B_STATE")"

# Concurrent streams on one device and across devices.
adb -s "$B" shell sleep 1 &
bg=$!
adb -s "$C" shell 'sleep 0.5; echo c' >c.txt &
bg2=$!
assert_eq "B answers while busy" ok "$(adb -s "$B" shell echo ok)"
wait "$bg"; wait "$bg2"
assert_eq "C" c "$(cat c.txt)"

# A disappears (SIGTERM): the server loses it, the others stay.
kill "$A_PID"
wait_for 10 sh -c "! adb devices | grep -q '^$A	device\$'" ||
    fail "$A still online after the simulator exited"
adb -s "$A" shell true >out.txt 2>&1
[ $? -ne 0 ] || fail "shell on a vanished device succeeded"
assert_eq "B still there" 24 "$(adb -s "$B" shell getprop ro.build.version.sdk)"

# host:emulator:PORT connects too (serial emulator-<port-1>).
start_sim
port=$SIM_PORT
python3 - "$ADB_PORT" "$port" <<'PYEOF' || fail "host:emulator request"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
req = b"host:emulator:" + sys.argv[2].encode()
s.sendall(b"%04x" % len(req) + req)
s.close()
PYEOF
wait_for 10 sh -c "adb devices | grep -q '^emulator-$((port - 1))	device\$'" ||
    { adb devices; fail "emulator-$((port - 1)) not listed"; }
assert_eq "emulator serial" SystraceSim \
    "$(adb -s "emulator-$((port - 1))" shell getprop ro.product.model)"
exit 0
