# --from-file - reads standard input, in every form a file may have (plain,
# gzip, atrace -z, HTML, JSON, a method trace), and writes trace.html; an
# existing default-named output is never overwritten: the result goes to
# the first free NAME-N.html and stderr says so (dump.txt and dump.z both
# default to dump.html).  A name given with -o is used as it is.
. "$TOP/tests/lib.sh"
S="$TOP/tests/data/sample.txt"
mkdir tmp
export TMPDIR="$T/tmp"

run_st 0 --from-file "$S" -o ref.html -q

# plain text on stdin: trace.html, no note (nothing was in the way)
"$SYSTRACE" --from-file - <"$S" >out.txt 2>err.txt || fail "stdin: exit $?"
cmp -s trace.html ref.html || fail "stdin page differs from the file's"
assert_contains out.txt "Wrote trace HTML file: file://$T/trace.html"
[ ! -s err.txt ] || { cat err.txt; fail "stdin: unexpected stderr"; }

# the default name is taken now: trace-1.html, and a note; the first stays
gzip -c "$S" | "$SYSTRACE" --from-file - >out.txt 2>err.txt || fail "gzip stdin: exit $?"
cmp -s trace-1.html ref.html || fail "gzip stdin page differs"
assert_eq "note" "systrace: note: trace.html already exists and was left alone; the result went to trace-1.html (-o names the output)" "$(cat err.txt)"
assert_contains out.txt "file://$T/trace-1.html"
python3 -c "import zlib,sys; sys.stdout.buffer.write(b'TRACE:\n' + zlib.compress(open('$S','rb').read()))" >s.z
"$SYSTRACE" --from-file - -q <s.z 2>err.txt || fail "zlib stdin: exit $?"
cmp -s trace-2.html ref.html || fail "zlib stdin page differs"
[ ! -s err.txt ] || fail "-q still printed the note"
cmp -s trace.html ref.html || fail "trace.html was changed"

# -j: trace.json; HTML and JSON on stdin
"$SYSTRACE" --from-file - -j -q <ref.html || fail "HTML stdin to -j"
"$SYSTRACE" --from-file - -o fromjson.html -q <trace.json || fail "JSON stdin"
cmp -s fromjson.html ref.html || fail "stdin HTML -> JSON -> HTML differs"

# a method trace from a pipe (or standard input): copied aside, converted,
# nothing left in TMPDIR
python3 "$TOP/tests/tools/mktrace.py" m.trace <<'T'
thread 1 main
method 0x10 com/ex/A run ()V A.java
ent 1 0x10 100
xit 1 0x10 400
T
run_st 0 --from-file m.trace -o m.html -q
cat m.trace | "$SYSTRACE" --from-file - -o m-pipe.html -q || fail "method trace stdin"
cmp -s m.html m-pipe.html || fail "method trace from a pipe differs"
mkfifo fifo
cat m.trace >fifo &
"$SYSTRACE" --from-file fifo -o m-fifo.html -q || fail "method trace FIFO"
wait
cmp -s m.html m-fifo.html || fail "method trace from a FIFO differs"
# standard input redirected from the file (it has no path to read again;
# before: "stdin: cannot open: No such file or directory")
"$SYSTRACE" --from-file - -o m-redir.html -q <m.trace || fail "method trace <file"
cmp -s m.html m-redir.html || fail "method trace from <file differs"
[ -z "$(ls tmp)" ] || fail "left in TMPDIR: $(ls tmp)"

# dump.txt and dump.z both default to dump.html: the second gets dump-1.html
cp "$S" dump.txt; cp s.z dump.z
run_st 0 --from-file dump.txt -q
run_st 0 --from-file dump.z
assert_contains err.txt "dump.html already exists and was left alone; the result went to dump-1.html"
cmp -s dump.html ref.html && cmp -s dump-1.html ref.html || fail "dump pages"
# -o is obeyed as given, also over an existing file
echo old >given.html
run_st 0 --from-file dump.txt -o given.html -q
cmp -s given.html ref.html || fail "-o given.html was not written"
[ ! -s err.txt ] || fail "-o: unexpected note"

# errors name stdin; nothing is written
rm -f trace*.html
run_st 1 --from-file -
assert_eq "empty stdin" "systrace: stdin: it is empty" "$(cat err.txt)"
printf 'hello\n' | "$SYSTRACE" --from-file - 2>err.txt; rc=$?
assert_eq "prose exit" 1 "$rc"
grep -q '^systrace: stdin: unknown format' err.txt || fail "prose: $(cat err.txt)"
ls | grep -q -e '^trace.*\.html$' -e '\.tmp\.' && fail "output left behind: $(ls)"
if command -v script >/dev/null 2>&1; then
    script -qec "$SYSTRACE --from-file -" /dev/null </dev/null >tty.txt 2>&1
    grep -q 'systrace: stdin: standard input is a terminal' tty.txt || { cat tty.txt; fail "tty"; }
fi
echo ok
