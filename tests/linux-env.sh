# Helpers for the --target=linux cases (tests/e2e/linux_*.sh), sourced after
# tests/lib.sh.  They trace this machine's kernel, so they need root and a
# kernel with tracefs; otherwise they skip with the reason.
#
# The kernel's tracing settings are read through a tracefs mount of our own
# (outside $T, so the cleanup's rm -rf can never reach into tracefs), only
# while a snapshot is taken: systrace must find tracefs the way it would on
# a user's machine.

TFS=$(mktemp -d "${TMPDIR:-/tmp}/systrace-test-tfs.XXXXXX")
TEST_INSTANCE=""   # an instance a test made: removed at exit whatever happens
_linux_cleanup() {
    if [ -n "$TEST_INSTANCE" ]; then
        grep -q " $TFS " /proc/mounts || mount -t tracefs nodev "$TFS" 2>/dev/null
        rmdir "$TFS/instances/$TEST_INSTANCE" 2>/dev/null
    fi
    umount "$TFS" 2>/dev/null
    rmdir "$TFS" 2>/dev/null
    _cleanup
}
trap _linux_cleanup EXIT INT TERM

need_tracefs() {
    [ "$(id -u)" = 0 ] || skip "host tracing tests need root (run make check as root)"
    grep -qw tracefs /proc/filesystems || skip "this kernel has no tracefs"
    _linux_lock
    _linux_stale_mounts
    mount -t tracefs nodev "$TFS" 2>/dev/null ||
        skip "cannot mount tracefs here (no CAP_SYS_ADMIN in this container?)"
    [ -f "$TFS/trace_marker" ] || { umount "$TFS"; skip "tracefs without trace_marker"; }
    _linux_stale_instances
    umount "$TFS"
}

# The kernel's tracing state is one per machine: host tracing cases of
# several checkouts (or a make check beside a make asan) take turns.
_linux_lock() {
    command -v flock >/dev/null || return 0
    exec 9>/tmp/systrace-linux-tests.lock  # not $TMPDIR: every checkout must see it
    flock -w 1800 9 || fail "another run's host tracing tests held the lock for 30 min"
}

# What a run killed outright (SIGKILL, a machine reset of a CI job) left
# behind would otherwise be the "before" of this one: tracefs mounts of
# test cases and of systrace runs that are gone.  Under the lock no other
# case is running, so every such mount but ours is stale.
_linux_stale_mounts() {
    awk '$3 == "tracefs" || $3 == "debugfs" { print $2 }' /proc/self/mounts |
        grep -E '/systrace-(test-tfs|tracefs-)[^/]*$' | while read -r m; do
            [ "$m" = "$TFS" ] || { umount -l "$m" && rmdir "$m"; } 2>/dev/null
        done
}

# Instances of systrace runs whose process is gone, and a test instance a
# killed case left (systrace itself reaps the former, but only once it runs;
# the "before" snapshot comes first).
_linux_stale_instances() {
    for d in "$TFS"/instances/systrace-*; do
        [ -d "$d" ] || continue
        n=${d##*/systrace-}
        case "$n" in
            *[!0-9]*) ;;
            *) [ -d "/proc/$n" ] && continue ;;
        esac
        rmdir "$d" 2>/dev/null
    done
}

# kernel_state FILE [DIR]: the tracing settings of the top level (or of DIR,
# a path below a tracefs mounted at $TFS) as KEY=VALUE lines.
kernel_state() {
    if [ -n "${2:-}" ]; then
        python3 "$TOP/tests/tools/ftrace_state.py" "$2" >"$1"
        return
    fi
    mount -t tracefs nodev "$TFS" || fail "cannot mount tracefs for a snapshot"
    python3 "$TOP/tests/tools/ftrace_state.py" "$TFS" >"$1"
    umount "$TFS" || fail "cannot unmount $TFS"
}

# assert_kernel_as BEFORE WHAT [DIR]: the settings equal BEFORE, and no
# mount or mount point of systrace's is left.
assert_kernel_as() {
    kernel_state after.state "${3:-}"
    diff "$1" after.state >state.diff || { cat state.diff; fail "$2: kernel tracing settings changed"; }
    ! grep -q "systrace-tracefs-" /proc/mounts || fail "$2: systrace's tracefs mount left"
    ! ls -d /tmp/systrace-tracefs-* "${TMPDIR:-/tmp}"/systrace-tracefs-* >/dev/null 2>&1 ||
        fail "$2: systrace's mount point left"
}

# host_load: work the traced window can show on every CPU whatever else the
# machine is doing.  A named spinner is on a CPU and in the process dump; a
# spinner alone never switches, so a sleeper pinned to each CPU the tests
# may use wakes every 5 ms and gives each CPU its sched_switch lines (an idle
# CI machine otherwise shows a CPU without one).  stop_host_load ends it
# once the captures that need it are done: a spinner left running for the
# rest of a case takes a CPU from the cases beside it.
host_load() {
    # (9>&-: no load process may hold the host-tracing lock, even one left over)
    bash -c 'exec -a linuxtestbusy bash -c "while :; do :; done"' 9>&- &
    track_pid $!
    _load_pids=$!
    for _c in $(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))'); do
        python3 -c 'import os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
while True: time.sleep(0.005)' "$_c" 9>&- &
        track_pid $!
        _load_pids="$_load_pids $!"
    done
}
stop_host_load() {
    # shellcheck disable=SC2086
    kill $_load_pids 2>/dev/null
    # shellcheck disable=SC2086
    wait $_load_pids 2>/dev/null
    _load_pids=""
}

# wait_tracing FILE: until systrace says it is tracing (stdout in FILE).
wait_tracing() {
    for _i in $(seq 100); do
        grep -q "Starting tracing" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    cat "$1"
    fail "systrace did not start tracing"
}

# Event lines of trace-data block N of an HTML result.
event_lines() {
    trace_block "$1" "$2" | grep -v '^#' | grep -c .
}
