# What systrace --from-file writes opens in real headless Chromium with the
# viewer's model holding what the trace holds (counts measured with the
# viewer on catapult's own test data), and no "Import error".
. "$TOP/tests/lib.sh"
need_corpus atrace/systrace_test_data
need_browser
D=$CORPUS/atrace/systrace_test_data
M=$CORPUS/atrace/aosp_marshmallow_test_data

run_st 0 --from-file "$D/compressed_atrace_data.txt" -o marks.html -q
printf 'TRACE:' >crcr.txt; cat "$M/atrace_data_raw" >>crcr.txt
run_st 0 --from-file crcr.txt -o sched.html -q
run_st 0 --from-file "$D/atrace_fixed_tgids" -o tgids.html -q
run_st 0 --from-file marks.html -o rewrapped.html -q
gzip -c "$TOP/tests/data/sample.txt" >sample.gz
run_st 0 --from-file sample.gz -o sample.html -q
cat >evil.txt <<'TXT'
  app-7 ( 7) [000] ...1 1.000000: tracing_mark_write: B|7|</script><!--<script>
  app-7 ( 7) [000] ...1 1.000100: tracing_mark_write: E|7
TXT
run_st 0 --from-file evil.txt -o evil.html -q

browser_check \
    marks.html --expect ok=true processes=2 threads=5 slices=463 counters=7 \
        asyncSlices=9 importWarningCount=0 \
    sched.html --expect ok=true cpus=1 cpuSlices=48 importWarningCount=0 \
    tgids.html --expect ok=true processes=8 threads=8 cpuSlices=48 \
    rewrapped.html --expect ok=true slices=463 counters=7 asyncSlices=9 \
    sample.html --expect ok=true processes=1 threads=2 slices=3 \
        'threadNames~RenderThread' \
    evil.html --expect ok=true slices=1 'sliceNames=</script><!--<script>'
cat browser.json
echo ok
