/* libFuzzer target: the pieces' readers of outside bytes (formats/piece/):
 * the scan (pscan.c) and the cutter (pcut.c, pcutj.c) of ftrace text,
 * process dumps and trace-event JSON, fed in chunks whose size the first
 * byte picks, a window and processes the next bytes pick, and fed on
 * after an error; and the cutter in one pass (pcut_stream.c) with a range
 * and a split by size or time those bytes pick.  Properties: no crash, no
 * leak, and with nothing to cut (the whole window, every process) the
 * text comes out as it went in, in both; a line glanced, then read on,
 * reads as one read at once. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/piece/pcut.h"
#include "formats/piece/pline.h"
#include "formats/piece/pscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum st_err keep(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

static const char *const parts[] = {"systemTraceEvents", "traceEvents", "androidProcessDump"};

static void run(const struct piece_window *w, const char *part, const uint8_t *p, size_t n,
                size_t chunk, struct dynbuf *out)
{
    struct pcut *c = pcut_new(w, keep, out);
    if (!c)
        return;
    pcut_begin(c, part);
    for (size_t off = 0; off < n; off += chunk)
        pcut_write(c, p + off, n - off < chunk ? n - off : chunk);     /* on after errors */
    pcut_end(c);
    pcut_free(c);
}

/* One pass: the pieces laid end to end in out; a restart voids them. */
struct pieces {
    struct dynbuf *out;
    unsigned open, closed;
};

static enum st_err p_open(void *ctx, unsigned n, int64_t lo, st_write_fn *out, void **octx)
{
    struct pieces *p = ctx;
    (void)lo;
    if (n != p->closed || p->open)
        __builtin_trap();       /* pieces come one after the other */
    p->open = 1;
    *out = keep;
    *octx = p->out;
    return ST_OK;
}

static enum st_err p_close(void *ctx, unsigned n, int64_t lo, int64_t hi, uint64_t kept)
{
    struct pieces *p = ctx;
    if (!p->open || n != p->closed || hi < lo || !kept)
        __builtin_trap();
    p->open = 0;
    p->closed++;
    return ST_OK;
}

static enum st_err p_restart(void *ctx)
{
    struct pieces *p = ctx;
    dynbuf_reset(p->out);
    p->open = p->closed = 0;
    return ST_OK;
}

/* 1: the text came out of time order (the caller cuts it again in two
 * passes, so what was written does not count). */
static int one_pass(const struct piece_spec *spec, const uint8_t *p, size_t n, size_t chunk,
                    struct dynbuf *out)
{
    struct pieces ps = {out, 0, 0};
    struct pcut_pieces ops = {p_open, p_close, p_restart, &ps};
    struct pcut *c = pcut_new_pieces(spec, &ops);
    if (!c)
        return 0;
    pcut_begin(c, "systemTraceEvents");
    for (size_t off = 0; off < n; off += chunk)
        pcut_write(c, p + off, n - off < chunk ? n - off : chunk);     /* on after errors */
    pcut_end(c);
    int unordered = pcut_unordered(c);
    if (ps.open && !unordered)
        __builtin_trap();       /* every piece begun is closed */
    pcut_free(c);
    return unordered;
}

static void one_pass_cases(const uint8_t *data, size_t size, size_t chunk, unsigned pick)
{
    struct piece_spec spec;
    struct dynbuf out;
    memset(&spec, 0, sizeof(spec));
    dynbuf_init(&out, (size_t)1 << 30);
    spec.range = pick & 1 ? PIECE_REL : PIECE_ALL;
    spec.start_ns = (int64_t)(pick >> 1 & 7) * 300000000;
    spec.end_ns = spec.start_ns + (int64_t)(pick >> 4 & 7) * 400000000;
    if (pick & 0x80)
        spec.split_ns = (int64_t)(pick >> 8 & 15) * 100000000 + 1;
    else if (pick & 0x100)
        spec.split_bytes = (pick >> 9 & 63) * 40 + 1;
    one_pass(&spec, data, size, chunk, &out);
    /* nothing to cut: the text as it went in (no buffer-started line to
     * cut at, no line too long to read whole) */
    memset(&spec, 0, sizeof(spec));
    dynbuf_reset(&out);
    int whole = !one_pass(&spec, data, size, chunk, &out) &&
                !memmem(data, size, "buffer started", 14);
    for (size_t i = 0, run = 0; i < size && whole; i++)
        if ((run = data[i] == '\n' ? 0 : run + 1) >= PLINE_MAX - 1)
            whole = 0;
    if (whole && out.len && (out.len != size || memcmp(out.data, data, size)))
        __builtin_trap();
    dynbuf_free(&out);
}

static void same_line(const struct pline *a, const struct pline *b)
{
    if (a->ts_ns != b->ts_ns || a->tid != b->tid || a->tgid != b->tgid ||
        a->tgid_col != b->tgid_col || a->cpu_off != b->cpu_off || a->task != b->task ||
        a->task_len != b->task_len || a->event != b->event || a->event_len != b->event_len ||
        a->body != b->body || a->body_len != b->body_len || a->ts_off != b->ts_off ||
        a->ts_len != b->ts_len)
        __builtin_trap();
}

/* Each line: pline_glance and pline_parse_rest agree with pline_parse. */
static void glanced_lines(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        struct pline a, b;
        int ra = pline_parse(p, n, &a);
        if (!pline_glance(p, n, &b)) {
            if (pline_parse_rest(p, n, &b) != ra)
                __builtin_trap();
            if (!ra)
                same_line(&a, &b);
        }
        p += n;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    size_t chunk = 1 + data[0] % 64 * (data[0] & 0x80 ? 97 : 1);
    int which = data[1] % 3, all = data[2] >> 7;
    const char *part = parts[which];
    int64_t lo = (int64_t)(data[2] % 16) * 500000000, hi = lo + (int64_t)(data[3] % 16 + 1) *
                                                                 700000000;
    data += 4;
    size -= 4;

    struct piece_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.range = PIECE_SLICE;
    memcpy(spec.slice, "work", 5);
    struct pscan *s = pscan_new(&spec);
    if (!s)
        return 0;
    pscan_begin(s, part);
    for (size_t off = 0; off < size; off += chunk)
        pscan_write(s, data + off, size - off < chunk ? size - off : chunk);
    pscan_end(s);
    struct piece_window w;
    char err[512];
    pscan_window(s, &spec, &w, err, sizeof(err));

    struct dynbuf out;
    dynbuf_init(&out, (size_t)1 << 30);
    w.lo = lo;
    w.hi = hi;
    w.all = all;
    w.npids = 1;
    w.pids[0] = 7;
    run(&w, part, data, size, chunk, &out);

    /* nothing to cut: text out as it went in (only a line too long to
     * read whole may be dropped, and only outside a window: none here) */
    dynbuf_reset(&out);
    w.lo = INT64_MIN;
    w.hi = INT64_MAX;
    w.all = 1;
    if (which == 0) {
        run(&w, part, data, size, chunk, &out);
        if (out.len != size || (size && memcmp(out.data, data, size)))
            __builtin_trap();
    }
    dynbuf_free(&out);
    pscan_free(s);
    glanced_lines(data, size);
    if (which == 0)
        one_pass_cases(data, size, chunk, (unsigned)data[-2] << 8 | data[-1]);
    return 0;
}
