# Thread ids up to 65535 (old ART wrote Linux tids; dmtracedump crashes on
# ids >= 32768): same numbers as dmtracedump on the same run with small
# ids, and the timeline keeps the ids and names.
. "$TOP/tests/lib.sh"
. "$TOP/tests/tools/mtrace_lib.sh"
mk high.trace --random 20000 --tids 1,40000,65535 --seed 11
mk low.trace --random 20000 --tids 1,2,3 --seed 11
if command -v dmtracedump >/dev/null 2>&1; then
    dmtracedump high.trace >/dev/null 2>&1 && echo "note: dmtracedump read ids >= 32768"
    same_profile low.trace high.trace
fi
json_check high.trace
assert_eq "threads" 3 "$(jget threads)"
assert_eq "name of 40000" worker-40000 "$(jget names.40000)"
assert_eq "name of 65535" worker-65535 "$(jget names.65535)"
