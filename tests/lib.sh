# Helpers sourced by tests/e2e/*.sh.  Each case runs in its own temp dir,
# removed on exit; processes it starts are killed by PID on exit.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/systrace-test.XXXXXX")
# Cases run side by side (tests/run J=N): each has a TMPDIR of its own, so
# what systrace stages there (and checks that nothing is left) is its alone.
# SYSTMP is the shared one, for what another user must reach.
SYSTMP=${TMPDIR:-/tmp}
export TMPDIR="$T/.tmp"   # hidden: checks of what a case leaves in $T skip it
mkdir -p "$TMPDIR"
_pids=""
_cleanup() {
    for p in $_pids; do kill "$p" 2>/dev/null; done
    for p in $_pids; do wait "$p" 2>/dev/null; done
    [ -n "${KEEP:-}" ] || rm -rf "$T"
}
trap _cleanup EXIT INT TERM
cd "$T" || exit 1

# Remember a background process so it is killed at exit.
track_pid() { _pids="$_pids $1"; }

fail() { echo "FAIL: $*"; exit 1; }
# Before a command started with `&` that writes out.txt: its `>out.txt` is
# done by the child shell, maybe after this one has already found the
# previous run's "Starting tracing" there; a kill -INT then reaches that
# shell, which ignores it (a background job), instead of systrace.
fresh_out() { : >out.txt; : >err.txt; }
skip() { echo "$*"; exit 77; }
need_corpus() { [ -d "$CORPUS/$1" ] || skip "corpus $CORPUS/$1 absent"; }

# assert_eq WHAT EXPECTED ACTUAL
assert_eq() {
    [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}
# assert_contains FILE TEXT
assert_contains() {
    grep -qF -- "$2" "$1" || { echo "--- $1:"; head -c 2000 "$1"; fail "$1 lacks '$2'"; }
}
assert_not_contains() {
    ! grep -qF -- "$2" "$1" || fail "$1 contains '$2'"
}
# run_st EXPECTED_RC ARGS...: runs systrace, output in out.txt/err.txt
run_st() {
    want=$1; shift
    "$SYSTRACE" "$@" >out.txt 2>err.txt </dev/null
    rc=$?
    if [ "$rc" != "$want" ]; then
        echo "--- stdout:"; cat out.txt; echo "--- stderr:"; cat err.txt
        fail "systrace $* exited $rc, expected $want"
    fi
    # under make asan, a leak is reported at exit without changing the status
    ! grep -q "ERROR: LeakSanitizer" err.txt || { cat err.txt; fail "systrace $* leaked"; }
}

# Extract the payload of trace-data block N (1-based) from an HTML file,
# as the viewer sees it (leading newline dropped, our escape undone;
# tests/tools/htmlblocks.c).
trace_block() {
    "$BUILD/tools/htmlblocks" "$1" "$2"
}

# Headless Chromium checks (tests/browser/check.mjs) need these.
need_browser() {
    [ -d "$TOP/tests/browser/node_modules/playwright-core" ] ||
        skip "playwright-core absent (scripts/install-deps --test)"
    [ -x /usr/bin/chromium ] || skip "chromium absent"
}
browser_check() {   # file --expect ... [file --expect ...]
    node "$TOP/tests/browser/check.mjs" --timeout-ms 90000 "$@" >browser.json ||
        { cat browser.json; fail "browser check: $*"; }
}
