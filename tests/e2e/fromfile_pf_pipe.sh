# A Perfetto trace through a pipe (`cat T | systrace --from-file - ...`):
# spooled to a temporary file as it arrives, so the process dump goes
# before the ftrace text, the only place Perfetto reads one.  Perfetto's
# trace processor names the processes of the piped conversion as of the
# trace itself and of a conversion from the file (before: none, the dump
# went after the text); gzip through the pipe too; the page is the same
# bytes as from the file; bad input through a pipe still fails with one
# line; no temporary file is left behind.
. "$TOP/tests/lib.sh"
SHARED="$TOP/../shared"
PROTOS="$SHARED/reference/perfetto-protos"
TPS="$SHARED/tools/perfetto/trace_processor_shell"
command -v protoc >/dev/null || skip "protoc absent (apt-get install -y protobuf-compiler)"
[ -f "$PROTOS/perfetto_trace.proto" ] || skip "Perfetto's definitions absent ($PROTOS)"
[ -x "$TPS" ] || skip "Perfetto's trace processor absent ($TPS)"
"$TPS" --version >/dev/null 2>&1 || skip "trace processor does not run (apt-get install -y libprotobuf32)"

protoc --encode=perfetto.protos.Trace -I "$PROTOS" perfetto_trace.proto \
    <"$TOP/tests/data/perfetto/sched.textproto" >t.pftrace || fail "protoc"
echo "select name from process where name is not null order by 1;" >q.sql
names() { "$TPS" -q q.sql "$1" 2>/dev/null | tail -n +2 | tr -d '"' | paste -sd,; }
procs=$(names t.pftrace)
assert_eq "processes Perfetto names in the trace" \
    "/system/bin/init,/system/bin/surfaceflinger,com.example.app" "$procs"

run_st 0 --from-file t.pftrace -o file.html -q
cat t.pftrace | "$SYSTRACE" --from-file - -o pipe.html -q 2>err.txt || { cat err.txt; fail "from a pipe"; }
assert_eq "processes Perfetto names from the piped page" "$procs" "$(names pipe.html)"
cmp -s file.html pipe.html || fail "the page from a pipe differs from the page from the file"
gzip -c t.pftrace | "$SYSTRACE" --from-file - -o gz.html -q 2>err.txt || { cat err.txt; fail "gzip from a pipe"; }
assert_eq "processes named from a gzipped pipe" "$procs" "$(names gz.html)"
cat t.pftrace | "$SYSTRACE" --from-file - -o pipe.json -j -q 2>err.txt || { cat err.txt; fail "-j from a pipe"; }
grep -q 'com.example.app' pipe.json || fail "-j from a pipe lacks the process dump"

# a truncated trace: what was complete is kept (exit 3), as from a file
head -c $(( $(wc -c <t.pftrace) - 7 )) t.pftrace >cut.pftrace
run_st 3 --from-file cut.pftrace -o cutfile.html -q
cat cut.pftrace | "$SYSTRACE" --from-file - -o cutpipe.html -q 2>err.txt
assert_eq "exit of a truncated trace from a pipe" 3 "$?"
cmp -s cutfile.html cutpipe.html || fail "truncated: the page from a pipe differs"

# junk after a good start: one line, no output, as from a file
{ cat t.pftrace; head -c 4000 /dev/urandom; } >junk.pftrace
"$SYSTRACE" --from-file junk.pftrace -o jf.html -q 2>errf.txt; rcf=$?
cat junk.pftrace | "$SYSTRACE" --from-file - -o jp.html -q 2>errp.txt; rcp=$?
assert_eq "exit of junk from a pipe (as from the file)" "$rcf" "$rcp"
[ "$rcp" != 0 ] || fail "junk from a pipe accepted"
[ "$(wc -l <errp.txt)" -ge 1 ] || fail "junk from a pipe: no message"
[ -z "$(ls -A "$TMPDIR")" ] || { ls -la "$TMPDIR"; fail "temporary files left in $TMPDIR"; }
