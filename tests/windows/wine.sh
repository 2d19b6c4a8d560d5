# check-windows: systrace.exe (make windows) under Wine, against the Linux
# build and the real adb server.  One case of tests/run (windows/wine),
# kept to a few Wine starts: a private WINEPREFIX (kept in $WIN_BUILD, so
# only the first run pays for creating it), one `wineserver -p` for the
# run, the unit tests in one executable, the conversions in one cmd.exe
# batch.  Checks, in order:
#   unit      the unit tests built for Windows (tests/windows/unit.c)
#   forms     every --from-file form, HTML and -j JSON, byte-identical to
#             the Linux build's output
#   bad       bad inputs: one-line error, non-zero exit, nothing written
#   paths     C:\-style, forward-slash and non-ASCII paths; an existing
#             output replaced whole, no temporary file left; --target=linux
#   open      --open through ShellExecute: Wine's winebrowser runs the
#             xdg-open it finds on PATH, here one that notes what it got
#   viewer    --update-viewer through WinHTTP from tests/tools/viewer_server.py
#             (as e2e/viewer_download): stored and then used, bad downloads
#             refused with their own message, $http_proxy and $no_proxy
#   live      a capture and --stream through the real adb server (Linux,
#             reached over loopback) from the simulator
#   ctrl-c    kill -INT of the Wine process stops a capture, page written
#   more      -l, Enter to stop, --app-profile, two devices at once
#   direct    --transport direct to the simulator with RSA auth (CNG): a
#             missing %USERPROFILE%\.android\adbkey made (PKCS#8; the Linux
#             build reads the same public key from it), a key the Linux
#             build made (PKCS#1) signs what the device checks
#   more      -l, Enter to stop, --app-profile, two devices at once
# Skips (77) only when Wine cannot be had.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
. "$TOP/tests/direct-env.sh"
WIN_BUILD=${WIN_BUILD:-$TOP/build-win}
case "$WIN_BUILD" in /*) ;; *) WIN_BUILD="$TOP/$WIN_BUILD" ;; esac
EXE=${SYSTRACE_EXE:-$TOP/systrace.exe}

started=$(date +%s)
find_wine() {   # wine64 and wineserver: on PATH, or where Debian puts them
    WINE=$(command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null)
    WINESERVER=$(command -v wineserver || ls /usr/lib/wine/wineserver 2>/dev/null)
}
find_wine
if [ -z "$WINE" ] || [ -z "$WINESERVER" ]; then
    "$TOP/scripts/install-deps" --windows >/dev/null 2>&1
    find_wine
    [ -n "$WINE" ] && [ -n "$WINESERVER" ] ||
        skip "Wine is not installed and could not be (scripts/install-deps --windows)"
fi
# built here rather than before every case: the build overlaps cases that
# mostly wait (a no-op when up to date; SYSTRACE_EXE: one built elsewhere)
if [ -z "${SYSTRACE_EXE:-}" ] && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" -s -j"${J:-2}" windows-test-build \
        >build.log 2>&1 || { tail -n 30 build.log; fail "the Windows build failed"; }
fi
if [ ! -f "$EXE" ] || [ ! -f "$WIN_BUILD/unit.exe" ] || [ ! -f "$WIN_BUILD/multi.exe" ]; then
    command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 ||
        skip "no MinGW-w64 cross-compiler (scripts/install-deps --windows), so no systrace.exe"
    fail "systrace.exe and its tests are not built (make check-windows)"
fi

export WINEPREFIX="$WIN_BUILD/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export LANG=C.UTF-8 LC_ALL=C.UTF-8    # arguments reach Windows as UTF-8
# the prefix is created once; a second run of this case waits for the first.
# The same Wine start links .html to Wine's htmlfile class (winebrowser),
# which mshtml's registration would do, were it not disabled above (it
# would ask to install Gecko): ShellExecute (--open) needs it.
( flock 9; "$WINE" reg add 'HKLM\Software\Classes\.html' /ve /d htmlfile /f >/dev/null 2>&1 ) \
    9>"$WIN_BUILD/wineprefix.lock"
"$WINESERVER" -p
_stop_wine() { "$WINESERVER" -k 2>/dev/null; _cleanup; }
trap _stop_wine EXIT INT TERM
win() { printf 'Z:%s' "$1" | tr '/' '\\'; }     # a Linux path as Wine sees it
exec 8>&1      # this case's log, for what wine_run notes
# Wine's own start failed once in CI (2 CPUs, 4 cases at once) before the
# program ran: the wineserver dropped the new process's first connection,
# "wine client error:0: recvmsg: Connection reset by peer" (thread 0: no
# thread made yet).  A start that failed that way, and only that way (the
# program printed nothing), is tried again, and the log says so; anything
# else the program or Wine says is passed on as it came.
wine_start_failed() {   # RC ERRFILE: Wine's own start failed, nothing else
    [ "$1" -ne 0 ] && [ -s "$2" ] && ! grep -qv '^wine client error:0: ' "$2"
}
wine_run() {
    local e="$T/wine-run.err" rc try
    for try in 1 2 3; do
        "$WINE" "$@" 2>"$e"; rc=$?
        wine_start_failed $rc "$e" || break
        echo "wine_run: Wine's start of $(basename "$1") failed, try $try: $(head -n 1 "$e")" >&8
    done
    cat "$e" >&2
    return $rc
}

# ---- unit --------------------------------------------------------------
wine_run "$WIN_BUILD/unit.exe" >unit.log 2>&1 || { cat unit.log; fail "unit tests failed on Windows"; }
grep -q 'unit test programs passed' unit.log || { cat unit.log; fail "unit tests did not run"; }
echo "[$(( $(date +%s) - started ))s] unit: $(tail -n 1 unit.log)"

# ---- the inputs (tests/e2e/fromfile_forms.sh's, and the other formats) ----
need_corpus atrace/systrace_test_data
D=$CORPUS/atrace/systrace_test_data
M=$CORPUS/atrace/aosp_marshmallow_test_data
mkdir in lin win
cp "$D/compressed_atrace_data.txt" in/z.txt
{ printf 'TRACE:'; cat "$D/atrace_data_raw"; } >in/raw.txt
{ printf 'capturing trace... done\nTRACE:'; cat "$M/atrace_data_raw"; } >in/crcr.txt
tail -c +8 "$D/compressed_atrace_data.txt" >in/bare.z
cp "$D/decompressed_atrace_data.txt" in/plain.txt
cp "$D/atrace_data" in/threads.txt
for f in raw.txt crcr.txt bare.z; do gzip -c "in/$f" >"in/$f.gz"; done
printf '  MyApp-4242  ( 4242) [002] ...1  100.000100: tracing_mark_write: B|4242|a\n' >in/app.log
"$SYSTRACE" --from-file in/z.txt -o in/page.html -q || fail "Linux build failed on z.txt"
"$SYSTRACE" --from-file in/z.txt -j -o in/trace.json -q || fail "Linux build failed on -j"
for t in basic.trace streaming.trace; do
    f=$(ls "$CORPUS"/methodtrace/*/"$t" 2>/dev/null | head -n 1)
    [ -n "$f" ] && cp "$f" "in/$t"
