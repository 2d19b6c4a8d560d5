# --rows (issue 34 part 2), as a warehouse loader sees it: a batch of
# generated captures (files and a directory, as pages and as text) plus
# two corrupt files gives one row per metric per trace, compare's metric
# names, the process or slice as dimension, two error rows and a line on
# stderr for each, exit 100 + 2; the same file with -J 1 and -J 2; CSV
# with a header holding the same rows as the JSON Lines; the medians of
# the rows equal compare's over the same traces; bad command lines are
# one line each; two processes of one name give one row, compare's.
. "$TOP/tests/lib.sh"
gen="$TOP/tests/tools/genruns.py"
mkdir -p runs more
for i in 1 2 3 4 5 6; do
    python3 "$gen" runs/run$i.txt $i
done
for i in 7 8; do
    python3 "$gen" more/run$i.txt $i --slow inflate=1.3
    run_st 0 -q --from-file more/run$i.txt -o more/page$i.html
    rm more/run$i.txt
done
printf 'not a trace at all\n' >runs/zz-garbage.txt
head -c 300 more/page7.html >runs/zz-cut.html

# -J 1 and -J 2: byte-identical rows, two error rows, exit 102
run_st 102 --rows=j1.jsonl -J 1 --from-file runs more
run_st 102 --rows=j2.jsonl -J 2 --from-file runs more
cmp j1.jsonl j2.jsonl || fail "-J 1 and -J 2 wrote different rows"
assert_contains err.txt "systrace: runs/zz-garbage.txt: unknown format"
assert_contains err.txt "systrace: runs/zz-cut.html:"
assert_contains err.txt "systrace: --rows: 2 of 10 traces could not be read (error rows in j2.jsonl)"
[ "$(grep -c '^systrace: runs/zz-' err.txt)" = 2 ] || { cat err.txt; fail "error lines"; }
# the workers write no temporary output: a TMPDIR that does not exist
# changes nothing (it failed every trace when each conversion wrote one)
TMPDIR="$PWD/no-such-tmp" run_st 102 --rows=j3.jsonl -J 2 --from-file runs more
cmp j1.jsonl j3.jsonl || fail "rows depend on TMPDIR"

python3 - j1.jsonl <<'PY' || fail "JSON Lines rows"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cols = ["trace", "serial", "model", "android_version", "fingerprint", "capture_time",
        "metric", "dimension", "value", "error"]
assert all(list(r) == cols for r in rows), "columns"
bad = [r for r in rows if r["error"]]
assert sorted(r["trace"] for r in bad) == ["runs/zz-cut.html", "runs/zz-garbage.txt"], bad
assert all(r["metric"] is None and r["value"] is None for r in bad), bad
good = [r for r in rows if not r["error"]]
traces = sorted({r["trace"] for r in good})
assert traces == ["more/page7.html", "more/page8.html"] + ["runs/run%d.txt" % i for i in range(1, 7)], traces
byname = {(r["trace"], r["metric"]): r for r in good}
r = byname[("runs/run1.txt", "frames.com.example.app.dur_p90")]
assert r["dimension"] == "com.example.app" and r["value"] > 0, r
r = byname[("runs/run1.txt", "slices.inflate.mean_ms")]
assert r["dimension"] == "inflate", r
assert byname[("runs/run1.txt", "cpu_busy_pct")]["dimension"] is None
assert byname[("more/page7.html", "cpu.com.example.app")]["dimension"] == "com.example.app"
# every trace has the same metrics, once each
per = {}
for r in good:
    per.setdefault(r["trace"], []).append(r["metric"])
assert all(len(v) == len(set(v)) for v in per.values())
assert len({tuple(sorted(v)) for v in per.values()}) == 1, "metrics differ between traces"
PY

# two processes of one name: one row, the busier one's, as compare takes
# it (before, two rows of cpu.adbd: a query's median was not compare's)
mkdir same
cat >same/two.txt <<'T'
# tracer: nop
#
            adbd-100   (  100) [000] d..3   100.000000: sched_switch: prev_comm=adbd prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=adbd next_pid=200 next_prio=120
            adbd-200   (  200) [000] d..3   100.030000: sched_switch: prev_comm=adbd prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=adbd next_pid=100 next_prio=120
            adbd-100   (  100) [000] d..3   100.040000: sched_switch: prev_comm=adbd prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
          <idle>-0     (    0) [000] d..3   100.100000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=adbd next_pid=100 next_prio=120
T
run_st 0 --rows=same.jsonl --from-file same
assert_eq "rows of cpu.adbd" 1 "$(grep -c '"metric":"cpu.adbd"' same.jsonl)"
grep -q '"metric":"cpu.adbd","dimension":"adbd","value":30,' same.jsonl ||
    fail "cpu.adbd: not the busier process's: $(grep cpu.adbd same.jsonl)"
