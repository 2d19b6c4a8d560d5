# Exits that do not match the stack top (dmtracedump aborts on them): the
# frames above the match are closed at the same time, and an exit found
# nowhere on the stack closes everything and counts as an exit without
# entry.  The profile equals dmtracedump's of the explicitly repaired file.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
head='thread 1 main
method 0x100 m/M a ()V M.java 1
method 0x104 m/M b ()V M.java 2
method 0x108 m/M c ()V M.java 3
method 0x10c m/M d ()V M.java 4
method 0x110 m/M e ()V M.java 5
method 0x114 m/M f ()V M.java 6
method 0x118 m/M g ()V M.java 7'
printf '%s\n%s\n' "$head" '
ent 1 0x100 1 1
ent 1 0x104 2 2
ent 1 0x108 3 3
xit 1 0x100 5 5
ent 1 0x10c 6 6
xit 1 0x10c 7 7
xit 1 0x110 8 8
ent 1 0x114 9 9
xit 1 0x118 10 10' | mk bad.trace
printf '%s\n%s\n' "$head" '
ent 1 0x100 1 1
ent 1 0x104 2 2
ent 1 0x108 3 3
xit 1 0x108 5 5
xit 1 0x104 5 5
xit 1 0x100 5 5
ent 1 0x10c 6 6
xit 1 0x10c 7 7
xit 1 0x110 8 8
ent 1 0x114 9 9
xit 1 0x114 10 10
xit 1 0x118 10 10' | mk fixed.trace
if command -v dmtracedump >/dev/null 2>&1; then
    dmtracedump bad.trace >/dev/null 2>&1 && fail "dmtracedump accepted a mismatch"
    same_profile fixed.trace bad.trace
fi
run_st 0 --method-profile bad.trace
assert_contains err.txt "bad.trace: warning: 2 exit(s) did not match the call stack"
json_check bad.trace
assert_eq "implicit ends" 3 "$(jget implicit_end)"
assert_eq "synthetic begins (e, g)" 2 "$(jget synthetic_begin)"