done
[ -f "$CORPUS/perfetto/test_trace.perfetto-trace" ] &&
    cp "$CORPUS/perfetto/test_trace.perfetto-trace" in/pf.perfetto-trace
inputs=$(cd in && ls)

# ---- the conversions, bad inputs and paths, in one Wine process ----------
# The Linux build's outputs first, then the same command lines in Windows
# form, run by multi.exe (systrace.exe's cli_main, many command lines in
# one process: a Wine start costs about a second, a conversion a few ms);
# it prints "NAME STATUS" per run.  What depends on the process itself
# (arguments from the wide command line, the current directory) is run
# through systrace.exe after.
mkdir 'dir ü' sub && cp in/z.txt 'dir ü/trâce ✓.txt'
printf 'old contents\n' >sub/replaced.html
printf 'not a trace at all\n' >in/garbage.bin   # kept out of $inputs
: >runs.list
add() {   # name args...: one command line of multi.exe
    _n=$1; shift
    printf '%s' "$_n" >>runs.list
    for a in "$@"; do printf '\t%s' "$a" >>runs.list; done
    printf '\n' >>runs.list
}
json_too="z.txt page.html basic.trace pf.perfetto-trace"
for f in $inputs; do
    "$SYSTRACE" --from-file "in/$f" -o "lin/$f.html" -q || fail "Linux build failed on $f"
    add "html-$f" --from-file "$(win "$T/in/$f")" -o "$(win "$T/win/$f.html")" -q
    case " $json_too " in *" $f "*)
        "$SYSTRACE" --from-file "in/$f" -j -o "lin/$f.json" -q || fail "Linux -j failed on $f"
        add "json-$f" --from-file "$(win "$T/in/$f")" -j -o "$(win "$T/win/$f.json")" -q ;;
    esac
