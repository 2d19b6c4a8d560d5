# Pieces of ftrace text cut in one pass (issue 35, src/piecepass.c): a
# circular-buffer cut found after pieces were written removes them and
# starts again, so the pieces hold what --from-file keeps, numbered from
# 001; every piece begins with the ftrace header and the clock sync; an
# interrupted split leaves no piece and nothing in TMPDIR; a page given as
# a regular file is read again the two-pass way; the summary's span of a
# piece is its window.
. "$TOP/tests/lib.sh"

python3 "$TOP/tests/tools/genpieces.py" g.txt 3000 || fail "genpieces"
events() {      # a page's events that a cut never writes itself: sched, B
    : >"$2"
    n=$("$BUILD/tools/htmlblocks" "$1" count)
    for i in $(seq 1 "$n"); do "$BUILD/tools/htmlblocks" "$1" "$i"; done |
        grep -e ': sched_' -e 'tracing_mark_write: B|' | grep -v ' (cut)$' >>"$2"
}

# a buffer-started line a third of the way in: --from-file keeps what follows it
head -n 1000 g.txt >c.txt
echo '##### CPU 2 buffer started ####' >>c.txt
tail -n +1001 g.txt >>c.txt
run_st 0 --from-file c.txt -o whole.html -q
events whole.html whole.ev
[ "$(wc -l <whole.ev)" -lt 2500 ] || fail "the whole was not cut: $(wc -l <whole.ev) lines"
run_st 0 --from-file c.txt --split=40kb -o sp.html
[ -e sp.001.html ] && [ -e sp.003.html ] || fail "pieces: $(ls sp.* 2>/dev/null)"
: >pieces.ev
for f in sp.[0-9][0-9][0-9].html; do
    events "$f" one.ev
    cat one.ev >>pieces.ev
    t=$("$BUILD/tools/htmlblocks" "$f" 1)
    case $t in "# tracer: nop"*) ;; *) fail "$f: does not begin with the header";; esac
    echo "$t" | grep -q '^##### CPU 2 buffer started' || fail "$f: no buffer-started line"
done
cmp -s whole.ev pieces.ev ||
    fail "the pieces hold other events than the whole: $(diff whole.ev pieces.ev | head -5)"
# the first piece begins with the trace's first event after the cut
first=$(sed -n 's|.*file://[^ ]*/sp.001.html (\([0-9.]*\)\.\..*|\1|p' out.txt)
assert_eq "sp.001.html starts at the trace's start" 0.000000 "$first"

# a range over everything: the text as --from-file writes it
run_st 0 --from-file c.txt --time-range=0..100 -o all.html -q
"$BUILD/tools/htmlblocks" whole.html 1 >w.txt
"$BUILD/tools/htmlblocks" all.html 1 >a.txt
cmp -s w.txt a.txt || fail "--time-range=0..100 differs from the whole: $(diff w.txt a.txt | head -5)"

# every piece has the clock sync (g.txt's first event)
run_st 0 --from-file g.txt --split=3s -o t.html -q
for k in 001 002 003 004; do
    "$BUILD/tools/htmlblocks" t.$k.html 1 | grep -q 'trace_event_clock_sync' ||
        fail "t.$k.html: no clock sync"
done
# a piece's span is its window, though it carries the trace's first clock sync
run_st 0 --from-file g.txt --time-range=1..2 -o r12.html
assert_contains out.txt "Trace: 1.0 s, 4 CPUs"

# an HTML page as a regular file: two passes, the same pieces
run_st 0 --from-file g.txt -o g.html -q
run_st 0 --from-file g.html --split=3s -o h.html -q
for k in 001 002 003 004; do
    events t.$k.html t.ev
    events h.$k.html h.ev
    cmp -s t.ev h.ev || fail "piece $k of the page differs from the text's: $(diff t.ev h.ev |
        head -5)"
done

# Ctrl-C in the middle of a split: no piece, nothing in TMPDIR
python3 "$TOP/scripts/bench/genhuge.py" 200 big.txt || fail "genhuge"
for sig in INT TERM; do
    "$SYSTRACE" --from-file big.txt --split=4mb -o big.html -q 2>err.txt &
    pid=$!
    end=$(($(date +%s) + 120))
    while [ ! -e big.002.html ]; do
        [ "$(date +%s)" -lt $end ] || fail "$sig: no piece came in 120 s"
        kill -0 $pid 2>/dev/null || fail "$sig: ended before it was stopped"
    done
    kill -$sig $pid
    wait $pid; rc=$?
    want=130; [ $sig = TERM ] && want=143
    [ $rc -eq $want ] || { cat err.txt; fail "$sig: exit $rc, expected $want"; }
    ! ls big.[0-9]*.html 2>/dev/null || fail "$sig: pieces left: $(ls big.[0-9]*)"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "$sig: left in TMPDIR: $(ls -A "$TMPDIR")"
    ! ls | grep -q '\.tmp\.' || fail "$sig: temporary file left: $(ls | grep '\.tmp\.')"
done
echo ok
