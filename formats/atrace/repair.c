/*
 * Line repairs, streamed; see repair.h for what and why.
 *
 * Lines are examined in place in the caller's chunk; unchanged lines are
 * not copied but passed on as one run per chunk.  A line that straddles
 * two chunks is carried in a small prefix buffer.  Output offsets for the
 * circular-buffer cut come from the sink (tell) at line starts, when no
 * escaping state is pending.
 */
#include "repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dynbuf.h"
#include "lib/plat.h"

#define PENDING_MAX (1u << 20)

static const char synth_header[] =
    "# tracer: nop\n"
    "#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

/* The column header alone, for text whose own header lacks one (only
 * `# tracer: nop`, as traceconv writes): Perfetto's importer takes a
 * block for ftrace only when a `#` line with TASK-PID precedes its events. */
static const char cols_tgid[] =
    "#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";
static const char cols_plain[] =
    "#\n"
    "#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |       |   ||||       |         |\n";

struct repair {
    struct repair_opts o;
    struct text_sink out;
    unsigned char pfx[REPAIR_PREFIX_MAX];
    size_t pfxlen;
    int tail;               /* rest of an examined long line streams through */
    int started;            /* first line seen */
    int head;               /* in the text's own leading comment lines */
    int head_cols;          /* ... and one of them is the column header */
    struct dynbuf pending;  /* blank lines a TGID fix may swallow */
    uint64_t emitted;
    int have_h, have_m;
    uint64_t h, m;
    uint64_t fixed;
    int cut;
    size_t watch_len;
    int watch_seen;
    unsigned char wtail[REPAIR_WATCH_MAX];  /* last watch_len - 1 bytes seen */
    size_t wtail_len;
    struct coverage cov;
};

struct repair *repair_new(const struct repair_opts *o, const struct text_sink *out)
{
    struct repair *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->o = *o;
    r->out = *out;
    coverage_init(&r->cov);
    r->watch_len = o->watch ? strlen(o->watch) : 0;
    if (r->watch_len > REPAIR_WATCH_MAX)
        r->watch_len = REPAIR_WATCH_MAX;
    dynbuf_init(&r->pending, PENDING_MAX);
    return r;
}

void repair_free(struct repair *r)
{
    if (!r)
        return;
    dynbuf_free(&r->pending);
    free(r);
}

static enum st_err emit(struct repair *r, const void *p, size_t n)
{
    if (!n)
        return ST_OK;
    r->emitted += n;
    return r->out.write(r->out.ctx, p, n);
}

static enum st_err flush_run(struct repair *r, const unsigned char **run,
                             const unsigned char *upto)
{
    enum st_err e = ST_OK;
    if (upto > *run)
        e = emit(r, *run, (size_t)(upto - *run));
    *run = upto;
    return e;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Record header end / last marker for an output line starting now. */
static void mark_line_start(struct repair *r, unsigned char first,
                            const unsigned char *p, size_t n)
{
    if (!r->have_h && first != '#') {
        r->have_h = 1;
        r->h = r->out.tell(r->out.ctx);
    }
    if (r->o.circular && first == '#' && r->emitted > 0 && coverage_cpu_marker(p, n)) {
        r->have_m = 1;
        r->m = r->out.tell(r->out.ctx);
    }
}

static enum st_err flush_pending(struct repair *r)
{
    if (!r->pending.len)
        return ST_OK;
    mark_line_start(r, (unsigned char)r->pending.data[0], NULL, 0);
    enum st_err e = emit(r, r->pending.data, r->pending.len);
    dynbuf_reset(&r->pending);
    return e;
}

struct tgid_match {
    size_t name, tid_end, end;  /* name start, end of tid, match end */
    uint32_t pid;
};

/* catapult: ^\s*(\S+)-(\d+)\s+(\(\S+\)) with tid > 0, name != <idle>,
 * group 3 == (-----) and the tid known. */
static int tgid_fix(const struct repair *r, const unsigned char *p, size_t n,
                    int complete, struct tgid_match *t)
{
    size_t i = 0;
    while (i < n && is_space(p[i]) && p[i] != '\n')
        i++;
    size_t tok = i;
    while (i < n && !is_space(p[i]))
        i++;
    size_t tok_end = i, d = tok_end;
    while (d > tok && is_digit(p[d - 1]))
        d--;
    if (d == tok_end || d < tok + 2 || p[d - 1] != '-' || tok_end - d > 10)
        return 0;
    size_t k = tok_end;
    while (k < n && is_space(p[k]) && p[k] != '\n')
        k++;
    if (k == tok_end || k >= n || p[k] != '(')
        return 0;
    size_t g = k;
    while (g < n && !is_space(p[g]))
        g++;
    if (g == n && !complete)
        return 0;   /* the group may go on past what we looked at */
    while (g > k + 2 && p[g - 1] != ')')
        g--;
    if (g != k + 7 || memcmp(p + k, "(-----)", 7))
        return 0;
    if (d - 1 - tok == 6 && !memcmp(p + tok, "<idle>", 6))
        return 0;
    uint64_t tid = 0;
    for (size_t j = d; j < tok_end; j++)
        tid = tid * 10 + (uint64_t)(p[j] - '0');
    if (!tid || tid > UINT32_MAX)
        return 0;
    t->pid = tgid_map_get(r->o.tgids, (uint32_t)tid);
    if (!t->pid)
        return 0;
    t->name = tok;
    t->tid_end = tok_end;
    t->end = g;
    return 1;
}

static int blank_line(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_space(p[i]))
            return 0;
    return 1;
}

