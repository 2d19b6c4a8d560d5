/*
 * The simulated `atrace` (frameworks/native/cmds/atrace behaviour):
 *
 *   atrace [-z] [-t N] [-b N] [-a APPS] [-k FUNCS] [-c] [-n] [-s N]
 *          [-o FILE] [categories...] [--async_start | --async_stop |
 *          --async_dump | --stream | --list_categories]
 *
 * Options may follow the categories (getopt permutes).  Output as real
 * atrace prints it: a start prints "capturing trace..." (no newline), a
 * dump prints " done\nTRACE:\n" and the trace (a zlib stream with -z).
 * --async_stop and the synchronous mode (no async flag; -t N, default 5 s)
 * turn tracing off and disable the categories; --async_dump leaves
 * tracing on.  After a dump the buffer is empty, unless atrace died
 * during it (see KILLED).  -k without root fails as on a user build
 * (see kfuncs_denied).
 * Deviations chosen and documented: an unknown category fails like real
 * atrace (error message, exit 1); --no-z makes -z an unknown option;
 * below SDK 23 --async_stop is an unknown option; with --no-stream so is
 * --stream (sim_stream.c has the streaming itself).  Option errors read as
 * on a phone: bionic's getopt_long (OpenBSD's) says "atrace: unknown
 * option -- z" / "option requires an argument -- t", then atrace prints a
 * blank line and its usage and exits -1 (255).
 */
#include "sim_atrace.h"
#include "sim_cmds.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { C_USER = 1, C_ROOT = 2 };

static const struct category {
    const char *name;
    const char *longname;
    int flags;
    int min_sdk;
    unsigned groups;
    uint64_t tag;
} cats[] = {
    {"gfx", "Graphics", C_USER, 0, 0, 1u << 1},
    {"input", "Input", C_USER, 0, 0, 1u << 2},
    {"view", "View System", C_USER, 0, 0, 1u << 3},
    {"webview", "WebView", C_USER, 0, 0, 1u << 4},
    {"wm", "Window Manager", C_USER, 0, 0, 1u << 5},
    {"am", "Activity Manager", C_USER, 0, 0, 1u << 6},
    {"sm", "Sync Manager", C_USER, 0, 0, 1u << 7},
    {"audio", "Audio", C_USER, 0, 0, 1u << 8},
    {"video", "Video", C_USER, 0, 0, 1u << 9},
    {"camera", "Camera", C_USER, 0, 0, 1u << 10},
    {"hal", "Hardware Modules", C_USER, 0, 0, 1u << 11},
    {"res", "Resource Loading", C_USER, 0, 0, 1u << 13},
    {"dalvik", "Dalvik VM", C_USER, 0, 0, 1u << 14},
    {"rs", "RenderScript", C_USER, 0, 0, 1u << 15},
    {"bionic", "Bionic C Library", C_USER, 0, 0, 1u << 16},
    {"power", "Power Management", C_USER, 0, 0, 1u << 17},
    {"pm", "Package Manager", C_USER, 0, 0, 1u << 18},
    {"ss", "System Server", C_USER, 0, 0, 1u << 19},
    {"database", "Database", C_USER, 0, 0, 1u << 20},
    {"network", "Network", C_USER, 0, 0, 1u << 21},
    {"adb", "ADB", C_USER, 26, 0, 1u << 22},
    {"vibrator", "Vibrator", C_USER, 28, 0, 1u << 23},
    {"aidl", "AIDL calls", C_USER, 28, 0, 1u << 24},
    {"nnapi", "NNAPI", C_USER, 28, 0, 1u << 25},
    {"rro", "Runtime Resource Overlay", C_USER, 29, 0, 1u << 26},
    {"pdx", "PDX services", C_USER, 26, 0, 1u << 27},
    {"sched", "CPU Scheduling", 0, 0, GEN_SCHED, 0},
    {"irq", "IRQ Events", C_ROOT, 0, 0, 0},
    {"i2c", "I2C Events", C_ROOT, 0, 0, 0},
    {"freq", "CPU Frequency", 0, 0, GEN_FREQ, 0},
    {"idle", "CPU Idle", 0, 0, GEN_IDLE, 0},
    {"disk", "Disk I/O", C_ROOT, 0, 0, 0},
    {"mmc", "eMMC commands", C_ROOT, 0, 0, 0},
    {"sync", "Synchronization", 0, 0, 0, 0},
    {"workq", "Kernel Workqueues", 0, 0, GEN_WORKQ, 0},
    {"memreclaim", "Kernel Memory Reclaim", 0, 0, 0, 0},
    {"regulators", "Voltage and Current Regulators", C_ROOT, 0, 0, 0},
    {"binder_driver", "Binder Kernel driver", 0, 0, GEN_BINDER, 0},
    {"binder_lock", "Binder global lock trace", 0, 0, 0, 0},
    {"pagecache", "Page cache", 0, 0, 0, 0},
    {"memory", "Memory", 0, 28, 0, 0},
    {"thermal", "Thermal event", 0, 28, 0, 0},
};

