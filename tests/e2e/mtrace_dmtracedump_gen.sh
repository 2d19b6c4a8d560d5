# Differential on generated files: every format and clock layout, the wall
# column of dual-clock files, and random nested runs with recursion and
# unrolls give the same numbers as dmtracedump.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
need_dmtracedump
for fmt in v1 v2 v3; do
    mk $fmt.trace --format $fmt --random 20000 --seed 7
    same_profile $fmt.trace $fmt.trace
done
mk v3single.trace --format v3 --clock wall --random 5000
same_profile v3single.trace v3single.trace
mk v3wide.trace --format v3 --record-size 18 --record-offset 40 --random 5000
same_profile v3wide.trace v3wide.trace
# wall clock: a v2 file holding only the wall column is the reference
mk dual.trace --format v3 --random 20000 --seed 3
mk wall.trace --format v2 --clock wall --time-column 1 --random 20000 --seed 3
same_profile wall.trace dual.trace --method-clock wall
# streaming = classic with the same records
mk classic.trace --format v3 --vm art --random 20000 --seed 5
mk stream.trace --format stream --vm art --random 20000 --seed 5
same_profile classic.trace stream.trace
# a file with many threads and methods
mk big.trace --bench 3
same_profile big.trace big.trace
