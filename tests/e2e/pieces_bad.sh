# Pieces (issue 35) of bad requests: an empty range, one outside the trace, an unknown
# process or pid, a slice that is not there (or not that often), a piece
# without events: one line saying what (the trace's span, the busiest
# processes), exit 1, no output file and no temporary file left; --split
# into standard output is refused.
. "$TOP/tests/lib.sh"

python3 "$TOP/tests/tools/genpieces.py" g.txt 3000 || fail "genpieces"
refused() {     # EXPECTED-LINE ARGS...
    msg=$1; shift
    run_st 1 --from-file g.txt -o out.html "$@"
    assert_contains err.txt "$msg"
    assert_eq "lines on stderr for $*" 1 "$(wc -l <err.txt)"
    [ ! -e out.html ] || fail "$*: out.html written"
    [ -z "$(ls -A "$TMPDIR")" ] || fail "$*: left in TMPDIR: $(ls -A "$TMPDIR")"
}
refused "systrace: g.txt: --time-range: the range is outside the trace; the trace spans 0.0..9.992 s (ts:1000.000000..1009.992118)" \
    --time-range=20..30
# in one pass the span is the whole trace's too, and a range far past it
# is outside, not empty
refused "systrace: g.txt: --time-range: the range is empty; the trace spans 0.0..9.992 s" \
    --time-range=5..3
refused "systrace: g.txt: --time-range: the range is outside the trace; the trace spans 0.0..9.992 s" \
    --time-range=9223372036..9223372036.5
refused "the range is outside the trace" --time-range=ts:900..1000
refused "systrace: g.txt: --time-range: the range is empty; the trace spans" --time-range=5..5
refused "the range is empty" --time-range=ts:1005..1004
refused "systrace: g.txt: --process: no process named nosuch in the trace; the busiest: example.app (pid 100)," \
    --process=nosuch
refused "no process with pid 4242 in the trace" --process=4242
refused "systrace: g.txt: --time-range: no slice named nothere in the trace" --time-range=slice:nothere
refused "slices named work3, not 100000" --time-range=slice:work3#100000
# logd has nothing in its first microsecond
refused "the piece holds no events" --time-range=0..1us --process=logd
# --split into standard output
run_st 1 --from-file g.txt --split=1s -o -
assert_eq "lines on stderr" 1 "$(wc -l <err.txt)"
assert_contains err.txt "--split writes several files; standard output (-o -) takes one"
[ ! -s out.txt ] || fail "--split -o -: wrote to stdout"
! ls -- -.* 2>/dev/null || fail "--split -o -: wrote files"
# -j alike
run_st 1 --from-file g.txt -j -o out.json --process=nosuch
[ ! -e out.json ] || fail "out.json written"
# -o naming the input: refused, the input untouched, the message naming
# what would have replaced it
cp g.txt g.orig
run_st 2 --from-file g.txt --time-range=1..2 -o g.txt
assert_contains err.txt "that is the input file (--from-file g.txt), which the page would replace"
run_st 2 --from-file g.txt --time-range=1..2 -j -o ./g.txt
assert_contains err.txt "which the JSON would replace"
cmp -s g.txt g.orig || fail "the input was changed"
"$BUILD/tools/pfgen" 1M p.pftrace >/dev/null 2>&1 || fail "pfgen"
cp p.pftrace p.orig
run_st 2 --from-file p.pftrace --time-range=0..0.1 -o p.pftrace
assert_contains err.txt "which the piece would replace"
cmp -s p.pftrace p.orig || fail "the Perfetto input was changed"
# -o a directory: a split's pieces go into it under the input's name (a
# hidden "dir/.001" before), a single piece is refused
mkdir d1 d2
run_st 0 --from-file g.txt --split=4s -o d1/ -q
[ "$(ls d1)" = "$(printf 'g.001.html\ng.002.html\ng.003.html')" ] || fail "-o d1/: $(ls -A d1)"
run_st 0 --from-file p.pftrace --split=0.1s --output-format=perfetto -o d2 -q
[ -s d2/p.piece.001.perfetto-trace ] || fail "-o d2 (Perfetto pieces): $(ls -A d2)"
run_st 1 --from-file g.txt --time-range=1..2 -o d2
assert_contains err.txt "d2: cannot write: is a directory"

# a split's default names beside a whole piece of an earlier run: numbered
# from that name, which is left alone
echo mine >p.piece.perfetto-trace
run_st 0 --from-file p.pftrace --split=0.1s --output-format=perfetto
[ -s p.piece.001.perfetto-trace ] && [ "$(cat p.piece.perfetto-trace)" = mine ] ||
    fail "default split names: $(ls p.*)"

# a piece's name already taken: that file is left alone, the piece goes
# to the first free name, and the note says so
echo mine >sp.002.html
run_st 0 --from-file g.txt --split=4s -o sp.html
[ "$(cat sp.002.html)" = mine ] || fail "--split overwrote sp.002.html"
[ -s sp.002-1.html ] && [ -s sp.001.html ] || fail "--split: pieces missing: $(ls sp.*)"
assert_contains err.txt "sp.002.html already exists and was left alone; that piece goes to sp.002-1.html"
# an old trace without the TGID column (Android before 6): a thread stands
# for its process, named by its comm, which Android cuts to an app's last
# 15 bytes; the full name matches it
cat >old.txt <<'T'
# tracer: nop
#
#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION
#              | |       |   ||||       |         |
 ndroid.systemui-1234  [000] d..3   100.000100: sched_switch: prev_comm=ndroid.systemui prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     [000] d..3   100.000200: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=ndroid.systemui next_pid=1234 next_prio=120
 ndroid.systemui-1234  [000] ...1   100.000300: tracing_mark_write: B|1234|draw
 ndroid.systemui-1234  [000] ...1   100.000400: tracing_mark_write: E
     kworker/0:1-77    [001] d..3   100.000500: sched_switch: prev_comm=kworker/0:1 prev_pid=77 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
T
run_st 1 --from-file old.txt -o out.html --process=nosuch
assert_contains err.txt "no process named nosuch in the trace; the busiest: ndroid.systemui (pid 1234), kworker/0:1 (pid 77)"
run_st 0 --from-file old.txt -o old.html -q --process=com.android.systemui
grep -q "tracing_mark_write: B|1234|draw" old.html || fail "--process=com.android.systemui: its mark not kept"
! grep -q "kworker/0:1-77" old.html || fail "--process=com.android.systemui: kworker kept"
# a process whose first line ftrace wrote as "<...>" (its comm not known
# then) is still found by its name, which later lines give
cat >ph.txt <<'T'
# tracer: nop
#
           <...>-500   (  500) [000] ...1  100.000000: tracing_mark_write: B|500|first
          myproc-500   (  500) [000] ...1  100.100000: tracing_mark_write: E|500
           other-600   (  600) [000] ...1  100.200000: tracing_mark_write: B|600|x
          myproc-500   (  500) [000] ...1  100.300000: tracing_mark_write: B|500|second
T
run_st 0 --from-file ph.txt -o ph.html -q --process=myproc
grep -q "B|500|second" ph.html || fail "--process=myproc (first seen as <...>): not kept"
! grep -q "B|600|x" ph.html || fail "--process=myproc: another process kept"
echo ok
