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
#   live      a capture and --stream through the real adb server (Linux,
#             reached over loopback) from the simulator
#   ctrl-c    kill -INT of the Wine process stops a capture, page written
# Skips (77) only when Wine cannot be had.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
WIN_BUILD=${WIN_BUILD:-$TOP/build-win}
case "$WIN_BUILD" in /*) ;; *) WIN_BUILD="$TOP/$WIN_BUILD" ;; esac
EXE=${SYSTRACE_EXE:-$TOP/systrace.exe}

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
[ -f "$EXE" ] || fail "$EXE not built (make windows)"
[ -f "$WIN_BUILD/unit.exe" ] || fail "$WIN_BUILD/unit.exe not built (make check-windows)"

export WINEPREFIX="$WIN_BUILD/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export LANG=C.UTF-8 LC_ALL=C.UTF-8    # arguments reach Windows as UTF-8
# the prefix is created once; a second run of this case waits for the first
( flock 9; "$WINE" cmd /c exit 0 >/dev/null 2>&1 ) 9>"$WIN_BUILD/wineprefix.lock"
"$WINESERVER" -p
_stop_wine() { "$WINESERVER" -k 2>/dev/null; _cleanup; }
trap _stop_wine EXIT INT TERM
win() { printf 'Z:%s' "$1" | tr '/' '\\'; }     # a Linux path as Wine sees it

# ---- unit --------------------------------------------------------------
"$WINE" "$WIN_BUILD/unit.exe" >unit.log 2>&1 || { cat unit.log; fail "unit tests failed on Windows"; }
grep -q 'unit test programs passed' unit.log || { cat unit.log; fail "unit tests did not run"; }
echo "unit: $(tail -n 1 unit.log)"

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

# ---- two batches side by side: the conversions, bad inputs, paths ------
# The Linux build's outputs first, then the same command lines in Windows
# form, alternating between two cmd.exe batches run at once (a Wine
# process start is most of a conversion's cost); each run leaves a line
# with its exit status in rc.txt.  Batches are read in the OEM code page,
# so the non-ASCII paths are run directly from here.
mkdir 'dir ü' sub && cp in/z.txt 'dir ü/trâce ✓.txt'
printf 'old contents\n' >sub/replaced.html
printf 'not a trace at all\n' >in/garbage.bin   # kept out of $inputs
for b in 0 1; do printf '@echo off\r\ncd /d "%s"\r\n' "$(win "$T/sub")" >b$b.bat; done
nb=0
add() {   # name args...: one run of systrace.exe, in the next batch
    _n=$1; _b=b$nb.bat; nb=$((1 - nb)); shift
    printf '"%s"' "$(win "$EXE")" >>$_b
    for a in "$@"; do printf ' "%s"' "$a" >>$_b; done
    printf ' >%s.out 2>%s.err <NUL\r\n>>rc.txt echo %s %%errorlevel%%\r\n' "$_n" "$_n" "$_n" >>$_b
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
add fwd --from-file "Z:$T/in/z.txt" -o "Z:$T/sub/fwd.html"
add replace --from-file "$(win "$T/in/z.txt")" -o "$(win "$T/sub/replaced.html")"
add relative --from-file "..\\in\\z.txt" -o "rel.html"
add help --help
"$WINE" cmd /c b0.bat >batch0.log 2>&1 &
b0=$!
"$WINE" cmd /c b1.bat >batch1.log 2>&1
wait $b0
"$WINE" "$EXE" --from-file "$(win "$T/dir ü/trâce ✓.txt")" -o "$(win "$T/dir ü/öut ✓.html")" \
    >utf8.out 2>&1 || { cat utf8.out; fail "non-ASCII paths: systrace.exe failed"; }
rc() { sed -n "s/^$1 \([0-9-]*\).*/\1/p" sub/rc.txt | tr -d '\r'; }
[ -s sub/rc.txt ] || { cat batch0.log batch1.log; fail "the batches did not run"; }

for f in $inputs; do
    for k in html json; do
        [ "$k" = html ] || case " $json_too " in *" $f "*) ;; *) continue ;; esac
        assert_eq "$k-$f exit" 0 "$(rc "$k-$f")"
        cmp -s "lin/$f.$k" "win/$f.$k" || fail "$f: the Windows build's $k differs from Linux's"
    done
done
echo "forms: $(echo "$inputs" | wc -w) inputs as pages, $(echo "$json_too" | wc -w) as -j JSON, byte-identical to the Linux build's"

for b in bad-missing bad-dir bad-garbage bad-outdir bad-self; do
    r=$(rc $b)
    [ -n "$r" ] && [ "$r" != 0 ] || fail "$b: exit '$r', expected an error"
    [ "$(wc -l <sub/$b.err)" -ge 1 ] && [ "$(wc -l <sub/$b.err)" -le 2 ] ||
        { cat sub/$b.err; fail "$b: not a short error"; }
    grep -q '^systrace: ' sub/$b.err || { cat sub/$b.err; fail "$b: no systrace: message"; }
done
assert_contains sub/bad-missing.err "nothing.txt"
[ ! -e bad1.html ] && [ ! -e bad2.html ] && [ ! -e bad3.html ] || fail "a bad input left a page"
"$SYSTRACE" --from-file in/z.txt -o ref.html -q
echo "bad: missing, directory, garbage, missing output directory, self: errors, nothing written"

assert_eq "--target=linux exit" 2 "$(rc linux)"
assert_contains sub/linux.err "needs Linux"
cmp -s "dir ü/öut ✓.html" ref.html || fail "non-ASCII paths: output differs"
assert_eq "forward slashes exit" 0 "$(rc fwd)"
cmp -s sub/fwd.html ref.html || fail "forward-slash paths: output differs"
assert_eq "replace exit" 0 "$(rc replace)"
cmp -s sub/replaced.html ref.html || fail "an existing output was not replaced whole"
assert_eq "relative exit" 0 "$(rc relative)"
cmp -s sub/rel.html ref.html || fail "relative paths: output differs"
left=$(ls -A sub win 'dir ü' | grep -i 'tmp\.' || true)
[ -z "$left" ] || fail "temporary files left: $left"
assert_contains sub/help.out "--transport"
echo "paths: C:\\-style, forward slashes, non-ASCII, relative, replace; --target=linux refused"
echo ok
