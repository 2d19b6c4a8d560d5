/*
 * The trace file a simulated perfetto session writes (sim_perfetto.c
 * starts the session), the two ways traced does it:
 *
 *   - a ring buffer (no write_into_file): the file stays empty while the
 *     session records and is written whole when it stops (duration_ms, or
 *     kill -TERM/-INT/-HUP); kill -KILL leaves it empty;
 *   - write_into_file: every file_write_period_ms (0: 5000, at least 100,
 *     as traced clamps it) the events since the last write are appended as
 *     whole packets, the system info and process tree with the first
 *     write; a stop appends the rest, kill -KILL keeps what was written.
 *     Bytes once written never change, so a host may read the file while
 *     it grows (`tail -c +1 -f`).
 *
 * Either way the file is complete and closed before the session's pid
 * goes (the caller ends it), and the state file names the CRC-32 and size
 * of what it holds (perfetto_last_crc, _size).  --perfetto-corrupt adds a
 * malformed packet at the end; --disconnect-perfetto-after drops the link
 * while the session records.
 */
#include "sim_perfetto.h"
#include "sim_atrace.h"
#include "sim_wire.h"

#include <signal.h>
#include <zlib.h>

#define DEFAULT_PERIOD_MS 5000u
#define MIN_PERIOD_MS 100u

static int stopped(void *arg)
{
    struct pf_session *s = arg;
    return sim_run_signal(s->dev, s->pid) != 0;
}

/* The file's bytes pass through here so the state can name its CRC
 * (tests compare what the host kept with what the device wrote). */
struct crc_sink {
    struct sim_sink k;
    struct sim_sink *to;
    uLong crc;
    unsigned long long size;
};

static int crc_write(struct sim_sink *k, const void *p, size_t n)
{
    struct crc_sink *c = (struct crc_sink *)k;
    c->crc = crc32(c->crc, p, (uInt)n);
    c->size += n;
    return sink_write(c->to, p, n);
}

static void crc_init(struct crc_sink *c, struct sim_sink *to)
{
    *c = (struct crc_sink){{crc_write, NULL, NULL}, to, crc32(0, Z_NULL, 0), 0};
}

/* The end of the file: --perfetto-corrupt's bad packet (its first field
 * has wire type 7), then the state learns what the file holds. */
static int finish(struct pf_session *s, struct crc_sink *c, int rc)
{
    static const unsigned char bad[] = {0x0a, 0x03, 0x07, 0x07, 0x07};
    if (!rc && s->dev->opt.pf_corrupt)
        rc = sink_write(&c->k, bad, sizeof(bad));
    pthread_mutex_lock(&s->dev->lock);
    s->dev->trace->pf_last_crc = c->crc;
    s->dev->trace->pf_last_size = c->size;
    pthread_mutex_unlock(&s->dev->lock);
    return rc;
}

static void drop(struct pf_session *s)
{
    sim_log(s->dev, "perfetto", "the link drops while recording");
    sim_drop_here(s->dev, NULL, 0);
}

/* --disconnect-perfetto-after: the link drops while the session records
 * (which it goes on doing, as perfetto --background does on a phone). */
static uint64_t drop_link(struct pf_session *s, uint64_t ns)
{
    uint64_t at = s->dev->opt.pf_drop_ms * 1000000u;
    if (!at || at >= ns || !sim_drop_armed(s->dev) || sim_sleep(at, stopped, s))
        return ns;
    drop(s);
    return ns == UINT64_MAX ? ns : ns - at;
}

static int killed_now(void *arg)
{
    struct pf_session *s = arg;
    return sim_run_signal(s->dev, s->pid) == SIGKILL;
}

/* --slow-flush: at its end (duration_ms, or TERM, INT or HUP) the session
 * takes its time finalising the file (traced flushing a large buffer);
 * KILL still ends it at once. */
static void slow_flush(struct pf_session *s)
{
    if (!s->dev->opt.pf_flush_ms || killed_now(s) || sim_stopping)
        return;
    sim_log(s->dev, "perfetto", "flushing");
    sim_sleep((uint64_t)s->dev->opt.pf_flush_ms * 1000000u, killed_now, s);
}

