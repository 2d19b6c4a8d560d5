/* Command-line parsing; see options.h.  The options themselves, with their
 * help, are the table in optdefs.h. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/perfetto/pfuser.h"
#include "lib/dynbuf.h"
#include "lib/plat.h"

#include "browser.h"
#include "optdefs.h"
#include "piecearg.h"
#include "presets.h"
#include "units.h"
#include "usage.h"

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

/* Split every string on ',' into o->categories (empty items and repeats
 * dropped). */
static int set_categories(struct st_options *o, const char *const *items, size_t n)
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
                int seen = 0;
                for (size_t k = 0; k < o->ncategories && !seen; k++)
                    seen = !strcmp(o->categories[k], w);
                if (!seen) {
                    o->categories[o->ncategories++] = w;
                    w += l + 1;
                }
            }
            s += l;
            if (*s == ',')
                s++;
        }
    }
    return 0;
}

/* A duration (units.h) in whole seconds, rounded up; at least `min`. */
static int seconds_arg(const char *s, const char *opt, int min, const char *range_msg,
                       int *secs, long *ms_out, char *err, size_t errlen)
{
    long ms;
    char why[200];
    if (s[0] == '-' && s[1] >= '0' && s[1] <= '9') {   /* catapult's wording */
        snprintf(err, errlen, "%s", range_msg);
        return 2;
    }
    if (units_duration_ms(s, &ms, why, sizeof(why))) {
        if (s[0] < '0' || s[0] > '9')   /* not a number at all: say what is */
            snprintf(err, errlen, "option %s: '%s' is not a duration: seconds, or a number "
                     "with a unit: 500ms, 10s, 2m, 1h", opt, s);
        else
            snprintf(err, errlen, "option %s: %s", opt, why);
        return 2;
    }
    if (ms < min * 1000L && !(min == 1 && ms > 0)) {
        snprintf(err, errlen, "%s", range_msg);
        return 2;
    }
    *secs = (int)((ms + 999) / 1000);
    if (ms_out)
        *ms_out = ms;
    return 0;
}

static int size_arg(const char *s, int *kb, char *err, size_t errlen)
{
    long v;
    char why[200];
    if (units_size_kb(s, &v, why, sizeof(why))) {
        if (s[0] == '-' && s[1] >= '0' && s[1] <= '9')
            snprintf(err, errlen, "the trace buffer size must be a positive number");
        else if (s[0] < '0' || s[0] > '9')
            snprintf(err, errlen, "option -b: '%s' is not a size: KB, or a number with a "
                     "unit: 32mb, 64MiB, 1g", s);
        else
            snprintf(err, errlen, "option -b: %s", why);
        return 2;
    }
    if (v < 1) {
        snprintf(err, errlen, "the trace buffer size must be a positive number");
        return 2;
    }
    *kb = (int)v;
    return 0;
}

static int choice(const char *arg, const char *const *names, int *out, const char *what,
                  char *err, size_t errlen)
{
    for (int i = 0; names[i]; i++) {
        if (!strcmp(arg, names[i])) {
            *out = i;
            return 0;
        }
    }
    snprintf(err, errlen, "unknown %s '%s'", what, arg);
    return 2;
}

/* A Java name: dot-separated identifiers (letters, digits, _ and $, not
 * starting with a digit); lead: a leading '.' is allowed (an activity
 * relative to its package).  Nothing else may reach the device's shell. */
static int java_name(const char *s, size_t n, int lead)
{
    size_t i = 0;
    if (lead && n && s[0] == '.')
        i = 1;
    int start = 1;
    if (i >= n)
        return 0;
    for (; i < n; i++) {
        char ch = s[i];
        int alpha = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
                    ch == '$';
        if (ch == '.' && !start && i + 1 < n) {
            start = 1;
            continue;
        }
        if (!(alpha || (!start && ch >= '0' && ch <= '9')))
            return 0;
        start = 0;
    }
    return 1;
}

