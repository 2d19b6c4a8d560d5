# Every corpus method trace converts with --from-file into the classic page
# and imports in headless Chromium: one process, every thread and every
# method call we emit (counted from --method-json) present as slices, no
# import warnings.  The two broken corpus files fail with an offset.
. "$TOP/tests/lib.sh"
need_corpus methodtrace
need_browser
args=""
for f in "$CORPUS"/methodtrace/*/*.trace; do
    b=$(basename "$f" .trace)
    case "$b" in
    header|basic-special_char)
        run_st 1 --from-file "$f" -o "$b.html"
        assert_contains err.txt "at offset"
        continue ;;
    esac
    run_st 0 --from-file "$f" -o "$b.html" -q
    run_st 0 --method-json "$b.json" "$f"
    set -- $(python3 - "$b.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
b = [e for e in ev if e.get('ph') == 'B']
print(len(b), len({(e['pid'], e['tid']) for e in b}))
PY
)
    args="$args $b.html --expect ok=true processes=1 importWarningCount=0 slices=$1 threads=$2"
done
# shellcheck disable=SC2086
browser_check $args
echo ok