static int record_ring(struct pf_session *s, int *killed)
{
    uint64_t ns = s->cfg.duration_ms ? (uint64_t)s->cfg.duration_ms * 1000000u : UINT64_MAX;
    sim_sleep(drop_link(s, ns), stopped, s);
    slow_flush(s);
    if ((*killed = sim_run_signal(s->dev, s->pid) == SIGKILL)) {
        sim_log(s->dev, "perfetto", "killed: empty file");
        return 0;
    }
    if (sim_stopping)
        return 0;
    struct sim_sink *out;
    if (sim_fs_open_write(s->dev->fs, s->path, 0, s->pid, &out))
        return -1;
    struct crc_sink c;
    crc_init(&c, out);
    int rc = finish(s, &c, pf_write_trace(s->dev, &s->cfg, s->begin_ns, sim_now_ns(), s->app_in_front, &c.k));
    if (out->close)
        out->close(out);
    return rc;
}

static uint64_t period_ns(const struct pf_config *c)
{
    uint32_t ms = c->file_write_period_ms ? c->file_write_period_ms : DEFAULT_PERIOD_MS;
    return (uint64_t)(ms < MIN_PERIOD_MS ? MIN_PERIOD_MS : ms) * 1000000u;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Append a period's events until the duration is over (1) or a signal
 * came or the simulator stops (0); -1 when the file could not be written. */
static int periods(struct pf_session *s, struct pf_writer *w, uint64_t end)
{
    uint64_t period = period_ns(&s->cfg), next = s->begin_ns + period;
    uint64_t drop_at = s->dev->opt.pf_drop_ms && sim_drop_armed(s->dev)
                           ? s->begin_ns + s->dev->opt.pf_drop_ms * 1000000u : UINT64_MAX;
    for (;;) {
        uint64_t now = sim_now_ns(), wake = min_u64(min_u64(next, end), drop_at);
        if (wake > now && sim_sleep(wake - now, stopped, s))
            return 0;
        now = sim_now_ns();
        if (now >= drop_at) {
            drop(s);
            drop_at = UINT64_MAX;
        }
        if (now >= end)
            return 1;
        if (now < next)
            continue;
        if (pf_writer_upto(w, now))
            return -1;
        /* fallen behind by more than a period: the next write is a period
         * away, as traced's timer does not queue missed ticks */
        next = next + period > now ? next + period : now + period;
    }
}

static int record_into_file(struct pf_session *s, int *killed)
{
    uint64_t end = s->cfg.duration_ms ? s->begin_ns + (uint64_t)s->cfg.duration_ms * 1000000u
                                      : UINT64_MAX;
    struct sim_sink *out;
    if (sim_fs_open_write(s->dev->fs, s->path, 1, s->pid, &out)) {
        sim_sleep(end == UINT64_MAX ? end : end - s->begin_ns, stopped, s);
        *killed = sim_run_signal(s->dev, s->pid) == SIGKILL;
        return -1;
    }
    struct crc_sink c;
    crc_init(&c, out);
    struct pf_writer *w = pf_writer_new(s->dev, &s->cfg, s->begin_ns, end, 1, s->app_in_front,
                                         &c.k);
    int how = w ? periods(s, w, end) : -1;
    slow_flush(s);
    int rc = how < 0 ? -1 : 0;
    if ((*killed = sim_run_signal(s->dev, s->pid) == SIGKILL))
        sim_log(s->dev, "perfetto", "killed: the file keeps what was written");
    /* the rest: up to the end of the duration (even when the generator
     * ran past it), or up to now when stopped early */
    if (!rc && !*killed && !sim_stopping)
        rc = pf_writer_upto(w, how == 1 ? UINT64_MAX : sim_now_ns());
    if (!*killed && !sim_stopping)
        rc = finish(s, &c, rc);
    else
        finish(s, &c, -1);
    pf_writer_free(w);
    if (out->close && out->close(out))
        rc = -1;
    return rc;
}

int pf_record(struct pf_session *s, int *killed)
{
    int rc = s->cfg.write_into_file ? record_into_file(s, killed) : record_ring(s, killed);
    if (!*killed && !sim_stopping)
        sim_log(s->dev, "perfetto", rc ? "write failed" : "trace written");
    return rc;
}
