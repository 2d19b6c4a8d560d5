# scripts/checkplatform (issue 22): the tree passes; a platform header, a
# Linux-only call, Darwin's macros and headers (issue 38) or a call
# lib/plat.h wraps, added outside lib/ and agents/linux/, fails naming the
# file; lib/ and agents/linux/ may.
. "$TOP/tests/lib.sh"
"$TOP/scripts/checkplatform" "$TOP" >ok.txt 2>&1 || { cat ok.txt; fail "the tree fails"; }
assert_contains ok.txt "through lib/ only"

check() {   # FILE LINE pass|fail
    rm -rf tree; mkdir tree
    (cd "$TOP" && tar cf - lib adb formats agents src) | (cd tree && tar xf -)
    printf '%s\n' "$2" >>"tree/$1"
    if "$TOP/scripts/checkplatform" "$PWD/tree" >v.txt 2>&1; then
        [ "$3" = pass ] || { cat v.txt; fail "$1 with $2 passed"; }
    else
        [ "$3" = fail ] || { cat v.txt; fail "$1 with $2 failed"; }
        assert_contains v.txt "$1:"
    fi
}
check src/cli.c '#include <unistd.h>' fail
check formats/atrace/decode.c '#include <sys/socket.h>' fail
check adb/adb_client.c '#include <windows.h>' fail
check agents/android/atrace/atrace.c 'static int f(void) { return pipe2(0, 0); }' fail
check src/result.c 'static const char *p = "/proc/self/fd/0";' fail
check agents/capture.c 'static int g(void) { return fork(); }' fail
check src/cmd_live.c 'static int h(int fd) { return poll(0, 0, fd); }' fail
check adb/adb_io.c 'static int u(void) { return unlink("x"); }' fail
# macOS's differences stay in lib/ too (issue 38)
check src/browser.c '#ifdef __APPLE__' fail
check formats/html/viewer.c '#if defined(__MACH__)' fail
check agents/android/probe.c '#include <mach/mach_time.h>' fail
check adb/adb_conn_tcp.c 'static int o = SO_NOSIGPIPE;' fail
check src/ui.c '#include <TargetConditionals.h>' fail
# comments, methods and the places that may
check src/cli.c '/* fork() and pipe2() are lib/plat.h matters */' pass
check adb/adb_wire.c 'static int s(struct x *t) { return t->ops->send(t); }' pass
check lib/plat_posix.c '#include <sys/socket.h>' pass
check lib/plat_posix.c '#ifdef __APPLE__' pass
check agents/linux/ftrace_fs.c 'static int m(void) { return syscall(0); }' pass
echo ok
