/* Command-line parsing; see options.h.  Help text lives here too, so
 * options and their descriptions change together. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_TARGET = 256, OPT_TIMEOUT, OPT_COLL_TIMEOUT, OPT_ATRACE_CATS, OPT_NO_COMPRESS,
    OPT_FROM_FILE, OPT_FTRACE_CATS, OPT_VIEWER, OPT_TRANSPORT, OPT_LINK_ASSETS, OPT_ASSET_DIR,
    OPT_VERSION, OPT_MPROFILE, OPT_MFORMAT, OPT_MCLOCK, OPT_CALLGRAPH, OPT_CGTHRESH,
    OPT_MJSON, OPT_APPPROF, OPT_APPSAMPLE, OPT_STREAM,
    OPT_VIEWER_URL, OPT_UPDATE_VIEWER, OPT_TRACE_EVENTS,
};

static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"time", required_argument, NULL, 't'},
    {"buf-size", required_argument, NULL, 'b'},
    {"json", no_argument, NULL, 'j'},
    {"serial", required_argument, NULL, 'e'},
    {"list-categories", no_argument, NULL, 'l'},
    {"ktrace", required_argument, NULL, 'k'},
    {"app", required_argument, NULL, 'a'},
    {"quiet", no_argument, NULL, 'q'},
    {"target", required_argument, NULL, OPT_TARGET},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"collection-timeout", required_argument, NULL, OPT_COLL_TIMEOUT},
    {"atrace-categories", required_argument, NULL, OPT_ATRACE_CATS},
    {"ftrace-categories", required_argument, NULL, OPT_FTRACE_CATS},
    {"no-compress", no_argument, NULL, OPT_NO_COMPRESS},
    {"from-file", required_argument, NULL, OPT_FROM_FILE},
    {"viewer", required_argument, NULL, OPT_VIEWER},
    {"transport", required_argument, NULL, OPT_TRANSPORT},
    {"link-assets", no_argument, NULL, OPT_LINK_ASSETS},
    {"asset-dir", required_argument, NULL, OPT_ASSET_DIR},
    {"version", no_argument, NULL, OPT_VERSION},
    {"method-profile", required_argument, NULL, OPT_MPROFILE},
    {"method-profile-format", required_argument, NULL, OPT_MFORMAT},
    {"method-clock", required_argument, NULL, OPT_MCLOCK},
    {"call-graph", required_argument, NULL, OPT_CALLGRAPH},
    {"call-graph-threshold", required_argument, NULL, OPT_CGTHRESH},
    {"method-json", required_argument, NULL, OPT_MJSON},
    {"app-profile", required_argument, NULL, OPT_APPPROF},
    {"app-profile-sampling", required_argument, NULL, OPT_APPSAMPLE},
    {"stream", no_argument, NULL, OPT_STREAM},
    {"viewer-url", required_argument, NULL, OPT_VIEWER_URL},
    {"update-viewer", no_argument, NULL, OPT_UPDATE_VIEWER},
    {"trace-events", required_argument, NULL, OPT_TRACE_EVENTS},
    {NULL, 0, NULL, 0},
};

void options_usage(void)
{
    fputs(
"Usage: systrace [options] [category1 [category2 ...]]\n"
"\n"
"Capture a system trace from an Android device (through the adb server) or\n"
"from this machine's kernel (--target=linux, as root), or convert a saved\n"
"trace, and write one self-contained HTML page.\n"
"Example: systrace -b 32768 -t 15 gfx input view sched freq\n"
"\n"
"Options:\n"
"  -o FILE               write the result to FILE (default trace.html, or the\n"
"                        --from-file name with .html)\n"
"  -t N, --time=N        trace for N seconds (default: until Enter is pressed)\n"
"  -b N, --buf-size=N    per-CPU trace buffer size in KB (default as catapult;\n"
"                        linux: 4096, with --stream 16384)\n"
"  -j, --json            write catapult's JSON form instead of HTML\n"
"  -e SERIAL, --serial=SERIAL\n"
"                        device serial (default: $ANDROID_SERIAL, or the only device);\n"
"                        with --transport direct: HOST:PORT (TCP) or a USB serial\n"
"  --transport=auto|server|direct\n"
"                        reach the device through the adb server, or directly over\n"
"                        USB/TCP without one (default auto: the server when one\n"
"                        answers, else direct)\n"
"  -l, --list-categories list the categories the device offers\n"
"  --target=android|linux\n"
"                        trace an Android device (default) or this machine\n"
"  --timeout=S           give up a device step after S seconds\n"
"  --collection-timeout=S\n"
"                        give up collecting the trace after S seconds\n"
"  --trace-events=FILE   also write the trace as Chrome trace-event JSON to FILE\n"
"                        (opens in Perfetto UI, chrome://tracing, speedscope)\n"
"  -q, --quiet           print only errors\n"
"  --version             print the version and exit\n"
"\n"
"Atrace options:\n"
"  --atrace-categories=a,b,c\n"
"                        categories as a comma list (positional ones win)\n"
"  -k F, --ktrace=F      trace the given kernel functions (comma list)\n"
"  --no-compress         ask the device for uncompressed trace data\n"
"  -a APPS, --app=APPS   enable app-level tracing for these cmdlines (comma list)\n"
"  --from-file=FILE      convert a saved trace instead of tracing: atrace output\n"
"                        (raw or -z), ftrace text, a systrace HTML page, JSON,\n"
"                        any of them gzipped; detected by content\n"
"\n"
"Method traces (.trace files from Debug.startMethodTracing, am profile, Studio):\n"
"  --from-file=X.trace   method calls as slices per thread on the timeline\n"
"  --method-profile=X.trace\n"
"                        print the profile dmtracedump prints (inclusive/exclusive\n"
"                        time, calls, parents and children); -o FILE to save it\n"
"  --method-profile-format=text|tsv\n"
"  --method-clock=default|cpu|wall\n"
"                        clock for profiles of dual-clock traces (default: the\n"
"                        first column, as dmtracedump)\n"
"  --call-graph=OUT.dot X.trace\n"
"                        write the call graph (Graphviz) dmtracedump -g draws\n"
"  --call-graph-threshold=PCT\n"
"                        leave out methods under PCT% of the time (default 20)\n"
"  --method-json=OUT X.trace\n"
"                        write the method calls as trace-event JSON (- for stdout)\n"
"  --app-profile=PROCESS while tracing, method-trace this app (am profile) and add\n"
"                        its method slices to the result, aligned with atrace\n"
"  --app-profile-sampling=US\n"
"                        sample every US microseconds instead of tracing every call\n"
"\n"
"Ftrace options (--target=linux: this machine's kernel, as root):\n"
"  --ftrace-categories=a,b\n"
"                        categories as a comma list (default sched); -l lists\n"
"                        them; SUBSYSTEM/EVENT names one kernel event\n"
"  --stream              read the trace while tracing, so a capture of any\n"
"                        length keeps every event (spooled beside the output)\n"
"  -k F1,F2              trace these kernel functions; -b, -t as above\n"
"\n"
"Viewer:\n"
"  --viewer=FILE         trace viewer HTML to embed (webcomponents.min.js beside\n"
"                        it); default: $SYSTRACE_VIEWER, the --update-viewer\n"
"                        download, Debian's golang-1.19-src copy, the copy built in\n"
"  --update-viewer       download the trace viewer and its polyfill (pinned AOSP\n"
"                        chromium-trace files, sha256-checked) into\n"
"                        $XDG_CACHE_HOME/systrace/ and exit; --timeout=S applies\n"
"  --viewer-url=URL      base URL for --update-viewer (default: the pinned AOSP\n"
"                        gitiles commit; $SYSTRACE_VIEWER_URL)\n"
"\n"
"Environment: ANDROID_SERIAL, ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_ADDRESS,\n"
"ANDROID_ADB_SERVER_PORT, SYSTRACE_VIEWER, SYSTRACE_VIEWER_URL, XDG_CACHE_HOME,\n"
"https_proxy/http_proxy/no_proxy (downloads), SYSTRACE_DEBUG=adb,sync,atrace,...,\n"
"SYSTRACE_FTRACE_INSTANCE=0, SYSTRACE_KEEP_RAW=1 (--target=linux, docs/linux.md)\n"
"Ctrl-C while tracing stops early and keeps the trace; a second Ctrl-C exits.\n"
"Exit status: 0 success, 1 failure (no output written), 2 bad command line,\n"
"3 output written from a truncated input, 130 interrupted, 143 terminated.\n", stdout);
}

/* Strict integer >= min; catapult's wording on failure. */
static int int_arg(const char *s, const char *opt, int *out, int min, const char *range_msg,
                   char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < -2147483647L || v > 2147483647L) {
        snprintf(err, errlen, "option %s: invalid integer value: '%s'", opt, s);
        return 2;
    }
    if (v < min) {
        snprintf(err, errlen, "%s", range_msg);
        return 2;
    }
    *out = (int)v;
    return 0;
}