static enum st_err start_text(struct repair *r, const unsigned char *p, size_t n,
                              const unsigned char **run)
{
    r->started = 1;
    r->head = r->o.add_header && n && p[0] == '#';
    static const char tracer[] = "# tracer:";
    if (r->head && (n < sizeof(tracer) - 1 || memcmp(p, tracer, sizeof(tracer) - 1))) {
        /* the classic viewer takes text for ftrace by its first line; not
         * counted as emitted, so a first buffer-started line stays no cut */
        enum st_err e = flush_run(r, run, p);
        return e ? e : r->out.write(r->out.ctx, synth_header, strlen("# tracer: nop\n"));
    }
    if (!r->o.add_header || (n && p[0] == '#'))
        return ST_OK;
    enum st_err e = flush_run(r, run, p);
    return e ? e : emit(r, synth_header, sizeof(synth_header) - 1);
}

/* The event's columns: a TGID column `( 123)` or `(-----)` right before
 * the `[CPU]` one. */
static int has_tgid_column(const unsigned char *p, size_t n)
{
    const unsigned char *b = memchr(p, '[', n);
    while (b && b > p && b[-1] == ' ')
        b--;
    return b && b > p && b[-1] == ')';
}

/* A line of the text's own header, or the first after it: the column
 * header goes in before the first event when the header had none. */
static enum st_err head_line(struct repair *r, const unsigned char *p, size_t n,
                             const unsigned char **run)
{
    if (n && p[0] == '#') {
        static const char cols[] = "TASK-PID";
        for (size_t i = 0; !r->head_cols && i + sizeof(cols) - 1 <= n; i++)
            r->head_cols = !memcmp(p + i, cols, sizeof(cols) - 1);
        return ST_OK;
    }
    if (blank_line(p, n))
        return ST_OK;
    r->head = 0;
    if (r->head_cols)
        return ST_OK;
    enum st_err e = flush_run(r, run, p);
    if (e)
        return e;
    return has_tgid_column(p, n) ? emit(r, cols_tgid, sizeof(cols_tgid) - 1)
                                 : emit(r, cols_plain, sizeof(cols_plain) - 1);
}

/* One line at p (n bytes examined; complete: ends with its LF or the text).
 * Bytes [*run, p) are unchanged text not yet emitted. */
