/*
 * Kernel tracing state of the simulated device (sim_atrace.h): start,
 * stop, clear, trace_marker events, the tracefs files and trace dumps.
 *
 * A dump streams generated text (sim_tracegen.c) or the --trace-file,
 * deflating on the fly for atrace -z; nothing is held whole.  The state
 * file ("key=value" lines) is rewritten by write + rename on every
 * change, so tests can read it at any moment.
 */
#include "sim_atrace.h"
#include "sim_shell.h"
#include "sim_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_MARKERS 100000
#define MARKER_MAX_LEN 1024
#define DUMP_CHUNK (256 * 1024)

struct sim_trace *sim_trace_new(struct sim_device *dev)
{
    struct sim_trace *t = calloc(1, sizeof(*t));
    if (t) {
        t->buffer_kb = 1;
        t->on = t->buffered = dev->opt.tracing_on_at_boot;
    }
    return t;
}

static void clear_markers(struct sim_trace *t)
{
    for (size_t i = 0; i < t->nmarkers; i++)
        free(t->markers[i].text);
    t->nmarkers = 0;
}

void sim_trace_free(struct sim_trace *t)
{
    if (!t)
        return;
    clear_markers(t);
    free(t->markers);
    free(t);
}

void sim_trace_write_state(struct sim_device *dev)
{
    const char *path = dev->opt.state_path;
    if (!path)
        return;
    struct sim_trace *t = dev->trace;
    struct dynbuf b;
    dynbuf_init(&b, 64 * 1024);
    dynbuf_printf(&b, "tracing_on=%d\ncategories=", t->on);
    int first = 1;
    for (int i = 0; i < sim_category_count(); i++)
        if (t->cats & (1ull << i)) {
            dynbuf_printf(&b, "%s%s", first ? "" : ",", sim_category_name(i));
            first = 0;
        }
    dynbuf_printf(&b, "\nbuffer_kb=%d\ncompress=%d\napps=%s\nstarts=%u\n"
                  "stops=%u\ndumps=%u\nmarkers=%zu\n", t->buffer_kb,
                  t->compress, t->apps, t->starts, t->stops, t->dumps,
                  t->nmarkers);
    dynbuf_printf(&b, "streams=%u\nstreamed_events=%llu\nstreamed_bytes=%llu\n"
                  "stream_lost=%llu\n", t->streams, (unsigned long long)t->stream_events,
                  (unsigned long long)t->stream_bytes, (unsigned long long)t->stream_lost);
    dynbuf_printf(&b, "perfetto_running=%d\nperfetto_sessions=%u\nperfetto_finished=%u\n"
                  "perfetto_killed=%u\nperfetto_config=%s\n", t->pf_running, t->pf_sessions,
                  t->pf_finished, t->pf_killed, t->pf_config);
    dynbuf_printf(&b, "launches=%u\napp_alive=%d\napp_activity=%d\n", dev->launches,
                  dev->app_alive, dev->app_activity);
    dynbuf_printf(&b, "perfetto_last_crc=%lu\nperfetto_last_size=%llu\n", t->pf_last_crc,
                  t->pf_last_size);
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f) {
        fwrite(b.data, 1, b.len, f);
        if (!fclose(f))
            rename(tmp, path);
    }
    dynbuf_free(&b);
}

/* atrace sets the tags property when it starts and clears it in its
 * cleanup, whatever tracing_on says: a dump that died leaves it set. */
uint64_t sim_trace_tags(struct sim_device *dev)
{
    return sim_category_tags(dev->trace->cats);
}

void sim_trace_start(struct sim_device *dev, uint64_t cats, int buffer_kb,
                     int compress, const char *apps, int atrace_pid)
{
    uint64_t now = sim_now_ns();
    pthread_mutex_lock(&dev->lock);
    struct sim_trace *t = dev->trace;
    clear_markers(t);
    t->on = 1;
    t->buffered = 1;
    t->cats = cats;
    t->buffer_kb = buffer_kb;
    t->compress = compress;
    snprintf(t->apps, sizeof(t->apps), "%s", apps ? apps : "");
    t->t_begin = now;
    t->t_end = 0;
    t->atrace_pid = atrace_pid;
    t->user_initiated = 1;
    t->sync_ns = now;
    t->sync_rt_ms = sim_realtime_ms();
    t->starts++;
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
}

