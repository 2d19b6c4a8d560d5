# --perfetto through the real adb server and the simulator's perfetto: the
# device's own trace is kept beside the page (byte for byte the file the
# device wrote, checked by Perfetto's trace processor), read while the
# session writes it (tail -f; pulled at the end where tail cannot follow),
# the page holds its events as Perfetto's to_ftrace prints them and the
# blocks --from-file of the kept trace writes, the device file is removed
# and no session is left recording on any exit path; Android 9 (binary
# config, the trace fetched with cat), traced off, Android 8 (no
# perfetto), two devices.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
TP=${TP:-$TOP/../shared/tools/perfetto/trace_processor_shell}

same_blocks() {    # PAGE KEPT: PAGE's blocks are --from-file KEPT's
    "$SYSTRACE" --from-file "$2" -o ff.html -q || fail "--from-file $2"
    n=$("$BUILD/tools/htmlblocks" "$1" count)
    [ "$n" = "$("$BUILD/tools/htmlblocks" ff.html count)" ] || fail "$1: $n blocks"
    for i in $(seq 1 "$n"); do
        trace_block "$1" "$i" >a.blk
        trace_block ff.html "$i" >b.blk
        cmp -s a.blk b.blk || { diff a.blk b.blk | head -5; fail "$1: block $i differs"; }
    done
}

page_text() {   # the ftrace text of a page
    n=$("$BUILD/tools/htmlblocks" "$1" count)
    for i in $(seq 1 "$n"); do trace_block "$1" "$i"; done | grep -E -- '-[0-9]+ +\(' || true
}

# -- options it cannot honour are usage errors, before any device is asked
for opt in --stream --target=linux --app-profile=com.example.app "-k do_sys_open" \
           "--from-file x.perfetto-trace"; do
    # shellcheck disable=SC2086
    run_st 2 --perfetto -t 1 $opt sched
    assert_contains err.txt "systrace: error: "
    case "$(cat err.txt)" in *"${opt%%[ =]*}"*) ;; *) fail "$opt: not named: $(cat err.txt)" ;; esac
done

# -- a capture: config from the options, the trace kept, the page from it
start_sim
run_st 0 --perfetto -t 1 -b 16mb -o cap.html -e "$SIM_SERIAL" sched freq idle gfx view \
    -a com.example.app
cfg=$(sim_state perfetto_config)
case "$cfg" in
    *"duration_ms=1000 buffer_kb=16384 compact_sched=1 process_stats=1 txt=1"*) ;;
    *) fail "config: $cfg" ;;
esac
for ev in sched/sched_switch sched/sched_waking power/cpu_frequency power/cpu_idle; do
    case "$cfg" in *"$ev"*) ;; *) fail "no $ev in: $cfg" ;; esac
done
case "$cfg" in *"categories=gfx,view apps=com.example.app"*) ;; *) fail "atrace: $cfg" ;; esac
[ -s cap.perfetto-trace ] || fail "no cap.perfetto-trace beside the page"
[ "$(sim_state perfetto_finished)" = 1 ] || fail "session not finalised"
grep -Eq "^sh mkdir /data/misc/perfetto-traces/systrace.lock 2>/dev/null \|\| exit 75; echo '.*' \| perfetto --background --txt -o /data/misc/perfetto-traces/systrace-[0-9a-f]+\.perfetto-trace -c - >/data/misc/perfetto-traces/systrace.lock/pid; " "$SIM_LOG" ||
    { grep perfetto "$SIM_LOG" | head -3; fail "perfetto not started with the config on stdin"; }
