# Options that do nothing in the mode chosen are not ignored in silence:
# one warning line each (--app-profile with --target=linux; categories,
# -e and --stream with --from-file), and the run goes on.  Converting a
# file onto itself is refused before anything is written (the input would
# be replaced).  A trace buffer far beyond what a device has (-b 1g) is
# warned about.
. "$TOP/tests/lib.sh"
printf '# tracer: nop\n  app-1 ( 1) [000] ...1 1.000000: tracing_mark_write: B|1|x\n' >in.txt
one_warning() {   # TEXT
    [ "$(grep -c "warning: .*$1" err.txt)" = 1 ] || { cat err.txt; fail "no one warning about $1"; }
}

run_st 0 --from-file in.txt -o a.html sched gfx
one_warning "categories"
assert_contains err.txt "--from-file"
run_st 0 --from-file in.txt -o b.html -e SERIAL1
one_warning "-e"
run_st 0 --from-file in.txt -o c.html --stream
one_warning "--stream"
run_st 0 --from-file in.txt -o d.html
assert_not_contains err.txt "warning"

# the input as its own output: refused, the input intact
cp in.txt keep.txt
run_st 2 --from-file in.txt -o in.txt
assert_contains err.txt "in.txt"
assert_contains err.txt "input"
cmp -s in.txt keep.txt || fail "the input was replaced"
ln -s in.txt link.txt
run_st 2 --from-file in.txt -o "$T/link.txt"
cmp -s in.txt keep.txt || fail "the input was replaced through a link"

# --app-profile does nothing on the host's kernel (whatever else happens:
# an empty folder as tracefs, so that this case neither traces the host
# beside the linux_* cases nor gives the kernel a 1 GB buffer to fill)
export SYSTRACE_FTRACE_DIR="$T/no-tracefs"
mkdir "$SYSTRACE_FTRACE_DIR"
"$SYSTRACE" --target=linux --app-profile com.example -t 1 -o l.html sched >out.txt 2>err.txt </dev/null
one_warning "--app-profile"

# -b 1g: 1 GB of kernel memory per CPU
"$SYSTRACE" -b 1g --target=linux -t 1 -o big.html sched >out.txt 2>err.txt </dev/null
one_warning "-b"
assert_contains err.txt "per CPU"
echo ok
