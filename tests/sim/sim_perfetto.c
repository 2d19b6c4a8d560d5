/*
 * `perfetto` on the simulated device, as Android's perfetto_cmd behaves
 * for the way Perfetto's record script drives it:
 *
 *   perfetto [--background|-d] [--txt] -c FILE|- -o FILE
 *
 * The TraceConfig comes on stdin (`-c -`) or from a device file, text
 * with --txt, else binary.  --background prints the session's pid alone on
 * a line and returns; the session records for duration_ms (0: until
 * stopped), `kill -TERM`/`-INT`/`-HUP` stop it early with the file
 * finalised, `kill -KILL` stops it on the spot.  /proc/PID exists and
 * `pidof perfetto` lists it while it records.  The output file is created
 * empty at the start and written at the end, or every period with
 * write_into_file (sim_pffile.c); it is complete before the pid goes.
 *
 * Quirks: below SDK 28 there is no perfetto (sim_cmds.c); SDK 28 knows no
 * --txt (getopt's "unrecognized option"), and below SDK 29 adbd's sync
 * cannot read the traces (a pull fails, cat works); --perfetto-unreadable
 * (cat fails too), --perfetto-corrupt (a malformed last packet),
 * --disconnect-perfetto-after MS (the link drops while recording);
 * --perfetto-chatty (80 KB of warnings, one per config field, then the
 * config is refused);
 * --traced-off (or
 * persist.traced.enable=0 until set to 1): traced is not running, so a
 * background session ends at once with an empty file, a foreground one
 * fails.  The state file counts sessions (perfetto_running, _sessions,
 * _finished, _killed) and describes the last config.
 */
#include "sim_perfetto.h"
#include "sim_atrace.h"
#include "sim_shell.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_MAX (1u << 20)

static void describe(struct sim_device *dev, const struct pf_config *c, int txt)
{
    struct dynbuf b;
    dynbuf_init(&b, 8192);
    dynbuf_printf(&b, "duration_ms=%u buffer_kb=%u compact_sched=%d process_stats=%d txt=%d"
                  " write_into_file=%d period_ms=%u", c->duration_ms, c->buffer_kb,
                  c->compact_sched, c->process_stats, txt, c->write_into_file,
                  c->file_write_period_ms);
    const char *names[] = {" events=", " categories=", " apps=", " sources="};
    char *const *lists[] = {c->events, c->cats, c->apps, c->sources};
    size_t counts[] = {c->nevents, c->ncats, c->napps, c->nsources};
    for (int k = 0; k < 4; k++) {
        dynbuf_addstr(&b, names[k]);
        for (size_t i = 0; i < counts[k]; i++)
            dynbuf_printf(&b, "%s%s", i ? "," : "", lists[k][i]);
    }
    dynbuf_printf(&b, " proc_poll_ms=%u battery_poll_ms=%u power_rails=%d", c->proc_poll_ms,
                  c->battery_poll_ms, c->power_rails);
    pthread_mutex_lock(&dev->lock);
    snprintf(dev->trace->pf_config, sizeof(dev->trace->pf_config), "%s",
             b.data ? b.data : "");
    pthread_mutex_unlock(&dev->lock);
    dynbuf_free(&b);
}

static void count(struct sim_device *dev, int running, int finished, int killed)
{
    pthread_mutex_lock(&dev->lock);
    struct sim_trace *t = dev->trace;
    t->pf_running += running;
    if (running > 0)
        t->pf_sessions++;
    t->pf_finished += (unsigned)finished;
    t->pf_killed += (unsigned)killed;
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
}

/* Record, and only then let the pid go: a host that waits for it to
 * vanish finds the file complete. */
static int record(struct pf_session *s)
{
    int killed;
    int rc = pf_record(s, &killed);
    /* counted before the pid goes: kill -KILL returns once it is gone */
    count(s->dev, -1, !killed, killed);
    sim_run_end(s->dev, s->pid);
    return rc;
}

static void session_free(struct pf_session *s)
{
    pf_config_free(&s->cfg);
    free(s);
}

static void *session_thread(void *arg)
{
    struct pf_session *s = arg;
    record(s);
    session_free(s);
    return NULL;
}

static int traced_enabled(struct sim_device *dev)
{
    int on = !dev->opt.traced_off;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < dev->nprops; i++)
        if (!strcmp(dev->props[i].key, "persist.traced.enable"))
            on = !strcmp(dev->props[i].value, "1");
    pthread_mutex_unlock(&dev->lock);
    return on;
}

int sim_pf_read_refused(struct sim_device *dev, const char *path, int by_sync)
{
    static const char dir[] = "/data/misc/perfetto-traces/";
    /* perfetto's files, not those in a directory the shell made there */
    if (strncmp(path, dir, sizeof(dir) - 1) || strchr(path + sizeof(dir) - 1, '/'))
        return 0;
    return dev->opt.pf_unreadable || (by_sync && dev->opt.sdk < 29) ? -EACCES : 0;
}

int sim_perfetto_running(struct sim_device *dev, int pid)
{
    pthread_mutex_lock(&dev->lock);
    int found = 0;
    for (int i = 0; i < SIM_MAX_RUNNING && !found; i++)
        found = dev->running[i].pid == pid && dev->running[i].perfetto;
    pthread_mutex_unlock(&dev->lock);
    return found;
}

