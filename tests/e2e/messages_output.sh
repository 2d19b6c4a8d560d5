# Messages about the output name what the user gave and what to do:
# `-o -` keeps standard output for the page alone (no "file://-" after
# it), `-o ""` is a usage error naming -o, and a directory where files
# cannot be created (/proc) is not called missing.
. "$TOP/tests/lib.sh"
printf '# tracer: nop\n  app-1 ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|x\n' >in.txt

run_st 0 --from-file in.txt -o -
head -c 15 out.txt | grep -q '^<!DOCTYPE html>$' || fail "-o -: the page does not start standard output"
tail -n 1 out.txt | grep -qx '</html>' || { tail -n 3 out.txt; fail "-o -: something follows the page"; }
assert_not_contains out.txt "file://-"
assert_not_contains err.txt "file://-"

run_st 2 --from-file in.txt -o ""
assert_contains err.txt "-o"
assert_contains err.txt "empty"
assert_not_contains err.txt "systrace: : "

if [ -d /proc/self ] && ! touch /proc/x.html 2>/dev/null; then
    run_st 1 --from-file in.txt -o /proc/x.html
    assert_not_contains err.txt "does not exist"
    assert_contains err.txt "/proc"
fi
echo ok
