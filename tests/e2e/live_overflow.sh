# A kernel buffer too small for the time traced (issue 11 item 12): the
# kept trace covers clearly less than the capture, so the tool says how
# much was kept and which -b would have held it; that -b does hold it.
# atrace's default buffer stops recording when full (the simulator caps
# its text by -b and drops later trace_marker writes); a circular buffer
# keeps only the end (--overflow: CPUs start late, the repair cuts).
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

run_st 0 -o small.html -t 3 -b 16 sched gfx -e "$SIM_SERIAL"
assert_contains err.txt " s traced: the device's trace buffer (-b 16, KB per CPU) was full; -b "
assert_contains out.txt "Wrote trace HTML file"
want=$(sed -n 's/.* was full; -b \([0-9]*\) would have held it.*/\1/p' err.txt)
kept=$(sed -n 's/.*the trace covers only \([0-9.]*\) s of the.*/\1/p' err.txt)
[ -n "$want" ] && [ -n "$kept" ] || fail "no size or time in: $(cat err.txt)"
# what was kept is what the page holds
trace_block small.html 2 | python3 -c '
import re, sys
ts = [float(m.group(1)) for l in sys.stdin if not l.startswith("#")
      for m in [re.search(r" (\d+\.\d+): ", l)] if m]
span = max(ts) - min(ts)
assert abs(span - float(sys.argv[1])) < 0.01, (span, sys.argv[1])
' "$kept" || fail "the kept time is not what the page covers"
python3 -c 'import sys; n = int(sys.argv[1]); assert n >= 32 and n & (n - 1) == 0, n' "$want" ||
    fail "-b $want is not a power of two above 16"
# the advice holds: with that buffer the whole time is kept, no warning
run_st 0 -o big.html -t 3 -b "$want" sched gfx -e "$SIM_SERIAL"
assert_not_contains err.txt "the trace covers only"
# an ordinary capture says nothing
run_st 0 -o plain.html -t 2 sched gfx -e "$SIM_SERIAL"
assert_not_contains err.txt "the trace covers only"

# a circular buffer: the cut keeps the time every CPU has data for
start_sim --overflow
run_st 0 -o ring.html -t 2 sched gfx -e "$SIM_SERIAL"
assert_contains err.txt " s traced: the device's trace buffer (-b 4096, KB per CPU) was full; -b 8192 would have held it"
echo ok
