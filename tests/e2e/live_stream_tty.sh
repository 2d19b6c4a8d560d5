# --stream on a terminal: while tracing, the line shows the time (left, or
# traced so far), the bytes and events received and the current rate; it
# is erased before the next message, as every progress line is.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
command -v script >/dev/null || skip "script(1) absent (bsdutils)"
start_adb_server
start_sim
# script(1) gives systrace a pseudo-terminal; its output is the screen
{ sleep 2.5; echo; } | script -qec "'$SYSTRACE' --stream -o tty.html -e '$SIM_SERIAL' sched" \
    screen.txt >/dev/null 2>&1 || { cat screen.txt; fail "systrace on a pty failed"; }
grep -Eq "Tracing: 0:0[12], [0-9.]+ MB, [0-9]+ events, [1-9][0-9.]* MB/s \(press Enter to stop\)" \
    screen.txt || { cat -v screen.txt | tail -c 2000; fail "no stream progress while tracing"; }
grep -q "$(printf '\r\033\[K')Tracing: 0:0" screen.txt || fail "progress line not erased"
[ -s tty.html ] || fail "no output"

script -qec "'$SYSTRACE' --stream -t 2 -o tty2.html -e '$SIM_SERIAL' sched" screen2.txt \
    </dev/null >/dev/null 2>&1 || { cat screen2.txt; fail "-t on a pty failed"; }
grep -Eq "Tracing: [12] s left, [0-9.]+ MB, [0-9]+ events, [0-9.]+ MB/s \(Enter or Ctrl-C stops early\)" \
    screen2.txt || { cat -v screen2.txt | tail -c 2000; fail "no stream progress with -t"; }
[ -s tty2.html ] || fail "-t: no output"
echo ok