static enum st_err do_line(struct repair *r, const unsigned char *p, size_t n,
                           int complete, const unsigned char **run)
{
    enum st_err e;
    if (!r->started && (e = start_text(r, p, n, run)))
        return e;
    if (r->head && (e = head_line(r, p, n, run)))
        return e;
    size_t text = n && p[n - 1] == '\n' ? n - 1 : n;
    if (r->o.observe)
        r->o.observe(r->o.observe_ctx, (const char *)p, text);
    if (r->o.coverage)
        coverage_line(&r->cov, (const char *)p, text);
    if (r->o.tgids) {
        struct tgid_match t;
        if (complete && blank_line(p, n)) {
            if ((e = flush_run(r, run, p)))
                return e;
            if (dynbuf_add(&r->pending, p, n) && ((e = flush_pending(r)) ||
                                                  (e = dynbuf_add(&r->pending, p, n))))
                return e;
            *run = p + n;
            return ST_OK;
        }
        if (tgid_fix(r, p, n, complete, &t)) {
            char pid[24];
            int pl = snprintf(pid, sizeof(pid), " ( %u)", (unsigned)t.pid);
            if ((e = flush_run(r, run, p)))
                return e;
            dynbuf_reset(&r->pending);
            mark_line_start(r, p[t.name], p + t.name, n - t.name);
            if ((e = emit(r, p + t.name, t.tid_end - t.name)) ||
                (e = emit(r, pid, (size_t)pl)))
                return e;
            r->fixed++;
            *run = p + t.end;
            return ST_OK;
        }
        if (r->pending.len && ((e = flush_run(r, run, p)) || (e = flush_pending(r))))
            return e;
    }
    int first_hash = n && p[0] == '#';
    if ((!r->have_h && !first_hash) ||
        (r->o.circular && first_hash && coverage_cpu_marker(p, n))) {
        if ((e = flush_run(r, run, p)))
            return e;
        mark_line_start(r, n ? p[0] : '\n', p, n);
    }
    return ST_OK;
}

enum st_err repair_write(void *ctx, const void *p, size_t n)
{
    return repair_feed(ctx, p, n);
}

/* Carry the start of a line that continues in the next chunk. */
static enum st_err feed_carried(struct repair *r, const unsigned char **pp, size_t *pn)
{
    const unsigned char *p = *pp;
    size_t n = *pn;
    const unsigned char *nl = memchr(p, '\n', n);
    size_t want = nl ? (size_t)(nl - p) + 1 : n;
    size_t room = REPAIR_PREFIX_MAX - r->pfxlen;
    size_t take = want < room ? want : room;
    memcpy(r->pfx + r->pfxlen, p, take);
    r->pfxlen += take;
    *pp = p + take;
    *pn = n - take;
    int complete = r->pfx[r->pfxlen - 1] == '\n';
    if (!complete && r->pfxlen < REPAIR_PREFIX_MAX)
        return ST_OK;
    const unsigned char *run = r->pfx;
    enum st_err e = do_line(r, r->pfx, r->pfxlen, complete, &run);
    if (!e)
        e = flush_run(r, &run, r->pfx + r->pfxlen);
    r->tail = !complete;
    r->pfxlen = 0;
    return e;
}

/* Once the header is behind and no line can be rewritten or watched,
 * only `#` lines (buffer-started markers) still matter: hop from line
 * start to line start looking at one byte, instead of examining lines. */
static int only_markers_left(const struct repair *r)
{
    return r->started && r->have_h && !r->o.tgids && !r->o.observe && !r->o.coverage &&
           !r->pending.len;
}

/* Complete lines of [*pp, end): the caller goes on at the partial rest. */
static enum st_err skim(struct repair *r, const unsigned char **pp,
                        const unsigned char *end, const unsigned char **run)
{
    const unsigned char *q = *pp;
    const unsigned char *last = memrchr(q, '\n', (size_t)(end - q));
    if (!last)
        return ST_OK;
    const unsigned char *lim = last + 1;
    while (q < lim) {
        if (*q != '#') {
            if (!r->o.circular)
                break;
            /* '#' is rare inside event lines: jump from one to the next
             * and keep the first at a line start (q is one, and no '#') */
            const unsigned char *h = q;
            while ((h = memchr(h + 1, '#', (size_t)(lim - h - 1))) && h[-1] != '\n')
                ;
            if (!h)
                break;
            q = h;
        }
        const unsigned char *nl = memchr(q, '\n', (size_t)(lim - q));
        size_t len = (size_t)(nl - q) + 1;
        enum st_err e = do_line(r, q, len > REPAIR_PREFIX_MAX ? REPAIR_PREFIX_MAX : len,
                                len <= REPAIR_PREFIX_MAX, run);
        if (e)
            return e;
        q = nl + 1;
    }
    *pp = lim;
    return ST_OK;
}

