# --target=linux with a kernel buffer far too small for the time traced
# (issue 11 item 12): the kept trace covers clearly less than the capture,
# so the tool says how much was kept and which -b would have held it (the
# same measurement as the Android capture, formats/atrace/coverage.h).
. "$TOP/tests/lib.sh"
. "$TOP/tests/linux-env.sh"
need_tracefs

# scheduler events whatever else the machine does: processes come and go
( end=$(( $(date +%s) + 6 )); while [ "$(date +%s)" -lt "$end" ]; do /bin/true; done ) &
track_pid $!
run_st 0 --target=linux -t 3 -b 4 -o small.html sched
assert_contains err.txt " s traced: the trace buffer (-b 4, KB per CPU) was full"
want=$(sed -n 's/.*; -b \([0-9]*\) would have held it, or use --stream.*/\1/p' err.txt)
python3 -c 'import sys; n = int(sys.argv[1]); assert n >= 8 and n & (n - 1) == 0, n' \
    "${want:-0}" || fail "no power-of-two -b above 4 suggested: $(cat err.txt)"
kept=$(sed -n 's/.*the trace covers only \([0-9.]*\) s of the.*/\1/p' err.txt)
trace_block small.html 2 | python3 -c '
import re, sys
ts = [float(m.group(1)) for l in sys.stdin if not l.startswith("#")
      for m in [re.search(r" (\d+\.\d+): ", l)] if m]
assert abs(max(ts) - min(ts) - float(sys.argv[1])) < 0.01, (max(ts) - min(ts), sys.argv[1])
' "$kept" || fail "the kept time is not what the page covers"
# --stream reads while tracing: nothing to say about the buffer's size
run_st 0 --target=linux -t 1 -b 64 --stream -o s.html sched
assert_not_contains err.txt "the trace covers only"
echo ok
