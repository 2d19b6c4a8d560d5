# systrace compare (issue 34 part 1), as a user and CI see it: summaries
# made by --from-file --summary of generated captures whose 'inflate'
# slices are 20% longer on side B put slices.inflate first in "what got
# slower"; two sets of the same app (A/A) flag nothing; --fail-on exits 1
# only when a significant change passes its threshold; the JSON and
# Markdown shapes; traces and directories as inputs (the same numbers as
# their summaries; a directory's summaries taken instead of the traces
# beside them); one run per side says it cannot judge noise; bad inputs
# are one line naming them.
. "$TOP/tests/lib.sh"
gen="$TOP/tests/tools/genruns.py"
mkdir -p ta tb ta2 a b a2 mixed pages
for i in 1 2 3 4 5 6 7 8 9 10; do
    python3 "$gen" ta/run$i.txt $i
    python3 "$gen" tb/run$i.txt $((i + 100)) --slow inflate=1.2
    python3 "$gen" ta2/run$i.txt $((i + 200))
    for s in a b a2; do
        run_st 0 -q --from-file t$s/run$i.txt -o pages/$s$i.html --summary $s/run$i.json
    done
done
cp ta/run1.txt pages/a1.html a/run1.json mixed/

# a slowdown: the slowed slice first, exit 0 without gates
run_st 0 compare a -- b
assert_contains out.txt "10 runs (A) against 10 runs (B)"
first=$(awk '/^What got slower/ {getline; print; exit}' out.txt)
case "$first" in
    "  1. slices.inflate."*) ;;
    *) cat out.txt; fail "first slower: '$first'" ;;
esac
grep -q '^slices\.inflate\.mean_ms .* +2[0-9]\.[0-9]%  \[+' out.txt ||
    { cat out.txt; fail "inflate's row"; }
# measure and bindApplication did not change
! grep -q '^  [0-9]*\. slices\.\(measure\|bindApplication\)\.' out.txt ||
    { cat out.txt; fail "an unchanged slice flagged"; }

# A/A: nothing
run_st 0 compare a -- a2
assert_contains out.txt "What got slower: nothing significant"

# gates: tripped by a significant change past the threshold only
run_st 1 compare --fail-on='slices.inflate.mean_ms>+10%' a -- b
assert_contains out.txt "FAILED --fail-on=slices.inflate.mean_ms>+10%: 1 metric"
run_st 0 compare --fail-on='slices.inflate.*>+50%' --fail-on 'frames.*.dur_p90>+20%' a -- b
assert_contains out.txt "passed --fail-on=slices.inflate.*>+50%"
assert_contains out.txt "passed --fail-on=frames.*.dur_p90>+20%"
run_st 0 compare --fail-on='*>+1%' a -- a2
run_st 1 compare --fail-on='slices.*<-5%' b -- a
run_st 0 compare --fail-on='startup.dur_ms>+5%' a -- b
assert_contains out.txt "--fail-on=startup.dur_ms>+5%: no metric matches"
run_st 2 compare --fail-on='inflate+5%' a -- b
assert_contains err.txt "--fail-on=inflate+5%: expected METRIC>+N% or METRIC<-N%"
run_st 2 compare --fail-on='x>5' a -- b
assert_contains err.txt "the threshold must be a percentage"

# JSON: the documented keys
run_st 1 compare --format=json --fail-on='slices.inflate.mean_ms>+10%' a -- b
python3 - out.txt <<'PY' || fail "JSON shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert d['a_runs'] == 10 and d['b_runs'] == 10 and d['noise_judged'] is True, d
keys = {'name', 'a_median', 'b_median', 'change_pct', 'ci_low_pct', 'ci_high_pct',
        'p_value', 'significant', 'a_runs', 'b_runs', 'effect_size', 'higher_is_worse'}
m = {x['name']: x for x in d['metrics']}
assert all(set(x) == keys for x in d['metrics']), d['metrics'][0]
i = m['slices.inflate.mean_ms']
assert i['significant'] and 15 < i['change_pct'] < 30 and i['ci_low_pct'] > 0, i
assert i['p_value'] < 0.001 and i['effect_size'] == 1, i
assert not m['slices.measure.mean_ms']['significant'], m['slices.measure.mean_ms']
assert 'frames.com.example.app.dur_p90' in m and 'cpu.com.example.app' in m, sorted(m)
assert d['slower'][0].startswith('slices.inflate.'), d['slower']
assert d['fail_on'] == [{'expr': 'slices.inflate.mean_ms>+10%', 'matched': 1, 'tripped': 1}]
assert d['failed'] is True
PY
cp out.txt summaries.json

