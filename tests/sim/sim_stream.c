/*
 * `atrace ... --stream` on the simulated device (frameworks/native atrace's
 * streamTrace): tracing is set up and started as for a capture, the buffer
 * cleared, atrace's clock-sync lines written, and then what the kernel
 * records is copied to stdout as it happens (the generator in live mode,
 * --event-rate events per second, the host's trace_marker writes merged
 * in at their times; no header, as trace_pipe has none), in writes every
 * 10 ms or faster when behind.  It ends:
 *
 *   - on SIGINT, SIGTERM, SIGHUP or SIGQUIT (`kill`, sim_kill.c), or when
 *     the host closes the stream (adbd then sends SIGHUP): tracing off,
 *     settings reset, exit 0 — atrace's own stop and cleanup;
 *   - on SIGKILL, or a write that fails because the reader went away (the
 *     link dropped, --disconnect-after): killed on the spot (SIGPIPE,
 *     status 141), so tracing stays on with our categories, as a phone's
 *     atrace leaves it.
 *
 * A reader that falls behind by more than the kernel buffer holds (about
 * 3 bytes of text per buffer byte, 4 CPUs) loses the oldest events, as in
 * the kernel's overwrite mode: they are counted and a `CPU:0 [LOST N
 * EVENTS]` line takes their place.  What was served is counted in the
 * state file (streams, streamed_events, streamed_bytes, stream_lost) and
 * logged with the stream's duration when it ends.  --no-stream: an atrace that predates
 * --stream (sim_atrace.c refuses the option).
 */
#include "sim_atrace.h"
#include "sim_shell.h"
#include "sim_wire.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (256 * 1024)
#define NAP_NS 10000000u
#define STATE_EVERY_NS 200000000u
#define MAX_COPIES 1000000
#define KILLED (128 + 13)
#define BYTES_PER_STEP 110

struct sstream {
    struct sh_cmd *c;
    struct sim_device *dev;
    int pid;
    struct tracegen *g;
    const char *tags[65];
    struct sim_marker *marks;   /* copies of the device's markers */
    size_t nmarks, cap, seen;
    char *buf, *scratch;
    uint64_t sent, limit;       /* bytes written; --disconnect-after */
    uint64_t cap_ns;            /* the time the kernel buffer holds */
    uint64_t events, lost, last_state, t0;
    uint64_t counted_events, counted_bytes, counted_lost;
};

static int stop_asked(void *arg)
{
    struct sstream *s = arg;
    return sim_run_signal(s->dev, s->pid) || sim_shell_cancelled(s->c->sh);
}

/* New trace_marker writes, copied for the generator; the time they are
 * complete up to (taken under the same lock add_marker stamps them in). */
static uint64_t take_markers(struct sstream *s)
{
    struct sim_trace *t = s->dev->trace;
    pthread_mutex_lock(&s->dev->lock);
    uint64_t now = sim_now_ns();
    if (t->nmarkers < s->seen)
        s->seen = 0;    /* cleared meanwhile */
    for (; s->seen < t->nmarkers && s->nmarks < MAX_COPIES; s->seen++) {
        if (s->nmarks == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 64;
            struct sim_marker *m = realloc(s->marks, cap * sizeof(*m));
            if (!m)
                break;
            s->marks = m;
            s->cap = cap;
        }
        struct sim_marker *m = &s->marks[s->nmarks];
        *m = t->markers[s->seen];
        if (!(m->text = strdup(m->text)))
            break;
        s->nmarks++;
    }
    pthread_mutex_unlock(&s->dev->lock);
    tracegen_set_markers(s->g, s->marks, s->nmarks);
    return now;
}

static uint64_t count_lines(const char *p, size_t n)
{
    uint64_t k = 0;
    for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        k++;
    return k;
}

/* Write to stdout and send it; -1 when the reader is gone (SIGPIPE). */
static int emit(struct sstream *s, const char *p, size_t n, int is_trace)
{
    struct sim_sink *out = s->c->out;
    if (s->limit && s->sent + n >= s->limit) {
        size_t k = (size_t)(s->limit - s->sent);
        sink_write(out, p, k);      /* this much goes out before the drop */
        s->sent += k;
        if (is_trace)
            s->events += count_lines(p, k);
        sim_drop_here(s->dev, s->c->sh->stream, s->limit);
        return -1;
    }
    if (sink_write(out, p, n) || sink_flush(out))
        return -1;
    s->sent += n;
    if (is_trace)
        s->events += count_lines(p, n);
    return 0;
}

/* More than the buffer holds waits unread: the oldest events are
 * overwritten, and trace_pipe says how many. */
static int overrun(struct sstream *s, uint64_t now)
{
    uint64_t at = tracegen_time(s->g);
    if (now <= at + s->cap_ns)
        return 0;
    uint64_t lost = 0;
    size_t n;
    while ((n = tracegen_read_upto(s->g, s->scratch, CHUNK, now - s->cap_ns / 2)) > 0)
        lost += count_lines(s->scratch, n);
    if (!lost)
        return 0;
    s->lost += lost;
    char line[64];
    snprintf(line, sizeof(line), "CPU:0 [LOST %llu EVENTS]\n", (unsigned long long)lost);
    return emit(s, line, strlen(line), 0);
}

