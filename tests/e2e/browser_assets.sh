#!/bin/sh
# The HTML assets (assets/prefix.html, assets/suffix.html) in real headless
# chromium with the real trace viewer: pages are assembled by
# tests/browser/mkpage.py in the writer's byte layout, so this checks the
# assets on their own.  Covers exact import counts, the "</script" / "<!--"
# escape (and that the check fails without it), a process dump plus ftrace in
# two blocks, an empty page, and that an import failure shows "Import error"
# instead of hanging; and that a page imported into the viewer another page
# started (what other cases' checks do) comes out the same.
. "$TOP/tests/lib.sh"

B="$TOP/tests/browser"
[ -d "$B/node_modules/playwright-core" ] ||
    skip "playwright-core absent (scripts/install-deps --test)"
[ -x /usr/bin/chromium ] || skip "chromium absent"
[ -f "${VIEWER_DIR:-/usr/share/go-1.19/src/cmd/trace/static}/trace_viewer_full.html" ] ||
    skip "trace viewer absent (golang-1.19-src)"

# An ftrace header the viewer and Perfetto both accept.
header() {
    cat <<'H'
# tracer: nop
#
# entries-in-buffer/entries-written: 16/16   #P:2
#
#                                      _-----=> irqs-off
#                                     / _----=> need-resched
#                                    | / _---=> hardirq/softirq
#                                    || / _--=> preempt-depth
#                                    ||| /     delay
#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |        |      |   ||||       |         |
H
}

# 2 CPUs with scheduling, process 100 with threads 100 and 101, nested
# slices (3 on 101, 1 on 100), one counter, one async slice.
{
    header
    cat <<'T'
          <idle>-0     (-----) [000] d..3  100.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=app next_pid=101 next_prio=120
          <idle>-0     (-----) [001] d..3  100.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=main next_pid=100 next_prio=120
             app-101   (  100) [000] ...1  100.000100: tracing_mark_write: B|100|outer
            main-100   (  100) [001] ...1  100.000110: tracing_mark_write: B|100|onCreate
             app-101   (  100) [000] ...1  100.000200: tracing_mark_write: B|100|inner
             app-101   (  100) [000] ...1  100.000210: tracing_mark_write: S|100|download|7
             app-101   (  100) [000] ...1  100.000300: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  100.000310: tracing_mark_write: B|100|inner2
             app-101   (  100) [000] ...1  100.000320: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  100.000400: tracing_mark_write: C|100|queue|5
            main-100   (  100) [001] ...1  100.000410: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  100.000450: tracing_mark_write: C|100|queue|2
             app-101   (  100) [000] ...1  100.000500: tracing_mark_write: E|100
            main-100   (  100) [001] ...1  100.000510: tracing_mark_write: F|100|download|7
             app-101   (  100) [000] d..3  100.000600: sched_switch: prev_comm=app prev_pid=101 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
            main-100   (  100) [001] d..3  100.000610: sched_switch: prev_comm=main prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
T
} >basic.txt
python3 "$B/mkpage.py" basic.html basic.txt || fail "mkpage basic"
# Perfetto sniffs the doctype in the first 128 bytes and finds blocks by their
# literal opening tag: nothing before the data may contain that tag.
assert_eq "first bytes" '<!DOCTYPE html>' "$(head -c 15 basic.html)"
assert_eq "opening tags" 1 \
    "$(grep -c '<script class="trace-data" type="application/text">' basic.html)"

# Slice names that would end the script element or start a comment that
# swallows the rest of the page, plus a literal backslash after '<'.
{
    header
    cat <<'T'
             app-101   (  100) [000] ...1  200.000100: tracing_mark_write: B|100|</script>
             app-101   (  100) [000] ...1  200.000200: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  200.000300: tracing_mark_write: B|100|<!--<script>
             app-101   (  100) [000] ...1  200.000400: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  200.000500: tracing_mark_write: B|100|<\/SCRIPT x
             app-101   (  100) [000] ...1  200.000600: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  200.000700: tracing_mark_write: B|100|<\\x<!-
             app-101   (  100) [000] ...1  200.000800: tracing_mark_write: E|100
             app-101   (  100) [000] ...1  200.000810: tracing_mark_write: B|100|a</SCRIPT>b
             app-101   (  100) [000] ...1  200.000820: tracing_mark_write: E|100
T
} >evil.txt
# A second block after the evil one must still be found.
{
    header
    echo '             app-101   (  100) [000] ...1  200.000900: tracing_mark_write: B|100|after'
    echo '             app-101   (  100) [000] ...1  200.001000: tracing_mark_write: E|100'
} >after.txt
python3 "$B/mkpage.py" evil.html evil.txt after.txt || fail "mkpage evil"
grep -qF '<\/script>' evil.html && grep -qF 'a<\/SCRIPT>b' evil.html ||
    fail "mkpage did not escape"
MKPAGE_NO_ESCAPE=1 python3 "$B/mkpage.py" raw.html evil.txt after.txt || fail "mkpage raw"
# JS sort order (UTF-16 code units): '!' < '/' < '\' < letters.
evil_names='<!--<script>,</script>,<\/SCRIPT x,<\\x<!-,a</SCRIPT>b,after'

