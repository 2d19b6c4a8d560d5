# Helpers for tests/e2e/mtrace_*.sh (sourced after tests/lib.sh).
MT="$TOP/tests/tools"
MCORPUS="$CORPUS/methodtrace"

# mk OUT [mktrace options] < script
mk() { python3 "$MT/mktrace.py" "$@" || fail "mktrace $*"; }

need_dmtracedump() {
    command -v dmtracedump >/dev/null 2>&1 || skip "dmtracedump not installed"
}

# same_profile REF OURS [systrace options]: dmtracedump's profile of REF
# has the same numbers as ours of OURS, in text and in TSV.
same_profile() {
    ref=$1; ours=$2; shift 2
    dmtracedump "$ref" >dm.txt 2>dm.err || fail "dmtracedump $ref failed"
    run_st 0 --method-profile "$ours" "$@"
    cp out.txt our.txt
    run_st 0 --method-profile "$ours" --method-profile-format tsv "$@"
    cp out.txt our.tsv
    python3 "$MT/dmprofile.py" compare dm.txt our.txt our.tsv ||
        fail "profile of $ours (our.txt: text, our.tsv: TSV) differs from dmtracedump's of $ref"
}

# json_check TRACE: trace-event JSON of TRACE is valid and nested;
# the counts (see checkjson.py) end up in counts.json (and counts.tsv).
json_check() {
    run_st 0 --method-json out.json "$@"
    python3 "$MT/checkjson.py" out.json counts.tsv >counts.json ||
        fail "bad trace-event JSON for $*"
}

# jget KEY: a value of the last json_check's counts ("names.40000" for
# nested keys); fails when there is no such key
jget() {
    awk -F'\t' -v k="$1" '$1 == k { sub(/^[^\t]*\t/, ""); print; found = 1; exit }
                          END { exit !found }' counts.tsv || fail "no $1 in counts.tsv"
}

# tsv_field KIND INDEX COLUMN: a column (1-based) of a TSV row of our.tsv
# whose method name (class.method) is NAME: tsv_method NAME COLUMN
tsv_method() {
    awk -F'\t' -v n="$1" -v c="$2" \
        '$1 == "method" && ($10 "." $11) == n { print $c; exit }' our.tsv
}
