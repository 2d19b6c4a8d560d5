# -j writes catapult's JSON form with systemTraceEvents; a real JSON parser
# reads it back to the exact trace text (catapult's own -j crashes).
. "$TOP/tests/lib.sh"
need_corpus atrace/systrace_test_data
D=$CORPUS/atrace/systrace_test_data
cp "$D/compressed_atrace_data.txt" .   # the default output goes beside the input
run_st 0 --from-file compressed_atrace_data.txt -j -q
[ -f compressed_atrace_data.json ] || fail "default name not .json"
python3 - "$D/decompressed_atrace_data.txt" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open('compressed_atrace_data.json', encoding='utf-8'))
assert d['systemTraceEvents'] == open(sys.argv[1], encoding='utf-8').read()
assert 'controllerTraceDataKey' not in d
PY
# invalid UTF-8 and control bytes still give parseable JSON
printf '# tracer: nop\n  a-1 [000] 1.0: tracing_mark_write: B|1|bad\377\001"\\\n' >bad.txt
run_st 0 --from-file bad.txt -j -o bad.json -q
python3 -c "
import json; d = json.load(open('bad.json', encoding='utf-8'))
s = d['systemTraceEvents']; assert '\ufffd' in s and '\x01' in s and '\"\\\\' in s, s" ||
    fail "JSON escaping"
echo ok