#define NCATS ((int)(sizeof(cats) / sizeof(cats[0])))

int sim_category_count(void)
{
    return NCATS;
}

const char *sim_category_name(int i)
{
    return i >= 0 && i < NCATS ? cats[i].name : "";
}

int sim_category_is_user(int i)
{
    return i >= 0 && i < NCATS && (cats[i].flags & C_USER);
}

unsigned sim_category_groups(uint64_t mask)
{
    unsigned g = 0;
    for (int i = 0; i < NCATS; i++)
        if (mask & (1ull << i))
            g |= cats[i].groups;
    return g;
}

uint64_t sim_category_tags(uint64_t mask)
{
    uint64_t t = 0;
    for (int i = 0; i < NCATS; i++)
        if (mask & (1ull << i))
            t |= cats[i].tag;
    return t;
}

static int available(const struct sim_device *dev, int i)
{
    if (dev->opt.sdk < cats[i].min_sdk)
        return 0;
    return !(dev->opt.no_root && (cats[i].flags & C_ROOT));
}

static void usage(struct sh_cmd *c)
{
    sink_printf(c->err,
        "usage: atrace [options] [categories...]\n"
        "options include:\n"
        "  -a appname      enable app-level tracing for a comma separated "
        "list of cmdlines\n"
        "  -b N            use a trace buffer size of N KB\n"
        "  -c              trace into a circular buffer\n"
        "  -k fname,...    trace the listed kernel functions\n"
        "  -n              ignore signals\n"
        "  -s N            sleep for N seconds before tracing [default 0]\n"
        "  -t N            trace for N seconds [default 5]\n"
        "%s"
        "  -o filename     write the trace to the specified file instead of "
        "stdout.\n"
        "  --async_start   start circular trace and return immediately\n"
        "  --async_dump    dump the current contents of circular trace "
        "buffer\n"
        "%s"
        "%s"
        "  --list_categories\n"
        "                  list the available tracing categories\n",
        c->sh->dev->opt.no_z ? "" : "  -z              compress the trace "
                                    "dump\n",
        c->sh->dev->opt.sdk < 23 ? "" : "  --async_stop    stop tracing and "
                                        "dump the current contents of circular "
                                        "trace buffer\n",
        c->sh->dev->opt.no_stream ? "" : "  --stream        stream trace to stdout as it "
                                         "enters the trace buffer\n");
}

/* bionic's getopt_long warnx() text, then atrace's "\n" + usage, exit(-1) */
static int option_error(struct sh_cmd *c, const char *msg, const char *what)
{
    sink_printf(c->err, "atrace: %s -- %s\n\n", msg, what);
    usage(c);
    return -2;
}

enum mode { M_SYNC, M_START, M_STOP, M_DUMP, M_LIST, M_STREAM };

struct atrace_args {
    enum mode mode;
    int compress;
    uint64_t secs;
    uint64_t buffer_kb;
    const char *apps;
    const char *kfuncs;
    const char *outfile;
    uint64_t cats;
};

