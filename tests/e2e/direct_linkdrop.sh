# A brief link drop with no adb server (--transport direct -e HOST:PORT):
# the tool reconnects to adbd itself (TCP, CNXN, AUTH with the same key)
# every 250 ms until --timeout, fetches the trace again and leaves the
# device reset; a device that never comes back gets the stop command.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
. "$TOP/tests/direct-env.sh"
no_server
dtool keygen "$HOME/.android/adbkey" || fail keygen
cp "$HOME/.android/adbkey.pub" trusted
dsim_start --auth-keys "$T/trusted" --disconnect-after 20000 --reconnect-after 300
run_st 0 --transport direct -e "$DSIM_SERIAL" -o d.html -t 1 -a com.android.systemui sched gfx
assert_contains err.txt "the connection to the device dropped (after 20013 bytes of the trace"
assert_contains err.txt "to fetch the trace again"
assert_contains out.txt "Wrote trace HTML file"
[ "$(grep -c '^run atrace -z -t 1 -b 4096 -a com.android.systemui sched gfx --async_stop$' \
    "$DSIM_LOG")" = 2 ] || fail "the trace was not fetched twice"
[ "$(grep -c '^auth signature ok$' "$DSIM_LOG")" -ge 2 ] || fail "no second authentication"
trace_block d.html 2 >d.txt
[ "$(grep -c '^# tracer:' d.txt)" = 1 ] || fail "the first try's bytes were kept"
python3 "$TOP/tests/tools/ftrace_check.py" d.txt >/dev/null || fail "trace damaged"
st() { sed -n "s/^$1=//p" "$DSIM_STATE"; }
[ "$(st tracing_on)" = 0 ] && [ -z "$(st categories)" ] && [ "$(st buffer_kb)" = 1 ] &&
    [ -z "$(st apps)" ] || fail "device not reset: $(tr '\n' ' ' <"$DSIM_STATE")"

dsim_start --auth-keys "$T/trusted" --disconnect-after 20000 --reconnect-after never
run_st 1 --transport direct -e "$DSIM_SERIAL" -o g.html -t 1 --timeout 2 sched
assert_contains err.txt "could not stop tracing on the device (the device did not come back); run \`adb -s $DSIM_SERIAL shell atrace --async_stop\` to stop it"
assert_contains err.txt "kept in g.atrace"
[ ! -e g.html ] || fail "output written"
echo ok
