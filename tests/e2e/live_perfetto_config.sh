# --perfetto's data sources beyond ftrace and --perfetto-config, through the
# real adb server and the simulator's perfetto (which logs the config it
# received, decoded): the presets ask for the frame timeline, process
# stats, packages list, battery counters and power rails, and a device
# whose SDK lacks one is told once and records the rest; a user's own
# TraceConfig (text and binary, written by protoc from Perfetto's protos)
# reaches the device with its data sources, systrace's stop fields in place
# of its own; every bad config is one line, exit 2, nothing started.
. "$TOP/tests/lib.sh"
. "$TOP/tests/adb-env.sh"
start_adb_server
PROTOS=$TOP/../shared/reference/perfetto-protos

cfg_has() {     # WHAT TEXT...: the last config the device received holds each TEXT
    w=$1; shift
    c=$(sim_state perfetto_config)
    for t in "$@"; do
        case "$c" in *"$t"*) ;; *) fail "$w: no '$t' in the config: $c" ;; esac
    done
}
cfg_lacks() {
    w=$1; shift
    c=$(sim_state perfetto_config)
    for t in "$@"; do
        case "$c" in *"$t"*) fail "$w: '$t' in the config: $c" ;; esac
    done
}

# -- presets: the data sources their goal needs
start_sim
run_st 0 --perfetto -t 1 -o frames.html -e "$SIM_SERIAL" --preset frames
cfg_has frames "sources=linux.ftrace,linux.process_stats,android.surfaceflinger.frametimeline" \
    "categories=gfx,input,view"
assert_not_contains err.txt "lacks"
run_st 0 --perfetto -t 1 -o startup.html -e "$SIM_SERIAL" --preset startup
cfg_has startup "android.surfaceflinger.frametimeline" "android.packages_list" "proc_poll_ms=1000" \
    "process_stats=1"
run_st 0 --perfetto -t 1 -o power.html -e "$SIM_SERIAL" --preset power
cfg_has power "android.power" "battery_poll_ms=1000 power_rails=1"
cfg_lacks power "frametimeline"
# no preset: only ftrace and process names, as before
run_st 0 --perfetto -t 1 -o plain.html -e "$SIM_SERIAL" sched
cfg_has plain "sources=linux.ftrace,linux.process_stats proc_poll_ms=0 battery_poll_ms=0 power_rails=0"
pf_no_session presets

# -- Android 11: no frame timeline; said once, the rest recorded
start_sim --sdk 30
run_st 0 --perfetto -t 1 -o old.html -e "$SIM_SERIAL" --preset startup
cfg_has sdk30 "android.packages_list" "proc_poll_ms=1000"
cfg_lacks sdk30 "frametimeline"
assert_contains err.txt "lacks these Perfetto data sources, left out: android.surfaceflinger.frametimeline (Android SDK 31+)"
[ "$(grep -c 'lacks these' err.txt)" = 1 ] || fail "said more than once: $(cat err.txt)"
[ -s old.html ] || fail "no page"

# -- --perfetto-config: a text config with its own data sources
start_sim
cat >user.pbtx <<'CFG'
# a user's config, as written for Perfetto's record script
buffers { size_kb: 8192 fill_policy: RING_BUFFER }
buffers: { size_kb: 1024 }
data_sources {
  config {
    name: "linux.ftrace"
    ftrace_config {
      ftrace_events: "sched/sched_switch"
      ftrace_events: "power/cpu_frequency"
      atrace_categories: "gfx"
    }
  }
}
data_sources { config { name: "linux.sys_stats" } }
data_sources { config { name: "linux.process_stats" target_buffer: 1 } }
duration_ms: 30000
write_into_file: false
flush_period_ms: 5000
CFG
run_st 0 --perfetto-config user.pbtx -t 1 -o user.html -e "$SIM_SERIAL"
cfg_has text "duration_ms=1000 buffer_kb=8192" "txt=1 write_into_file=1 period_ms=100" \
    "events=sched/sched_switch,power/cpu_frequency categories=gfx apps= sources=linux.ftrace,linux.sys_stats,linux.process_stats"
assert_contains out.txt "user.pbtx: its duration_ms, write_into_file replaced by systrace's"
grep -q "^sh .*flush_period_ms: 5000" "$SIM_LOG" || fail "the user's other fields did not reach the device"
[ -s user.perfetto-trace ] && [ -s user.html ] || fail "no trace or page"
pf_no_session "--perfetto-config text"
# without -t the config's duration_ms is the recording's length
sed 's/duration_ms: 30000/duration_ms: 1500/' user.pbtx >short.pbtx
run_st 0 --perfetto-config short.pbtx -o short.html -e "$SIM_SERIAL"
cfg_has duration "duration_ms=1500"
pf_no_session "duration_ms as -t"

