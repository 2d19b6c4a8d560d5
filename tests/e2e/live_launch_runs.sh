# --launch, the rest of issue 33's part 3, against the simulator through
# the real adb server: --runs=N's one summary (runs[] and each startup
# number's median, min and max, and the terminal's one line); a capture
# that lasts until the app's reportFullyDrawn (logcat's "Fully drawn"),
# not a fixed second after its first frame; --launch --perfetto finding
# the startup in the simulator's Perfetto trace; an app that was not
# running before is force-stopped again after the runs.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server

# --perfetto: the launch slices are ftrace print events of the trace
start_sim
run_st 0 -o pf.html --perfetto --launch=com.android.launcher3 -e "$SIM_SERIAL" --summary pf.json
python3 - pf.json <<'PY' || fail "--perfetto: startups[]"
import json, sys
s = json.load(open(sys.argv[1]))["startups"]
assert len(s) == 1 and s[0]["package"] == "com.android.launcher3" and s[0]["type"] == "cold", s
assert abs(s[0]["to_first_frame_ms"] - 600) < 30, s
PY
[ "$(sim_state tracing_on)" = 0 ] || fail "--perfetto: left tracing"

# a reportFullyDrawn 2.5 s after the first frame is waited for
start_sim --fully-drawn 2500
run_st 0 -o full.html --launch=com.android.launcher3 -e "$SIM_SERIAL" --summary full.json
python3 - full.json <<'PY' || fail "fully drawn: to_full_display_ms"
import json, sys
s = json.load(open(sys.argv[1]))["startups"]
assert len(s) == 1 and s[0].get("to_full_display_ms"), s
assert abs(s[0]["to_full_display_ms"] - 3100) < 60, s
PY
assert_contains out.txt "fully drawn after"

# --runs=3: one summary holding every run, an app not running before
# force-stopped again after them
start_sim --app-stopped
run_st 0 -o runs.html --launch=com.android.launcher3 --runs=3 -e "$SIM_SERIAL" --summary runs.json
assert_contains out.txt "Startup of com.android.launcher3 (cold) over 3 runs: median 6"
python3 - runs.json <<'PY' || fail "--runs: runs[] and the medians"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["runs"]
assert len(r) == 3 and all(len(x["startups"]) == 1 for x in r), r
assert [x["trace"] for x in r] == ["runs-1.html", "runs-2.html", "runs-3.html"], r
ff = sorted(x["startups"][0]["to_first_frame_ms"] for x in r)
s = j["startups"]
assert len(s) == 1 and s[0]["package"] == "com.android.launcher3" and s[0]["type"] == "cold", s
assert s[0]["runs"] == 3, s
assert s[0]["to_first_frame_ms"] == ff[1], (s, ff)
assert s[0]["min"]["to_first_frame_ms"] == ff[0] and s[0]["max"]["to_first_frame_ms"] == ff[2], s
assert s[0]["main_thread_ms"]["running"] >= 0 and "bindApplication" in s[0]["max"]["slices_ms"], s
PY
[ "$(sim_state app_alive)" = 0 ] || fail "--runs: the app was not running before, is now"
[ "$(grep -c "run am start -W" "$SIM_LOG")" = 3 ] || fail "--runs: not 3 launches"

# an app running before stays running
start_sim
run_st 0 -o hot.html --launch=com.android.launcher3 --launch-mode=hot -e "$SIM_SERIAL"
[ "$(sim_state app_alive)" = 1 ] || fail "hot: an app that was running was stopped"
