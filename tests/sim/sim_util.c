/*
 * Small helpers shared by the simulator modules: sinks and readers, the
 * command log, clocks, cancellable sleeps, strict number parsing, pids.
 */
#include "sim.h"
#include "sim_fs.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int null_write(struct sim_sink *k, const void *p, size_t n)
{
    (void)k;
    (void)p;
    (void)n;
    return 0;
}

struct sim_sink sim_null_sink = {null_write, NULL, NULL};

int sink_puts(struct sim_sink *k, const char *s)
{
    return sink_write(k, s, strlen(s));
}

int sink_printf(struct sim_sink *k, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    if ((size_t)n < sizeof(small))
        return sink_write(k, small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big)
        return -1;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int r = sink_write(k, big, (size_t)n);
    free(big);
    return r;
}

void sim_log(struct sim_device *dev, const char *kind, const char *text)
{
    if (!dev->log)
        return;
    pthread_mutex_lock(&dev->log_lock);
    fputs(kind, dev->log);
    fputc(' ', dev->log);
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            fputs("\\n", dev->log);
        else if (*p == '\\')
            fputs("\\\\", dev->log);
        else
            fputc(*p, dev->log);
    }
    fputc('\n', dev->log);
    fflush(dev->log);
    pthread_mutex_unlock(&dev->log_lock);
}

uint64_t sim_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sim_realtime_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int sim_sleep(uint64_t ns, int (*cancel)(void *), void *arg)
{
    uint64_t now0 = sim_now_ns();
    uint64_t end = ns > UINT64_MAX - now0 ? UINT64_MAX : now0 + ns;  /* "forever" */
    for (;;) {
        if (sim_stopping || (cancel && cancel(arg)))
            return -1;
        uint64_t now = sim_now_ns();
        if (now >= end)
            return 0;
        uint64_t left = end - now;
        if (left > 20000000u)
            left = 20000000u;
        struct timespec ts = {(time_t)(left / 1000000000u),
                              (long)(left % 1000000000u)};
        nanosleep(&ts, NULL);
    }
}

int sim_parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int sim_alloc_pid(struct sim_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    int pid = dev->next_pid;
    dev->next_pid += 3;
    if (dev->next_pid > 32000)
        dev->next_pid = 5000;
    pthread_mutex_unlock(&dev->lock);
    return pid;
}

/* Generic readers and sinks. */

struct mem_reader {
    struct sim_reader base;
    size_t len, off;
    char data[];
};

static long mem_read(struct sim_reader *r, void *p, size_t n)
{
    struct mem_reader *m = (struct mem_reader *)r;
    size_t k = m->len - m->off;
    if (k > n)
        k = n;
    memcpy(p, m->data + m->off, k);
    m->off += k;
    return (long)k;
}

static void mem_close(struct sim_reader *r)
{
    free(r);
}

struct sim_reader *sim_reader_mem(const void *p, size_t n)
{
    struct mem_reader *m = malloc(sizeof(*m) + n + 1);
    if (!m)
        return NULL;
    m->base.read = mem_read;
    m->base.close = mem_close;
    m->len = n;
    m->off = 0;
    if (n)
        memcpy(m->data, p, n);
    return &m->base;
}

struct collect_sink {
    struct sim_sink base;
    struct dynbuf buf;
    void (*done)(void *, const char *, size_t);
    void *arg;
};

static int collect_write(struct sim_sink *k, const void *p, size_t n)
{
    struct collect_sink *c = (struct collect_sink *)k;
    return dynbuf_add(&c->buf, p, n) ? -1 : 0;
}

static int collect_close(struct sim_sink *k)
{
    struct collect_sink *c = (struct collect_sink *)k;
    c->done(c->arg, dynbuf_str(&c->buf), c->buf.len);
    dynbuf_free(&c->buf);
    free(c);
    return 0;
}

struct sim_sink *sim_sink_collect(size_t max,
                                  void (*done)(void *, const char *, size_t),
                                  void *arg)
{
    struct collect_sink *c = malloc(sizeof(*c));
    if (!c)
        return NULL;
    c->base.write = collect_write;
    c->base.close = collect_close;
    c->base.flush = NULL;
    dynbuf_init(&c->buf, max);
    c->done = done;
    c->arg = arg;
    return &c->base;
}
