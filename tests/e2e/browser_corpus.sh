#!/bin/sh
# What catapult's trace viewer imports from real captures (catapult's own
# test data) when they sit in our page: the numbers the lead's end-to-end
# tests of the writer can assert (tests/browser/README.md lists them).
# Pages are assembled by tests/browser/mkpage.py in the writer's layout.
. "$TOP/tests/lib.sh"

B="$TOP/tests/browser"
need_corpus atrace/systrace_test_data
[ -d "$B/node_modules/playwright-core" ] ||
    skip "playwright-core absent (scripts/install-deps --test)"
[ -x /usr/bin/chromium ] || skip "chromium absent"
[ -f "${VIEWER_DIR:-/usr/share/go-1.19/src/cmd/trace/static}/trace_viewer_full.html" ] ||
    skip "trace viewer absent (golang-1.19-src)"

D="$CORPUS/atrace/systrace_test_data"
python3 "$B/mkpage.py" sched.html "$D/atrace_data" || fail "mkpage sched"
python3 "$B/mkpage.py" tgids.html "$D/atrace_fixed_tgids" || fail "mkpage tgids"
python3 "$B/mkpage.py" marks.html "$D/decompressed_atrace_data.txt" || fail "mkpage marks"
# The viewer has no cgroup importer: one warning per line, import still fine.
python3 "$B/mkpage.py" cgroup.html "$D/decompressed_atrace_data.txt" \
    "$D/cgroup_dump" || fail "mkpage cgroup"

node "$B/check.mjs" --timeout-ms 60000 \
    sched.html --expect ok=true processes=0 threads=0 slices=0 cpus=1 \
        cpuSlices=48 counters=0 asyncSlices=0 importWarningCount=0 \
    tgids.html --expect ok=true processes=8 threads=8 slices=0 cpus=1 \
        cpuSlices=48 threadNameCount=6 \
    marks.html --expect ok=true processes=2 threads=5 slices=463 cpus=0 \
        counters=7 asyncSlices=9 sliceNameCount=35 importWarningCount=0 \
        'processNames=<...>,android.systemui' \
    cgroup.html --expect ok=true slices=463 importWarningCount=14 \
        'importWarnings~Cannot parse line: CGROUP DUMP' \
    >results.json || { cat results.json; fail "browser check of corpus pages"; }
cat results.json
exit 0
