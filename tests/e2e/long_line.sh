# What systrace writes or keeps, it reads back: a trace line longer than
# 64 MB (here an app's 70 MB slice name, from the simulator through the real
# adb server, or an 80 MB marker in a text file) is cut to its first 64 MB
# with one warning, on capture and on reading alike.  The one-shot dump
# and --stream write pages --from-file converts without a word, with the
# events after the line; a kept --stream spool and a kept raw dump (-z)
# convert too, cut there; text and HTML inputs holding such a line
# convert.  A line that long before any trace event is still refused
# (fromfile_bad_input: the zlib bomb).
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

export LC_ALL=C     # byte-wise tools: 64 MB lines in a UTF-8 locale are slow
MB64=67108864
CUT="1 line longer than 64 MB was cut to its first 64 MB"
# Pages are checked with streaming tools, never read whole: every line is
# cut to its first 300 bytes plus what it has past byte 64 MB - 5 (short.txt),
# so a line of exactly 64 MB shows as 305 bytes, a longer one as more.
shorten() {   # FILE WHAT: short.txt; the longest line is 64 MB
    cut -b "1-300,$((MB64 - 4))-" "$1" >short.txt
    assert_eq "$2: the longest line (300 bytes + those past 64 MB - 5)" 305 "$(wc -L <short.txt)"
}
B_LINE='^ *droid.launcher3-2000 ( *2000) \[001\] \.\.\.1 *[0-9.]*: tracing_mark_write: B|2000|xxxxxxxx'
E_LINE='^ *droid.launcher3-2000 ( *2000) \[001\] \.\.\.1 *[0-9.]*: tracing_mark_write: E|2000$'
cut_page() {   # HTML WHAT: the line cut to 64 MB keeps its start, the rest follows
    shorten "$1" "$2"
    grep -q "$B_LINE" short.txt || fail "$2: the cut line lost its start (its event)"
    grep -q "$E_LINE" short.txt || fail "$2: the slice's E line is missing"
    [ "$(grep -c 'sched_switch' short.txt)" -gt 1000 ] || fail "$2: the events after it are missing"
}
converts_back() {   # HTML WHAT: --from-file gives the same page, without a cut
    run_st 0 --from-file "$1" -o back.html -q
    assert_not_contains err.txt "longer than 64 MB"
    cmp -s "$1" back.html || fail "$2: the page reads back different"
    rm -f back.html
}

start_sim --long-marker 70000000

# -- the one-shot dump: the line cut with one warning, the page converts back
run_st 0 -t 1 -o dump.html -e "$SIM_SERIAL" sched gfx
assert_eq "cut warnings" 1 "$(grep -c "$CUT" err.txt)"
cut_page dump.html dump
converts_back dump.html dump

# -- --stream: the same, and the spool kept beside the page converts (cut there)
SYSTRACE_KEEP_RAW=1 run_st 0 --stream -t 1 -o st.html -e "$SIM_SERIAL" sched gfx
assert_eq "cut warnings" 1 "$(grep -c "$CUT" err.txt)"
assert_contains out.txt "Raw trace text kept in st.atrace"
cut_page st.html stream
converts_back st.html stream
n=$(grep -c sched_switch short.txt)
run_st 0 --from-file st.atrace -o spool.html -q
assert_contains err.txt "st.atrace: $CUT"
shorten spool.html "kept spool"
grep -q "tracing_mark_write: B|2000|xxxxxxxx" short.txt || fail "spool: the cut line lost its start"
assert_eq "events of the kept spool" "$(grep -c sched_switch short.txt)" "$n"
rm -f st.atrace spool.html

# -- a kept raw dump: the device's bytes as received (atrace -z, made here
# by the simulator itself: what a failed collection keeps beside the page)
"$ADBSIM" --long-marker 70000000 --exec 'atrace --async_start gfx sched >/dev/null; atrace -z --async_stop gfx sched' >kept.atrace ||
    fail "the simulator made no dump"
run_st 0 --from-file kept.atrace -o kept.html -q
assert_contains err.txt "kept.atrace: $CUT"
shorten kept.html "kept dump"
grep -q "tracing_mark_write: B|2000|xxxxxxxx" short.txt || fail "kept dump: the cut line lost its start"
grep -q "tracing_mark_write: E|2000$" short.txt || fail "kept dump: the slice's E line is missing"
rm -f kept.atrace kept.html

# -- files: an 80 MB marker as text, and in a page
{
    printf '# tracer: nop\n'
    printf '  a-1 ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|'
    head -c 80000000 /dev/zero | tr '\0' x
    printf '\n  a-1 ( 1) [000] ...1 2.000000: tracing_mark_write: E|1\n'
    printf '  b-2 ( 2) [001] d..3 3.000000: sched_switch: prev_comm=b prev_pid=2\n'
} >big.txt
{
    printf '<!DOCTYPE html>\n<html>\n<!-- BEGIN TRACE -->\n'
    printf '  <script class="trace-data" type="application/text">\n'
    cat big.txt
    printf '  </script>\n<!-- END TRACE -->\n</html>\n'
} >big.html
for f in big.txt big.html; do
    run_st 0 --from-file "$f" -o out.html -q
    assert_contains err.txt "$f: $CUT"
    shorten out.html "$f"
    grep -q "^  a-1 ( 1) \[000\] \.\.\.1 1\.000000: tracing_mark_write: B|1|xxxx" short.txt ||
        fail "$f: the cut line lost its start"
    grep -q "sched_switch: prev_comm=b" short.txt || fail "$f: the events after it are missing"
    rm -f out.html
done
echo ok