pf_no_session "-t"
assert_contains out.txt "cap.perfetto-trace"
if [ -x "$TP" ] && "$TP" --version >/dev/null 2>&1; then
    printf '%s\n' "select count(*) from sched;" \
        "select count(*) from ftrace_event;" \
        "select name, value from stats where severity in ('error','data_loss') and value > 0;" \
        "select to_ftrace(id) from ftrace_event order by ts;" >q.sql
    "$TP" -q q.sql cap.perfetto-trace >tp.out 2>/dev/null || fail "trace processor"
    n=$(sed -n 2p tp.out)
    [ "$n" -gt 100 ] || fail "Perfetto sees only $n sched rows in the kept trace"
    # the page's event lines are Perfetto's own to_ftrace lines but for a
    # switch's prev_state (the letters that give Perfetto's own end state:
    # pfcompare.py checks those precisely)
    unstate() { sed 's/ prev_state=[^ ]* ==>/ prev_state=* ==>/'; }
    sed -n 's/^"\(.*\)"$/\1/p' tp.out | grep -E -- '-[0-9]+ +\(' | unstate | sort >ref.txt
    page_text cap.html | unstate | sort >page.txt
    [ "$(wc -l <ref.txt)" -gt 100 ] || fail "to_ftrace gave $(wc -l <ref.txt) lines"
    cmp -s ref.txt page.txt || { diff ref.txt page.txt | head; fail "page != to_ftrace"; }
    python3 "$TOP/tests/tools/pfcompare.py" cap.perfetto-trace cap.html >cmp.txt 2>&1 ||
        { cat cmp.txt; fail "the page's events (prev_state: end states) differ from Perfetto's"; }
else
    echo "trace processor absent: the to_ftrace comparison is skipped"
fi
trace_block cap.html 1 | grep -q "^PROCESS DUMP" || fail "no process names"

# -- read while it records: written every 100 ms, followed with tail -f, so
# nothing is left to pull after the stop; the page is --from-file's
case "$cfg" in *"write_into_file=1 period_ms=100"*) ;; *) fail "not written as it records: $cfg" ;; esac
grep -q "^run tail -c +1 -f /data/misc/perfetto-traces/systrace-" "$SIM_LOG" ||
    fail "the file was not followed"
! grep -q "^sync RECV /data/misc/perfetto-traces/systrace-" "$SIM_LOG" ||
    fail "the file was pulled though it was followed"
pf_same cap.perfetto-trace
same_blocks cap.html cap.perfetto-trace
wait_for 10 sh -c "! sadb shell pidof tail | grep -q ." || fail "tail left running on the device"
# what listens to the page while it is written (trace-event JSON, the
# summary) gets the process dump after the text: the same results
run_st 0 --perfetto -t 1 -o tee.html --trace-events=tee.te.json --summary=tee.sum.json \
    -e "$SIM_SERIAL" sched gfx
"$SYSTRACE" --from-file tee.perfetto-trace -o ff2.html --trace-events=ff.te.json \
    --summary=ff.sum.json -q || fail "--from-file tee.perfetto-trace"
python3 - <<'PY' || fail "trace events or summary differ from --from-file's"
import json, sys
def events(f):
    d = json.load(open(f))
    return sorted(json.dumps(e, sort_keys=True) for e in (d["traceEvents"] if isinstance(d, dict) else d))
a, b = events("tee.te.json"), events("ff.te.json")
named = [e for e in a if '"process_name"' in e]
sa, sb = json.load(open("tee.sum.json")), json.load(open("ff.sum.json"))
diff = [k for k in set(sa) | set(sb) if not k.startswith(("device", "android")) and sa.get(k) != sb.get(k)]
print(len(a), "events,", len(named), "process names; summary differs in", diff)
sys.exit(0 if a == b and len(named) > 5 and not diff else 1)
PY

# -- Ctrl-C and SIGHUP stop early and still write; SIGTERM writes nothing
for sig in INT HUP TERM; do
    n=$(pf_loops)
    fresh_out
    "$SYSTRACE" --perfetto -t 30 -o sig$sig.html -e "$SIM_SERIAL" sched >out.txt 2>err.txt </dev/null &
    st=$!
    wait_recording "$n"
    kill -$sig $st
    wait $st
    rc=$?
    pf_no_session "SIG$sig"
    if [ $sig = TERM ]; then
        [ $rc != 0 ] || fail "SIGTERM: exit 0"
        [ ! -e sig$sig.html ] || fail "SIGTERM: a page was written"
    else
        [ -s sig$sig.perfetto-trace ] || { cat err.txt; fail "SIG$sig: no trace kept (rc $rc)"; }
        [ -s sig$sig.html ] || fail "SIG$sig: no page"
    fi