static void count(struct sstream *s, int write)
{
    sim_trace_streamed(s->dev, s->events - s->counted_events, s->sent - s->counted_bytes,
                       s->lost - s->counted_lost, write);
    s->counted_events = s->events;
    s->counted_bytes = s->sent;
    s->counted_lost = s->lost;
}

/* Copy the trace until told to stop: the signal (0: the stream closed),
 * or -1 when a write failed. */
static int pump(struct sstream *s)
{
    for (;;) {
        int sig = sim_run_signal(s->dev, s->pid);
        if (sig)
            return sig;
        if (sim_shell_cancelled(s->c->sh))
            return SIGHUP;
        uint64_t now = take_markers(s);
        if (overrun(s, now))
            return -1;
        size_t n = tracegen_read_upto(s->g, s->buf, CHUNK, now);
        if (n && emit(s, s->buf, n, 1))
            return -1;
        if (now - s->last_state >= STATE_EVERY_NS) {
            count(s, 1);
            s->last_state = now;
        }
        if (n < CHUNK / 2)
            sim_sleep(NAP_NS, stop_asked, s);
    }
}

static int setup(struct sstream *s, uint64_t cats, int buffer_kb)
{
    struct sim_device *dev = s->dev;
    struct sim_trace *t = dev->trace;
    struct tracegen_cfg cfg;
    memset(&cfg, 0, sizeof(cfg));
    pthread_mutex_lock(&dev->lock);
    t->streams++;
    cfg.begin_ns = t->t_begin;
    cfg.sync_ns = t->sync_ns;
    cfg.sync_realtime_ms = t->sync_rt_ms;
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
    size_t ntags = 0;
    for (int i = 0; i < sim_category_count(); i++)
        if ((cats & (1ull << i)) && sim_category_is_user(i))
            s->tags[ntags++] = sim_category_name(i);
    s->tags[ntags] = NULL;
    cfg.end_ns = UINT64_MAX;
    cfg.has_window = 1;
    cfg.live = 1;
    cfg.groups = sim_category_groups(cats);
    cfg.tags = s->tags;
    cfg.event_rate = dev->opt.event_rate;
    cfg.seed = dev->opt.seed;
    cfg.long_marker = dev->opt.long_marker;
    cfg.atrace_pid = s->pid;
    s->g = tracegen_new(&cfg);
    s->buf = malloc(CHUNK);
    s->scratch = malloc(CHUNK);
    uint64_t cap_bytes = (uint64_t)buffer_kb * 1024u * 4u * 3u;
    s->cap_ns = cap_bytes * 1000000000u / ((uint64_t)cfg.event_rate * BYTES_PER_STEP);
    s->limit = sim_drop_armed(dev) ? dev->opt.disconnect_after : 0;
    return s->g && s->buf && s->scratch ? 0 : -1;
}

static void teardown(struct sstream *s, const char *how)
{
    count(s, 1);
    char msg[200];
    snprintf(msg, sizeof(msg), "%llu events, %llu bytes, %llu lost in %.3f s; %s",
             (unsigned long long)s->events, (unsigned long long)s->sent,
             (unsigned long long)s->lost, (double)(sim_now_ns() - s->t0) / 1e9, how);
    sim_log(s->dev, "stream", msg);
    sim_run_end(s->dev, s->pid);
    tracegen_free(s->g);
    for (size_t i = 0; i < s->nmarks; i++)
        free(s->marks[i].text);
    free(s->marks);
    free(s->buf);
    free(s->scratch);
}

int sim_atrace_stream(struct sh_cmd *c, uint64_t cats, int buffer_kb, const char *apps)
{
    struct sim_device *dev = c->sh->dev;
    struct sstream s;
    memset(&s, 0, sizeof(s));
    s.c = c;
    s.dev = dev;
    s.pid = c->sh->execing ? c->sh->pid : sim_alloc_pid(dev);
    s.t0 = sim_now_ns();
    if (sim_run_start(dev, s.pid)) {
        sink_puts(c->err, "atrace: fork: Resource temporarily unavailable\n");
        return 1;
    }
    sim_trace_start(dev, cats, buffer_kb, 0, apps, s.pid);
    int sig = setup(&s, cats, buffer_kb) ? SIGKILL : pump(&s);
    if (sig == SIGKILL || sig < 0) {
        teardown(&s, sig < 0 ? "killed by SIGPIPE" : "killed by SIGKILL");
        return sig < 0 ? KILLED : 128 + SIGKILL;
    }
    sim_trace_stop(dev);
    sim_trace_clear(dev);       /* trace_pipe consumed what it showed */
    sim_trace_cleanup(dev);
    teardown(&s, sig == SIGHUP ? "stopped by SIGHUP" : sig == SIGINT ? "stopped by SIGINT"
                                                                       : "stopped by a signal");
    return 0;
}