static int launch_arg(struct st_options *o, const char *arg, char *err, size_t errlen)
{
    const char *slash = strchr(arg, '/');
    size_t plen = slash ? (size_t)(slash - arg) : strlen(arg);
    if (!java_name(arg, plen, 0) || plen > 255 || !memchr(arg, '.', plen))
        snprintf(err, errlen, "--launch=%s: '%.*s' is not a package name (e.g. "
                 "com.example.app)", arg, (int)(plen > 255 ? 255 : plen), arg);
    else if (slash && (!java_name(slash + 1, strlen(slash + 1), 1) || strlen(slash) > 256))
        snprintf(err, errlen, "--launch=%s: '%.255s' is not an activity class name (e.g. "
                 ".MainActivity or com.example.app.MainActivity)", arg, slash + 1);
    else {
        o->launch = arg;
        return 0;
    }
    return 2;
}

static int preset_find_in(const struct st_options *o, const char *name)
{
    for (size_t i = 0; i < o->npresets; i++)
        if (!strcmp(o->presets[i]->name, name))
            return 1;
    return 0;
}

static int add_preset(struct st_options *o, const char *name, char *err, size_t errlen)
{
    const struct preset *p = preset_find(name);
    if (!p) {
        snprintf(err, errlen, "unknown preset '%s' (systrace -l lists them)", name);
        return 2;
    }
    if (o->npresets == sizeof(o->presets) / sizeof(*o->presets)) {
        snprintf(err, errlen, "too many --preset options");
        return 2;
    }
    o->presets[o->npresets++] = p;
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

static int output_format(struct st_options *o, const char *arg, char *err, size_t errlen)
{
    static const char *const formats[] = {"html", "json", "perfetto", NULL};
    int v;
    if (choice(arg, formats, &v, "output format", err, errlen)) {
        snprintf(err, errlen, "--output-format=%s: unknown (use html, json or perfetto)", arg);
        return 2;
    }
    o->json = v == 1;
    o->pf_out = v == 2;
    o->format_set = 1;
    return 0;
}

/* Options that need more than storing their argument. */
static int checked_option(struct st_options *o, int c, char *arg, char *err, size_t errlen)
{
    static const char *const targets[] = {"android", "linux", NULL};
    static const char *const transports[] = {"auto", "server", "direct", NULL};
    static const char *const launch_modes[] = {"cold", "warm", "hot", NULL};
    int v;
    switch (c) {
    case 't':
        return seconds_arg(arg, "-t", 0, "the trace time must be a non-negative number",
                           &o->time_s, &o->time_ms, err, errlen);
    case 'b':
        return size_arg(arg, &o->buf_kb, err, errlen);
    case OPT_TIMEOUT:
        return seconds_arg(arg, "--timeout", 1, "the timeout must be a positive number of "
                           "seconds", &o->timeout_s, NULL, err, errlen);
    case OPT_COLL_TIMEOUT:
        return seconds_arg(arg, "--collection-timeout", 1, "the collection timeout must be "
                           "a positive number of seconds", &o->collection_timeout_s, NULL,
                           err, errlen);
    case OPT_APPSAMPLE:
        return int_arg(arg, "--app-profile-sampling", &o->app_profile_sampling, 1,
                       "--app-profile-sampling must be at least 1 (microseconds)", err, errlen);
    case OPT_TRANSPORT:
        if (choice(arg, transports, &v, "transport", err, errlen)) {
            snprintf(err, errlen, "unknown transport '%s' (use auto, server or direct)", arg);
            return 2;
        }
        o->transport = (enum st_transport)v;
        return 0;
    case OPT_TARGET:
        if (choice(arg, targets, &v, "target", err, errlen)) {
            snprintf(err, errlen, "unknown target '%s' (use android or linux)", arg);
            return 2;
        }
        o->target = v ? TARGET_LINUX : TARGET_ANDROID;
        return 0;
    case 'e':
        for (size_t i = 0; i < o->nserials; i++) {
            if (!strcmp(o->serials[i], arg)) {
                snprintf(err, errlen, "-e %s given twice", arg);
                return 2;
            }
        }
        if (o->nserials == ST_MAX_DEVICES) {
            snprintf(err, errlen, "more than %d devices (-e)", ST_MAX_DEVICES);
            return 2;
        }
        o->serials[o->nserials++] = arg;
        o->serial = o->serials[0];
        return 0;
    case OPT_PRESET:
        return add_preset(o, arg, err, errlen);
    case OPT_LAUNCH:
        return launch_arg(o, arg, err, errlen);
    case OPT_LAUNCH_MODE:
        if (choice(arg, launch_modes, &o->launch_mode, "launch mode", err, errlen)) {
            snprintf(err, errlen, "--launch-mode=%s: unknown (use cold, warm or hot)", arg);
            return 2;
        }
        return 0;
    case OPT_RUNS:
        if (int_arg(arg, "--runs", &o->runs, 1, "--runs must be a number from 1 to 100", err,
                    errlen))
            return 2;
        if (o->runs > 100) {
            snprintf(err, errlen, "--runs must be a number from 1 to 100");
            return 2;
        }
        return 0;
    case OPT_OPEN:
        if (arg && strcmp(arg, "perfetto")) {
            snprintf(err, errlen, "--open=%s: unknown (use --open for the page, "
                     "--open=perfetto for ui.perfetto.dev)", arg);
            return 2;
        }
        o->open = arg ? BROWSER_PERFETTO : BROWSER_PAGE;
        return 0;
    case OPT_TIME_RANGE:
        return piecearg_range(&o->piece, arg, err, errlen) ? 2 : 0;
    case OPT_PROCESS:
    case OPT_PROCESS_DEPS:
        o->piece.deps |= c == OPT_PROCESS_DEPS;
        return piecearg_process(&o->piece, arg, c == OPT_PROCESS ? "--process" :
                                "--process-and-deps", err, errlen) ? 2 : 0;
    case OPT_SPLIT:
        return piecearg_split(&o->piece, arg, err, errlen) ? 2 : 0;
    case OPT_OUTPUT_FORMAT:
        return output_format(o, arg, err, errlen);
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

static int one_option(struct st_options *o, int c, char *arg, const char **atrace_cats,
                      char *err, size_t errlen)
{
    switch (c) {
    case 'h': o->show_help = 1; return 0;
    case OPT_VERSION: o->show_version = 1; return 0;
    case 'o':
        if (!*arg) {
            snprintf(err, errlen, "-o: the output file name is empty (give a file name, or "
                                  "- for standard output)");
            return 2;
        }
        o->output = arg;
        /* standard output carries the page alone: no notes on it */
        o->quiet |= !strcmp(arg, "-");
        return 0;
    case 'j': o->json = 1; return 0;
    case 'l': o->list_categories = 1; return 0;
    case 'k': o->kfuncs = arg; return 0;
    case 'a': o->apps = arg; return 0;
    case 'q': o->quiet = 1; return 0;
    case OPT_ATRACE_CATS: *atrace_cats = arg; return 0;
    case OPT_FTRACE_CATS: o->ftrace_categories = arg; return 0;
    case OPT_NO_COMPRESS: o->compress = 0; return 0;
    case OPT_FROM_FILE: o->from_file = arg; return 0;
    case OPT_STREAM: o->stream = 1; return 0;
    case OPT_PERFETTO: o->perfetto = 1; return 0;
    case OPT_PERFETTO_CONFIG: o->perfetto_config = arg; o->perfetto = 1; return 0;
    case OPT_VIEWER: o->viewer = arg; return 0;
    case OPT_MPROFILE: o->method_profile = arg; return 0;
    case OPT_MFORMAT: o->method_profile_format = arg; return 0;
    case OPT_MCLOCK: o->method_clock = arg; return 0;
    case OPT_CALLGRAPH: o->call_graph = arg; return 0;
    case OPT_CGTHRESH: o->call_graph_threshold = arg; return 0;
    case OPT_MJSON: o->method_json = arg; return 0;
    case OPT_APPPROF: o->app_profile = arg; return 0;
    case OPT_VIEWER_URL: o->viewer_url = arg; return 0;
    case OPT_UPDATE_VIEWER: o->update_viewer = 1; return 0;
    case OPT_TRACE_EVENTS: o->trace_events = arg; return 0;
    case OPT_SUMMARY: o->summary = arg; return 0;
    case OPT_ROWS: o->rows = arg; return 0;
    case 'J':
        return int_arg(arg, "-J", &o->jobs, 1, "-J: at least 1 worker", err, errlen);
    case OPT_ALL_DEVICES: o->all_devices = 1; return 0;
    default: return checked_option(o, c, arg, err, errlen);
    }
}

/* getopt_long's tables from optdefs.h. */
static void getopt_tables(struct option *longopts, char *shorts, size_t n)
{
    size_t k = 0, j = 0;
    shorts[j++] = ':';
    for (unsigned i = 0; i < st_noptdefs; i++) {
        const struct optdef *d = &st_optdefs[i];
        if (d->lng && k + 1 < n)
            longopts[k++] = (struct option){d->lng, !d->arg ? no_argument :
                                            d->flags & OPTF_OPTARG ? optional_argument :
                                            required_argument, NULL, d->id};
        if (d->shrt && j + 3 < n) {
            shorts[j++] = (char)d->shrt;
            if (d->arg)
                shorts[j++] = ':';
        }
    }
    longopts[k] = (struct option){NULL, 0, NULL, 0};
    shorts[j] = '\0';
}

/* Name the option as the user wrote it: for a long one getopt's optopt
 * is its value (-j for --json), not what was typed. */
static int bad_option(int c, char **argv, char *err, size_t errlen)
{
    const char *arg = optind > 0 ? argv[optind - 1] : NULL;
    int is_long = arg && !strncmp(arg, "--", 2);
    int len = is_long ? (int)strcspn(arg, "=") : 0;
    /* "--json=yes": glibc says '?' with optopt set, MinGW's getopt ':' */
    if (is_long && arg[len] == '=' && (c == ':' || optopt))
        snprintf(err, errlen, "option %.*s takes no value", len, arg);
    else if (c == ':' && is_long)
        snprintf(err, errlen, "option %.*s needs a value (%.*s=VALUE)", len, arg, len, arg);
    else if (c == ':')
        snprintf(err, errlen, "option -%c needs a value", optopt);
    else if (is_long)
        snprintf(err, errlen, "no such option: %.*s", len, arg);
    else
        snprintf(err, errlen, "no such option: -%c", optopt);
    return 2;
}

/* Options a --perfetto capture cannot honour: refused, not ignored. */
static int perfetto_conflict(const struct st_options *o, char *err, size_t errlen)
{
    const char *why = NULL;
    if (o->from_file)
        why = "--from-file converts a saved trace; --perfetto records one";
    else if (o->target == TARGET_LINUX)
        why = "--perfetto records on an Android device; --target=linux traces this machine";
    else if (o->stream)
        why = "--perfetto and --stream exclude each other (the device's perfetto writes the "
              "whole trace into a file; -b sets its buffer)";
    else if (o->app_profile)
        why = "--app-profile aligns the method trace with atrace's own dump (its B lines "
              "and clock-sync marker); record it without --perfetto";
    else if (o->kfuncs)
        why = "-k (kernel functions) is atrace's; Perfetto's config has no equivalent: drop "
              "-k or --perfetto";
    if (why)
        snprintf(err, errlen, "%s", why);
    return why != NULL;
}

/* --launch needs one live device; --launch-mode and --runs need --launch. */
static int launch_conflict(struct st_options *o, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!o->launch && (o->launch_mode || o->runs))
        why = o->runs ? "--runs repeats a --launch: give --launch=PKG too"
                      : "--launch-mode says how to --launch: give --launch=PKG too";
    else if (o->launch && o->from_file)
        why = "--launch measures a live startup; --from-file converts a saved trace";
    else if (o->launch && o->target == TARGET_LINUX)
        why = "--launch starts an Android app; --target=linux traces this machine";
    else if (o->launch && (o->all_devices || o->nserials > 1))
        why = "--launch measures one device's startup: give one -e";
    else if (o->launch && o->perfetto_config)
        why = "--launch records with the startup preset; --perfetto-config names its own "
              "data sources (leave one out)";
    else if (o->launch && o->output && !strcmp(o->output, "-") && o->runs > 1)
        why = "--runs writes one trace per run: give -o a file name";
    if (why) {
        snprintf(err, errlen, "%s", why);
        return 1;
    }
    if (o->launch && o->time_ms <= 0) {     /* the bound of a launch that never ends */
        o->time_ms = 20000;
        o->time_s = 20;
    }
    if (o->launch && !preset_find_in(o, "startup"))
        return add_preset(o, "startup", err, errlen) ? 1 : 0;
    return 0;
}

/* --perfetto-config names its own data sources and buffers: what would
 * make another config is refused, not ignored. */
static int user_config_conflict(const struct st_options *o, int cats, char *err, size_t errlen)
{
    const char *what = cats ? "categories" : o->npresets ? "--preset" : o->apps ? "-a"
                     : o->buf_kb >= 0 ? "-b" : NULL;
    if (what)
        snprintf(err, errlen, "--perfetto-config %s: the config names its own data sources "
                 "and buffers; %s would make another one (leave it out, or edit the config)",
                 o->perfetto_config, what);
    return what != NULL;
}

/* Read and checked before any device is asked (pfuser.h); its
 * duration_ms stands for -t when -t is not given, as for Perfetto's own
 * record script. */
static int load_user_config(struct st_options *o, char *err, size_t errlen)
{
    const char *name = o->perfetto_config;
    FILE *f = !strcmp(name, "-") ? NULL : fopen(name, "rb");
    if (!f) {
        o->bad_file = 1;
        snprintf(err, errlen, "--perfetto-config %s: %s", name,
                 !strcmp(name, "-") ? "give a file (standard input is not read)"
                                    : strerror(errno));
        return 1;
    }
    struct dynbuf b;
    dynbuf_init(&b, PFUSER_FILE_MAX + 1);
    char buf[65536];
    size_t n;
    enum st_err e = ST_OK;
    while (!e && (n = fread(buf, 1, sizeof(buf), f)) > 0)
        e = dynbuf_add(&b, buf, n);
    int rerr = ferror(f);
    fclose(f);
    struct pfuser_info info;
    char why[400];
    if (rerr)
        snprintf(why, sizeof(why), "cannot read it");
    else if (e == ST_ETOOBIG)
        snprintf(why, sizeof(why), "over %d MB: not a trace config", PFUSER_FILE_MAX >> 20);
    if (rerr || e || pfuser_check(b.data ? b.data : "", b.len, &info, why, sizeof(why))) {
        o->bad_file = 1;
        snprintf(err, errlen, "--perfetto-config %s: %s", name, e && !rerr && e != ST_ETOOBIG
                 ? st_strerror(e) : why);
        dynbuf_free(&b);
        return 1;
    }
    if (o->time_ms < 0 && info.duration_ms > 2147483647) {
        o->bad_file = 1;    /* -t's own bound: about 24.8 days */
        snprintf(err, errlen, "--perfetto-config %s: duration_ms %lld is longer than systrace "
                 "records (at most 2147483647 ms); give -t", name,
                 (long long)info.duration_ms);
        dynbuf_free(&b);
        return 1;
    }
    o->pf_config_len = b.len;
    o->pf_config = dynbuf_take(&b, NULL);
    if (o->time_ms < 0 && info.duration_ms > 0) {
        o->time_ms = info.duration_ms;
        o->time_s = (int)((info.duration_ms + 999) / 1000);
    }
    return 0;
}

/* Categories: positional ones, else the --*-categories list; plus every
 * preset's; catapult's defaults when none are named at all. */
static int pick_categories(struct st_options *o, int argc, char **argv, const char *atrace_cats)
{
    const char *items[256];
    size_t n = 0;
    const char *from_opt = o->target == TARGET_LINUX ? o->ftrace_categories : atrace_cats;
    for (int i = optind; i < argc && n < 200; i++)
        items[n++] = argv[i];
    if (!n && from_opt)
        items[n++] = from_opt;
    for (size_t i = 0; i < o->npresets; i++) {
        items[n++] = o->presets[i]->categories;
        o->pf_sources |= o->presets[i]->pf_sources;
        if (o->buf_kb < 0 && o->presets[i]->buf_kb > o->preset_buf_kb)
            o->preset_buf_kb = o->presets[i]->buf_kb;
    }
    if (!n) {   /* catapult's defaults: its 18 atrace categories; sched on linux */
        items[n++] = o->target == TARGET_LINUX ? "sched" : ST_DEFAULT_CATEGORIES;
        o->default_categories = 1;
    }
    if (o->buf_kb < 0 && o->preset_buf_kb > 0)
        o->buf_kb = o->preset_buf_kb;
    return set_categories(o, items, n);
}

int options_parse(struct st_options *o, int argc, char **argv, char *err, size_t errlen)
{
    memset(o, 0, sizeof(*o));
    o->time_s = o->buf_kb = o->timeout_s = o->collection_timeout_s = -1;
    o->time_ms = -1;
    o->compress = 1;
    o->serial = getenv("ANDROID_SERIAL");
    if (o->serial && !*o->serial)
        o->serial = NULL;
    o->viewer_url = getenv("SYSTRACE_VIEWER_URL");
    if (o->viewer_url && !*o->viewer_url)
        o->viewer_url = NULL;
    const char *atrace_cats = NULL;
    struct option longopts[128];
    char shorts[128];
    getopt_tables(longopts, shorts, sizeof(shorts));
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        if (c == '?' || c == ':')
            return bad_option(c, argv, err, errlen);
        if (one_option(o, c, optarg, &atrace_cats, err, errlen))
            return 2;
    }
    o->args = argv + optind;
    o->nargs = optind < argc ? (size_t)(argc - optind) : 0;
    o->open = browser_wanted(o->open);
    if (o->output && (ends_with(o->output, ".perfetto-trace") ||
                      ends_with(o->output, ".pftrace"))) {
        if (o->format_set && !o->pf_out) {      /* the user said two things */
            snprintf(err, errlen, "--output-format=%s: -o %s names a Perfetto trace; use "
                     "--output-format=perfetto, or another name", o->json ? "json" : "html",
                     o->output);
            return 2;
        }
        o->pf_out = 1;
    }
    if (!o->from_file && piece_empty(&o->piece)) {
        /* a capture would trace for nothing; --from-file says it with the span */
        snprintf(err, errlen, "--time-range: the range is empty (its end is not after its "
                 "start)");
        return 2;
    }
    if (o->open && (o->piece.split_bytes || o->piece.split_ns)) {
        snprintf(err, errlen, "--split writes several pieces and --open opens one: open a "
                 "piece once they are written, or cut one with --time-range");
        return 2;
    }
    if (o->all_devices && o->nserials) {
        snprintf(err, errlen, "--all-devices and -e exclude each other");
        return 2;
    }
    if ((o->all_devices || o->nserials > 1) && o->target == TARGET_LINUX) {
        snprintf(err, errlen, "several devices need --target=android");
        return 2;
    }
    if (o->perfetto && perfetto_conflict(o, err, errlen))
        return 2;
    if (launch_conflict(o, err, errlen))
        return 2;
    if (o->perfetto_config && (user_config_conflict(o, optind < argc || atrace_cats, err,
                                                    errlen) || load_user_config(o, err, errlen)))
        return 2;
    if (pick_categories(o, argc, argv, atrace_cats)) {
        snprintf(err, errlen, "out of memory");
        return 2;
    }
    return 0;
}

void options_free(struct st_options *o)
{
    free(o->pf_config);
    o->pf_config = NULL;
    free(o->catbuf);
    free(o->categories);
    o->catbuf = NULL;
    o->categories = NULL;
}

/* --split -o DIR (an existing directory, or a name ending in '/'): the
 * pieces go into it under the default name's last component. */
static char *split_into_dir(const struct st_options *o)
{
    struct plat_stat st;
    size_t n = strlen(o->output);
    if (!(o->piece.split_bytes || o->piece.split_ns) || !n ||
        (o->output[n - 1] != '/' && (plat_stat(o->output, &st) || st.kind != PLAT_DIR)))
        return NULL;
    struct st_options d = *o;
    d.output = NULL;
    if (d.from_file && !strcmp(d.from_file, "-"))
        d.from_file = NULL;
    char *def = options_output_path(&d);
    const char *name = def ? plat_last_sep(def) : NULL;
    name = name ? name + 1 : def;
    size_t len = n + (def ? strlen(name) : 0) + 2;
    char *p = def ? malloc(len) : NULL;
    if (p)
        snprintf(p, len, "%s%s%s", o->output, o->output[n - 1] == '/' ? "" : "/", name);
    free(def);
    return p;
}

char *options_output_path(const struct st_options *o)
{
    const char *ext = o->json ? ".json" : ".html";
    char *into = o->output ? split_into_dir(o) : NULL;
    if (into)
        return into;
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
        .time_ms = o->time_ms,
        .buf_kb = o->buf_kb,
        .timeout_s = o->timeout_s,
        .collection_timeout_s = o->collection_timeout_s,
        .categories = o->categories,
        .ncategories = o->ncategories,
        .default_categories = o->default_categories,
        .kfuncs = o->kfuncs,
        .apps = o->apps,
        .compress = o->compress,
        .app_profile = o->app_profile,
        .app_profile_sampling = o->app_profile_sampling,
        .stream = o->stream,
        .perfetto = o->perfetto,
        .pf_sources = o->pf_sources,
        .pf_config = o->pf_config,
        .pf_config_len = o->pf_config_len,
        .pf_config_name = o->perfetto_config,
        .launch = o->launch,
        .launch_mode = o->launch_mode,
    };
}
