# --perfetto never loses or hides a recording: a kept .perfetto-trace is
# never written over an earlier one (the page's rule: the first free
# NAME-N name, said), also with -o - and -o /dev/null where it goes to the
# working directory; a page that cannot be written (a reader that went
# away, a full device) names the kept trace in its error line; -q with
# several devices prints nothing but errors.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

# -- trace.perfetto-trace exists (its page was moved away): kept, and the
# new one goes to trace-1.perfetto-trace, saying so
printf 'earlier' >trace.perfetto-trace
run_st 0 --perfetto -t 1 -e "$SIM_SERIAL" sched
[ "$(cat trace.perfetto-trace)" = earlier ] || fail "the earlier trace was overwritten"
[ -s trace-1.perfetto-trace ] || { ls; fail "no trace-1.perfetto-trace"; }
pf_same trace-1.perfetto-trace
assert_contains err.txt "trace.perfetto-trace already exists and is left alone; the Perfetto trace is kept in trace-1.perfetto-trace"
pf_no_session "an earlier trace"

# -- -o /dev/null and -o -: the trace goes to the working directory, never
# over the earlier ones, and the warning names it
run_st 0 --perfetto -t 1 -o /dev/null -e "$SIM_SERIAL" sched
[ "$(cat trace.perfetto-trace)" = earlier ] || fail "-o /dev/null: overwritten"
[ -s trace-2.perfetto-trace ] || { ls; fail "-o /dev/null: no trace-2.perfetto-trace"; }
assert_contains err.txt "the Perfetto trace is kept in trace-2.perfetto-trace"
fresh_out
"$SYSTRACE" --perfetto -t 1 -o - -e "$SIM_SERIAL" sched >page.html 2>err.txt </dev/null ||
    { cat err.txt; fail "-o -: exit $?"; }
grep -q "<html" page.html || fail "-o -: no page on stdout"
[ "$(cat trace.perfetto-trace)" = earlier ] || fail "-o -: overwritten"
[ -s trace-3.perfetto-trace ] || { ls; fail "-o -: no trace-3.perfetto-trace"; }
assert_contains err.txt "the Perfetto trace is kept in trace-3.perfetto-trace"

# -- the page cannot be written: the error line names the kept trace
{ "$SYSTRACE" --perfetto -t 1 -o - -e "$SIM_SERIAL" sched 2>err.txt </dev/null
  echo $? >rc.txt; } | head -c1 >/dev/null
assert_eq "-o - into head -c1: exit" 1 "$(cat rc.txt)"
assert_contains err.txt "-: cannot write: Broken pipe; the Perfetto trace is kept in trace-4.perfetto-trace (open it in ui.perfetto.dev, or convert it with: systrace --from-file trace-4.perfetto-trace)"
pf_same trace-4.perfetto-trace
run_st 1 --perfetto -t 1 -o /dev/full -e "$SIM_SERIAL" sched
assert_contains err.txt "/dev/full: cannot write: No space left on device; the Perfetto trace is kept in trace-5.perfetto-trace"
pf_same trace-5.perfetto-trace
pf_no_session "a page that cannot be written"

# -- -q with several devices: nothing but errors (no "SERIAL: wrote", no
# "already exists" for a page name taken)
A=$SIM_SERIAL
start_sim
: >"trace-$(echo "$A" | tr -c 'A-Za-z0-9._\n-' '_').html"
run_st 0 -q -e "$A" -e "$SIM_SERIAL" -t 1 sched
[ ! -s out.txt ] || { cat out.txt; fail "-q: standard output not empty"; }
[ ! -s err.txt ] || { cat err.txt; fail "-q: standard error not empty"; }
[ "$(ls trace-*.html | wc -l)" = 3 ] || { ls; fail "-q: not two pages written"; }
echo ok
