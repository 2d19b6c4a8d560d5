# --from-file accepts every input form and produces catapult's trace-data:
# zlib (atrace -z), raw, CR CR LF, console noise, bare zlib, plain text,
# headerless event lines, gzip of each, HTML re-wrapping (modern + 2012).
. "$TOP/tests/lib.sh"
need_corpus atrace/systrace_test_data
D=$CORPUS/atrace/systrace_test_data
M=$CORPUS/atrace/aosp_marshmallow_test_data

check() {   # input expected-payload [name]
    run_st 0 --from-file "$1" -o out.html -q
    trace_block out.html 1 >got.txt
    cmp -s got.txt "$2" || { diff got.txt "$2" | head; fail "$1: payload differs from $2"; }
    "$BUILD/tools/htmlblocks" out.html check >/dev/null || fail "$1: layout"
}

check "$D/compressed_atrace_data.txt" "$D/decompressed_atrace_data.txt"

printf 'TRACE:' >raw.txt; cat "$D/atrace_data_raw" >>raw.txt
check raw.txt "$D/atrace_data_stripped"

printf 'capturing trace... done\nTRACE:' >crcr.txt; cat "$M/atrace_data_raw" >>crcr.txt
check crcr.txt "$D/atrace_data_stripped"

# bare zlib stream: the marker already stripped
tail -c +8 "$D/compressed_atrace_data.txt" >bare.z
check bare.z "$D/decompressed_atrace_data.txt"

# plain text, no marker
check "$D/decompressed_atrace_data.txt" "$D/decompressed_atrace_data.txt"

# gzip of each form
for f in raw.txt crcr.txt bare.z; do gzip -c "$f" >"$f.gz"; done
check raw.txt.gz "$D/atrace_data_stripped"
check crcr.txt.gz "$D/atrace_data_stripped"
check bare.z.gz "$D/decompressed_atrace_data.txt"

# an app's own log: bare tracing_mark_write lines get an ftrace header
cat >app.log <<'LOG'
  MyApp-4242  ( 4242) [002] ...1  100.000100: tracing_mark_write: B|4242|onCreate
  MyApp-4242  ( 4242) [002] ...1  100.000900: tracing_mark_write: B|4242|inflate
  MyApp-4242  ( 4242) [002] ...1  100.002000: tracing_mark_write: E|4242
  MyApp-4242  ( 4242) [002] ...1  100.003000: tracing_mark_write: E|4242
LOG
run_st 0 --from-file app.log -o app.html -q
trace_block app.html 1 >got.txt
head -n 1 got.txt | grep -q '^# tracer: nop$' || fail "no ftrace header added"
grep -q 'TASK-PID' got.txt || fail "no TASK-PID line (Perfetto needs it)"
tail -n 4 got.txt | cmp -s - app.log || fail "app log lines changed"

# HTML in, HTML out: the trace survives re-wrapping, also twice
cp out.html once.html      # (-o naming the input itself is refused)
check once.html "$D/decompressed_atrace_data.txt"
cp out.html again.html
check again.html "$D/decompressed_atrace_data.txt"

# 2012-era HTML with the trace as a JavaScript string
{
    printf '<!DOCTYPE HTML>\n<html>\n<head><title>t</title></head>\n<body>\n'
    printf '  <div class="view">\n  </div>\n<!-- BEGIN TRACE -->\n  <script>\n'
    printf '  var linuxPerfData = "\\\n'
    sed 's/$/\\n\\/' "$D/atrace_data_stripped"
    printf '\\n";\n  </script>\n<!-- END TRACE -->\n</body>\n</html>\n'
} >legacy.html
run_st 0 --from-file legacy.html -o leg.html -q
trace_block leg.html 1 >got.txt
# the JS string ends with one extra newline, as those pages did
printf '\n' | cat "$D/atrace_data_stripped" - | cmp -s got.txt - ||
    fail "legacy HTML payload differs"

# -o default: input name without extension, .html (.json with -j)
cp "$D/compressed_atrace_data.txt" mytrace.ctrace
run_st 0 --from-file mytrace.ctrace
[ -s mytrace.html ] || fail "default output name not mytrace.html"
assert_contains out.txt "Wrote trace HTML file: file://$T/mytrace.html"
echo ok
