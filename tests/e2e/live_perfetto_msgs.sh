# --perfetto on odd devices and what it says when things go wrong: a shell
# without protocol v2 mixes tail's stderr into the followed file (kept out
# with 2>/dev/null; bytes that are not a trace are never taken); each
# failure is one line a user can act on.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

# -- no shell protocol v2, tail warns on stderr first: the trace is the
# device's, byte for byte, and it converts
start_sim --no-shell-v2 --tail-noise err
run_st 0 --perfetto -t 1.5 -o v1.html -e "$SIM_SERIAL" sched
grep -q "^sh 'tail' .* 2>/dev/null$" "$SIM_LOG" ||
    { grep tail "$SIM_LOG"; fail "tail's stderr not kept out of the trace"; }
[ -s v1.html ] && pf_same v1.perfetto-trace
pf_no_session "tail's stderr"

# -- ... and on stdout: not taken as the trace's first bytes; fetched whole
start_sim --no-shell-v2 --tail-noise out
run_st 0 --perfetto -t 1.5 -o v1out.html -e "$SIM_SERIAL" sched
[ -s v1out.html ] && pf_same v1out.perfetto-trace
pf_no_session "tail's stdout"
echo ok