static int long_opt(struct sh_cmd *c, const char *a, struct atrace_args *r)
{
    if (!strcmp(a, "--async_start"))
        r->mode = M_START;
    else if (!strcmp(a, "--async_stop") && c->sh->dev->opt.sdk >= 23)
        r->mode = M_STOP;
    else if (!strcmp(a, "--async_dump"))
        r->mode = M_DUMP;
    else if (!strcmp(a, "--list_categories"))
        r->mode = M_LIST;
    else if (!strcmp(a, "--stream") && !c->sh->dev->opt.no_stream)
        r->mode = M_STREAM;
    else
        return option_error(c, "unknown option", a + 2);
    return 0;
}

static int short_opts(struct sh_cmd *c, int *i, struct atrace_args *r)
{
    const char *a = c->argv[*i];
    for (const char *f = a + 1; *f; f++) {
        if (*f == 'z' && !c->sh->dev->opt.no_z) {
            r->compress = 1;
            continue;
        }
        if (*f == 'c' || *f == 'n')
            continue;
        char opt[2] = {*f, '\0'};
        if (!strchr("tbaksof", *f))
            return option_error(c, "unknown option", opt);
        const char *val = f[1] ? f + 1 : (*i + 1 < c->argc ? c->argv[++*i]
                                                           : NULL);
        if (!val)
            return option_error(c, "option requires an argument", opt);
        uint64_t n = 0;
        if (strchr("tbs", *f) && (sim_parse_u64(val, &n) || n > 1u << 24)) {
            sink_printf(c->err, "error parsing -%c argument '%s'\n", *f, val);
            return -1;
        }
        if (*f == 't')
            r->secs = n;
        else if (*f == 'b')
            r->buffer_kb = n;
        else if (*f == 'a')
            r->apps = val;
        else if (*f == 'k')
            r->kfuncs = val;
        else if (*f == 'o')
            r->outfile = val;
        return 0;   /* the value used the rest of this argument */
    }
    return 0;
}

static int category(struct sh_cmd *c, const char *name, struct atrace_args *r)
{
    for (int i = 0; i < NCATS; i++) {
        if (strcmp(cats[i].name, name))
            continue;
        if (available(c->sh->dev, i)) {
            r->cats |= 1ull << i;
            return 0;
        }
        if (c->sh->dev->opt.no_root && (cats[i].flags & C_ROOT))
            sink_printf(c->err, "error: category \"%s\" requires root "
                        "privileges.\n", name);
        else
            sink_printf(c->err, "error: category \"%s\" is not supported "
                        "on this device.\n", name);
        return -1;
    }
    sink_printf(c->err, "error: unknown tracing category \"%s\"\n", name);
    return -1;
}

static int parse(struct sh_cmd *c, struct atrace_args *r)
{
    memset(r, 0, sizeof(*r));
    r->secs = 5;
    for (int i = 1; i < c->argc; i++) {
        const char *a = c->argv[i];
        int rc = 0;
        if (!strncmp(a, "--", 2))
            rc = long_opt(c, a, r);
        else if (a[0] == '-' && a[1])
            rc = short_opts(c, &i, r);
        else
            rc = category(c, a, r);
        if (rc)
            return rc;
    }
    return 0;
}

static int list_categories(struct sh_cmd *c)
{
    for (int i = 0; i < NCATS; i++)
        if (available(c->sh->dev, i) &&
            sink_printf(c->out, "  %10s - %s\n", cats[i].name,
                        cats[i].longname))
            return 1;
    return 0;
}

/* A dump whose reader went away (the link dropped, the host closed the
 * stream) kills atrace with SIGPIPE (adbd hangs up): it never clears the
 * buffer nor cleans up, so tracing stays off (--async_stop stopped it
 * first) but categories, app tags and the large buffer stay set, and the
 * trace is still in the buffer for another dump. */
#define KILLED (128 + 13)

