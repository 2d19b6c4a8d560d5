# --split (issue 35): pieces NAME.001.html, NAME.002.html ... by duration
# (from the start of the range) and by size (of the ftrace text), of atrace
# text and of a Perfetto trace: each piece judged by Perfetto's trace
# processor against the whole on its own window, as systrace reports it
# (tests/tools/piececheck.py: the window's sched rows, slices with the cut
# ones once, counters set again at its start, no error stat, every thread
# named), together every sched row of the whole; the classic viewer opens
# each with no new warning; -j pieces are .json; --trace-events with
# --split is refused with one line.
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
need_perfetto
PC="python3 $TOP/tests/tools/piececheck.py"

# judge PREFIX WHOLE: every piece reported in out.txt on its window
judge() {
    sed -n 's|.*file://[^ ]*/\([^ ]*\) (.* s, ts:\([0-9.]*\)\.\.\([0-9.]*\)).*|\1 \2 \3|p' \
        out.txt >pieces.txt
    [ "$(wc -l <pieces.txt)" -ge 2 ] || { cat out.txt; fail "$1: fewer than 2 pieces"; }
    total=0
    while read -r f lo hi; do
        case $f in "$1".*) ;; *) fail "piece named $f";; esac
        lo_ns=$(python3 -c "print(round($lo * 1e9))")
        hi_ns=$(python3 -c "print(round($hi * 1e9))")
        # the last piece ends with the trace (its end: the last event, kept)
        [ "$f" = "$(tail -n 1 pieces.txt | cut -d' ' -f1)" ] && hi_ns=$((hi_ns + 1000))
        $PC "$2" "$f" "$lo_ns" "$hi_ns" || fail "piece $f"
        n=$(tp_rows "$f" "select count(*) from sched")
        total=$((total + n))
    done <pieces.txt
    assert_eq "$1: sched rows of all pieces" "$(tp_rows "$2" "select count(*) from sched")" \
        "$total"
}

python3 "$TOP/tests/tools/genpieces.py" g.txt 20000 || fail "genpieces"
run_st 0 --from-file g.txt -o whole.html -q
# 12 pieces: more than one read's worth (src/piecefan.h PIECEFAN_MAX)
run_st 0 --from-file g.txt --split=900ms -o t.html
judge t whole.html
[ "$(ls t.*.html | wc -l)" = 12 ] || fail "10 s in 0.9 s pieces: $(ls t.*.html)"
run_st 0 --from-file g.txt --split=400kb -o s.html
judge s whole.html
for f in s.*.html; do      # the text of each about 400 KiB (cut where the scan sampled)
    n=$(trace_block "$f" 1 | wc -c)
    [ "$n" -le 460000 ] || fail "$f: $n bytes of text for --split=400kb"
done

"$BUILD/tools/pfgen" -m 2M m.pftrace 3 2>/dev/null || fail "pfgen"
run_st 0 --from-file m.pftrace -o mwhole.html -q
run_st 0 --from-file m.pftrace --split=100ms -o m.html
judge m mwhole.html

run_st 0 --from-file g.txt --split=3s --time-range=1..8 -j -o j.json
assert_eq "JSON pieces" "j.001.json j.002.json j.003.json" "$(echo j.*.json)"
assert_contains out.txt "j.001.json (1.000000..4.000000 s, ts:1001.000000..1004.000000)"

run_st 1 --from-file g.txt --split=2s --trace-events te.json -o r.html
assert_eq "lines on stderr" 1 "$(wc -l <err.txt)"
assert_contains err.txt "--split writes several pieces; --trace-events would describe only one"
! ls r.* te.json 2>/dev/null || fail "written despite the refusal"

node "$TOP/tests/browser/check.mjs" --timeout-ms 180000 whole.html t.00[1-5].html mwhole.html \
    m.001.html m.002.html >classic.jsonl || { cat classic.jsonl; fail "classic viewer"; }
python3 - classic.jsonl <<'PY' || fail "the classic viewer warns"
import json, sys
kind = lambda w: w.split(' (')[0].split(' at ')[0]
cs = [json.loads(line) for line in open(sys.argv[1])]
known = {kind(w) for c in cs for w in c['importWarnings'] if 'whole' in c['file']}
for c in cs:
    new = [w for w in c['importWarnings'] if kind(w) not in known]
    assert c['ok'] and not new and c['cpuSlices'] > 0, (c['file'], new)
    print('%s: the classic viewer: %d slices, no new warning' % (c['file'], c['slices']))
PY
echo ok
