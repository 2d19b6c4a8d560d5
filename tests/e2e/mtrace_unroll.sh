# Unrolls (action 2: frames popped by an exception) close frames like exits
# (same profile as dmtracedump) and are flagged on the timeline.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
mk unr.trace <<'S'
thread 1 main
method 0x100 a/E foo ()V E.java 1
method 0x104 a/E bar ()V E.java 2
method 0x108 a/E baz ()V E.java 3
ent 1 0x100 0 0
ent 1 0x104 1 1
ent 1 0x108 2 2
unr 1 0x108 5 6
unr 1 0x104 6 7
xit 1 0x100 9 9
S
if command -v dmtracedump >/dev/null 2>&1; then
    same_profile unr.trace unr.trace
fi
run_st 0 --method-profile unr.trace --method-profile-format tsv
cp out.txt our.tsv
assert_eq "bar inclusive" 5 "$(tsv_method a/E.bar 6)"
json_check unr.trace
assert_eq "exception ends" 2 "$(jget exception)"
assert_eq "synthetic" "0 0" "$(jget synthetic_begin) $(jget synthetic_end)"
