# Helpers for end-to-end tests that talk to the simulated device through
# the REAL adb server.  Source after tests/lib.sh:
#
#   . "$TOP/tests/lib.sh"; . "$TOP/tests/adb-env.sh"
#   start_adb_server            # private server, ANDROID_ADB_SERVER_PORT set
#   start_sim --sdk 25          # build/adbsim on a free port, connected
#   adb -s "$SIM_SERIAL" shell getprop ro.build.version.sdk
#
# start_adb_server runs `adb -P PORT nodaemon server` on a free port with
# a private HOME (its key files stay in the test dir); the server is
# killed by PID when the test exits (never `adb kill-server`, never port
# 5037).  start_sim may be called several times (several devices); each
# call sets SIM_PORT, SIM_SERIAL (127.0.0.1:PORT), SIM_PID, SIM_DIR, SIM_LOG
# (services and commands the device received), SIM_STATE (tracing state)
# and SIM_FS (the device's file system root on the host).

# A free TCP port on 127.0.0.1 (the kernel picks it).
free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# wait_port PORT: until something listens there (10 s).
wait_port() {
    python3 - "$1" <<'EOF' || fail "nothing listens on port $1"
import socket, sys, time
end = time.time() + 10
while time.time() < end:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.5).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
EOF
}

# wait_for SECONDS COMMAND...: retry COMMAND until it succeeds, every
# 0.1 s, SECONDS * 10 times (counted, not timed: no `date` per try; on a
# loaded machine it waits longer, which only a failing wait notices)
wait_for() {
    _wf_left=$(( $1 * 10 )); shift
    while ! "$@" >/dev/null 2>&1; do
        [ "$_wf_left" -le 0 ] && return 1
        _wf_left=$((_wf_left - 1))
        sleep 0.1
    done
    return 0
}

start_adb_server() {
    command -v adb >/dev/null 2>&1 || skip "adb is not installed"
    ADB_PORT=$(free_port)
    export ANDROID_ADB_SERVER_PORT="$ADB_PORT"
    mkdir -p "$T/home"
    export HOME="$T/home"
    export ADB_LOCAL_TRANSPORT_MAX_PORT=5554  # no scanning of 5555.. for strays
    adb -P "$ADB_PORT" nodaemon server >"$T/adb-server.log" 2>&1 &
    ADB_SERVER_PID=$!
    track_pid "$ADB_SERVER_PID"
    wait_port "$ADB_PORT"
}

_sim_listed() {   # serial
    adb devices | grep -q "^$1	device\$"
}

# start_sim [adbsim options]: start a device and connect the server to it.
start_sim() {
    [ -n "${ADB_PORT:-}" ] || start_adb_server
    [ -x "$ADBSIM" ] || skip "adbsim not built ($ADBSIM)"
    _sim_n=$(( ${_sim_n:-0} + 1 ))
    SIM_DIR="$T/sim$_sim_n"
    mkdir -p "$SIM_DIR"
    "$ADBSIM" --port 0 --port-file "$SIM_DIR/port" --log "$SIM_DIR/log" \
        --state-file "$SIM_DIR/state" --fs-dir "$SIM_DIR/fs" "$@" \
        >"$SIM_DIR/stdout" 2>"$SIM_DIR/stderr" &
    SIM_PID=$!
    track_pid "$SIM_PID"
    wait_for 10 test -s "$SIM_DIR/port" ||
        { cat "$SIM_DIR/stderr"; fail "adbsim did not start"; }
    SIM_PORT=$(cat "$SIM_DIR/port")
    SIM_SERIAL="127.0.0.1:$SIM_PORT"
    SIM_LOG="$SIM_DIR/log"
    SIM_STATE="$SIM_DIR/state"
    SIM_FS="$SIM_DIR/fs"
    export SIM_PORT SIM_SERIAL SIM_LOG SIM_STATE SIM_FS SIM_PID SIM_DIR
    adb connect "$SIM_SERIAL" >"$SIM_DIR/connect.out" 2>&1
    wait_for 10 _sim_listed "$SIM_SERIAL" ||
        { cat "$SIM_DIR/connect.out"; adb devices; fail "device not online"; }
}

# sim_state KEY [STATEFILE]: a value from the device's tracing state.
sim_state() {
    sed -n "s/^$1=//p" "${2:-$SIM_STATE}"
}

# A shell command on the current device: sadb ARGS... = adb -s SERIAL ARGS...
sadb() {
    adb -s "$SIM_SERIAL" "$@"
}

# Until the systrace run whose stdout is out.txt has started tracing: its
# "Starting tracing" line (printed once every agent started) and the
# device's state agree.  Signals sent before that hit the start phase.
wait_tracing() {
    wait_for 20 grep -q "Starting tracing" out.txt &&
        wait_for 10 sh -c "[ \"\$(sed -n 's/^tracing_on=//p' '$SIM_STATE')\" = 1 ]" ||
        fail "tracing never started"
}

# --perfetto: no session left recording on the device and no file left in
# its trace directory (pf_no_session WHAT [STATEFILE]).
pf_no_session() {
    [ "$(sim_state perfetto_running "${2:-}")" = 0 ] || fail "$1: a session is left recording"
    [ -z "$(ls "${SIM_FS}/data/misc/perfetto-traces")" ] ||
        fail "$1: file left on the device: $(ls "$SIM_FS/data/misc/perfetto-traces")"
}

# pf_same FILE: FILE holds exactly the last trace the device's perfetto wrote.
pf_same() {
    set -- "$1" "$(python3 -c 'import sys, zlib
d = open(sys.argv[1], "rb").read()
print(zlib.crc32(d), len(d))' "$1")"
    [ "$2" = "$(sim_state perfetto_last_crc) $(sim_state perfetto_last_size)" ] ||
        fail "$1 ($2) is not the device's trace ($(sim_state perfetto_last_crc) $(sim_state perfetto_last_size))"
}

# pf_loops: wait loops the device has run so far.  wait_recording [N]:
# until a --perfetto run waits on the device (more than N loops started):
# the session records and the host is past starting it.
pf_loops() {
    grep -c '^sh while \[ -d /proc/' "$SIM_LOG" || true
}
wait_recording() {
    wait_for 20 sh -c "[ \"\$(grep -c '^sh while \\[ -d /proc/' '$SIM_LOG')\" -gt ${1:-0} ]" ||
        { cat err.txt 2>/dev/null; fail "no Perfetto session was waited on"; }
}