/* Split every string on ',' into o->categories (empty items dropped). */
static int set_categories(struct st_options *o, char **items, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += strlen(items[i]) + 1;
    free(o->catbuf);
    free(o->categories);
    o->catbuf = malloc(total + 1);
    o->categories = calloc(total + 1, sizeof(char *));
    o->ncategories = 0;
    if (!o->catbuf || !o->categories)
        return -1;
    char *w = o->catbuf;
    for (size_t i = 0; i < n; i++) {
        const char *s = items[i];
        while (*s) {
            size_t l = strcspn(s, ",");
            if (l) {
                memcpy(w, s, l);
                w[l] = '\0';
                o->categories[o->ncategories++] = w;
                w += l + 1;
            }
            s += l;
            if (*s == ',')
                s++;
        }
    }
    return 0;
}

static int one_option(struct st_options *o, int c, char *arg, const char **atrace_cats,
                      char *err, size_t errlen)
{
    switch (c) {
    case 'h': o->show_help = 1; return 0;
    case OPT_VERSION: o->show_version = 1; return 0;
    case 'o': o->output = arg; return 0;
    case 't':
        return int_arg(arg, "-t", &o->time_s, 0,
                       "the trace time must be a non-negative number", err, errlen);
    case 'b':
        return int_arg(arg, "-b", &o->buf_kb, 1,
                       "the trace buffer size must be a positive number", err, errlen);
    case 'j': o->json = 1; return 0;
    case 'e': o->serial = arg; return 0;
    case 'l': o->list_categories = 1; return 0;
    case 'k': o->kfuncs = arg; return 0;
    case 'a': o->apps = arg; return 0;
    case 'q': o->quiet = 1; return 0;
    case OPT_TIMEOUT:
        return int_arg(arg, "--timeout", &o->timeout_s, 1,
                       "the timeout must be a positive number of seconds", err, errlen);
    case OPT_COLL_TIMEOUT:
        return int_arg(arg, "--collection-timeout", &o->collection_timeout_s, 1,
                       "the collection timeout must be a positive number of seconds",
                       err, errlen);
    case OPT_ATRACE_CATS: *atrace_cats = arg; return 0;
    case OPT_FTRACE_CATS: o->ftrace_categories = arg; return 0;
    case OPT_NO_COMPRESS: o->compress = 0; return 0;
    case OPT_FROM_FILE: o->from_file = arg; return 0;
    case OPT_STREAM: o->stream = 1; return 0;
    case OPT_VIEWER: o->viewer = arg; return 0;
    case OPT_TRANSPORT:
        if (!strcmp(arg, "auto"))
            o->transport = TRANSPORT_AUTO;
        else if (!strcmp(arg, "server"))
            o->transport = TRANSPORT_SERVER;
        else if (!strcmp(arg, "direct"))
            o->transport = TRANSPORT_DIRECT;
        else {
            snprintf(err, errlen, "unknown transport '%s' (use auto, server or direct)", arg);
            return 2;
        }
        return 0;
    case OPT_MPROFILE: o->method_profile = arg; return 0;
    case OPT_MFORMAT: o->method_profile_format = arg; return 0;
    case OPT_MCLOCK: o->method_clock = arg; return 0;
    case OPT_CALLGRAPH: o->call_graph = arg; return 0;
    case OPT_CGTHRESH: o->call_graph_threshold = arg; return 0;
    case OPT_MJSON: o->method_json = arg; return 0;
    case OPT_APPPROF: o->app_profile = arg; return 0;
    case OPT_APPSAMPLE:
        return int_arg(arg, "--app-profile-sampling", &o->app_profile_sampling, 1,
                       "--app-profile-sampling must be at least 1 (microseconds)", err, errlen);
    case OPT_VIEWER_URL: o->viewer_url = arg; return 0;
    case OPT_UPDATE_VIEWER: o->update_viewer = 1; return 0;
    case OPT_TRACE_EVENTS: o->trace_events = arg; return 0;
    case OPT_TARGET:
        if (!strcmp(arg, "android"))
            o->target = TARGET_ANDROID;
        else if (!strcmp(arg, "linux"))
            o->target = TARGET_LINUX;
        else {
            snprintf(err, errlen, "unknown target '%s' (use android or linux)", arg);
            return 2;
        }
        return 0;
    case OPT_LINK_ASSETS:
    case OPT_ASSET_DIR:
        if (c == OPT_ASSET_DIR && !strcmp(arg, "trace-viewer"))
            return 0;
        snprintf(err, errlen, "--link-assets and --asset-dir are deprecated.");
        return 2;
    default:
        snprintf(err, errlen, "unknown option (see --help)");
        return 2;
    }
}

