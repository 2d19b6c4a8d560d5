# --launch: measure an app startup against the simulator through the real
# adb server.  Cold, warm and hot launches are prepared as Macrobenchmark
# does (force-stop; launch then Home) and reported in the summary's
# Startups line with the type the device made; the capture stops on its
# own after the first frame.  A package that is not installed, an
# activity that does not exist, a launch that never draws, a name that is
# not a Java name: one line each, non-zero exit, tracing off.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --fully-drawn 200

# cold (default): the app is force-stopped, then launched while tracing
run_st 0 -o cold.html --launch=com.android.launcher3 -e "$SIM_SERIAL" --summary cold.json
grep -a "run am force-stop com.android.launcher3" "$SIM_LOG" >/dev/null || fail "cold: no force-stop"
grep -a "run am start -W -n com.android.launcher3/.Launcher" "$SIM_LOG" >/dev/null ||
    fail "cold: no am start -W (launcher activity resolved)"
assert_contains out.txt "Launched com.android.launcher3/.Launcher (cold): first frame after 600 ms"
assert_contains out.txt "Startups"
python3 - cold.json <<'PY' || fail "cold: startups[]"
import json, sys
s = json.load(open(sys.argv[1]))["startups"]
assert len(s) == 1 and s[0]["package"] == "com.android.launcher3" and s[0]["type"] == "cold", s
assert abs(s[0]["to_first_frame_ms"] - 600) < 30, s
assert s[0].get("to_full_display_ms") and s[0]["to_full_display_ms"] > s[0]["to_first_frame_ms"], s
PY
[ "$(sim_state tracing_on)" = 0 ] || fail "cold: left tracing"

# warm and hot: launched once untraced, Home, then launched while tracing
for mode in warm hot; do
    run_st 0 -o $mode.html --launch=com.android.launcher3/.Launcher --launch-mode=$mode \
        -e "$SIM_SERIAL" --summary $mode.json
    python3 - $mode.json $mode <<'PY' || fail "$mode: startups[]"
import json, sys
s = json.load(open(sys.argv[1]))["startups"]
assert len(s) == 1 and s[0]["type"] == sys.argv[2], s
PY
done
grep -a "run input keyevent KEYCODE_HOME" "$SIM_LOG" >/dev/null || fail "warm/hot: no Home"
grep -a "run am start -W --activity-clear-task -n com.android.launcher3/.Launcher" "$SIM_LOG" \
    >/dev/null || fail "warm: no --activity-clear-task"

# errors: one line, exit 1, tracing off
starts=$(sim_state starts)
run_st 1 -o x.html --launch=com.example.absent -e "$SIM_SERIAL"
assert_contains err.txt "--launch: com.example.absent is not installed on the device"
[ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; fail "not installed: more than one line"; }
[ "$(sim_state starts)" = "$starts" ] || fail "not installed: tracing was started"
run_st 1 -o x.html --launch=com.android.systemui -e "$SIM_SERIAL"
assert_contains err.txt "com.android.systemui has no launcher activity"
run_st 1 -o x.html --launch=com.android.launcher3/.NoSuch -e "$SIM_SERIAL"
assert_contains err.txt "Error: Activity class {com.android.launcher3/.NoSuch} does not exist."
[ "$(grep -c systrace: err.txt)" -eq 1 ] || { cat err.txt; fail "no activity: not one line"; }
[ "$(sim_state tracing_on)" = 0 ] || fail "no activity: left tracing"
[ ! -e x.html ] || fail "a failed launch wrote a page"

# names that are not Java names never reach the device
n=$(grep -c . "$SIM_LOG")
for bad in 'com.x;reboot' 'nodots' 'com.x/.A b' 'com.x/$(id)' '9com.x' 'com..x'; do
    run_st 2 -o x.html --launch="$bad" -e "$SIM_SERIAL"
    assert_contains err.txt "--launch="
done
[ "$(grep -c . "$SIM_LOG")" = "$n" ] || fail "a bad name reached the device"
run_st 2 --launch-mode=lukewarm --launch=com.android.launcher3 -e "$SIM_SERIAL"
assert_contains err.txt "--launch-mode=lukewarm: unknown"

# a launch that never draws: Status: timeout, one line, tracing off
start_sim --launch-never-draws
run_st 1 -o never.html --launch=com.android.launcher3 -e "$SIM_SERIAL"
assert_contains err.txt "the app never drew its first frame (am start -W: Status: timeout)"
[ "$(sim_state tracing_on)" = 0 ] || fail "never draws: left tracing"
[ ! -e never.html ] || fail "never draws: a page was written"

# --runs: N launches into N traces and N summaries, each cold again
start_sim
stop_n=$(grep -c "run am force-stop" "$SIM_LOG")
run_st 0 -o runs.html --launch=com.android.launcher3 --runs=3 -e "$SIM_SERIAL" --summary runs.json
for k in 1 2 3; do
    [ -s runs-$k.html ] || fail "--runs: no runs-$k.html"
    assert_contains out.txt "Run $k of 3:"
    python3 -c "import json,sys; s=json.load(open('runs-$k.json'))['startups']; assert len(s)==1 and s[0]['type']=='cold', s" ||
        fail "--runs: run $k's startup"
done
[ ! -e runs.html ] || fail "--runs wrote runs.html"
[ "$(grep -c "run am force-stop" "$SIM_LOG")" -eq $((stop_n + 3)) ] || fail "--runs: not force-stopped before each run"
run_st 2 --runs=3 -e "$SIM_SERIAL"
assert_contains err.txt "--runs repeats a --launch"