# Process dump first (Perfetto only reads process dumps before the first
# ftrace block); the viewer renames process 100 and its "<...>" thread 102.
{
    echo 'PROCESS DUMP'
    echo 'USER PID PPID VSZ RSS WCHAN ADDR S NAME COMMAND'
    echo 'u0_a50 100 1 1000 200 SyS_epoll_wait 0 S com.example.app app'
    echo 'USER PID TID CMD'
    echo 'u0_a50 100 100 com.example.app'
    echo 'u0_a50 100 102 Worker-2'
} >ps.txt
{
    header
    cat <<'T'
            main-100   (  100) [000] ...1  300.000100: tracing_mark_write: B|100|bindApplication
           <...>-102   (  100) [001] ...1  300.000150: tracing_mark_write: B|100|work
            main-100   (  100) [000] ...1  300.000200: tracing_mark_write: E|100
           <...>-102   (  100) [001] ...1  300.000250: tracing_mark_write: E|100
T
} >app.txt
python3 "$B/mkpage.py" twoblocks.html ps.txt app.txt || fail "mkpage twoblocks"

# catapult's known failure: a JSON part in the SYSTRACE clock domain with a
# clock_sync event but no matching marker in any ftrace part.
cat >clock.json <<'J'
{"traceEvents":[{"name":"clock_sync","ph":"c","pid":1,"tid":1,"ts":1000,"args":{"sync_id":"e2e-sync","issue_ts":1000}}],"metadata":{"clock-domain":"SYSTRACE"}}
J
python3 "$B/mkpage.py" importerror.html clock.json basic.txt || fail "mkpage error"

# The same JSON part imports once the ftrace part carries its marker; like
# the controller's JSON it has no trailing newline.
printf '%s' "$(cat clock.json)" >clock-nonl.json
{
    cat basic.txt
    echo '           <...>-4242  (-----) [001] ...1  100.000700: tracing_mark_write: trace_event_clock_sync: name=e2e-sync'
} >synced.txt
python3 "$B/mkpage.py" synced.html synced.txt clock-nonl.json || fail "mkpage synced"
grep -q '}  </script>' synced.html || fail "JSON part should end on the closing tag's line"

python3 "$B/mkpage.py" empty.html || fail "mkpage empty"

# A page whose viewer is missing says so instead of staying blank.
mkdir noviewer && : >noviewer/webcomponents.min.js && : >noviewer/trace_viewer_full.html
VIEWER_DIR=noviewer python3 "$B/mkpage.py" noviewer.html basic.txt || fail "mkpage noviewer"

node "$B/check.mjs" --timeout-ms 60000 --fresh \
    basic.html --expect ok=true error=null 'title=Android System Trace' \
        'viewTitle=Android System Trace' processes=1 threads=2 slices=4 cpus=2 \
        cpuSlices=2 counters=1 asyncSlices=1 threadNames=app,main \
        sliceNames=inner,inner2,onCreate,outer importWarningCount=0 pageErrors= \
        externalRequests= \
    evil.html --expect ok=true slices=6 "sliceNames=$evil_names" \
    twoblocks.html --expect ok=true processes=1 processNames=com.example.app \
        'threadNames=UI thread,Worker-2' sliceNames=bindApplication,work \
    importerror.html --expect ok=false \
        'error~Unable to select a master clock domain' \
        'title=Android System Trace' \
    synced.html --expect ok=true slices=4 cpus=2 counters=1 asyncSlices=1 \
    empty.html --expect ok=true processes=0 slices=0 \
    noviewer.html --expect ok=false 'error=trace viewer missing' \
    >results.json || { cat results.json; fail "browser check of the assets"; }
cat results.json

# The checks of other cases import a page's trace into the viewer a page of
# the same assets already started (check.mjs without --fresh): each of those
# pages must come out as it did loaded on its own, an import error and the
# pages after it included.  (The --fresh check above kept no results for
# these pages to answer from.)
node "$B/check.mjs" --timeout-ms 60000 basic.html evil.html twoblocks.html \
    importerror.html synced.html empty.html \
    >again.json || { cat again.json; fail "browser check of pages in one viewer"; }
python3 - results.json again.json <<'PY' || fail "a page imported into a running viewer differs"
import json, sys
fresh = [json.loads(l) for l in open(sys.argv[1])][:6]
again = [json.loads(l) for l in open(sys.argv[2])]
# a page whose import failed is not built on: the one after it is loaded
# (the first may go into a tab the run's shared browser kept on such a page)
want = [True, True, True, False, True]
assert not any(r.get('cached') for r in again), 'answered from an earlier check'
assert [bool(r.get('reopened')) for r in again[1:]] == want, \
    'reopened: expected %r, got %r' % (want, [r.get('reopened') for r in again[1:]])
for f, a in zip(fresh, again):
    for k in ('loadMs', 'file', 'reopened', 'cached'):
        f.pop(k, None); a.pop(k, None)
    assert f == a, 'fresh %r\nreopened %r' % (f, a)
PY

# Without the escape the same page loses names: the check above can fail.
node "$B/check.mjs" --timeout-ms 60000 --fresh raw.html \
    --expect "sliceNames=$evil_names" >raw.json 2>raw.err
rc=$?
cat raw.json raw.err
[ $rc = 1 ] || fail "unescaped page: expected an expectation mismatch (1), got $rc"
exit 0