done
add bad-missing --from-file "$(win "$T/in/nothing.txt")" -o "$(win "$T/bad1.html")"
add bad-dir --from-file "$(win "$T/in")" -o "$(win "$T/bad2.html")"
add bad-garbage --from-file "$(win "$T/in/garbage.bin")" -o "$(win "$T/bad3.html")"
add bad-outdir --from-file "$(win "$T/in/z.txt")" -o "$(win "$T/no/such/dir/x.html")"
add bad-self --from-file "$(win "$T/in/z.txt")" -o "$(win "$T/in/z.txt")"
add linux --target=linux -t 1 -o "$(win "$T/linux.html")"
add fwd --from-file "Z:$T/in/z.txt" -o "Z:$T/sub/fwd.html" -q
add replace --from-file "$(win "$T/in/z.txt")" -o "$(win "$T/sub/replaced.html")" -q
add help --help
add open --from-file "$(win "$T/in/z.txt")" -o "$(win "$T/sub/open ✓ #1.html")" -q --open
mkdir fakebin
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >>"%s/opened.txt"\n' "$T" >fakebin/xdg-open
chmod +x fakebin/xdg-open

# --update-viewer (WinHTTP), last in the batch: the viewer it stores in
# %LOCALAPPDATA%\systrace (Wine's, in the prefix) is used from then on.
VCACHE="$WINEPREFIX/drive_c/users/$(id -un)/AppData/Local/systrace"
rm -rf "$VCACHE"
DEB=/usr/share/go-1.19/src/cmd/trace/static
if [ -f "$DEB/trace_viewer_full.html" ]; then
    cp "$DEB/trace_viewer_full.html" marked.html
    printf '<!-- systrace test viewer copy -->\n' >>marked.html
    python3 "$TOP/tests/tools/viewer_server.py" vport.txt requests.log marked.html \
        "$DEB/webcomponents.min.js" 2>server.err &
    track_pid $!
    wait_for 10 test -s vport.txt || fail "viewer server did not start"
    URL="http://127.0.0.1:$(cat vport.txt)"
    CLOSED=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    for v in 404 slow trunc cut; do
        add "dl-$v" --update-viewer --viewer-url "$URL/$v" --timeout 1
    done
    add dl-closed --update-viewer --viewer-url "http://127.0.0.1:$CLOSED/good"
    add dl-ftp --update-viewer --viewer-url "ftp://127.0.0.1/good"
    add dl-good --update-viewer --viewer-url "$URL/redirect"
    add dl-proxied --update-viewer --viewer-url "http://viewer.systrace.invalid/good" -q
    add dl-used --from-file "$(win "$T/in/z.txt")" -o "$(win "$T/viewer.html")" -q
    export SYSTRACE_TEST_VIEWER_SHA256="$(sha256sum marked.html | cut -d' ' -f1)"
fi
http_proxy="${URL:-}" no_proxy=127.0.0.1 PATH="$T/fakebin:$PATH" BROWSER= \
    wine_run "$WIN_BUILD/multi.exe" "$(win "$T/runs.list")" >runs.out 2>runs.err </dev/null ||
    { cat runs.out runs.err; fail "multi.exe failed"; }
unset SYSTRACE_TEST_VIEWER_SHA256
rc() { sed -n "s/^$1 \([0-9-]*\).*/\1/p" runs.out | tr -d '\r'; }
wine_run "$EXE" --from-file "$(win "$T/dir ü/trâce ✓.txt")" -o "$(win "$T/dir ü/öut ✓.html")" \
    -q >utf8.out 2>&1 </dev/null || { cat utf8.out; fail "non-ASCII paths: systrace.exe failed"; }
