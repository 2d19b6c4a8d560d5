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
head -c 4096 /dev/urandom | tr -d '\037' >noise.bin; printf '\0\0' >>noise.bin
bad noise.bin "unknown format"
printf 'TRACE:\n\170\234\377\377\377\377garbage' >corrupt.txt; bad corrupt.txt "corrupt"
printf 'TRACE:\n' >marker.txt; bad marker.txt "no trace data"
printf '<!DOCTYPE html><html><body>no trace</body></html>\n' >page.html
bad page.html "without trace data"
printf 'x' | gzip -c | head -c 12 >cut.gz; bad cut.gz "unknown format"
mkdir adir; bad adir "directory"
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
assert_contains err.txt "invalid integer value: 'abc'"
run_st 2 --link-assets
assert_contains err.txt "deprecated"
echo ok
