# -l with several devices: every line of each device's list carries its
# serial, the root note included, and no line is a bare "SERIAL: ".
# Through the real adb server.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --no-root; A=$SIM_SERIAL
start_sim --no-root --sdk 28; B=$SIM_SERIAL
run_st 0 -l -e "$A" -e "$B"
for s in "$A" "$B"; do
    grep -q "^$s: *sched " out.txt || { cat out.txt; fail "$s: no categories"; }
    grep -q "^$s: NOTE: more categories may be available with adb root$" out.txt ||
        { cat out.txt; fail "$s: the root note is not prefixed"; }
    ! grep -qx "$s: *" out.txt || fail "$s: a bare serial line"
done
! grep -q "^NOTE:" out.txt || fail "an unprefixed root note"
echo ok
