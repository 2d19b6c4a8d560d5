# --from-file outputs as Perfetto's trace processor imports them: for
# every input form, Perfetto reads from the HTML page and from the -j JSON
# exactly what it reads from a form of the same trace it opens itself
# (after the circular-buffer cut), without import errors, and the page
# shows the same in the classic viewer.  Forms Perfetto cannot open
# (a bare zlib stream, CR CR LF text, a 2012 page) become ones it can.
# Also the page layout Perfetto's importer needs: doctype at byte 0 and
# the literal trace-data tag.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
need_corpus atrace/systrace_test_data
D=$CORPUS/atrace/systrace_test_data
M=$CORPUS/atrace/aosp_marshmallow_test_data

# same_as INPUT REFERENCE: convert INPUT; Perfetto reads from the page and
# from the -j JSON what it reads from REFERENCE
n=0
pages=""
same_as() {
    n=$((n + 1))
    run_st 0 --from-file "$1" -o "out$n.html" -q
    run_st 0 --from-file "$1" -o "out$n.json" -j -q
    head -c 15 "out$n.html" | grep -q '^<!DOCTYPE html>$' || fail "$1: doctype not at byte 0"
    grep -q '^  <script class="trace-data" type="application/text">$' "out$n.html" ||
        fail "$1: no literal trace-data tag"
    # (both outputs counted by one Python; a reference once per content)
    ref="ref-$(cksum <"$2" | cut -d' ' -f1).json"
    [ -s "$ref" ] || tp "$2" >"$ref"
    $TPC "out$n.html" "out$n.json" >out.jsonl || fail "$1: Perfetto cannot read our outputs"
    sed -n 1p out.jsonl >page.json
    python3 - "$ref" out.jsonl "$1" <<'PY' || fail "$1: not what Perfetto reads from $2"
import json, sys
ref = json.load(open(sys.argv[1]))
page, js = (json.loads(l) for l in open(sys.argv[2]))
keys = ['slices', 'asyncSlices', 'cpuSlices', 'counters', 'counterSamples', 'cpuCounters',
        'namedThreads', 'threadNames', 'processNames', 'errors']
for name, got in (('page', page), ('-j JSON', js)):
    diff = {k: (ref[k], got[k]) for k in keys if ref[k] != got[k]}
    assert not diff, (name, diff)
assert page['slices'] + page['cpuSlices'] + page['counterSamples'] > 0, page
print('%s: %s' % (sys.argv[3], ', '.join('%s %s' % (k, page[k]) for k in keys[:7])))
PY
    pages="$pages out$n.html"
}

# atrace -z output: Perfetto's own zlib path fails on this file ("Failed
# to decompress"), the page is its text
same_as "$D/compressed_atrace_data.txt" "$D/decompressed_atrace_data.txt"
# raw atrace output behind a TRACE: marker
printf 'TRACE:' >raw.txt; cat "$D/atrace_data_raw" >>raw.txt
same_as raw.txt "$D/atrace_data_stripped"
# old Windows adb's CR CR LF and console noise
printf 'capturing trace... done\nTRACE:' >crcr.txt; cat "$M/atrace_data_raw" >>crcr.txt
same_as crcr.txt "$D/atrace_data_stripped"
# a bare zlib stream, which Perfetto cannot open at all; gzip of it
tail -c +8 "$D/compressed_atrace_data.txt" >bare.z
same_as bare.z "$D/decompressed_atrace_data.txt"
gzip -c bare.z >bare.z.gz
same_as bare.z.gz "$D/decompressed_atrace_data.txt"
gzip -c raw.txt >raw.txt.gz
same_as raw.txt.gz "$D/atrace_data_stripped"
# TGIDs, sched events
same_as "$D/atrace_fixed_tgids" "$D/atrace_fixed_tgids"
# headerless event lines (an app's own log): the page gains the header
cat >app.log <<'LOG'
  MyApp-4242  ( 4242) [002] ...1  100.000100: tracing_mark_write: B|4242|onCreate
  MyApp-4242  ( 4242) [002] ...1  100.000900: tracing_mark_write: B|4242|inflate
  MyApp-4242  ( 4242) [002] ...1  100.002000: tracing_mark_write: E|4242
  MyApp-4242  ( 4242) [002] ...1  100.003000: tracing_mark_write: E|4242
LOG
same_as app.log app.log
# circular buffer: what precedes the last "CPU N buffer started" is cut
hdr='# tracer: nop\n#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n'
{
    printf "$hdr"
    printf '  a-1  ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|old\n'
    printf '##### CPU 1 buffer started ####\n'
    printf '  a-1  ( 1) [001] ...1 2.000000: tracing_mark_write: B|1|new\n'
    printf '  a-1  ( 1) [001] ...1 2.000100: tracing_mark_write: E|1\n'
} >wrap.txt
{ printf "$hdr"; sed -n '/buffer started/,$p' wrap.txt; } >wrap_cut.txt
same_as wrap.txt wrap_cut.txt
assert_eq "slices after the cut" 1 "$(python3 -c 'import json; print(json.load(open("page.json"))["slices"])')"
# HTML in: our own page, and a 2012 page (linuxPerfData) Perfetto cannot read
same_as out1.html "$D/decompressed_atrace_data.txt"
{
    printf '<!DOCTYPE HTML>\n<html>\n<head><title>t</title></head>\n<body>\n'
    printf '<!-- BEGIN TRACE -->\n  <script>\n  var linuxPerfData = "\\\n'
    sed 's/$/\\n\\/' "$D/atrace_data_stripped"
    printf '\\n";\n  </script>\n<!-- END TRACE -->\n</body>\n</html>\n'
} >legacy.html
tp legacy.html >legacy.json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["cpuSlices"] == 0, d' \
    legacy.json || fail "Perfetto was expected not to read a 2012 page"
same_as legacy.html "$D/atrace_data_stripped"
# an input page with two ftrace blocks: Perfetto reads the first from it,
# both from the page we write (the blocks are joined)
mk() { printf "$hdr"; printf '  a-1  ( 1) [000] ...1 %s: tracing_mark_write: B|1|x\n' "$1"; }
mk 1.000000 >p1.txt
mk 2.000000 >p2.txt
python3 "$TOP/tests/browser/mkpage.py" two.html p1.txt p2.txt
cat p1.txt p2.txt >both.txt
tp two.html >two.json
assert_eq "Perfetto reads the input's first block only" 1 \
    "$(python3 -c 'import json; print(json.load(open("two.json"))["slices"])')"
same_as two.html both.txt
# the classic viewer shows what Perfetto reads (one browser for all pages)
# shellcheck disable=SC2086
same_in_both $pages
echo ok
