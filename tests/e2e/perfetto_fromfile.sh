# What Perfetto's importer reads from --from-file outputs (checked with
# tests/tools/perfetto_check.py, a re-implementation of its sniffing, HTML
# section state machine and line tokenizer): for every input form the HTML
# starts with the doctype at byte 0, holds the literal trace-data tag and
# an ftrace section with a "# ... TASK-PID" line, and Perfetto reads from it
# exactly the events it reads from the input itself (after the
# circular-buffer cut); the -j JSON tokenizes line by line (a failure would
# be fatal in Perfetto) with the same events.
. "$TOP/tests/lib.sh"
need_corpus atrace/systrace_test_data
D=$CORPUS/atrace/systrace_test_data
M=$CORPUS/atrace/aosp_marshmallow_test_data
PC="python3 $TOP/tests/tools/perfetto_check.py"

field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1"; }

# check INPUT REFERENCE: convert INPUT; Perfetto must read from the HTML and
# the JSON what it reads from REFERENCE (a form it reads natively)
check() {
    run_st 0 --from-file "$1" -o out.html -q
    run_st 0 --from-file "$1" -o out.json -j -q
    $PC out.html >p_html.json || fail "$1: HTML breaks a Perfetto rule"
    $PC out.json >p_json.json || fail "$1: JSON breaks a Perfetto rule"
    $PC "$2" --cut >p_ref.json || fail "$2: Perfetto cannot read the reference"
    head -c 15 out.html | grep -q '^<!DOCTYPE html>$' || fail "$1: doctype not at byte 0"
    grep -q '^  <script class="trace-data" type="application/text">$' out.html ||
        fail "$1: no literal trace-data tag"
    assert_eq "$1: section" "['ftrace']" "$(field p_html.json "['sections']")"
    want=$(field p_ref.json "['events']")
    assert_eq "$1: events Perfetto reads from the HTML" "$want" "$(field p_html.json "['events']")"
    assert_eq "$1: events Perfetto reads from the JSON" "$want" "$(field p_json.json "['events']")"
    assert_eq "$1: parse failures" "$(field p_ref.json "['parse_failures']")" \
        "$(field p_html.json "['parse_failures']")"
    n=$(field p_html.json "['ftrace_events']")
    [ "$n" -gt 0 ] || fail "$1: no events"
    echo "$1: $n events"
}

# atrace -z output (Perfetto's "ctrace")
check "$D/compressed_atrace_data.txt" "$D/compressed_atrace_data.txt"
# raw atrace output behind a TRACE: marker
printf 'TRACE:' >raw.txt; cat "$D/atrace_data_raw" >>raw.txt
check raw.txt raw.txt
# old Windows adb's CR CR LF and console noise: Perfetto would choke on the
# \r\r lines; the output is the clean text
printf 'capturing trace... done\nTRACE:' >crcr.txt; cat "$M/atrace_data_raw" >>crcr.txt
check crcr.txt "$D/atrace_data_stripped"
# a bare zlib stream, which Perfetto cannot open at all
tail -c +8 "$D/compressed_atrace_data.txt" >bare.z
check bare.z "$D/decompressed_atrace_data.txt"
# plain text; gzip of each
check "$D/decompressed_atrace_data.txt" "$D/decompressed_atrace_data.txt"
for f in raw.txt crcr.txt bare.z; do gzip -c "$f" >"$f.gz"; done
check raw.txt.gz raw.txt
check crcr.txt.gz "$D/atrace_data_stripped"
check bare.z.gz "$D/decompressed_atrace_data.txt"
# TGIDs, sched events
check "$D/atrace_fixed_tgids" "$D/atrace_fixed_tgids"
# headerless event lines: the output gains the header Perfetto needs in HTML
cat >app.log <<'LOG'
  MyApp-4242  ( 4242) [002] ...1  100.000100: tracing_mark_write: B|4242|onCreate
  MyApp-4242  ( 4242) [002] ...1  100.000900: tracing_mark_write: B|4242|inflate
  MyApp-4242  ( 4242) [002] ...1  100.002000: tracing_mark_write: E|4242
  MyApp-4242  ( 4242) [002] ...1  100.003000: tracing_mark_write: E|4242
LOG
check app.log app.log
# circular buffer: what precedes the last "CPU N buffer started" is cut
{
    printf '# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
    printf '  a-1  ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|old\n'
    printf '##### CPU 1 buffer started ####\n'
    printf '  a-1  ( 1) [001] ...1 2.000000: tracing_mark_write: B|1|new\n'
    printf '  a-1  ( 1) [001] ...1 2.000100: tracing_mark_write: E|1\n'
} >wrap.txt
check wrap.txt wrap.txt
assert_eq "events after the cut" 2 "$(field p_html.json "['ftrace_events']")"
# HTML in: our own output, and a 2012 page (linuxPerfData) Perfetto cannot read
run_st 0 --from-file "$D/decompressed_atrace_data.txt" -o first.html -q
check first.html first.html
{
    printf '<!DOCTYPE HTML>\n<html>\n<head><title>t</title></head>\n<body>\n'
    printf '<!-- BEGIN TRACE -->\n  <script>\n  var linuxPerfData = "\\\n'
    sed 's/$/\\n\\/' "$D/atrace_data_stripped"
    printf '\\n";\n  </script>\n<!-- END TRACE -->\n</body>\n</html>\n'
} >legacy.html
$PC legacy.html >/dev/null 2>&1 && fail "Perfetto was expected not to read a 2012 page"
check legacy.html "$D/atrace_data_stripped"

# A JSON trace in: the HTML carries it as a JSON block, which Perfetto does
# not read from HTML (it reads the JSON file itself)
J="$D/profile-chrome_systrace_perf_chrome_data"
run_st 0 --from-file "$J" -o j.html -q
$PC j.html >pj.json 2>pj.err && fail "a JSON block was expected to be invisible to Perfetto"
assert_contains pj.err "no ftrace section"
$PC "$J" >/dev/null || fail "Perfetto reads the JSON input itself"
echo ok
