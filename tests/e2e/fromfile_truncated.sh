# A truncated compressed trace keeps what decoded: the output is written
# (complete HTML), the error says what happened, exit status 3.
. "$TOP/tests/lib.sh"
python3 - <<'PY'
import zlib
lines = ['# tracer: nop\n'] + ['  task-%d [000] %d.000000: print: line %d\n' % (i, i, i * 7919)
                               for i in range(30000)]
z = zlib.compress(''.join(lines).encode())
open('cut.txt', 'wb').write(b'TRACE:\n' + z[:len(z) // 2])
PY
"$SYSTRACE" --from-file cut.txt -o out.html >out.txt 2>err.txt
rc=$?
[ $rc -eq 3 ] || { cat err.txt; fail "exit $rc, expected 3"; }
grep -q "^systrace: cut.txt: compressed trace is truncated" err.txt || fail "message"
"$BUILD/tools/htmlblocks" out.html check >/dev/null || fail "layout"
n=$(trace_block out.html 1 | grep -c 'print: line')
[ "$n" -gt 1000 ] && [ "$n" -lt 30000 ] || fail "kept $n lines"
# every kept line is complete except possibly the last
trace_block out.html 1 | head -n -1 | grep -v '^#' | grep -vc 'print: line [0-9]*$' |
    grep -q '^0$' || fail "garbled lines"
echo ok
