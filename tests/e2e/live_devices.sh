# Device selection: no server, no device, several devices, wrong serial,
# -e and $ANDROID_SERIAL; each error names what is connected.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
ANDROID_ADB_SERVER_PORT=$(free_port); export ANDROID_ADB_SERVER_PORT
run_st 1 -o x.html -t 1
assert_contains err.txt "adb server"
assert_contains err.txt "adb start-server"
start_adb_server
run_st 1 -o x.html -t 1
assert_contains err.txt "no devices"
start_sim; first=$SIM_SERIAL
start_sim; second=$SIM_SERIAL
run_st 1 -o x.html -t 1
assert_contains err.txt "$first"; assert_contains err.txt "$second"
run_st 1 -o x.html -t 1 -e 127.0.0.1:1
assert_contains err.txt "127.0.0.1:1"; assert_contains err.txt "$first"
run_st 0 -o x.html -t 1 -e "$second" sched
ANDROID_SERIAL=$first run_st 0 -o y.html -t 1 sched
[ ! -e x.html.tmp ] || fail "temp left"
echo ok
