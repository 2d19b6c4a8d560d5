# Live capture with no adb server at all: --transport auto finds nothing
# at the server port and talks to the simulator over direct TCP, signing
# the simulator's token with ~/.android/adbkey (already trusted).  Also
# --stream over it, where the stream's reader and the other commands
# (clock sync, ps, kill) share the one connection.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
. "$TOP/tests/direct-env.sh"
no_server
dtool keygen "$HOME/.android/adbkey" || fail keygen
[ "$(stat -c %a "$HOME/.android/adbkey")" = 600 ] || fail "private key not mode 0600"
cp "$HOME/.android/adbkey.pub" trusted
dsim_start --auth-keys "$T/trusted"
run_st 0 -e "$DSIM_SERIAL" -o trace.html -t 1 sched gfx
assert_contains out.txt "Wrote trace HTML file"
grep -qx "auth signature ok" "$DSIM_LOG" || fail "no verified signature"
grep -q "auth pubkey" "$DSIM_LOG" && fail "public key sent although the key is trusted"
grep -q "^run atrace -z -t 1 -b 4096 sched gfx --async_stop$" "$DSIM_LOG" || fail "no stop"
trace_block trace.html 2 | grep -q sched_switch || fail "no sched events in the trace"
[ "$(sed -n 's/^tracing_on=//p' "$DSIM_STATE")" = 0 ] || fail "device left tracing"
# the same with --transport direct; --transport server has nothing to talk to
run_st 0 --transport direct -e "$DSIM_SERIAL" -o t2.html -t 100ms sched
run_st 1 --transport server -e "$DSIM_SERIAL" -o t3.html -t 100ms sched
assert_contains err.txt "adb server"
# several devices over direct TCP at once: one page each
first=$DSIM_SERIAL first_state=$DSIM_STATE
dsim_start --auth-keys "$T/trusted"
run_st 0 --transport direct -e "$first" -e "$DSIM_SERIAL" -o two.html -t 1 sched
for s in "$first" "$DSIM_SERIAL"; do
    f="two-$(echo "$s" | tr ':' '_').html"
    trace_block "$f" 2 | grep -q sched_switch || fail "direct, several devices: $f"
done
for st in "$first_state" "$DSIM_STATE"; do
    [ "$(sed -n 's/^tracing_on=//p' "$st")" = 0 ] || fail "direct: a device left tracing"
done
# --stream over direct TCP: every event the device served is in the page
dsim_start --auth-keys "$T/trusted" --event-rate 40000
run_st 0 --transport direct -e "$DSIM_SERIAL" --stream -t 2 -o stream.html --app-profile \
    com.android.launcher3 sched gfx view
n=$(sed -n 's/^stream \([0-9]*\) events, .*; stopped by SIGINT$/\1/p' "$DSIM_LOG")
[ -n "$n" ] || fail "direct --stream: the device did not stream"
assert_eq "direct --stream: events" "$n" "$(trace_block stream.html 2 | grep -vc '^#')"
grep -q "^run kill -INT " "$DSIM_LOG" || fail "direct --stream: no kill"
grep -q "^run am profile stop " "$DSIM_LOG" || fail "direct --stream: no am profile stop"
[ "$(sed -n 's/^tracing_on=//p' "$DSIM_STATE")" = 0 ] || fail "direct --stream: left tracing"
# several devices and no key yet: one key is made (whole, 0600) and both use it
export HOME="$T/home2"; mkdir -p "$HOME"
: >keys_new
dsim_start --auth-keys "$T/keys_new" --auth-accept 200; n1=$DSIM_SERIAL
dsim_start --auth-keys "$T/keys_new" --auth-accept 200; n2=$DSIM_SERIAL
run_st 0 --transport direct -e "$n1" -e "$n2" -o fresh.html -t 1 sched
[ "$(stat -c %a "$HOME/.android/adbkey")" = 600 ] || fail "new key not mode 0600"
[ "$(sort -u keys_new | grep -c .)" = 1 ] || fail "the devices were offered different keys"
! ls "$HOME/.android" | grep -q tmp || fail "a temporary key file was left"
for s in "$n1" "$n2"; do
    [ -s "fresh-$(echo "$s" | tr ':' '_').html" ] || fail "fresh key: no page for $s"
done
echo ok
