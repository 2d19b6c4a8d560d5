# What users know from Perfetto's record script: --open (and SYSTRACE_OPEN)
# starts the browser on the written page without waiting for it and never
# fails a capture; -t and -b take units; presets add their categories and
# buffer size, are listed by -l and combine with explicit categories.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
start_sim

# a fake browser that records what it was given, and stays open a while
mkdir bin
cat >bin/fakebrowser <<EOS
#!/bin/sh
echo "\$@" >>"$T/opened.txt"
sleep 30
EOS
chmod +x bin/fakebrowser
export BROWSER="$T/bin/fakebrowser"

start=$(date +%s)
run_st 0 -o open.html -t 1 --open sched
[ $(( $(date +%s) - start )) -lt 20 ] || fail "--open waited for the browser"
wait_for 10 test -s opened.txt || fail "--open: browser not started"
assert_contains opened.txt "file://$T/open.html"

# the BROWSER convention: %s is the URL, quoted or not; the URL is
# percent-encoded, so a name with # or % (or a quote) opens itself
rm -f opened.txt
BROWSER="$T/bin/fakebrowser '%s'" run_st 0 --from-file open.html -o "a#b%c 'd.html" --open
wait_for 10 test -s opened.txt || fail "BROWSER with '%s': browser not started"
assert_eq "URL given to BROWSER='prog '%s''" "file://$T/a%23b%25c%20%27d.html" "$(cat opened.txt)"
rm -f opened.txt
BROWSER="$T/bin/fakebrowser --new-window %s" run_st 0 --from-file open.html -o "x;y.html" --open
wait_for 10 test -s opened.txt || fail "BROWSER with %s: browser not started"
assert_eq "URL given to BROWSER='prog --new-window %s'" "--new-window file://$T/x%3By.html" \
    "$(cat opened.txt)"

rm -f opened.txt
SYSTRACE_OPEN=1 run_st 0 --from-file open.html -o again.html
wait_for 10 test -s opened.txt || fail "SYSTRACE_OPEN=1: browser not started"
assert_contains opened.txt "file://$T/again.html"

# no browser at all: one warning, and the capture still succeeds
BROWSER= PATH="$T/nobrowser:/usr/bin:/bin" run_st 0 -o nob.html -t 1 --open sched
if ! command -v xdg-open >/dev/null && ! command -v sensible-browser >/dev/null; then
    assert_contains err.txt "--open: no browser found"
fi
[ -s nob.html ] || fail "--open without a browser lost the page"

# units
run_st 0 -o u.html -t 1500ms -b 32mb sched
assert_contains out.txt "Starting tracing (1.5 seconds)"
[ "$(sim_state buffer_kb)" = 32768 ] || [ "$(grep -c 'atrace.*-b 32768' "$SIM_LOG")" -ge 1 ] ||
    fail "-b 32mb did not reach atrace as 32768 KB"
grep -q "atrace.*-b 32768" "$SIM_LOG" || fail "-b 32mb: atrace not given -b 32768"
run_st 2 -t 3x sched
assert_contains err.txt "option -t: '3x': unknown unit 'x'"
run_st 2 -b 12parsecs sched
assert_contains err.txt "option -b: '12parsecs': unknown unit"
run_st 2 -b 0 sched
assert_contains err.txt "the trace buffer size must be a positive number"

# presets: categories added to the explicit ones, buffer only without -b
run_st 0 -o p.html -t 1 --preset=frames binder_driver
start_line=$(grep "run atrace.*--async_start" "$SIM_LOG" | tail -n 1)
for cat in gfx input view sched freq binder_driver; do
    echo "$start_line" | grep -qw "$cat" || fail "--preset=frames: $cat not traced ($start_line)"
done
echo "$start_line" | grep -q -- "-b 32768" || fail "--preset=frames: its buffer size not used"
run_st 0 -o p2.html -t 1 --preset=power -b 2mb
start_line=$(grep "run atrace.*--async_start" "$SIM_LOG" | tail -n 1)
echo "$start_line" | grep -q -- "-b 2048" || fail "-b did not win over the preset"
echo "$start_line" | grep -qw thermal || fail "--preset=power: thermal not traced"
run_st 2 --preset=nope
assert_contains err.txt "unknown preset 'nope'"
run_st 0 -l
assert_contains out.txt "Presets (--preset=NAME, combinable with categories):"
assert_contains out.txt "frames - jank and frame timing"
echo ok