int options_parse(struct st_options *o, int argc, char **argv, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->time_s = o->buf_kb = o->timeout_s = o->collection_timeout_s = -1;
    o->compress = 1;
    o->serial = getenv("ANDROID_SERIAL");
    if (o->serial && !*o->serial)
        o->serial = NULL;
    o->viewer_url = getenv("SYSTRACE_VIEWER_URL");
    if (o->viewer_url && !*o->viewer_url)
        o->viewer_url = NULL;
    const char *atrace_cats = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:t:b:je:lk:a:q", longopts, NULL)) != -1) {
        if (c == '?' || c == ':') {
            const char *name = optopt ? NULL : argv[optind - 1];
            if (c == ':')
                snprintf(err, errlen, "%s%c option requires an argument",
                         name ? "" : "-", optopt ? optopt : ' ');
            else if (name)
                snprintf(err, errlen, "no such option: %s", name);
            else
                snprintf(err, errlen, "no such option: -%c", optopt);
            return 2;
        }
        if (one_option(o, c, optarg, &atrace_cats, err, errlen))
            return 2;
    }
    o->args = argv + optind;
    o->nargs = optind < argc ? (size_t)(argc - optind) : 0;
    if (o->stream && o->target != TARGET_LINUX) {
        snprintf(err, errlen, "--stream needs --target=linux");
        return 2;
    }
    const char *from_opt = o->target == TARGET_LINUX ? o->ftrace_categories : atrace_cats;
    int rc;
    if (optind < argc)
        rc = set_categories(o, argv + optind, (size_t)(argc - optind));
    else if (from_opt)
        rc = set_categories(o, (char **)&from_opt, 1);
    else {
        /* catapult's defaults: its 18 atrace categories; sched on linux */
        char *def = o->target == TARGET_LINUX ? "sched" : ST_DEFAULT_CATEGORIES;
        rc = set_categories(o, &def, 1);
    }
    if (rc) {
        snprintf(err, errlen, "out of memory");
        return 2;
    }
    return 0;
}

