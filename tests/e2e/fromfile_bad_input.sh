# Every bad input: one line "systrace: FILE: problem", non-zero exit, no
# output file and no temporary file left behind; never a crash or hang.
. "$TOP/tests/lib.sh"

bad() {   # file expected-text
    "$SYSTRACE" --from-file "$1" -o out.html >out.txt 2>err.txt </dev/null
    rc=$?
    [ $rc -eq 1 ] || { cat err.txt; fail "$1: exit $rc, expected 1"; }
    [ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; fail "$1: not one line"; }
    grep -q "^systrace: $1: " err.txt || { cat err.txt; fail "$1: not named"; }
    grep -qi -- "$2" err.txt || { cat err.txt; fail "$1: expected '$2'"; }
    [ ! -e out.html ] || fail "$1: output left behind"
    ls | grep -q '\.tmp\.' && fail "$1: temporary file left behind"
    return 0
}

bad missing.trace "no such file"
: >empty.txt; bad empty.txt "empty"
printf '\n\n\r\n' >blank.txt; bad blank.txt "empty"
printf 'hello world\nthis is not a trace\n' >prose.txt; bad prose.txt "unknown format"
# (a byte no format starts with first: random noise starting with '<' or
# '{' is a broken page or JSON, and a different message)
{ printf '\377'; head -c 4096 /dev/urandom | tr -d '\037'; printf '\0\0'; } >noise.bin
bad noise.bin "unknown format"
# the forms read are listed, Perfetto traces among them
grep -q 'JSON, a Perfetto trace or a method trace' err.txt || fail "forms: $(cat err.txt)"
printf 'TRACE:\n\170\234\377\377\377\377garbage' >corrupt.txt; bad corrupt.txt "corrupt"
printf 'TRACE:\n' >marker.txt; bad marker.txt "no trace data"
printf '<!DOCTYPE html><html><body>no trace</body></html>\n' >page.html
bad page.html "without trace data"
printf 'x' | gzip -c | head -c 12 >cut.gz; bad cut.gz "unknown format"
# junk after a whole gzip member: the offset counts the member before it
printf 'TRACE:\n# tracer: nop\n' | gzip -c >member.gz
{ cat member.gz; printf '\037\213\010\377junkjunkjunk'; } >junk.gz
bad junk.gz "at byte $(($(wc -c <member.gz) + 4))\$"
mkdir adir; bad adir "directory"

# inputs that hold no trace event would be blank pages: refused
printf '# tracer: nop\n#\n#  TASK-PID  CPU#  TIMESTAMP  FUNCTION\n' >header.txt
bad header.txt "no trace events found: the trace text holds only its header"
printf 'TRACE:\nerror: tracing is busy\n' >busy.txt
bad busy.txt 'no trace events found: no line of the trace text is an ftrace event (the first that is not a comment: "error: tracing is busy")'
gzip -c header.txt >header.gz; bad header.gz "no trace events found"
python3 -c "import zlib,sys; sys.stdout.buffer.write(b'TRACE:\n' + zlib.compress(open('header.txt','rb').read()))" >header.z
bad header.z "no trace events found"
for j in '{}' '[]' '{"traceEvents":[]}' '{"traceEvents":[],"metadata":{"a":[1]}}'; do
    printf '%s' "$j" >empty.json; bad empty.json "no trace events found: the JSON has no traceEvents"
done
printf '{"systemTraceEvents": "# tracer: nop\\n", "controllerTraceDataKey": "x"}' >hdr.json
bad hdr.json "no trace events found: the trace text holds only its header"
printf '{"systemTraceEvents": ""}' >nothing.json; bad nothing.json "the trace text is empty"
{
    printf '<!DOCTYPE html>\n<html>\n<!-- BEGIN TRACE -->\n'
    printf '  <script class="trace-data" type="application/text">\nPROCESS DUMP\nUSER PID\n  </script>\n'
    printf '  <script class="trace-data" type="application/text">\n'; cat header.txt
    printf '  </script>\n<!-- END TRACE -->\n</html>\n'
} >noevents.html
bad noevents.html "no trace events found: the trace text holds only its header"
python3 "$TOP/tests/tools/mktrace.py" nocalls.trace <<'S'
thread 1 main
method 0x10 com/ex/A run ()V A.java
S
bad nocalls.trace "no trace events found: the method trace holds no method calls"

