. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim
$SYSTRACE -o out.html -t 1 --app-profile com.android.systemui sched gfx view > st.out 2>&1
echo rc=$?
cat st.out
grep -c "(methods)" out.html
ls $SIM_DIR/fs/data/local/tmp/
grep -a "am profile\|rm -f\|pidof" $SIM_DIR/log | head
