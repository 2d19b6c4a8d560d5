# A device whose answers hold terminal control sequences (a colour change,
# an OSC window-title sequence, a bell): the message quoting the answer
# shows them as \xHH, and no control byte reaches the user's terminal.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
ESC=$(printf '\033'); BEL=$(printf '\007')
no_controls() {   # FILE...
    for f in "$@"; do
        ! grep -q "[$ESC$BEL]" "$f" || { cat -v "$f"; fail "$f holds raw control characters"; }
    done
}

start_sim --prop "ro.build.version.sdk=${ESC}[31m33${ESC}]0;pwned${BEL}"
run_st 1 -o x.html -t 1 -e "$SIM_SERIAL" sched
assert_contains err.txt 'Failed to get device sdk version (getprop said "\x1b[31m33\x1b]0;pwned\x07")'
no_controls out.txt err.txt
[ ! -e x.html ] || fail "a page was written"

# the same answer from one of two devices: the per-device summary too
start_sim; A=$SIM_SERIAL
start_sim --prop "ro.build.version.sdk=${ESC}[2J"; B=$SIM_SERIAL
run_st 1 -e "$A" -e "$B" -t 1 -o two.html sched
assert_contains out.txt "$B: failed: Failed to get device sdk version (getprop said \"\\x1b[2J\")"
no_controls out.txt err.txt
echo ok