/* The watched text is looked for once per chunk, not per line: one
 * memmem over a megabyte costs far less than one per line.  The bytes
 * kept from the chunk before catch a match that straddles two chunks. */
static void watch(struct repair *r, const unsigned char *p, size_t n)
{
    size_t keep = r->watch_len - 1;
    if (r->wtail_len) {
        unsigned char b[2 * REPAIR_WATCH_MAX];
        size_t k = n < keep ? n : keep;
        memcpy(b, r->wtail, r->wtail_len);
        memcpy(b + r->wtail_len, p, k);
        if (memmem(b, r->wtail_len + k, r->o.watch, r->watch_len))
            r->watch_seen = 1;
        if (n < keep) {         /* a tiny chunk: the tail takes it in */
            size_t all = r->wtail_len + k, from = all > keep ? all - keep : 0;
            memmove(r->wtail, b + from, all - from);
            r->wtail_len = all - from;
            return;
        }
    }
    if (memmem(p, n, r->o.watch, r->watch_len))
        r->watch_seen = 1;
    if (n >= keep) {
        memcpy(r->wtail, p + n - keep, keep);
        r->wtail_len = keep;
    } else if (!r->wtail_len) {
        memcpy(r->wtail, p, n);
        r->wtail_len = n;
    }
}

enum st_err repair_feed(struct repair *r, const void *buf, size_t n)
{
    if (r->watch_len && !r->watch_seen && n)
        watch(r, buf, n);
    const unsigned char *p = buf;
    enum st_err e;
    while (n && (r->tail || r->pfxlen)) {
        if (r->tail) {
            const unsigned char *nl = memchr(p, '\n', n);
            size_t k = nl ? (size_t)(nl - p) + 1 : n;
            if ((e = emit(r, p, k)))
                return e;
            p += k;
            n -= k;
            r->tail = !nl;
        } else if ((e = feed_carried(r, &p, &n))) {
            return e;
        }
    }
    const unsigned char *run = p, *end = p + n;
    if (only_markers_left(r) && (e = skim(r, &p, end, &run)))
        return e;
    while (p < end) {
        const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        if (len > REPAIR_PREFIX_MAX) {
            if ((e = do_line(r, p, REPAIR_PREFIX_MAX, 0, &run)))
                return e;
            if (!nl) {
                r->tail = 1;
                break;
            }
        } else if (!nl) {
            /* the rest is the start of a line: look at it when complete */
            if ((e = flush_run(r, &run, p)))
                return e;
            memcpy(r->pfx, p, len);
            r->pfxlen = len;
            run = end;
            break;
        } else if ((e = do_line(r, p, len, 1, &run))) {
            return e;
        }
        p += len;
    }
    return flush_run(r, &run, end > run ? end : run);
}

enum st_err repair_finish(struct repair *r)
{
    enum st_err e = ST_OK;
    if (r->pfxlen) {
        const unsigned char *run = r->pfx;
        e = do_line(r, r->pfx, r->pfxlen, 1, &run);
        if (!e)
            e = flush_run(r, &run, r->pfx + r->pfxlen);
        r->pfxlen = 0;
    }
    if (!e)
        e = flush_pending(r);
    if (!e && r->have_m && r->have_h && r->m != r->h) {
        e = r->out.keep(r->out.ctx, r->h, r->m);
        r->cut = !e;
    }
    return e;
}

uint64_t repair_lines_fixed(const struct repair *r)
{
    return r->fixed;
}

int repair_watch_seen(const struct repair *r)
{
    return r->watch_seen;
}

int repair_cut_applied(const struct repair *r)
{
    return r->cut;
}

const struct coverage *repair_coverage(const struct repair *r)
{
    return &r->cov;
}