(cd sub && wine_run "$EXE" --from-file '..\in\z.txt' -o rel.html -q >../rel.out 2>&1 </dev/null) ||
    { cat rel.out; fail "relative paths: systrace.exe failed"; }

for f in $inputs; do
    for k in html json; do
        [ "$k" = html ] || case " $json_too " in *" $f "*) ;; *) continue ;; esac
        assert_eq "$k-$f exit" 0 "$(rc "$k-$f")"
        cmp -s "lin/$f.$k" "win/$f.$k" || fail "$f: the Windows build's $k differs from Linux's"
    done
done
echo "[$(( $(date +%s) - started ))s] forms: $(echo "$inputs" | wc -w) inputs as pages, $(echo "$json_too" | wc -w) as -j JSON, byte-identical to the Linux build's"

for b in bad-missing bad-dir bad-garbage bad-outdir bad-self; do
    r=$(rc $b)
    [ -n "$r" ] && [ "$r" != 0 ] || fail "$b: exit '$r', expected an error"
done
# one line each, naming the input or output
for what in 'nothing.txt' "$(win "$T/in")" 'garbage.bin' 'no\such\dir' 'the input file'; do
    [ "$(grep -cF -- "$what" runs.err)" -ge 1 ] || { cat runs.err; fail "no error naming $what"; }
done
[ ! -e bad1.html ] && [ ! -e bad2.html ] && [ ! -e bad3.html ] || fail "a bad input left a page"
"$SYSTRACE" --from-file in/z.txt -o ref.html -q
echo "[$(( $(date +%s) - started ))s] bad: missing, directory, garbage, missing output directory, self: errors, nothing written"

assert_eq "--target=linux exit" 2 "$(rc linux)"
assert_contains runs.err "needs Linux"
cmp -s "dir ü/öut ✓.html" ref.html || fail "non-ASCII paths: output differs"
assert_eq "forward slashes exit" 0 "$(rc fwd)"
cmp -s sub/fwd.html ref.html || fail "forward-slash paths: output differs"
assert_eq "replace exit" 0 "$(rc replace)"
cmp -s sub/replaced.html ref.html || fail "an existing output was not replaced whole"
cmp -s sub/rel.html ref.html || fail "relative paths: output differs"
left=$(ls -A sub win 'dir ü' .tmp | grep -i 'tmp\.\|systrace-' || true)
[ -z "$left" ] || fail "temporary files left: $left"
assert_contains runs.out "--transport"
assert_eq "--open exit" 0 "$(rc open)"
assert_not_contains runs.err "--open:"
wait_for 10 test -s opened.txt || fail "--open: no browser was started"
opened=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.unquote(open(sys.argv[1]).read().strip()))' opened.txt)
assert_eq "--open: the page the browser got" "file://$T/sub/open ✓ #1.html" "$opened"
echo "[$(( $(date +%s) - started ))s] paths: C:\\-style, forward slashes, non-ASCII, relative, replace; --target=linux refused; --open"

if [ -n "${URL:-}" ]; then
    for v in 404 slow trunc cut closed ftp; do
        [ "$(rc "dl-$v")" = 1 ] || { cat runs.err; fail "--update-viewer $v: exit $(rc "dl-$v")"; }
    done
    for what in "HTTP status 404" "timed out: no data for 1 s" \
        "the transfer stopped after" "is cut short (a partial download?)" \
        "cannot connect to 127.0.0.1" "unsupported URL (http:// and https:// only)"; do
        assert_contains runs.err "$what"
    done
    assert_eq "--update-viewer exit" 0 "$(rc dl-good)"
    assert_contains runs.out "Verified (sha256) and stored:"
    cmp -s "$VCACHE/systrace_trace_viewer.html" marked.html || fail "stored viewer differs"
    cmp -s "$VCACHE/webcomponents.min.js" "$DEB/webcomponents.min.js" || fail "stored polyfill differs"
    grep -q "GET /redirect/" requests.log || fail "no redirect was asked for"
    assert_eq "--update-viewer through the proxy exit" 0 "$(rc dl-proxied)"
    grep -q "GET http://viewer.systrace.invalid" requests.log ||
        fail "the proxy from \$http_proxy was not used: $(cat requests.log)"
    assert_eq "conversion after the download exit" 0 "$(rc dl-used)"
    assert_contains viewer.html "<!-- systrace test viewer copy -->"
    rm -rf "$VCACHE"
    echo "[$(( $(date +%s) - started ))s] viewer: WinHTTP download stored and used, redirect, proxy; 404, stall, cut, closed port, ftp refused"
