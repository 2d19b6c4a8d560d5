# Two --perfetto captures started at the same moment on one device: one
# records, the other is refused in one line (the busy check and the start
# are one atomic step on the device: a lock made with mkdir), and nothing
# is left on the device; a stale lock (its session gone) is taken over.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

for round in 1 2 3; do
    "$SYSTRACE" --perfetto -t 2 -o a$round.html -e "$SIM_SERIAL" sched >a.out 2>a.err </dev/null &
    a=$!
    "$SYSTRACE" --perfetto -t 2 -o b$round.html -e "$SIM_SERIAL" sched >b.out 2>b.err </dev/null &
    b=$!
    wait $a; ra=$?
    wait $b; rb=$?
    [ "$ra$rb" = 01 ] || [ "$ra$rb" = 10 ] ||
        { cat a.err b.err; fail "round $round: exits $ra and $rb (one must record, one be refused)"; }
    n=$(grep -c "perfetto --background" "$SIM_LOG")
    started=$(sim_state perfetto_sessions)
    [ "$started" = "$round" ] || { cat a.err b.err; fail "round $round: $started sessions recorded"; }
    [ $ra = 1 ] && loser=a || loser=b
    grep -q "already recording\|is starting a Perfetto session" $loser.err ||
        { cat $loser.err; fail "round $round: refusal not said"; }
    [ "$(wc -l <$loser.err)" = 1 ] || { cat $loser.err; fail "round $round: not one line"; }
    pf_no_session "round $round"
done

# -- a stale lock (a run that lost its device): taken over
mkdir -p "$SIM_FS/data/misc/perfetto-traces/systrace.lock"
echo 4000000 >"$SIM_FS/data/misc/perfetto-traces/systrace.lock/pid"
run_st 0 --perfetto -t 1 -o stale.html -e "$SIM_SERIAL" sched
pf_no_session "a stale lock"

# -- a stale lock that stays (its pid file not quite as our start writes
# it: removal checks the exact line): refused in one line (it crashed:
# the start's answer was read after its second refusal had freed it)
mkdir -p "$SIM_FS/data/misc/perfetto-traces/systrace.lock"
echo " 4000000" >"$SIM_FS/data/misc/perfetto-traces/systrace.lock/pid"
run_st 1 --perfetto -t 1 -o held.html -e "$SIM_SERIAL" sched
assert_contains err.txt "the Perfetto lock stays held on the device (/data/misc/perfetto-traces/systrace.lock); if no systrace records there, remove it: adb -s $SIM_SERIAL shell rm -rf /data/misc/perfetto-traces/systrace.lock"
assert_eq "lines on stderr" 1 "$(wc -l <err.txt)"
[ ! -e held.html ] || fail "a page written without a recording"
rm -rf "$SIM_FS/data/misc/perfetto-traces/systrace.lock"
pf_no_session "a lock that stays"

# -- two takers of one stale lock: b reads its pid, and only after a has
# removed it, made its own and begun recording does b's check run; b must
# not remove a's lock (it checks the pid it read is still the lock's)
start_sim --stall-on "[ -d /proc/4000000 ]:2500"
mkdir -p "$SIM_FS/data/misc/perfetto-traces/systrace.lock"
echo 4000000 >"$SIM_FS/data/misc/perfetto-traces/systrace.lock/pid"
"$SYSTRACE" --perfetto -t 4 -o b.html -e "$SIM_SERIAL" sched >b.out 2>b.err </dev/null &
b=$!
wait_for 10 grep -q "^stall " "$SIM_LOG" || fail "b never checked the lock"
"$SYSTRACE" --perfetto -t 4 -o a.html -e "$SIM_SERIAL" sched >a.out 2>a.err </dev/null &
a=$!
wait $a; ra=$?
wait $b; rb=$?
[ "$ra$rb" = 01 ] || { cat a.err b.err; fail "two takers: exits $ra (a) and $rb (b): a records, b is refused"; }
[ "$(sim_state perfetto_sessions)" = 1 ] || fail "two takers: $(sim_state perfetto_sessions) sessions"
grep -q "already recording" b.err || { cat b.err; fail "two takers: b's refusal not said"; }
pf_no_session "two takers"

# -- our session over, another systrace takes our lock over as stale and
# makes its own (its pid written over ours here) before our cleanup runs:
# the cleanup leaves that lock alone
start_sim --stall-on "rm -rf /data/misc/perfetto-traces/systrace-:2500"
"$SYSTRACE" --perfetto -t 1 -o f.html -e "$SIM_SERIAL" sched >f.out 2>f.err </dev/null &
f=$!
wait_for 20 grep -q "^stall " "$SIM_LOG" || { kill $f; cat f.err; fail "no cleanup came"; }
lock=$SIM_FS/data/misc/perfetto-traces/systrace.lock
echo 999999 >"$lock/pid"
wait $f || { cat f.err; fail "the capture failed"; }
[ "$(cat "$lock/pid" 2>/dev/null)" = 999999 ] || fail "our cleanup removed the lock another systrace took over"
rm -rf "$lock"
pf_no_session "a lock taken over"
echo ok
