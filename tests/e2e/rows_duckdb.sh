# --rows load into DuckDB as they are (issue 34 part 2): JSON Lines with
# read_json, CSV with read_csv and its header; the per-metric medians a
# query gives equal `systrace compare`'s over the same traces (an even
# number of runs, so both average the middle two), and the corrupt
# file is one error row.  Needs npm's @duckdb/node-api in tests/duckdb
# (scripts/install-deps --test).
. "$TOP/tests/lib.sh"
dd="$TOP/tests/duckdb"
[ -d "$dd/node_modules/@duckdb/node-api" ] || skip "tests/duckdb/node_modules absent (scripts/install-deps --test)"
gen="$TOP/tests/tools/genruns.py"
mkdir -p runs b
for i in 1 2 3 4; do
    python3 "$gen" runs/run$i.txt $i
    python3 "$gen" b/run$i.txt $((i + 50))
done
printf 'garbage\n' >runs/zz-bad.txt
run_st 101 --rows=rows.jsonl -J 2 --from-file runs
run_st 101 --rows=rows.csv -J 2 --from-file runs
rm runs/zz-bad.txt
run_st 0 compare --format=json runs -- b
cp out.txt cmp.json
for f in rows.jsonl rows.csv; do
    node "$dd/medians.mjs" "$PWD/$f" >med.json 2>err.txt || { cat err.txt; fail "DuckDB cannot load $f"; }
    python3 - med.json cmp.json <<'PY' || fail "DuckDB medians of $f"
import json, sys
med = json.load(open(sys.argv[1]))
cmp = json.load(open(sys.argv[2]))
assert med.pop("__errors") == 1, "error rows"
assert cmp["metrics"]
for m in cmp["metrics"]:
    assert abs(med[m["name"]] - m["a_median"]) < 1e-9, (m["name"], med[m["name"]], m["a_median"])
PY
done