fi

# ---- live: the adb server on Linux, systrace.exe reaching it over loopback ----
start_adb_server
start_sim
wine_run "$EXE" -t 1 -o "$(win "$T/live.html")" sched gfx >out.txt 2>err.txt </dev/null ||
    { cat out.txt err.txt; fail "live capture failed"; }
[ "$(sim_state tracing_on)" = 0 ] || fail "live: device left tracing"
trace_block live.html 2 | grep -q sched_switch || fail "live: no trace in the page"
"$BUILD/tools/htmlblocks" live.html check >/dev/null || fail "live: page layout"
wine_run "$EXE" --stream -t 1 -o "$(win "$T/stream.html")" sched >out.txt 2>err.txt </dev/null ||
    { cat out.txt err.txt; fail "--stream capture failed"; }
[ "$(sim_state tracing_on)" = 0 ] || fail "--stream: device left tracing"
grep -q 'atrace.*--stream\|--stream' "$SIM_LOG" || fail "--stream: the device was not streamed from"
trace_block stream.html 2 | grep -q sched_switch || fail "--stream: no trace in the page"
echo "[$(( $(date +%s) - started ))s] live: a capture and --stream through the adb server, device reset"

# ---- Ctrl-C: Wine turns SIGINT into the console's Ctrl-C event ----
for try in 1 2 3; do     # as wine_run: again only if Wine's own start failed
    fresh_out
    "$WINE" "$EXE" -t 30 -o "$(win "$T/int.html")" sched >out.txt 2>err.txt </dev/null &
    pid=$!
    wait_for 20 sh -c "grep -q 'Starting tracing' out.txt || ! kill -0 $pid"
    if kill -0 $pid 2>/dev/null; then
        wait_tracing
        # the Windows process is the one running systrace.exe (wine64 execs into it)
        kill -INT $pid
    fi
    wait $pid; rc=$?
    wine_start_failed $rc err.txt || break
    echo "Ctrl-C: Wine's start failed, try $try: $(head -n 1 err.txt)"
done
[ $rc -eq 0 ] || { cat out.txt err.txt; fail "Ctrl-C: exit $rc"; }
assert_contains out.txt "Interrupted: stopping the trace early"
[ "$(sim_state tracing_on)" = 0 ] || fail "Ctrl-C left the device tracing"
trace_block int.html 2 | grep -q sched_switch || fail "Ctrl-C: trace not written"
echo "[$(( $(date +%s) - started ))s] ctrl-c: stops early, page written, device reset"

# ---- direct: no adb server, RSA auth with the key in the Wine profile ----
# %USERPROFILE% is Wine's own (C:\users\NAME, inside the prefix), not
# settable from here: the key goes there, as it would on Windows.
KEYDIR="$WINEPREFIX/drive_c/users/$(id -un)/.android"
[ -d "$(dirname "$KEYDIR")" ] || fail "no Wine user profile at $(dirname "$KEYDIR")"
rm -rf "$KEYDIR"
: >keys
dsim_start --auth-keys "$T/keys" --auth-accept 200
wine_run "$EXE" --transport direct -e "$DSIM_SERIAL" -t 1 -o "$(win "$T/direct.html")" sched \
    >out.txt 2>err.txt </dev/null || { cat out.txt err.txt; fail "direct capture failed"; }
assert_contains err.txt "Allow USB debugging"
[ -f "$KEYDIR/adbkey" ] || fail "no key made in %USERPROFILE%\\.android"
head -n 1 "$KEYDIR/adbkey" | grep -qx -- "-----BEGIN PRIVATE KEY-----" || fail "key not PKCS#8"
tr '\n' ' ' <"$DSIM_LOG" | grep -q "auth token auth signature refused auth token auth pubkey auth accepted" ||
    { cat "$DSIM_LOG"; fail "direct: auth sequence"; }