# invalid JSON: where and what
printf '{"traceEvents":[{"ph":"X"} {"ph":"B"}]}' >bad.json
bad bad.json "invalid JSON at byte 27: expected ',' or ']'"
printf '{ garbage' >garbage.json; bad garbage.json "invalid JSON at byte 2"

# a line no trace can have (64 MB) before any trace event: refused there,
# not read to its end (a longer line after an event is cut: long_line); the
# 2 MB zlib stream of one repeated byte inflates to 2 GB without a line end
python3 - <<'PY'
import zlib
# 2 GB of 'a', compressed without compressing 2 GB: after a full flush the
# deflate state is the same for every further MB, so its bytes repeat
c = zlib.compressobj(9)
mb = b'a' * (1 << 20)
first = c.compress(mb) + c.flush(zlib.Z_FULL_FLUSH)
again = c.compress(mb) + c.flush(zlib.Z_FULL_FLUSH)
n = 2048 << 20
adler = ((n + 97 * (n * (n + 1) // 2)) % 65521) << 16 | (1 + n * 97) % 65521
z = first + again * 2047 + b'\x03\x00' + adler.to_bytes(4, 'big')  # final empty block
open('onebyte.z', 'wb').write(z)
open('onebyte.atrace', 'wb').write(b'TRACE:\n' + z)
def gz(head, fill, tail):   # head, 70 MB of one byte, tail; a MB at a time
    c = zlib.compressobj(1, zlib.DEFLATED, 31)   # 9 spends seconds on runs
    mb = fill * (1 << 20)
    return (c.compress(head) + b''.join(c.compress(mb) for _ in range(70)) +
            c.compress(tail) + c.flush())
open('onebyte.gz', 'wb').write(gz(b'# tracer: nop\n', b'x', b''))
open('line.json', 'wb').write(gz(b'{"systemTraceEvents": "# tracer: nop\\n', b'x', b'"}'))
open('blanks.json', 'wb').write(gz(b'[', b' ', b']'))
open('string.json', 'wb').write(gz(b'{"traceEvents":[{"name":"', b'n', b'"}]}'))
PY
[ "$(wc -c <onebyte.z)" -lt 2200000 ] || fail "test input too big"
bad onebyte.z "a line of more than 64 MB in the trace text (from byte 141 of it) before any trace event: the input is corrupt or not a trace"
bad onebyte.atrace "a line of more than 64 MB"
# (offsets count the trace text as written: with the column header Perfetto needs)
bad onebyte.gz "a line of more than 64 MB in the trace text (from byte 125 of it) before any trace event"
bad line.json "a line of more than 64 MB in the trace text (from byte 125 of it) before any trace event"
bad blanks.json "more than 64 MB of blanks at byte 1:"
bad string.json "a JSON string longer than 64 MB at byte 24"
touch unreadable; chmod 000 unreadable
if [ "$(id -u)" != 0 ]; then bad unreadable "permission"; fi

# unwritable output: error names the output, nothing created
"$SYSTRACE" --from-file "$TOP/tests/data/sample.txt" -o /nonexistent/dir/x.html \
    >out.txt 2>err.txt
[ $? -eq 1 ] || fail "unwritable output: exit"
grep -q "^systrace: /nonexistent/dir/x.html: cannot write" err.txt || fail "unwritable msg"

# usage errors exit 2 with catapult's wording
run_st 2 -t -3 --from-file x
assert_contains err.txt "the trace time must be a non-negative number"
run_st 2 -b 0 --from-file x
assert_contains err.txt "the trace buffer size must be a positive number"
run_st 2 -t abc
assert_contains err.txt "option -t: 'abc' is not a duration: seconds, or a number with a unit"
run_st 2 --link-assets
assert_contains err.txt "deprecated"
echo ok