static int usage(struct sh_cmd *c, const char *opt)
{
    sink_printf(c->err, "perfetto: unrecognized option '%s'\n\nUsage: perfetto\n"
                "  --background -d     : Exits immediately and continues in the background.\n"
                "  --config -c         : /path/to/trace/config/file or - for stdin\n"
                "  --out -o            : /path/to/out/trace/file or - for stdout\n", opt);
    return 1;
}

static int read_config(struct sh_cmd *c, const char *src, struct dynbuf *b)
{
    char buf[16384];
    if (!strcmp(src, "-")) {
        long n;
        while (c->in && (n = c->in->read(c->in, buf, sizeof(buf))) > 0)
            if (dynbuf_add(b, buf, (size_t)n) != ST_OK)
                return -1;
        return 0;
    }
    struct sim_reader *r;
    if (sim_fs_open_read(c->sh->dev->fs, src, &r))
        return -1;
    long n;
    while ((n = r->read(r, buf, sizeof(buf))) > 0)
        if (dynbuf_add(b, buf, (size_t)n) != ST_OK)
            break;
    r->close(r);
    return n == 0 ? 0 : -1;
}

static int start(struct sh_cmd *c, struct pf_session *s, int background)
{
    struct sim_device *dev = c->sh->dev;
    struct sim_sink *out;
    if (sim_fs_open_write(dev->fs, s->path, 0, s->pid, &out)) {
        sink_printf(c->err, "[perfetto_cmd.cc] Failed to open %s\n", s->path);
        return 1;
    }
    if (out->close)
        out->close(out);
    if (!traced_enabled(dev)) {
        sim_log(dev, "perfetto", "traced is off");
        if (!background) {
            sink_puts(c->err, "[perfetto_cmd.cc] Could not connect to the tracing service "
                              "(traced not running?)\n");
            return 1;
        }
        sink_printf(c->out, "%d\n", s->pid);
        return 0;
    }
    if (sim_run_start(dev, s->pid)) {
        sink_puts(c->err, "[perfetto_cmd.cc] too many sessions\n");
        return 1;
    }
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < SIM_MAX_RUNNING; i++)
        if (dev->running[i].pid == s->pid) {
            dev->running[i].perfetto = 1;
            dev->running[i].comm = "perfetto";
        }
    s->app_in_front = dev->app_alive && dev->app_activity == 2;
    pthread_mutex_unlock(&dev->lock);
    count(dev, 1, 0, 0);
    s->begin_ns = sim_now_ns();
    sim_log(dev, "perfetto", "session started");
    if (!background)
        return record(s) ? 1 : 0;
    sink_printf(c->out, "%d\n", s->pid);
    return 0;
}

int sim_cmd_perfetto(struct sh_cmd *c)
{
    struct sim_device *dev = c->sh->dev;
    int background = 0, txt = 0;
    const char *cfgsrc = NULL, *outpath = NULL;
    for (int i = 1; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "--background") || !strcmp(a, "-d"))
            background = 1;
        else if (!strcmp(a, "--txt") && dev->opt.sdk > 28)
            txt = 1;
        else if ((!strcmp(a, "-c") || !strcmp(a, "--config")) && i + 1 < c->argc)
            cfgsrc = c->argv[++i];
        else if ((!strcmp(a, "-o") || !strcmp(a, "--out")) && i + 1 < c->argc)
            outpath = c->argv[++i];
        else
            return usage(c, a);
    }
    if (!cfgsrc || !outpath) {
        sink_puts(c->err, "[perfetto_cmd.cc] Either --config or --out is missing\n");
        return 1;
    }
    struct dynbuf raw;
    dynbuf_init(&raw, CONFIG_MAX);
    struct pf_session *s = calloc(1, sizeof(*s));
    char err[256] = "";
    int rc = 1;
    if (!s || read_config(c, cfgsrc, &raw)) {
        sink_printf(c->err, "[perfetto_cmd.cc] Could not read config from %s\n", cfgsrc);
        goto out;
    }
    int bad = txt ? pf_config_text(raw.data ? raw.data : "", raw.len, &s->cfg, err, sizeof(err))
                  : pf_config_binary((const uint8_t *)(raw.data ? raw.data : ""), raw.len,
                                     &s->cfg, err, sizeof(err));
    if (dev->opt.pf_chatty) {   /* a warning per config field, then a refusal */
        for (int i = 0; i < 2000; i++)
            sink_printf(c->err, "[perfetto_cmd.cc:%d] W Unknown field %d in the trace "
                        "config: ignored\n", 587, i + 1);
        bad = 1;
        snprintf(err, sizeof(err), "%s", "too many unknown fields");
    }
    if (bad || !raw.len) {
        sink_printf(c->err, "[perfetto_cmd.cc] The TraceConfig is malformed%s%s\n",
                    *err ? ": " : "", err);
        goto out;
    }
    describe(dev, &s->cfg, txt);
    s->dev = dev;
    s->pid = c->sh->execing ? c->sh->pid : sim_alloc_pid(dev);
    snprintf(s->path, sizeof(s->path), "%s", outpath);
    rc = start(c, s, background);
    if (!rc && background && sim_perfetto_running(dev, s->pid)) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&th, &at, session_thread, s) == 0)
            s = NULL;
        else
            rc = 1;
        pthread_attr_destroy(&at);
    }
out:
    if (s)
        session_free(s);
    dynbuf_free(&raw);
    return rc;
}