cut -d' ' -f1 "$KEYDIR/adbkey.pub" >pub.win
cut -d' ' -f1 keys | cmp -s - pub.win || fail "the device stored another key than adbkey.pub"
dtool pubkey "$KEYDIR/adbkey" | cmp -s - pub.win ||
    fail "the Linux build reads another public key from the Windows build's adbkey"
grep -q ' [^ ]*@[^ ]' "$KEYDIR/adbkey.pub" || fail "adbkey.pub: no user@host: $(cat "$KEYDIR/adbkey.pub")"
trace_block direct.html 2 | grep -q sched_switch || fail "direct: no trace in the page"
[ "$(sim_state tracing_on "$DSIM_STATE")" = 0 ] || fail "direct: device left tracing"
# a key the Linux build made (OpenSSL), in PKCS#1 form, already trusted
dtool keygen "$T/linux.adbkey" || fail "Linux keygen"
openssl rsa -in linux.adbkey -traditional -out "$KEYDIR/adbkey" 2>/dev/null || fail "PKCS#1 form"
head -n 1 "$KEYDIR/adbkey" | grep -q "BEGIN RSA PRIVATE KEY" || fail "not PKCS#1"
cp linux.adbkey.pub keys2
dsim_start --auth-keys "$T/keys2"
wine_run "$EXE" --transport direct -e "$DSIM_SERIAL" -l >out.txt 2>err.txt </dev/null ||
    { cat out.txt err.txt "$DSIM_LOG"; fail "direct with the Linux key failed"; }
grep -qx "auth signature ok" "$DSIM_LOG" || { cat "$DSIM_LOG"; fail "Linux key: signature not accepted"; }
grep -q "auth pubkey" "$DSIM_LOG" && fail "Linux key: the public key was sent although trusted"
assert_contains out.txt "sched"
echo "[$(( $(date +%s) - started ))s] direct: key made (PKCS#8, same public key for Linux), capture; Linux's PKCS#1 key signs"
# ---- what else a capture does: -l, Enter, --app-profile, several devices ----
A=$SIM_SERIAL
wine_run "$EXE" -l -e "$A" >list.txt 2>err.txt </dev/null || { cat err.txt; fail "-l failed"; }
grep -q ' sched - ' list.txt || { cat list.txt; fail "-l: no sched category"; }
{ wait_tracing || true; echo; } | wine_run "$EXE" -e "$A" -o "$(win "$T/enter.html")" sched \
    >out.txt 2>err.txt || { cat out.txt err.txt; fail "Enter: capture failed"; }
trace_block enter.html 2 | grep -q sched_switch || fail "Enter: no trace in the page"
[ "$(sim_state tracing_on)" = 0 ] || fail "Enter: device left tracing"
wine_run "$EXE" -e "$A" -t 1 --app-profile com.android.launcher3 -o "$(win "$T/prof.html")" view \
    >out.txt 2>err.txt </dev/null || { cat out.txt err.txt; fail "--app-profile failed"; }
trace_block prof.html 3 | grep -q ' (methods)-[0-9]* (2000) .*: tracing_mark_write: B|2000|' ||
    fail "--app-profile: no method slices"
start_sim; B=$SIM_SERIAL
wine_run "$EXE" -e "$A" -e "$B" -t 1 -o "$(win "$T/multi.html")" sched >out.txt 2>err.txt </dev/null ||
    { cat out.txt err.txt; fail "two devices: capture failed"; }
for d in "$A" "$B"; do
    f="multi-$(echo "$d" | tr -c 'A-Za-z0-9._\n-' '_').html"
    trace_block "$f" 2 | grep -q sched_switch || fail "two devices: no trace in $f"
done
for st in "$T"/sim*/state; do
    [ "$(sim_state tracing_on "$st")" = 0 ] || fail "two devices: one left tracing ($st)"
done
echo "[$(( $(date +%s) - started ))s] more: -l, Enter, --app-profile, two devices at once"
echo ok
