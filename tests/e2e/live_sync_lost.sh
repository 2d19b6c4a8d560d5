# catapult's worst failure: the clock-sync marker never reaches the trace
# but the controller part is written anyway, and the viewer then refuses
# the whole file.  Here the part is left out with a warning, and the page
# opens in the viewer.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim --drop-markers
run_st 0 -o lost.html -t 1 sched gfx
assert_contains err.txt "clock-sync marker did not come back in the trace"
n=$("$BUILD/tools/htmlblocks" lost.html count)
[ "$n" = 2 ] || fail "$n parts; the controller part should be left out"
trace_block lost.html 2 | grep -q "clock_sync: name=" && fail "marker unexpectedly present"
if [ -d "$TOP/tests/browser/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
    browser_check lost.html --expect ok=true cpus=4
fi
echo ok