run_st 0 compare --format=json same -- same
assert_contains out.txt '"name": "cpu.adbd", "a_median": 30,'

# CSV: a header, RFC 4180, the same rows (a name with a comma, quotes and
# a blank, quoted; a name with a newline too)
mkdir odd
cp runs/run1.txt 'odd/we,ird "name" .txt'
cp runs/run2.txt "odd/two
lines.txt"
run_st 0 --rows=odd.csv --from-file odd
run_st 0 --rows=odd.jsonl --from-file odd
python3 - odd.csv odd.jsonl <<'PY' || fail "odd names"
import csv, json, sys
c = list(csv.DictReader(open(sys.argv[1], newline="")))
j = [json.loads(l) for l in open(sys.argv[2])]
assert [r["trace"] for r in c] == [r["trace"] for r in j], "traces differ"
assert {r["trace"] for r in j} == {'odd/we,ird "name" .txt', "odd/two\nlines.txt"}, {r["trace"] for r in j}
PY
run_st 0 compare --format=json odd.csv -- odd.jsonl
assert_contains out.txt '"a_runs": 2'
run_st 102 --rows=rows.csv -J 2 --from-file runs more
head -1 rows.csv | grep -qx "$(printf 'trace,serial,model,android_version,fingerprint,capture_time,metric,dimension,value,error\r')" ||
    fail "CSV header"
python3 - rows.csv j1.jsonl <<'PY' || fail "CSV rows"
import csv, json, sys
c = list(csv.DictReader(open(sys.argv[1], newline="")))
j = [json.loads(l) for l in open(sys.argv[2])]
assert len(c) == len(j), (len(c), len(j))
for a, b in zip(c, j):
    for k, v in b.items():
        want = "" if v is None else str(v)
        if k == "value" and v is not None:
            assert float(a[k]) == v, (a, b)
        else:
            assert a[k] == want, (k, a[k], want)
PY

# the rows' medians are compare's: a side of the six text runs
run_st 0 --rows=a.jsonl --from-file runs/run1.txt runs/run2.txt runs/run3.txt
run_st 0 compare --format=json runs/run1.txt runs/run2.txt runs/run3.txt -- more
python3 - a.jsonl out.txt <<'PY' || fail "medians"
import json, statistics, sys
vals = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    vals.setdefault(r["metric"], []).append(r["value"])
cmp = json.load(open(sys.argv[2]))
assert cmp["metrics"], "compare found no metrics"
for m in cmp["metrics"]:
    assert abs(statistics.median(vals[m["name"]]) - m["a_median"]) < 1e-9, m
PY

# compare reads rows: each trace of a rows file one run, error rows left
# out; the same report as from the traces themselves
run_st 0 --rows=b.csv --from-file more
run_st 0 compare --format=json runs/run1.txt runs/run2.txt runs/run3.txt -- more/page7.html more/page8.html
cp out.txt from-traces.json
run_st 0 compare --format=json a.jsonl -- b.csv
cmp out.txt from-traces.json || { diff out.txt from-traces.json | head; fail "compare of rows"; }
run_st 0 compare --format=json j1.jsonl -- b.csv
assert_contains out.txt '"a_runs": 8'
printf '{"trace":"x","metric":"m","value":1}\nnot json\n' >broken.jsonl
run_st 4 compare broken.jsonl -- b.csv
assert_contains err.txt "systrace: compare: broken.jsonl: line 2: not a row of --rows"

# bad command lines
run_st 2 --rows=x.txt --from-file runs
assert_contains err.txt "--rows x.txt: name a .jsonl (or .ndjson, .json) or .csv file"
run_st 2 --rows=x.jsonl --from-file runs -o x.html
assert_contains err.txt "-o, -j, --summary and --trace-events are for one trace"
run_st 2 -J 2 --from-file runs/run1.txt
assert_contains err.txt "-J goes with --rows"
run_st 2 -J 2 --rows=x.jsonl -t 1
assert_contains err.txt "-J goes with --rows --from-file"
run_st 2 --rows=x.jsonl -J 0 --from-file runs
run_st 101 --rows=x.jsonl --from-file missing.txt
assert_contains err.txt "systrace: missing.txt: no such file"
grep -q '"error":"missing.txt: no such file"' x.jsonl || fail "a missing file's row"
rm x.jsonl
mkdir empty
run_st 1 --rows=x.jsonl --from-file empty
assert_contains err.txt "--rows: no trace files in empty"
[ ! -e x.jsonl ] || fail "a rows file without a trace"