void options_free(struct st_options *o)
{
    free(o->catbuf);
    free(o->categories);
    o->catbuf = NULL;
    o->categories = NULL;
}

char *options_output_path(const struct st_options *o)
{
    const char *ext = o->json ? ".json" : ".html";
    if (o->output) {
        size_t n = strlen(o->output) + 1;
        char *p = malloc(n);
        if (p)
            memcpy(p, o->output, n);
        return p;
    }
    const char *base = o->from_file ? o->from_file : "trace";
    size_t len = strlen(base);
    if (o->from_file) {
        /* os.path.splitext: the last dot of the last component, unless
         * the component is all leading dots up to there */
        const char *slash = strrchr(base, '/');
        const char *name = slash ? slash + 1 : base;
        const char *dot = strrchr(name, '.');
        const char *s = name;
        while (*s == '.')
            s++;
        if (dot && dot >= s)
            len = (size_t)(dot - base);
    }
    char *p = malloc(len + 6);
    if (p)
        snprintf(p, len + 6, "%.*s%s", (int)len, base, ext);
    return p;
}

void options_capture(const struct st_options *o, struct capture_opts *c)
{
    *c = (struct capture_opts){
        .target = o->target,
        .time_s = o->time_s,
        .buf_kb = o->buf_kb,
        .timeout_s = o->timeout_s,
        .collection_timeout_s = o->collection_timeout_s,
        .categories = o->categories,
        .ncategories = o->ncategories,
        .kfuncs = o->kfuncs,
        .apps = o->apps,
        .compress = o->compress,
        .app_profile = o->app_profile,
        .app_profile_sampling = o->app_profile_sampling,
        .stream = o->stream,
    };
}