static int dump(struct sh_cmd *c, struct atrace_args *r)
{
    struct sim_sink *out = c->out, *file = NULL;
    if (sink_puts(c->out, " done\n"))
        return 1;
    if (c->sh->dev->opt.dump_delay_ms) {
        /* what a host sees of a dump interrupted before its trace began */
        sink_flush(c->out);
        struct timespec ts = {c->sh->dev->opt.dump_delay_ms / 1000,
                              (long)(c->sh->dev->opt.dump_delay_ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
    }
    if (r->outfile) {
        int e = sim_fs_open_write(c->sh->dev->fs, r->outfile, 0, c->sh->pid,
                                  &file);
        if (e) {
            sink_printf(c->out, "Failed to open '%s', err=%d", r->outfile, -e);
            return 1;
        }
        out = file;
    }
    int rc = sink_puts(out, "TRACE:\n") ? -1
                                        : sim_trace_dump(c, out, r->compress);
    if (file && file->close)
        file->close(file);
    if (rc)
        return KILLED;      /* the buffer is not cleared: the data stays */
    sim_trace_clear(c->sh->dev);
    return 0;
}

/* -k without root: setKernelTraceFuncs() cannot open current_tracer.
 * atrace.cpp goes on with `ok &= ...`, so categories, buffer and tags
 * are set and tracing is switched on anyway, but it prints no "capturing
 * trace...", says "unable to start tracing" and still exits 0. */
static int kfuncs_denied(struct sh_cmd *c, const struct atrace_args *r)
{
    struct sim_device *dev = c->sh->dev;
    if (!r->kfuncs || !dev->opt.no_root)
        return 0;
    sink_printf(c->err, "error opening %s/current_tracer: Permission denied (13)\n"
                "unable to start tracing\n",
                dev->opt.debugfs ? "/sys/kernel/debug/tracing" : "/sys/kernel/tracing");
    return 1;
}

int sim_cmd_atrace(struct sh_cmd *c)
{
    struct atrace_args r;
    struct sim_device *dev = c->sh->dev;
    int bad = parse(c, &r);
    if (bad)
        return bad == -2 ? 255 : 1;
    switch (r.mode) {
    case M_LIST:
        return list_categories(c);
    case M_START:
        sim_trace_start(dev, r.cats, r.buffer_kb ? (int)r.buffer_kb : 2048,
                        r.compress, r.apps, sim_alloc_pid(dev));
        if (kfuncs_denied(c, &r))
            return 0;
        return sink_puts(c->out, "capturing trace...") ? 1 : 0;
    case M_STOP: {
        sim_trace_stop(dev);
        int rc = dump(c, &r);
        if (rc != KILLED)
            sim_trace_cleanup(dev);
        return rc;
    }
    case M_DUMP:
        return dump(c, &r);
    case M_STREAM:
        if (kfuncs_denied(c, &r)) {     /* nothing streams; stop, clean up */
            sim_trace_start(dev, r.cats, 1, 0, r.apps, sim_alloc_pid(dev));
            sim_trace_stop(dev);
            sim_trace_cleanup(dev);
            return 0;
        }
        return sim_atrace_stream(c, r.cats, r.buffer_kb ? (int)r.buffer_kb : 2048, r.apps);
    case M_SYNC:
        break;
    }
    sim_trace_start(dev, r.cats, r.buffer_kb ? (int)r.buffer_kb : 2048,
                    r.compress, r.apps, sim_alloc_pid(dev));
    if (kfuncs_denied(c, &r)) {     /* the sync mode stops and cleans up */
        sim_trace_stop(dev);
        sim_trace_cleanup(dev);
        return 0;
    }
    if (sink_puts(c->out, "capturing trace...") ||
        sim_sleep(r.secs * 1000000000u, sim_shell_cancel_cb, c->sh)) {
        sim_trace_stop(dev);
        sim_trace_cleanup(dev);
        return 1;
    }
    sim_trace_stop(dev);
    int rc = dump(c, &r);
    if (rc != KILLED)
        sim_trace_cleanup(dev);
    return rc;
}