# -- the same config binary, as protoc writes it: sent binary, no --txt
if command -v protoc >/dev/null && [ -f "$PROTOS/perfetto_config.proto" ]; then
    protoc --encode=perfetto.protos.TraceConfig -I "$PROTOS" perfetto_config.proto \
        <user.pbtx >user.pb || fail protoc
    run_st 0 --perfetto-config user.pb -t 1 -o bin.html -e "$SIM_SERIAL"
    cfg_has binary "duration_ms=1000 buffer_kb=8192" "txt=0 write_into_file=1 period_ms=100" \
        "sources=linux.ftrace,linux.sys_stats,linux.process_stats"
    grep -q "^sh .*echo -n '.*| perfetto --background -o " "$SIM_LOG" ||
        fail "the binary config was not sent as binary"
    pf_no_session "--perfetto-config binary"
else
    echo "protoc or $PROTOS absent: the binary config is not tried"
fi

# -- bad configs: one line, exit 2, nothing asked of the device
n=$(sim_state perfetto_sessions)
lines=$(wc -l <"$SIM_LOG")
: >empty.pbtx
head -c 1100000 /dev/zero | tr '\0' '#' >big.pbtx
printf '\001\002\003\377\377\377\377\377\377\377\377\377\377' >junk.pb
printf 'packet { timestamp: 1 }\n' >trace.pbtx
printf 'buffers { size_kb: 1024 }\nduration_ms: 1000\n' >nosources.pbtx
printf 'buffers { size_kb: 1024\ndata_sources { config { name: "linux.ftrace" } }\n' >open.pbtx
printf 'buffers { size_kb: 1 }\ndata_sources { config { name: "x%s" } }\n' \
    "$(head -c 70000 /dev/zero | tr '\0' x)" >long.pbtx
printf 'buffers { size_kb: 1 }\ndata_sources { config { name: "x" } }\nduration_ms: 4294967296\n' \
    >longdur.pbtx
for bad in "missing.pbtx:No such file" "empty.pbtx:empty" "big.pbtx:over 1 MB" \
           "junk.pb:not a TraceConfig" "trace.pbtx:line 1: 'packet' is not a field of a TraceConfig" \
           "nosources.pbtx:a text TraceConfig without data_sources" "open.pbtx:line 3: unterminated block" \
           "long.pbtx:a text TraceConfig of" \
           "longdur.pbtx:duration_ms 4294967296: not a whole number of milliseconds (0 to 4294967295)"; do
    f=${bad%%:*}
    run_st 2 --perfetto-config "$f" -t 1 -o bad.html -e "$SIM_SERIAL"
    assert_contains err.txt "systrace: error: --perfetto-config $f: ${bad#*:}"
    [ "$(wc -l <err.txt)" = 1 ] || fail "$f: more than one line: $(cat err.txt)"
    [ ! -e bad.html ] || fail "$f: a page was written"
done
# a duration longer than -t takes, standing for -t (without one): refused
printf 'buffers { size_kb: 1 }\ndata_sources { config { name: "x" } }\nduration_ms: 4294967295\n' \
    >maxdur.pbtx
run_st 2 --perfetto-config maxdur.pbtx -o bad.html -e "$SIM_SERIAL"
assert_contains err.txt "--perfetto-config maxdur.pbtx: duration_ms 4294967295 is longer than systrace records"
[ "$(wc -l <err.txt)" = 1 ] || fail "maxdur: more than one line: $(cat err.txt)"
for extra in sched "--preset=frames" "-a com.example" "-b 4096"; do
    # shellcheck disable=SC2086
    run_st 2 --perfetto-config user.pbtx -t 1 -o bad.html -e "$SIM_SERIAL" $extra
    assert_contains err.txt "the config names its own data sources"
done
[ "$(sim_state perfetto_sessions)" = "$n" ] || fail "a bad config started a session"
[ "$(wc -l <"$SIM_LOG")" = "$lines" ] || { tail -n +"$((lines + 1))" "$SIM_LOG"; fail "a bad config reached the device"; }

# -- Android 9 has no --txt: a text config is refused there, nothing started
start_sim --sdk 28
run_st 1 --perfetto-config user.pbtx -t 1 -o p.html -e "$SIM_SERIAL"
assert_contains err.txt "a text config, and the device's perfetto (Android 9, SDK 28) reads only binary ones"
[ "$(sim_state perfetto_sessions)" = 0 ] || fail "Android 9: a session was started"
if [ -s user.pb ]; then
    run_st 0 --perfetto-config user.pb -t 1 -o p9.html -e "$SIM_SERIAL"
    cfg_has android9 "txt=0" "sources=linux.ftrace,linux.sys_stats,linux.process_stats"
fi
pf_no_session "Android 9"
echo ok