static void stop_locked(struct sim_device *dev)
{
    struct sim_trace *t = dev->trace;
    if (t->on) {
        t->on = 0;
        t->t_end = sim_now_ns();
        t->stops++;
    }
}

void sim_trace_streamed(struct sim_device *dev, uint64_t events, uint64_t bytes,
                        uint64_t lost, int write)
{
    pthread_mutex_lock(&dev->lock);
    struct sim_trace *t = dev->trace;
    t->stream_events += events;
    t->stream_bytes += bytes;
    t->stream_lost += lost;
    if (write)
        sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
}

void sim_trace_stop(struct sim_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    stop_locked(dev);
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
}

void sim_trace_cleanup(struct sim_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    dev->trace->cats = 0;
    dev->trace->user_initiated = 0;
    dev->trace->buffer_kb = 1;
    dev->trace->apps[0] = '\0';
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
}

static void clear_locked(struct sim_device *dev)
{
    struct sim_trace *t = dev->trace;
    clear_markers(t);
    t->atrace_pid = 0;
    t->t_begin = sim_now_ns();
    t->buffered = t->on;
}

void sim_trace_clear(struct sim_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    clear_locked(dev);
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
}

static void add_marker(struct sim_device *dev, int pid, const char *text,
                       size_t len)
{
    struct sim_trace *t = dev->trace;
    const char *nl = memchr(text, '\n', len);
    if (nl)
        len = (size_t)(nl - text);
    if (len > MARKER_MAX_LEN)
        len = MARKER_MAX_LEN;
    if (!t->on || t->nmarkers == MAX_MARKERS)
        return;
    if (t->nmarkers == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        struct sim_marker *m = realloc(t->markers, cap * sizeof(*m));
        if (!m)
            return;
        t->markers = m;
        t->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = '\0';
    struct sim_marker *m = &t->markers[t->nmarkers++];
    m->ts_ns = sim_now_ns();
    m->pid = pid;
    m->cpu = pid & 3;
    m->text = copy;
    m->comm = NULL;
}

/* tracefs files. */

struct marker_sink {
    struct sim_sink base;
    struct sim_device *dev;
    int pid;
};

static int marker_write(struct sim_sink *k, const void *p, size_t n)
{
    struct marker_sink *m = (struct marker_sink *)k;
    pthread_mutex_lock(&m->dev->lock);
    if (!m->dev->opt.drop_markers)  /* --drop-markers: the write "works" but is lost */
        add_marker(m->dev, m->pid, p, n);
    sim_trace_write_state(m->dev);
    pthread_mutex_unlock(&m->dev->lock);
    return 0;
}

static int marker_close(struct sim_sink *k)
{
    free(k);
    return 0;
}

struct file_write {
    struct sim_device *dev;
    char name[32];
};

static void file_written(void *arg, const char *data, size_t len)
{
    struct file_write *w = arg;
    struct sim_device *dev = w->dev;
    struct sim_trace *t = dev->trace;
    pthread_mutex_lock(&dev->lock);
    if (!strcmp(w->name, "tracing_on") && len) {
        if (data[0] == '0') {
            stop_locked(dev);
        } else if (data[0] == '1' && !t->on) {
            t->on = 1;
            if (!t->buffered) {
                t->buffered = 1;
                t->t_begin = sim_now_ns();
            }
        }
    } else if (!strcmp(w->name, "buffer_size_kb") && len) {
        char num[16];
        uint64_t kb;
        size_t n = strcspn(data, "\n");
        if (n < sizeof(num)) {
            memcpy(num, data, n);
            num[n] = '\0';
            if (!sim_parse_u64(num, &kb) && kb && kb < 1u << 20)
                t->buffer_kb = (int)kb;
        }
    } else if (!strcmp(w->name, "trace")) {
        clear_locked(dev);
    }
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
    free(w);
}

int sim_trace_file_write(struct sim_device *dev, const char *name, int pid,
                         struct sim_sink **out)
{
    if (!strcmp(name, "trace_marker")) {
        struct marker_sink *m = malloc(sizeof(*m));
        if (!m)
            return -ENOMEM;
        m->base.write = marker_write;
        m->base.close = marker_close;
        m->base.flush = NULL;
        m->dev = dev;
        m->pid = pid;
        *out = &m->base;
        return 0;
    }
    struct file_write *w = malloc(sizeof(*w));
    if (!w)
        return -ENOMEM;
    w->dev = dev;
    snprintf(w->name, sizeof(w->name), "%s", name);
    *out = sim_sink_collect(4096, file_written, w);
    if (!*out) {
        free(w);
        return -ENOMEM;
    }
    return 0;
}

/* Readers of the trace text: generated, or the --trace-file. */

struct gen_reader {
    struct sim_reader base;
    struct tracegen *gen;
    FILE *file;
    struct sim_marker *markers;
    size_t nmarkers;
    const char *tags[65];
    char *buf;
    size_t len, off;
};

static long gen_read(struct sim_reader *r, void *p, size_t n)
{
    struct gen_reader *g = (struct gen_reader *)r;
    if (g->file) {
        size_t k = fread(p, 1, n, g->file);
        return ferror(g->file) ? -1 : (long)k;
    }
    if (g->off == g->len) {
        g->len = tracegen_read(g->gen, g->buf, DUMP_CHUNK);
        g->off = 0;
        if (!g->len)
            return 0;
    }
    size_t k = g->len - g->off;
    if (k > n)
        k = n;
    memcpy(p, g->buf + g->off, k);
    g->off += k;
    return (long)k;
}

static void gen_close(struct sim_reader *r)
{
    struct gen_reader *g = (struct gen_reader *)r;
    if (g->file)
        fclose(g->file);
    tracegen_free(g->gen);
    for (size_t i = 0; i < g->nmarkers; i++)
        free(g->markers[i].text);
    free(g->markers);
    free(g->buf);
    free(g);
}

static struct sim_reader *open_trace_text(struct sim_device *dev)
{
    struct gen_reader *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->base.read = gen_read;
    g->base.close = gen_close;
    if (dev->opt.trace_file) {
        g->file = fopen(dev->opt.trace_file, "rb");
        if (!g->file) {
            free(g);
            return NULL;
        }
        return &g->base;
    }
    struct tracegen_cfg cfg;
    memset(&cfg, 0, sizeof(cfg));
    pthread_mutex_lock(&dev->lock);
    struct sim_trace *t = dev->trace;
    g->markers = calloc(t->nmarkers ? t->nmarkers : 1, sizeof(*g->markers));
    uint64_t end_ns = t->on ? sim_now_ns() : t->t_end;
    for (size_t i = 0; g->markers && i < t->nmarkers; i++) {
        if (t->markers[i].ts_ns > end_ns)
            continue;   /* made ahead (a launch's later slices) for a time not traced */
        g->markers[g->nmarkers] = t->markers[i];
        g->markers[g->nmarkers].text = strdup(t->markers[i].text);
        if (g->markers[g->nmarkers].text)
            g->nmarkers++;
    }
    size_t ntags = 0;
    for (int i = 0; i < sim_category_count(); i++)
        if ((t->cats & (1ull << i)) && sim_category_is_user(i))
            g->tags[ntags++] = sim_category_name(i);
    g->tags[ntags] = NULL;
    cfg.begin_ns = t->t_begin;
    cfg.end_ns = t->on ? sim_now_ns() : t->t_end;
    cfg.has_window = t->buffered;
    cfg.groups = sim_category_groups(t->cats);
    /* Without a size target the text is bounded by the kernel buffer:
     * about 3 bytes of text per buffer byte, 4 CPUs. */
    if (!dev->opt.size_mb)
        cfg.max_bytes = (uint64_t)t->buffer_kb * 1024u * 4u * 3u;
    cfg.atrace_pid = t->atrace_pid;
    cfg.sync_ns = t->sync_ns;
    cfg.sync_realtime_ms = t->sync_rt_ms;
    pthread_mutex_unlock(&dev->lock);
    cfg.tags = g->tags;
    cfg.target_bytes = dev->opt.size_mb * 1000000u;
    cfg.event_rate = dev->opt.event_rate;
    cfg.overflow = dev->opt.overflow;
    cfg.seed = dev->opt.seed;
    cfg.long_marker = dev->opt.long_marker;
    cfg.markers = g->markers;
    cfg.nmarkers = g->nmarkers;
    g->gen = tracegen_new(&cfg);
    g->buf = malloc(DUMP_CHUNK);
    if (!g->gen || !g->buf || !g->markers) {
        gen_close(&g->base);
        return NULL;
    }
    return &g->base;
}

int sim_trace_file_read(struct sim_device *dev, const char *name,
                        struct sim_reader **out)
{
    char text[128];
    if (!strcmp(name, "trace")) {
        *out = open_trace_text(dev);
        return *out ? 0 : -ENOMEM;
    }
    if (!strcmp(name, "trace_marker"))
        return -EINVAL;
    pthread_mutex_lock(&dev->lock);
    if (!strcmp(name, "tracing_on"))
        snprintf(text, sizeof(text), "%d\n", dev->trace->on);
    else if (!strcmp(name, "buffer_size_kb"))
        snprintf(text, sizeof(text), "%d\n", dev->trace->buffer_kb);
    else if (!strcmp(name, "trace_clock"))
        snprintf(text, sizeof(text),
                 "local global counter uptime perf mono mono_raw [boot]\n");
    else
        snprintf(text, sizeof(text), "nop\n");
    pthread_mutex_unlock(&dev->lock);
    *out = sim_reader_mem(text, strlen(text));
    return *out ? 0 : -ENOMEM;
}

/* Dumps. */

struct dump_out {
    struct sh_cmd *c;
    struct sim_sink *out;
    uint64_t sent, limit;
};

static int dump_write(struct dump_out *d, const void *p, size_t n)
{
    if (d->limit && d->sent + n >= d->limit) {
        size_t k = (size_t)(d->limit - d->sent);
        sink_write(d->out, p, k);
        d->sent += k;
        sim_drop_here(d->c->sh->dev, d->c->sh->stream, d->limit);
        return -1;
    }
    d->sent += n;
    if (sink_write(d->out, p, n) || sim_shell_cancelled(d->c->sh))
        return -1;
    return 0;
}

static int dump_deflate(struct dump_out *d, struct sim_reader *r, char *in,
                        char *out, int level)
{
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    if (deflateInit(&zs, level) != Z_OK)
        return -1;
    int rc = 0, flush = Z_NO_FLUSH;
    while (!rc && flush != Z_FINISH) {
        long n = r->read(r, in, DUMP_CHUNK);
        if (n < 0) {
            rc = -1;
            break;
        }
        flush = n ? Z_NO_FLUSH : Z_FINISH;
        zs.next_in = (Bytef *)in;
        zs.avail_in = (uInt)n;
        do {
            zs.next_out = (Bytef *)out;
            zs.avail_out = DUMP_CHUNK;
            deflate(&zs, flush);
            size_t have = DUMP_CHUNK - zs.avail_out;
            if (have && dump_write(d, out, have)) {
                rc = -1;
                break;
            }
        } while (zs.avail_out == 0);
    }
    deflateEnd(&zs);
    return rc;
}

int sim_trace_dump(struct sh_cmd *c, struct sim_sink *out, int compress)
{
    struct sim_device *dev = c->sh->dev;
    struct sim_reader *r = open_trace_text(dev);
    char *in = malloc(DUMP_CHUNK), *zbuf = malloc(DUMP_CHUNK);
    int rc = -1;
    if (!r || !in || !zbuf)
        goto out;
    uint64_t limit = dev->opt.disconnect_after;
    if (dev->opt.disconnect_later && dev->trace->dumps > 0)
        limit = dev->opt.disconnect_later;
    struct dump_out d = {c, out, 0, limit};
    /* bytes written to /dev/null on the device never cross the link; a
     * brief drop (--reconnect-after) happens once */
    if (out == &sim_null_sink || !sim_drop_armed(dev))
        d.limit = 0;
    if (compress) {
        rc = dump_deflate(&d, r, in, zbuf, dev->opt.zlevel);
    } else {
        long n;
        rc = 0;
        while (!rc && (n = r->read(r, in, DUMP_CHUNK)) > 0)
            rc = dump_write(&d, in, (size_t)n);
    }
    pthread_mutex_lock(&dev->lock);
    dev->trace->dumps++;
    sim_trace_write_state(dev);
    pthread_mutex_unlock(&dev->lock);
out:
    if (r)
        r->close(r);
    free(in);
    free(zbuf);
    return rc;
}
