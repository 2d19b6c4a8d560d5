# Helpers for end-to-end tests of the direct transports (no adb server).
# Source after tests/lib.sh and tests/adb-env.sh:
#
#   dsim_start [adbsim options]   simulator on a free port, NOT connected
#                                 to any server; sets DSIM_PORT, DSIM_SERIAL,
#                                 DSIM_LOG, DSIM_DIR, DSIM_PID, DSIM_FS
#   no_server                     points ANDROID_ADB_SERVER_PORT at a free
#                                 port where nothing listens, private HOME
#   dtool ARGS...                 build/tools/directtool
#
# Private real adb servers never auto-connect to the simulator:
# ADB_LOCAL_TRANSPORT_MAX_PORT=5554 is exported.
export ADB_LOCAL_TRANSPORT_MAX_PORT=5554
DTOOL="$BUILD/tools/directtool"
case "$DTOOL" in /*) ;; *) DTOOL="$TOP/$DTOOL" ;; esac
[ -x "$DTOOL" ] || skip "directtool not built"

no_server() {
    export ANDROID_ADB_SERVER_PORT="$(free_port)"
    unset ADB_SERVER_SOCKET ANDROID_ADB_SERVER_ADDRESS ANDROID_SERIAL ADB_VENDOR_KEYS
    mkdir -p "$T/home"
    export HOME="$T/home"
}

dsim_start() {
    [ -x "$ADBSIM" ] || skip "adbsim not built ($ADBSIM)"
    _ds_n=$(( ${_ds_n:-0} + 1 ))
    DSIM_DIR="$T/dsim$_ds_n"
    mkdir -p "$DSIM_DIR"
    "$ADBSIM" --port 0 --port-file "$DSIM_DIR/port" --log "$DSIM_DIR/log" \
        --state-file "$DSIM_DIR/state" --fs-dir "$DSIM_DIR/fs" "$@" \
        >"$DSIM_DIR/stdout" 2>"$DSIM_DIR/stderr" &
    DSIM_PID=$!
    track_pid "$DSIM_PID"
    wait_for 10 test -s "$DSIM_DIR/port" ||
        { cat "$DSIM_DIR/stderr"; fail "adbsim did not start"; }
    DSIM_PORT=$(cat "$DSIM_DIR/port")
    DSIM_SERIAL="127.0.0.1:$DSIM_PORT"
    DSIM_LOG="$DSIM_DIR/log"
    DSIM_FS="$DSIM_DIR/fs"
    DSIM_STATE="$DSIM_DIR/state"
}

dtool() {
    "$DTOOL" "$@"
}
