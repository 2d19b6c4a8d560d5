/* The option table; see optdefs.h.  Also compiled into the build-time man
 * page generator (scripts/genman.c), so it depends on nothing else. */
#include "optdefs.h"

#include <stddef.h>

const char *const opt_section_titles[SEC_COUNT] = {
    "Options",
    "Atrace options",
    "Method traces (.trace files from Debug.startMethodTracing, am profile, Studio)",
    "Ftrace options (--target=linux: this machine's kernel, as root)",
    "Viewer",
};

const struct optdef st_optdefs[] = {
    {"output", 'o', "FILE", 'o', SEC_GENERAL, 0,
     "write the result to FILE (default trace.html, or the --from-file name with .html; "
     "a default file that exists is kept and NAME-1.html, NAME-2.html, ... is used)",
     "For standard input (--from-file -) the default is trace.html. A FILE given with -o is "
     "written as asked. A symlink is followed and its target replaced; /dev/null, a FIFO or - (stdout) are "
     "written in place, never replaced. A page being replaced keeps its mode. A directory, "
     "or a directory that does not exist, is refused before tracing starts."},
    {"time", 't', "N", 't', SEC_GENERAL, 0,
     "trace for N seconds, or with a unit: 500ms, 10s, 2m, 1h (default: until Enter)",
     "Without it (or with 0) tracing goes on until Enter is pressed, or Ctrl-C. When standard "
     "input is not a terminal and ends without an Enter (a script, cron, `&`), tracing goes "
     "on until a signal (Ctrl-C, SIGHUP), and a line says so. On a terminal a countdown (or "
     "the elapsed time) is shown."},
    {"buf-size", 'b', "N", 'b', SEC_GENERAL, 0,
     "per-CPU trace buffer in KB, or with a unit: 32mb, 64MiB, 1g",
     "Default on Android as catapult: 4096 with sched, 8192 with sched and webview, else "
     "atrace's own (a preset may set its own); 4096 for --target=linux, and with --stream "
     "16384 (256 MB in all at most, never less than 4096), slack for the moments the reader "
     "falls behind. Sizes are binary: 1 MB = 1024 KB."},
    {"json", 'j', NULL, 'j', SEC_GENERAL, 0,
     "write catapult's JSON form instead of HTML", NULL},
    {"serial", 'e', "SERIAL", 'e', SEC_GENERAL, 0,
     "device serial (default: $ANDROID_SERIAL, or the only device); with --transport direct: "
     "HOST:PORT (TCP) or a USB serial; given several times, traces those devices at once",
     "With several devices each gets its own page, named after the output with the serial "
     "before the extension (trace-SERIAL.html; characters other than letters, digits, '.', "
     "'_' and '-' in the serial become '_'), and likewise its --trace-events and --summary "
     "files and raw dump. Tracing starts on all, one countdown, Enter or Ctrl-C ends it on all, and they "
     "are collected in parallel. A device that fails costs no other its page: each device's "
     "outcome is printed on one line, and the exit status is non-zero if any failed."},
    {"all-devices", 0, NULL, OPT_ALL_DEVICES, SEC_GENERAL, 0,
     "trace every device the adb server lists in state \"device\", at once (as several -e)",
     NULL},
    {"transport", 0, "auto|server|direct", OPT_TRANSPORT, SEC_GENERAL, 0,
     "reach the device through the adb server, or directly over USB/TCP without one "
     "(default auto: the server when one answers, else direct; on Windows direct is TCP "
     "only)",
     "Direct connections authenticate with ~/.android/adbkey (on Windows "
     "%USERPROFILE%\\.android\\adbkey), made when missing (docs/direct-transport.md). "
     "On Windows direct USB is not available (adb's driver owns the device there): use the "
     "adb server, or direct TCP (-e HOST:PORT)."},
    {"list-categories", 'l', NULL, 'l', SEC_GENERAL, 0,
     "list the categories the device offers, and the presets", NULL},
    {"preset", 0, "frames|startup|power", OPT_PRESET, SEC_GENERAL, 0,
     "add a named set of categories (-l lists them); combinable with categories",
     "frames: jank and frame timing (gfx input view webview wm am hal res dalvik sched freq "
     "idle sync, -b 32mb); startup: app start-up (am wm dalvik view gfx res pm ss "
     "binder_driver binder_lock sched freq idle disk, -b 32mb); power: CPU frequency, idle "
     "states, wakeups and thermal (power freq idle sched workq memreclaim thermal). A "
     "preset's buffer size applies only without -b; categories the device lacks are dropped "
     "with the usual warning. With --perfetto a preset also records the Perfetto data "
     "sources its goal needs: frames the SurfaceFlinger frame timeline (Android 12+); "
     "startup process stats every second, the frame timeline and the packages list "
     "(Android 10+); power battery counters (charge, capacity, current, voltage, every "
     "second) and power rails (android.power, Android 10+; devices without a power-stats "
     "HAL record no rails). A source the device's SDK lacks is named once and left out."},
    {"target", 0, "android|linux", OPT_TARGET, SEC_GENERAL, 0,
     "trace an Android device (default) or this machine's kernel", NULL},
    {"timeout", 0, "S", OPT_TIMEOUT, SEC_GENERAL, 0,
     "give up a device step after S seconds (default 30; units as for -t); also how long to "
     "wait for a device whose connection dropped", NULL},
    {"collection-timeout", 0, "S", OPT_COLL_TIMEOUT, SEC_GENERAL, 0,
     "give up collecting the trace after S seconds (units as for -t)",
     "The device is stopped; the bytes received so far are kept beside the output and the "
     "message names the file."},
    {"trace-events", 0, "FILE", OPT_TRACE_EVENTS, SEC_GENERAL, 0,
     "also write the trace as Chrome trace-event JSON to FILE (opens in Perfetto UI, "
     "chrome://tracing, speedscope)",
     "Slices, counters, async slices, CPU slices, process and thread names; ts in "
     "microseconds. Works for live captures and --from-file."},
    {"summary", 0, "FILE", OPT_SUMMARY, SEC_GENERAL, 0,
     "also write the summary printed after a capture or conversion as JSON to FILE (for "
     "scripts and CI)",
     "After every capture and conversion a few lines say what the trace holds (not with "
     "-q): its length, CPUs, events and lost events, CPU time of the busiest processes, "
     "frames and janky frames (longer than 1/60 s, or one vsync of a faster display the "
     "trace's VSYNC counters show) of the apps with the most frames, and "
     "requested categories that recorded nothing. FILE gets the same as JSON: duration_s, "
     "cpus, events, lost_events, processes (pid, name, cpu_ms, most first), frames (pid, "
     "process, frames, janky, worst_ms, worst_at_s), frame_budget_ms, display_hz, "
     "categories_without_events, event_counts. The numbers are the ones Perfetto's trace "
     "processor gives on the same page: CPU time from sched_switch (idle left out), frames "
     "from Choreographer#doFrame slices (RenderThread DrawFrame for an app without any). "
     "With several devices each gets its own FILE, named after the serial as the pages "
     "are."},
    {"rows", 0, "FILE", OPT_ROWS, SEC_GENERAL, 0,
     "with --from-file of many traces (files or directories, more after the first), or "
     "after a capture (--all-devices): one row per metric per trace into FILE, JSON Lines "
     "(.jsonl) or CSV (.csv), for DuckDB, BigQuery or systrace compare",
     "Columns: trace, serial, model, android_version, fingerprint, capture_time, metric "
     "(compare's names: cpu.PROCESS, frames.PROCESS.dur_p90, slices.NAME.mean_ms ...), "
     "dimension (the process or slice name), value, error; unknown values are null (empty "
     "in CSV). The traces are converted at once by -J workers, the rows written in the "
     "inputs' order. A trace that cannot be read is a row with error set and a line on "
     "stderr; the batch goes on. Exit 0 when every trace gave rows, 100 + the number that "
     "failed (at most 200) otherwise, 1 when FILE cannot be written. FILE appears only "
     "when complete. A progress line on a terminal. After a capture: a row per metric "
     "per device, with its serial, model, Android release, build fingerprint and the "
     "capture's start (UTC); a failed device is an error row; FILE is checked before "
     "tracing and the exit status is the capture's."},
    {"time-range", 0, "RANGE", OPT_TIME_RANGE, SEC_GENERAL, 0,
     "keep only a time range of the trace: START..END in seconds from its start (units "
     "ns, us, ms, s, min, h; an end may be left out), ts:START..END in the trace's own "
     "clock, or slice:NAME[#N][+-D] around the Nth slice NAME (D more each side)",
     "Works for every input of --from-file and for live captures. A slice open at the "
     "start begins there again, named \"NAME (cut)\"; one open at the end ends there; "
     "process and thread names, the clock sync and the counters' last values before the "
     "range are kept, so the piece opens alone. An empty range, one outside the trace, a "
     "slice not found or a piece without events is an error (exit 1, the trace's span "
     "said) and writes nothing (docs/pieces.md)."},
    {"process", 0, "LIST", OPT_PROCESS, SEC_GENERAL, 0,
     "keep only these processes (names or pids, comma-separated) and their threads; other "
     "processes' CPU time stays on the CPU tracks as \"other\"",
     "A name matches a process's name, its last path component, or its main thread's "
     "name as the kernel cuts it (15 bytes). An unknown process is an error (exit 1, the "
     "busiest processes named) and writes nothing."},
    {"process-and-deps", 0, "LIST", OPT_PROCESS_DEPS, SEC_GENERAL, 0,
     "as --process, and also keep the processes whose threads woke or called theirs, or "
     "that theirs woke or called (wakeups, binder transactions, anywhere in the trace)",
     NULL},
    {"split", 0, "SIZE|TIME", OPT_SPLIT, SEC_GENERAL, 0,
     "write the trace in pieces of about SIZE of trace (256mb, 1g; a page adds its "
     "viewer) or TIME (10s, 500ms): NAME.001.html, NAME.002.html, ..., each one opening "
     "alone",
     "Every piece carries the process and thread names, the clock sync and the counters' "
     "last values before it; slices cut at a boundary are closed and reopened, marked as "
     "cut. SIZE counts the trace's ftrace text (a piece ends at the first later event "
     "after it, so it holds a little more); TIME runs from the range's start. Each "
     "piece is reported with its window; --trace-events, --summary and --open are refused "
     "with it. -o DIR (a directory) writes the pieces into it under the default name. With "
     "a Perfetto trace as the output the pieces are Perfetto traces, each at most SIZE."},
    {"output-format", 0, "FORMAT", OPT_OUTPUT_FORMAT, SEC_GENERAL, 0,
     "html (the default), json (as -j) or perfetto: with a Perfetto trace as the input, "
     "write the piece as a Perfetto trace (also chosen by -o NAME.perfetto-trace or "
     "NAME.pftrace, which another FORMAT given contradicts)",
     "The Perfetto output keeps the packets of the piece and re-emits what they need "
     "(interned data, track and process descriptors, clock snapshots, process trees), so "
     "Perfetto loads each piece alone; slices crossing a boundary are ended and begun "
     "again there (marked cut_start/cut_end). The input must be a Perfetto trace file; "
     "--process-and-deps is not yet supported with it, nor a live capture (a --perfetto "
     "capture keeps the device's whole trace beside the page)."},
    {NULL, 'J', "N", 'J', SEC_GENERAL, 0,
     "--rows: convert N traces at once (default: one per CPU)", NULL},
    {"from-file", 0, "FILE", OPT_FROM_FILE, SEC_GENERAL, 0,
     "convert a saved trace instead of tracing: atrace output (raw or -z), ftrace text, a "
     "systrace HTML page, JSON (systrace's own -j and --trace-events too), a Perfetto "
     "protobuf trace (its ftrace events), a method trace, any of them but the last "
     "gzipped; detected by content; - reads standard input",
     "Also any line endings and a bare zlib stream. Catapult's -j form is unpacked into its "
     "parts; trace-event JSON is kept as one part. Every output of systrace converts back "
     "to the same trace. A text line longer than 64 MB is cut to its first 64 MB with a "
     "warning, as captures cut it. Refused (exit 1, no output): input without a single "
     "trace event, which would be a blank page; a text line longer than 64 MB before any "
     "trace event, a JSON string or run of blanks longer than 64 MB; invalid JSON (the message names the byte, counted from 0); a Perfetto trace "
     "with neither ftrace events nor track events (open it in ui.perfetto.dev; track "
     "events and descriptors become trace-event JSON beside the ftrace text, kinds not "
     "converted are counted in a note). JSON cut short is closed after "
     "its last complete event, a Perfetto trace cut short keeps its complete packets "
     "(exit 3)."},
    {"open", 0, "perfetto", OPT_OPEN, SEC_GENERAL, OPTF_OPTARG,
     "open the written page in a browser ($BROWSER, xdg-open or sensible-browser; on "
     "macOS $BROWSER or open; on Windows $BROWSER or the program .html files open with); also "
     "SYSTRACE_OPEN=1. --open=perfetto (SYSTRACE_OPEN=perfetto) opens the Perfetto trace "
     "(--perfetto's, or --from-file's input) in ui.perfetto.dev instead",
     "The browser is started detached and never waited for; one that fails within 1.5 s "
     "(not found, xdg-open without a method) counts as not started. When none starts, one "
     "warning line names the page and the run still succeeds; with -j (JSON, no page) a "
     "warning says so. --open=perfetto does what Perfetto's "
     "record script does: it serves the trace once from http://127.0.0.1:9001/NAME (the "
     "port ui.perfetto.dev trusts, with the CORS header for its origin), opens "
     "https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/NAME, and stops serving once the "
     "file was fetched, or after 120 seconds (SYSTRACE_OPEN_TIMEOUT) or Ctrl-C (the run "
     "still succeeds), saying so; it answers only requests for 127.0.0.1 or localhost. "
     "Without a Perfetto trace (an atrace capture, a --from-file of another format or of "
     "standard input) it serves the written page or JSON, which ui.perfetto.dev reads too; "
     "with several devices it serves each device's trace and opens one tab per device. If "
     "the port is taken or no browser starts, a warning or the URL to open says so and the "
     "run still succeeds."},
    {"stream", 0, NULL, OPT_STREAM, SEC_GENERAL, 0,
     "read the trace while tracing, so a capture of any length keeps every event (spooled "
     "beside the output): on Android through the device's atrace --stream, with "
     "--target=linux through each CPU's trace_pipe",
     "Host memory stays flat; the page is the usual one (split into blocks when huge). On a "
     "terminal the line while tracing shows the bytes and events received and the rate. Lost "
     "events are counted and reported. A device whose atrace cannot stream (before Android "
     "7) has its trace buffer dumped every second instead, with a warning. If the stream "
     "breaks off (a dropped link), the page is written from what arrived, the message says "
     "the capture was cut short, and the exit status is 3."},
    {"perfetto", 0, NULL, OPT_PERFETTO, SEC_GENERAL, 0,
     "record through the device's own perfetto (Android 9+): keeps the Perfetto trace as "
     "OUT.perfetto-trace beside the page and writes the page from it",
     "-t, -b (the trace buffer, drained into the device's file every 250 ms: a capture "
     "can be of any length; default 64 MB), categories (kernel ones become ftrace "
     "events, sched with compact sched; userspace ones atrace categories), -a, presets (and "
     "their data sources, see --preset), --perfetto-config FILE (your own TraceConfig), "
     "several devices and Enter/Ctrl-C mean what they mean for atrace. Process names come "
     "from linux.process_stats. A category with no Perfetto equivalent is named and dropped. "
     "While it records one device shell loop waits for the session (no process per poll); "
     "a session that ends on its own ends the wait. The file is read as the session writes "
     "it (tail -f) and converted into the page while it records, so after the stop only its "
     "last piece is left to fetch and convert; where it cannot be followed it is pulled at "
     "the end. "
     "Refused while atrace tracing is on (debug.atrace.user_initiated=1; and an atrace "
     "capture while a Perfetto session records); where traced is off (Android 9/10) it is "
     "turned on, saying so. Not with --stream, --target=linux, --app-profile, -k or "
     "--from-file (a usage error). Every exit "
     "path stops the session and removes its file from the device; a link that drops is "
     "waited out (--timeout); a trace that can be neither pulled nor read with cat leaves "
     "nothing written and says why; if the conversion fails "
     "the .perfetto-trace is kept and the message says so."},
    {"perfetto-config", 0, "FILE", OPT_PERFETTO_CONFIG, SEC_GENERAL, 0,
     "record with --perfetto using your own TraceConfig (text, or binary as Perfetto's "
     "record_android_trace takes it); systrace still starts, stops, fetches, cleans up and "
     "converts",
     "Text or binary is told from the bytes. Checked before any device is asked: a file that "
     "cannot be read, is empty or over 1 MB, is not a TraceConfig (malformed, a field "
     "TraceConfig does not have, no buffers or no data_sources) or does not fit in one device "
     "command (text about 58 KB, binary about 11 KB) is refused with one line and exit status "
     "2. Its buffers and data sources are used as they are; duration_ms, write_into_file, "
     "file_write_period_ms and output_path are systrace's (it reads the file as the session "
     "writes it and stops the session at -t, Enter or Ctrl-C), and a note says which ones it "
     "replaced. Without -t the config's duration_ms is the recording's length. Implies "
     "--perfetto; categories, --preset, -a and -b are refused with it. Android 9 (no --txt) "
     "takes only a binary config."},
    {"launch", 0, "PKG[/ACTIVITY]", OPT_LAUNCH, SEC_GENERAL, 0,
     "measure an app's startup: prepare it (--launch-mode), start tracing with the startup "
     "preset, launch it with am start -W, stop once it is fully drawn (at most -t, "
     "default 20 s) and report the startup",
     "PKG is a Java package name, ACTIVITY a class name (.Main or com.example.Main); without "
     "it the package's launcher activity is used (cmd package resolve-activity). Both are "
     "checked before anything reaches the device. A package that is not installed, an "
     "activity that does not exist, a launch that never draws its first frame (am start -W "
     "says Status: timeout): one line, exit status 1, tracing stopped. The startup preset is "
     "added; works with atrace and --perfetto, on one device. The summary's Startups line "
     "(and --summary's startups[]) reports the launch. The capture stops 0.5 s after the app's "
     "reportFullyDrawn (logcat's Fully drawn line), or 5 s after its first frame when none "
     "comes. An app that was not running before is force-stopped again afterwards."},
    {"launch-mode", 0, "cold|warm|hot", OPT_LAUNCH_MODE, SEC_GENERAL, 0,
     "with --launch: the startup to measure (default cold)",
     "As Macrobenchmark does: cold stops the app first (am force-stop); warm launches it once "
     "untraced, goes Home (input keyevent KEYCODE_HOME), then launches it with "
     "--activity-clear-task (the process alive, the activity made anew); hot launches it once "
     "untraced, goes Home, then brings the same activity back."},
    {"runs", 0, "N", OPT_RUNS, SEC_GENERAL, 0,
     "with --launch: measure N launches (1-100), each into its own trace NAME-1.html ... "
     "NAME-N.html, the device prepared anew before each",
     "Each run prints its own summary (its Startups line) after \"Run k of N:\", then one "
     "line for all: Startup of PKG (TYPE) over N runs: median X ms, min Y, max Z. With "
     "--summary FILE each run's JSON goes to FILE-k (FILE-1.json ...) and FILE holds runs[] "
     "and startups[] with each number's median and its min and max. The runs stop at the "
     "first that fails or at Ctrl-C."},
    {"quiet", 'q', NULL, 'q', SEC_GENERAL, 0, "print only errors", NULL},
    {"version", 0, NULL, OPT_VERSION, SEC_GENERAL, 0, "print the version and exit", NULL},
    {"help", 'h', NULL, 'h', SEC_GENERAL, 0, "print this help and exit", NULL},

    {"atrace-categories", 0, "a,b,c", OPT_ATRACE_CATS, SEC_ATRACE, 0,
     "categories as a comma list (positional ones win)", NULL},
    {"ktrace", 'k', "FUNCS", 'k', SEC_ATRACE, 0,
     "trace these kernel functions (comma list; needs root)", NULL},
    {"no-compress", 0, NULL, OPT_NO_COMPRESS, SEC_ATRACE, 0,
     "ask the device for uncompressed trace data", NULL},
    {"app", 'a', "APPS", 'a', SEC_ATRACE, 0,
     "enable app-level tracing for these cmdlines (comma list)", NULL},
    {"app-profile", 0, "PROCESS", OPT_APPPROF, SEC_ATRACE, 0,
     "while tracing, method-trace this app (am profile) and add its method slices to the "
     "result, aligned with atrace",
     "PROCESS is a process name or pid. The trace is pulled from the device and its calls "
     "become slices on tracks \"THREAD (methods)\" of the app's process, aligned by atrace's "
     "trace_event_clock_sync markers, then by pairing the app's Trace.beginSection calls with "
     "its B|pid|name lines; the offset, residual and number of matched sections are printed. "
     "A method trace that lands outside the capture once aligned (recorded in another "
     "session) is left out with a warning; the atrace data is written as usual "
     "(docs/app-profile.md)."},
    {"app-profile-sampling", 0, "US", OPT_APPSAMPLE, SEC_ATRACE, 0,
     "with --app-profile: sample every US microseconds instead of tracing every call", NULL},

    {"method-profile", 0, "X.trace", OPT_MPROFILE, SEC_METHOD, 0,
     "print the profile dmtracedump prints (inclusive/exclusive time, calls, parents and "
     "children); -o FILE to save it", NULL},
    {"method-profile-format", 0, "text|tsv", OPT_MFORMAT, SEC_METHOD, 0,
     "the profile as dmtracedump's text (default) or tab-separated values", NULL},
    {"method-clock", 0, "default|cpu|wall", OPT_MCLOCK, SEC_METHOD, 0,
     "clock for profiles of dual-clock traces (default: the first column, as dmtracedump)",
     NULL},
    {"call-graph", 0, "OUT.dot", OPT_CALLGRAPH, SEC_METHOD, 0,
     "write the call graph (Graphviz) dmtracedump -g draws of the .trace given as argument",
     NULL},
    {"call-graph-threshold", 0, "PCT", OPT_CGTHRESH, SEC_METHOD, 0,
     "leave out methods under PCT% of the time (default 20)", NULL},
    {"method-json", 0, "OUT", OPT_MJSON, SEC_METHOD, 0,
     "write the method calls of the .trace given as argument as trace-event JSON (- for "
     "stdout)", NULL},

    {"ftrace-categories", 0, "a,b", OPT_FTRACE_CATS, SEC_FTRACE, 0,
     "categories as a comma list (default sched); -l lists them; SUBSYSTEM/EVENT names one "
     "kernel event, SUBSYSTEM/* a subsystem", NULL},
    {"viewer", 0, "FILE", OPT_VIEWER, SEC_VIEWER, 0,
     "trace viewer HTML to embed (webcomponents.min.js beside it); default: "
     "$SYSTRACE_VIEWER, the --update-viewer download, Debian's golang-1.19-src copy, the "
     "copy built in",
     "Each is checked against known sha256 sums."},
    {"update-viewer", 0, NULL, OPT_UPDATE_VIEWER, SEC_VIEWER, 0,
     "download the trace viewer and its polyfill (pinned AOSP chromium-trace files, "
     "sha256-checked) into $XDG_CACHE_HOME/systrace/ (default ~/.cache/systrace/; on macOS "
     "~/Library/Caches/systrace/, on Windows %LOCALAPPDATA%\\systrace) "
     "and exit; --timeout applies",
     "Files are stored atomically; a failed or wrong download never replaces a good cached "
     "copy."},
    {"viewer-url", 0, "URL", OPT_VIEWER_URL, SEC_VIEWER, 0,
     "base URL for --update-viewer (default: the pinned AOSP gitiles commit; "
     "$SYSTRACE_VIEWER_URL)",
     "Files are fetched as URL/PATH?format=TEXT, base64 (gitiles) or raw."},

    {"link-assets", 0, NULL, OPT_LINK_ASSETS, SEC_VIEWER, OPTF_HIDDEN, "deprecated", NULL},
    {"asset-dir", 0, "DIR", OPT_ASSET_DIR, SEC_VIEWER, OPTF_HIDDEN, "deprecated", NULL},
};

const unsigned st_noptdefs = sizeof(st_optdefs) / sizeof(st_optdefs[0]);
