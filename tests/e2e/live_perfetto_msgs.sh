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

one_line() {   # WHAT: err.txt is one line
    [ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "$1: more than one line"; }
}

# -- another session already records: the refusal names the stop command
start_sim
pid=$(sadb shell 'echo "duration_ms: 30000" | perfetto --background --txt -o /data/misc/perfetto-traces/hand -c -' | tr -d '\r')
[ -n "$pid" ] || fail "no session started by hand"
run_st 1 --perfetto -t 1 -o busy.html -e "$SIM_SERIAL" sched
assert_contains err.txt "already recording on the device (perfetto pid $pid)"
assert_contains err.txt "(adb -s $SIM_SERIAL shell kill $pid)"
one_line "busy"
sadb shell kill "$pid" >/dev/null
wait_for 10 sh -c "[ \"\$(sed -n 's/^perfetto_running=//p' '$SIM_STATE')\" = 0 ]" ||
    fail "the session started by hand did not stop"

# -- no perfetto on the device: drop --perfetto, as for SDK 27
start_sim --no-perfetto
run_st 1 --perfetto -t 1 -o none.html -e "$SIM_SERIAL" sched
assert_contains err.txt "perfetto: not found"
assert_contains err.txt "record without --perfetto (atrace) instead"
one_line "no perfetto"
pf_no_session "no perfetto"

# -- perfetto prints over 64 KB: its own first line, not the config script
start_sim --perfetto-chatty
run_st 1 --perfetto -t 1 -o chatty.html -e "$SIM_SERIAL" sched
assert_contains err.txt "perfetto did not start: it printed over 64 KB"
assert_contains err.txt "W Unknown field 1 in the trace config"
assert_not_contains err.txt "buffers"
assert_not_contains err.txt "duration_ms"
one_line "chatty perfetto"
pf_no_session "chatty perfetto"

# -- a session killed from outside before its first write: said so once,
# not blamed on traced
# (a device shell waits for it to appear, and it is killed at once: long
# before its first write, 100 ms in)
start_sim
{ p=$(sadb shell 'while ! pidof perfetto; do true; done' | tr -d '\r'); sadb shell kill -KILL "$p"; } &
killer=$!
run_st 1 --perfetto -t 8 -o killed.html -e "$SIM_SERIAL" sched
wait $killer
pid=$(sed -n 's/^sh while \[ -d \/proc\/\([0-9]*\) \].*/\1/p' "$SIM_LOG" | tail -1)
rc=1
[ $rc = 1 ] || { cat out.txt err.txt; fail "killed from outside: exit $rc"; }
assert_contains err.txt "the Perfetto session (pid $pid) was ended from outside after"
assert_contains err.txt "was ended from outside before it wrote anything: nothing was recorded"
assert_not_contains err.txt "perfetto recorded nothing"
[ ! -e killed.html ] && [ ! -e killed.perfetto-trace ] || fail "killed from outside: output written"
pf_no_session "killed from outside"

# -- the device never comes back for the stop: not "did not end within 20 s
# of kill -TERM" (the kill never reached it); the file left is named, with
# the commands to stop the session and remove it, in one line
start_sim --disconnect-perfetto-after 300 --reconnect-after never
run_st 1 --perfetto -t 1 --timeout 2 -o gone.html -e "$SIM_SERIAL" sched
assert_not_contains err.txt "of kill -TERM"
assert_contains err.txt "the device did not come back"
assert_contains err.txt "adb -s $SIM_SERIAL shell kill "
f=$(ls "$SIM_FS/data/misc/perfetto-traces")
[ -n "$f" ] || fail "no file left on the device (the case needs one)"
assert_contains err.txt "adb -s $SIM_SERIAL shell rm -f /data/misc/perfetto-traces/$f"
[ "$(grep -c "shell kill " err.txt)" = 1 ] || { cat err.txt; fail "the stop command said twice"; }
[ ! -e gone.html ] && [ ! -e gone.perfetto-trace ] || fail "device gone: output written"
echo ok