# Markdown: a heading, the ranked list, a table
run_st 0 compare --format=markdown a -- b
assert_contains out.txt "### systrace compare"
assert_contains out.txt "| metric | A median | B median | change | 95% CI | p |"
grep -q '^1\. `slices\.inflate\.[a-z_]*` \*\*+2[0-9]\.[0-9]%\*\*' out.txt ||
    { cat out.txt; fail "Markdown's first slower"; }

# traces (a directory of them, and files) give their summaries' numbers
run_st 0 compare --format=json ta -- tb/run*.txt
python3 - summaries.json out.txt <<'PY' || fail "traces differ from their summaries"
import json, sys
a = {m['name']: m for m in json.load(open(sys.argv[1]))['metrics']}
b = {m['name']: m for m in json.load(open(sys.argv[2]))['metrics']}
assert a.keys() == b.keys(), (a.keys() ^ b.keys())
for k in a:
    for f in ('a_median', 'b_median', 'p_value', 'significant'):
        assert a[k][f] == b[k][f], (k, f, a[k][f], b[k][f])
PY
# a directory with a summary beside its trace: the summary alone
run_st 0 compare mixed -- b
assert_contains out.txt "1 run (A) against 10 runs (B)"
# one run per side
run_st 0 compare a/run1.json -- b/run1.json
assert_contains out.txt "1 run (A) against 1 run (B)"
assert_contains out.txt "One run on a side: the change cannot be told from run-to-run noise"
assert_contains out.txt "What got slower: nothing significant"

# bad inputs: one line naming the input, exit 4 (CI tells a broken job from
# a tripped gate, exit 1), even with a gate; bad command lines exit 2
run_st 4 compare --fail-on='slices.*>+1%' a -- nosuch.json
assert_eq "stderr" "systrace: compare: nosuch.json: No such file or directory" "$(cat err.txt)"
[ ! -s out.txt ] || fail "a report despite a missing input"
head -c 300 a/run1.json >cut.json
run_st 4 compare a -- cut.json
grep -qx "systrace: compare: cut.json: not a summary's JSON: .* at byte [0-9]*" err.txt ||
    { cat err.txt; fail "truncated summary"; }
printf 'garbage\n\001\002' >junk.txt
run_st 4 compare a -- junk.txt
assert_eq "lines" 1 "$(wc -l <err.txt)"
assert_contains err.txt "systrace: compare: junk.txt: "
mkdir empty
run_st 4 compare a -- empty
assert_contains err.txt "systrace: compare: empty: no files in the directory"
run_st 2 compare a b
assert_contains err.txt "'--' must separate the runs before (A) from those after (B)"
run_st 2 compare a --
assert_contains err.txt "each side needs at least one run"
run_st 2 compare --format=xml a -- b
run_st 0 compare --help
assert_contains out.txt "Usage: systrace compare [options] A... -- B..."
# conversions leave nothing behind
[ -z "$(ls -A "$TMPDIR")" ] || { ls -la "$TMPDIR"; fail "left in TMPDIR"; }

# a change that prints as 0.0% is not called significant, however small
# its p (a capture's CPU time differs in its last digit run to run)
mkdir tiny_a tiny_b
for i in 0 1 2 3 4 5 6 7 8 9; do
    printf '{"device": {}, "processes": [{"name": "system_server", "cpu_ms": 1055.47%d}]}\n' \
        $((i % 2)) >tiny_a/r$i.json
    printf '{"device": {}, "processes": [{"name": "system_server", "cpu_ms": 1055.47%d}]}\n' \
        $((i % 2 + 1)) >tiny_b/r$i.json
done
run_st 0 compare --fail-on='cpu.*>+0%' tiny_a -- tiny_b
grep -q '^cpu.system_server .* +0\.0% .* [0-9.e-]*$' out.txt || { cat out.txt; fail "tiny row"; }
assert_contains out.txt "What got slower: nothing significant"
assert_contains out.txt "passed --fail-on=cpu.*>+0%"
