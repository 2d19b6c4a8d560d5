# --rows of a live capture (issue 34 part 2): with --all-devices through
# the real adb server, one row per metric per device, each with the
# device's serial, model, Android release, build fingerprint (its getprop
# answers) and the capture's start (UTC); a device that fails is an error
# row naming what failed, the others' rows written; the rows file is
# checked before any device is asked.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --sdk 30; A=$SIM_SERIAL
start_sim --disconnect-after 200000 --size-mb 20; B=$SIM_SERIAL
run_st 1 --all-devices -t 1 -o live.html --rows=live.jsonl sched gfx view
python3 - live.jsonl "$A" "$B" <<'PY' || fail "rows of the capture"
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
a, b = sys.argv[2], sys.argv[3]
ra = [r for r in rows if r["serial"] == a]
rb = [r for r in rows if r["serial"] == b]
assert len(ra) > 3 and all(not r["error"] for r in ra), ra[:3]
r = ra[0]
assert r["model"] == "SystraceSim" and r["android_version"] == "11", r
assert r["fingerprint"].startswith("adbsim/sim/sim:13/"), r
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", r["capture_time"]), r
assert r["trace"].startswith("live-") and r["trace"].endswith(".html"), r
names = {r["metric"] for r in ra}
assert "cpu_busy_pct" in names and any(n.startswith("cpu.") for n in names), names
assert len(rb) == 1 and rb[0]["error"].startswith("failed: collecting the trace failed"), rb
assert rb[0]["metric"] is None and rb[0]["value"] is None
PY
# one device, CSV
run_st 0 -e "$A" -t 1 -o one.html --rows=one.csv sched
head -1 one.csv | grep -q '^trace,serial,model,' || fail "CSV header"
grep -q "^one.html,$A,SystraceSim,11,adbsim/sim/sim:13/" one.csv || { head -3 one.csv; fail "CSV row"; }
# a rows file that cannot be written: refused before tracing
fresh_out
run_st 1 -e "$A" -t 1 -o two.html --rows=nodir/x.jsonl sched
assert_contains err.txt "--rows nodir/x.jsonl: cannot write"
[ ! -e two.html ] || fail "traced although the rows could not be written"