done
! ls | grep -q '\.tmp\.' || fail "temporary files left"

# -- refused while atrace traces; an atrace capture with no leftovers after
sadb shell atrace --async_start sched >/dev/null
run_st 1 --perfetto -t 1 -o busy.html -e "$SIM_SERIAL" sched
assert_contains err.txt "atrace tracing is on"
[ "$(sim_state perfetto_running)" = 0 ] || fail "perfetto started while atrace traced"
sadb shell atrace --async_stop >/dev/null

# -- and the other way round: no atrace capture while a session records
sadb shell "echo 'duration_ms: 30000' | perfetto --background --txt -o /data/misc/perfetto-traces/other.pftrace -c -" >other.txt
pid=$(tr -dc 0-9 <other.txt)
[ "$(sim_state perfetto_running)" = 1 ] || fail "the other session did not start"
starts=$(sim_state starts)
run_st 1 -t 1 -o busy2.html -e "$SIM_SERIAL" sched
assert_contains err.txt "a Perfetto session is recording on the device (perfetto pid $pid)"
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "more than one line"; }
[ "$(sim_state starts)" = "$starts" ] || fail "atrace started while Perfetto recorded"
[ ! -e busy2.html ] || fail "a page was written"
sadb shell kill -KILL "$pid" >/dev/null
wait_for 10 sh -c "[ \"\$(sed -n 's/^perfetto_running=//p' '$SIM_STATE')\" = 0 ]" ||
    fail "the other session did not end"
sadb shell rm -f /data/misc/perfetto-traces/other.pftrace >/dev/null

# -- a phone that boots with tracing_on=1 (no atrace running) records
start_sim --tracing-on-at-boot
[ "$(sim_state tracing_on)" = 1 ] || fail "the simulator did not boot tracing"
run_st 0 --perfetto -t 1 -o boot.html -e "$SIM_SERIAL" sched
[ -s boot.perfetto-trace ] || fail "tracing_on=1 at boot: no trace"
pf_no_session "tracing_on=1 at boot"

# -- Android 9: binary config (no --txt); traced off: turned on, saying so;
# with no tail -f to follow the file, it is fetched at the end
start_sim --sdk 28 --traced-off --no-tail-follow
run_st 0 --perfetto -t 1 -o p9.html -e "$SIM_SERIAL" sched gfx
case "$(sim_state perfetto_config)" in *"txt=0"*) ;; *) fail "Android 9: not binary" ;; esac
# adbd cannot read the trace directory before Android 10: cat fetches it
grep -q "^run cat /data/misc/perfetto-traces/systrace-" "$SIM_LOG" || fail "Android 9: not cat"
pf_same p9.perfetto-trace
same_blocks p9.html p9.perfetto-trace
assert_contains out.txt "traced is off"
[ "$(sadb shell getprop persist.traced.enable | tr -d '\r')" = 1 ] || fail "traced not on"
[ -s p9.perfetto-trace ] || fail "Android 9: no trace"
pf_no_session "Android 9"

# -- a toybox without tail -f: the file is pulled at the end, the same page
start_sim --no-tail-follow
run_st 0 --perfetto -t 1 -o nof.html -e "$SIM_SERIAL" sched gfx
grep -q "^sync RECV /data/misc/perfetto-traces/systrace-" "$SIM_LOG" || fail "not pulled"
pf_same nof.perfetto-trace
same_blocks nof.html nof.perfetto-trace
pf_no_session "no tail -f"

# -- Android 8: one clear line, nothing started
start_sim --sdk 26
run_st 1 --perfetto -t 1 -o p8.html -e "$SIM_SERIAL" sched
assert_contains err.txt "Android 9 (SDK 28)"
[ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "more than one line"; }

# -- two devices: one trace per page
start_sim
A=$SIM_SERIAL
start_sim
run_st 0 --perfetto -t 1 -o multi.html -e "$A" -e "$SIM_SERIAL" sched
n=$(ls multi*.perfetto-trace | wc -l)
[ "$n" = 2 ] || { ls; fail "$n traces for two devices"; }
for f in multi*.perfetto-trace; do
    [ -s "${f%.perfetto-trace}.html" ] || fail "no page for $f"
done
