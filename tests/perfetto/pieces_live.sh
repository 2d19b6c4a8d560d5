# Pieces (issue 35) of live captures against the simulator: atrace and
# --perfetto with --time-range keep about the window's second of the
# capture (Perfetto's trace processor: sched rows and slices only in a
# span of at most 1 s, no error stat, every thread with events named),
# --process only the chosen process's threads' slices; the classic viewer
# opens them with no new warning; nothing is left in TMPDIR; an unknown
# process fails after the capture, keeping the whole capture beside the
# output (none.whole.json).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/adb-env.sh"
need_perfetto
start_adb_server
start_sim

span_ok() {    # FILE: the piece spans at most 1 s and holds sched rows
    tp_rows "$1" "select (max(ts) - min(ts)) || ' ' || count(*) from sched where utid != 0" \
        >span.txt
    read -r span n <span.txt
    [ "$n" -gt 100 ] || fail "$1: only $n sched rows"
    [ "$span" -le 1000000000 ] || fail "$1: sched rows over $span ns"
    assert_eq "$1: error stats" 0 "$(tp_rows "$1" \
        "select count(*) from stats where severity = 'error' and value > 0")"
    assert_eq "$1: threads with events but no name" 0 "$(tp_rows "$1" \
        "select count(*) from thread where tid != 0 and (name is null or name = '') and
         (utid in (select utid from sched) or utid in (select utid from thread_track tt
          join slice s on s.track_id = tt.id))")"
}

run_st 0 -t 3 --time-range=1..2 -o atrace.html -e "$SIM_SERIAL" sched gfx
assert_contains out.txt "Wrote trace HTML file"
span_ok atrace.html
run_st 0 --perfetto -t 3 --time-range=1..2 -o pf.html -e "$SIM_SERIAL" sched gfx
span_ok pf.html
[ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
! ls ./*.tmp.* ./*.whole*.json 2>/dev/null || fail "the whole capture was left beside the pieces"

# one process: the busiest process's name as systrace names it
run_st 1 -t 1 --process=nosuch -o none.html -e "$SIM_SERIAL" sched gfx
assert_contains err.txt "no process named nosuch in the trace; the busiest: "
assert_contains err.txt "the whole capture is kept in"
kept=$(sed -n 's/.*the whole capture is kept in \([^ ]*\) .*/\1/p' err.txt)
[ "$kept" = none.whole.json ] || fail "the capture was kept in $kept, not beside the output"
[ -s "$kept" ] || fail "the capture was not kept"
! ls ./*.tmp.* 2>/dev/null || fail "temporary files left: $(ls ./*.tmp.*)"
[ ! -e none.html ] || fail "none.html written"
name=$(sed -n 's/.*the busiest: \(.*\) (pid \([0-9]*\)).*/\1/p' err.txt | sed 's/ (pid.*//')
run_st 0 --from-file "$kept" --process="$name" -o proc.html -q
rm -f "$kept"
assert_eq "slices of other processes" 0 "$(tp_rows proc.html \
    "select count(*) from slice s join thread_track tt on s.track_id = tt.id join thread
     using(utid) join process using(upid) where process.name != '$name'
     and process.name not like '%/$name'")"

node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 atrace.html pf.html proc.html \
    >classic.jsonl || { cat classic.jsonl; fail "classic viewer"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer"
import json, sys
for line in open(sys.argv[1]):
    c = json.loads(line)
    bad = [w for w in c['importWarnings'] if 'sched_waking' not in w]
    assert c['ok'] and not bad and c['cpuSlices'] > 0, (c['file'], bad)
    print('%s: the classic viewer: %d slices, %d CPU slices' % (c['file'], c['slices'],
                                                               c['cpuSlices']))
PY
# an empty range is refused before the device is touched (it would trace
# for nothing)
run_st 2 -t 3 --time-range=2..1 -o empty.html -e "$SIM_SERIAL" sched
assert_contains err.txt "the range is empty"
[ ! -e empty.html ] || fail "an empty range wrote a page"
# where the piece goes is checked before tracing: a directory is refused
# with the device untouched
mkdir -p adir
starts=$(sim_state starts)
run_st 1 -t 1 --time-range=0..0.5 -o adir -e "$SIM_SERIAL" sched
assert_contains err.txt "adir: cannot write: is a directory"
[ "$(sim_state starts)" = "$starts" ] || fail "-o a directory: the device was started"
# a reader of -o - that went away: nothing kept in TMPDIR (the piece was
# for that reader), the device not tracing
"$SYSTRACE" -t 1 --time-range=0..0.5 -o - -e "$SIM_SERIAL" sched 2>err.txt | head -c1 >/dev/null
[ -z "$(ls -A "$TMPDIR")" ] || { cat err.txt; fail "head -c1: left in TMPDIR: $(ls -A "$TMPDIR")"; }
[ "$(sim_state tracing_on)" = 0 ] || fail "head -c1: still tracing"
echo ok
