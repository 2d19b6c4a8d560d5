# Method traces (--from-file X.trace pages, --method-json JSON) as
# Perfetto's trace processor imports them and as the classic viewer shows
# them: the same slices, threads and names in both viewers, for the page
# and the JSON; Perfetto finds in the page every slice of the JSON, nested
# as deep; names come through exactly, but for what the line format
# cannot carry ('|' -> U+00A6, control characters -> U+FFFD); the process
# is named.  A generated trace with awkward names, and corpus traces of
# every kind (ART streaming, Dalvik, thread-CPU only, sampling).
. "$TOP/tests/lib.sh"
. "$TOP/tests/perfetto/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
need_perfetto

printf 'thread 1 main\nthread 7 Binder_Thread_1\nthread 9 pool-1-thread-1\n' >names.s
cat >>names.s <<'S'
method 0x100 com/ex/A <init> ()V A.java 1
method 0x104 com/ex/A a|b ()V A.java 2
method 0x108 com/ex/Ünï ćødé (I)I U.java 3
method 0x10c com/ex/B$1 lambda$run$0 ()V B.java 4
S
printf 'method 0x110 com/ex/C ctl\001x ()V C.java 5\n' >>names.s
cat >>names.s <<'S'
ent 1 0x100 0 0
ent 1 0x104 5 10
ent 1 0x108 6 12
xit 1 0x108 7 14
xit 1 0x104 8 20
ent 7 0x10c 1 11
ent 7 0x110 2 13
xit 7 0x110 3 18
ent 9 0x108 1 15
xit 9 0x108 2 16
xit 7 0x10c 4 30
xit 1 0x100 9 40
S
mk names.trace --vm art --pid 4242 <names.s
run_st 0 --from-file names.trace -o names.html -q
run_st 0 --method-json names.json names.trace
same_in_both names.html names.json
all_named
python3 - names.json tp-1.json tp-2.json classic-1.json <<'PY' || fail "names"
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
want = {e['name'].replace('|', '\u00a6').replace('\x01', '\ufffd')
        for e in ev if e['ph'] == 'B'}
assert 'A.a\u00a6b' in want and 'Ünï.ćødé' in want and 'A.<init>' in want, want
page, js, classic = (json.load(open(f)) for f in sys.argv[2:])
threads = {'main', 'Binder Thread 1', 'pool-1-thread-1'}
assert set(page['threadNames']) == threads, page['threadNames']
assert set(js['threadNames']) == threads, js['threadNames']
assert set(classic['threadNames']) <= threads | {'UI thread'}, classic['threadNames']
assert page['processNames'] == ['art-method-trace'], page['processNames']
assert classic['processNames'] == ['art-method-trace'], classic['processNames']
assert set(classic['sliceNames']) == want, (classic['sliceNames'], want)
PY
tp_rows names.html "select distinct hex(name) from slice" >page_names.txt
python3 - names.json page_names.txt <<'PY' || fail "slice names in Perfetto"
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
want = {e['name'].replace('|', '\u00a6').replace('\x01', '\ufffd')
        for e in ev if e['ph'] == 'B'}
got = {bytes.fromhex(h).decode() for h in open(sys.argv[2]).read().split()}
assert got == want, (got, want)
PY
depth="select max(depth) from slice"
assert_eq "nesting, page vs JSON" "$(tp_rows names.json "$depth")" "$(tp_rows names.html "$depth")"

# corpus traces: page and JSON agree in both viewers and with each other
if [ -d "$MCORPUS" ]; then
    files=""
    for f in studio-perflib-2022/streaming dalvik-apps/BurrOakApp-dmtrace \
             derived/BurrOakApp.v2-thread-cpu tracereader-2017/test2; do
        [ -f "$MCORPUS/$f.trace" ] || continue
        b=$(basename "$f")
        run_st 0 --from-file "$MCORPUS/$f.trace" -o "$b.html" -q
        run_st 0 --method-json "$b.json" "$MCORPUS/$f.trace"
        files="$files $b.html $b.json"
    done
    # shellcheck disable=SC2086
    [ -n "$files" ] || fail "no corpus trace found in $MCORPUS"
    same_in_both $files
    all_named
    n=0
    for f in $files; do
        n=$((n + 1))
        case $f in *.json) ;; *) continue ;; esac
        python3 - "tp-$((n - 1)).json" "tp-$n.json" <<'PY' || fail "$f: page vs JSON"
import json, sys
page, js = (json.load(open(f)) for f in sys.argv[1:])
for k in ('slices', 'sliceThreads', 'threadNames'):
    assert page[k] == js[k], (k, page[k], js[k])
assert page['slices'] > 1000, page['slices']
PY
        d_page=$(tp_rows "${f%.json}.html" "$depth")
        assert_eq "$f: nesting, page vs JSON" "$(tp_rows "$f" "$depth")" "$d_page"
    done
    # threads out of time order with each other (5.3 s at most): a range
    # holds exactly the whole's slices in it (before, threads 13 and 19
    # went missing from the first second), one pass and two alike
    f=$MCORPUS/chanjin-2014/SNS_Tracing_4_Logout.trace
    if [ -f "$f" ]; then
        run_st 0 --from-file "$f" -o sns.html -q
        first=$(tp_rows sns.html "select min(ts) from slice")
        run_st 0 --from-file "$f" --time-range=0..1 -o sns1.html -q
        python3 "$TOP/tests/tools/piececheck.py" sns.html sns1.html "$first" \
            $((first + 1000000000)) || fail "SNS_Tracing_4_Logout: --time-range=0..1"
        "$SYSTRACE" --from-file - --time-range=0..1 -o sns2.html -q <"$f" ||
            fail "SNS_Tracing_4_Logout from standard input"
        python3 "$TOP/tests/tools/piececheck.py" sns.html sns2.html "$first" \
            $((first + 1000000000)) || fail "SNS_Tracing_4_Logout: in two passes"
    fi
else
    echo "corpus $MCORPUS absent: generated trace only"
fi
echo ok
