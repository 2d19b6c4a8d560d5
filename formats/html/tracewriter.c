/* Result file writer (HTML page or catapult JSON); see tracewriter.h. */
#include "tracewriter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "lib/outfile.h"
#include "tracewriter_int.h"

#define HEADER_MAX 4096             /* leading '#' lines replayed per block */
#define BOUNDS_MAX (64u << 20)      /* offsets of split boundaries */

#define OPEN_TAG "  <script class=\"trace-data\" type=\"application/text\">\n"
#define CLOSE_TAG "  </script>\n"
/* Ends the element for browsers and opens the next; to Perfetto one
 * comment line (see tracewriter.h). */
#define SPLIT_TAG "# </SCRIPT>" OPEN_TAG

static const char synth_header[] =
    "# tracer: nop\n"
    "#\n"
    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
    "#              | |        |      |   ||||       |         |\n";

static enum st_err put(struct tracewriter *w, const void *p, size_t n)
{
    return tw_put(w, p, n);
}

static enum st_err puts_(struct tracewriter *w, const char *s)
{
    return put(w, s, strlen(s));
}

/* prefix.html with {{WEBCOMPONENTS_JS}} and {{TRACE_VIEWER_HTML}} filled */
static enum st_err write_prefix(struct tracewriter *w, const struct viewer *v)
{
    const struct st_asset *a = asset_find("prefix.html");
    if (!a)
        return ST_ENOENT;
    const char *p = (const char *)a->data, *end = p + a->len;
    static const char *const keys[] = {"{{WEBCOMPONENTS_JS}}", "{{TRACE_VIEWER_HTML}}"};
    const char *vals[] = {v->js, v->html};
    size_t lens[] = {v->js_len, v->html_len};
    for (int i = 0; i < 2; i++) {
        size_t kl = strlen(keys[i]);
        const char *k = NULL;
        for (const char *s = p; s + kl <= end; s++)
            if (*s == '{' && !memcmp(s, keys[i], kl)) {
                k = s;
                break;
            }
        if (!k)
            return ST_EFORMAT;
        put(w, p, (size_t)(k - p));
        put(w, vals[i], lens[i]);
        p = k + kl;
    }
    put(w, p, (size_t)(end - p));
    return puts_(w, "<!-- BEGIN TRACE -->\n");
}

static uint64_t split_from_env(void)
{
    const char *s = getenv("SYSTRACE_SPLIT_BYTES");
    if (!s || !*s)
        return TW_SPLIT_DEFAULT;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end ? TW_SPLIT_DEFAULT : (uint64_t)v;
}

enum st_err tw_open(const char *path, enum tw_format fmt, const struct viewer *v,
                    struct tracewriter **out)
{
    struct tracewriter *w = calloc(1, sizeof(*w));
    *out = w;
    if (!w)
        return ST_ENOMEM;
    w->fmt = fmt;
    w->split_at = split_from_env();
    dynbuf_init(&w->hdr, HEADER_MAX);
    dynbuf_init(&w->bounds, BOUNDS_MAX);
    w->discard = !path;
    enum st_err e = outfile_open(path, &w->o);
    if (e)
        return e;
    if (fmt == TW_HTML)
        return write_prefix(w, v);
    return puts_(w, "{");
}

void tw_set_split(struct tracewriter *w, uint64_t bytes)
{
    w->split_at = bytes;
}

void tw_set_tee(struct tracewriter *w, const struct tw_tee *t)
{
    w->ntee = 0;
    if (t)
        tw_add_tee(w, t);
}

enum st_err tw_add_tee(struct tracewriter *w, const struct tw_tee *t)
{
    if (w->ntee == TW_TEES_MAX)
        return ST_EINVAL;
    w->tee[w->ntee++] = *t;
    return ST_OK;
}

void tw_fact(struct tracewriter *w, const struct tw_fact *f)
{
    for (int i = 0; i < w->ntee; i++)
        if (w->tee[i].fact)
            w->tee[i].fact(w->tee[i].ctx, f);
}

/* ---- splitting ------------------------------------------------------ */

/* Collect the part's leading '#' lines; returns the index in p where the
 * first other line starts (n if the header goes on). */
static size_t track_header(struct tracewriter *w, const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n && w->hdr_state != HDR_DONE) {
        if (w->hdr_state == HDR_LINE_START) {
            if (p[i] != '#') {
                w->hdr_state = HDR_DONE;
                return i;
            }
            w->hdr_state = HDR_IN_LINE;
        }
        const unsigned char *nl = memchr(p + i, '\n', n - i);
        size_t k = nl ? (size_t)(nl - p) + 1 - i : n - i;
        if (!w->hdr_overflow && dynbuf_add(&w->hdr, p + i, k))
            w->hdr_overflow = 1;
        i += k;
        if (nl)
            w->hdr_state = HDR_LINE_START;
    }
    return i;
}

/* What a continuation block starts with: the part's header, made to
 * begin with "# tracer:" so the viewer's ftrace importer takes it. */
static enum st_err replay_header(struct tracewriter *w)
{
    if (w->hdr_overflow || !w->hdr.len)
        return put(w, synth_header, sizeof(synth_header) - 1);
    enum st_err e = ST_OK;
    if (w->hdr.len < 9 || memcmp(w->hdr.data, "# tracer:", 9))
        e = puts_(w, "# tracer: nop\n");
    if (!e && w->hdr.data[w->hdr.len - 1] != '\n')
        e = dynbuf_addc(&w->hdr, '\n');
    return e ? e : put(w, w->hdr.data, w->hdr.len);
}

static enum st_err split_here(struct tracewriter *w)
{
    uint64_t at = outfile_tell(w->o);
    if (dynbuf_add(&w->bounds, &at, sizeof(at))) {
        w->splittable = 0;      /* absurdly many splits: stop splitting */
        return ST_OK;
    }
    enum st_err e = puts_(w, SPLIT_TAG);
    if (!e)
        e = replay_header(w);
    w->mark_len = (size_t)(outfile_tell(w->o) - at);
    w->block_bytes = 0;
    w->split_due = 0;
    return e;
}

/* Payload of a splittable part: split at the first line end after
 * split_at bytes of a block, never inside the leading header. */
static enum st_err split_write(struct tracewriter *w, const unsigned char *p, size_t n)
{
    enum st_err e = ST_OK;
    while (n && !e) {
        if (w->split_due && (e = split_here(w)))
            return e;
        size_t from = 0, k = n;
        if (w->hdr_state != HDR_DONE)
            from = track_header(w, p, n);
        int split = 0;
        if (w->hdr_state == HDR_DONE && w->splittable &&
            w->block_bytes + n >= w->split_at) {
            uint64_t need = w->block_bytes >= w->split_at ? 0
                                                          : w->split_at - w->block_bytes - 1;
            if (need > from)
                from = (size_t)need;
            const unsigned char *nl = memchr(p + from, '\n', n - from);
            if (nl) {
                k = (size_t)(nl - p) + 1;
                split = 1;
            }
        }
        e = tw_with_carry(w, p, k, 0);
        w->block_bytes += k;
        w->split_due = split;
        p += k;
        n -= k;
    }
    return e;
}

void tw_set_filter(struct tracewriter *w, const struct tw_filter *f)
{
    memset(&w->filter, 0, sizeof(w->filter));
    if (f)
        w->filter = *f;
}

enum st_err tw_write(void *ctx, const void *p, size_t n)
{
    struct tracewriter *w = ctx;
    if (w->filtering)
        return n ? w->filter.write(w->filter.ctx, p, n) : ST_OK;
    return tw_write_kept(w, p, n);
}

enum st_err tw_write_kept(void *ctx, const void *p, size_t n)
{
    struct tracewriter *w = ctx;
    if (!n)
        return ST_OK;
    w->part_bytes += n;
    w->last_nl = ((const unsigned char *)p)[n - 1] == '\n';
    for (int i = 0; i < w->ntee; i++)
        if (w->tee[i].write)
            w->tee[i].write(w->tee[i].ctx, p, n);
    if (w->fmt == TW_HTML && w->split_at && w->splittable)
        return split_write(w, p, n);
    return tw_with_carry(w, p, n, 0);
}

/* The close an ftrace part left pending: when another ftrace part follows
 * at once it continues the same text (HTML: a split tag; JSON: the same
 * string), else the ordinary close. */
static enum st_err settle_close(struct tracewriter *w, int join)
{
    if (!w->pending_close)
        return ST_OK;
    w->pending_close = 0;
    if (!join)
        return puts_(w, w->fmt == TW_HTML ? CLOSE_TAG : "\"");
    if (!w->last_nl) {
        enum st_err e = w->fmt == TW_HTML ? puts_(w, "\n")
                        : tw_json_payload(w, (const unsigned char *)"\n", 1, 1);
        if (e)
            return e;
    }
    return w->fmt == TW_HTML ? puts_(w, SPLIT_TAG) : ST_OK;
}

enum st_err tw_begin(struct tracewriter *w, const char *name)
{
    int ftrace = !strcmp(name, "systemTraceEvents");
    int join = w->pending_close && ftrace;
    enum st_err e = settle_close(w, join);
    w->in_part = 1;
    w->ftrace = ftrace;
    w->part_bytes = 0;
    w->last_nl = 1;
    if (!strcmp(name, "systraceController"))
        w->has_controller = 1;
    w->filtering = w->filter.write && w->filter.begin(w->filter.ctx, name);
    for (int i = 0; i < w->ntee; i++)
        if (w->tee[i].begin)
            w->tee[i].begin(w->tee[i].ctx, name);
    if (w->fmt == TW_HTML) {
        w->splittable = ftrace && w->split_at;
        w->block_bytes = 0;
        w->hdr_state = HDR_LINE_START;
        w->hdr_overflow = 0;
        dynbuf_reset(&w->hdr);
        dynbuf_reset(&w->bounds);
    }
    if (e || join) {
        w->part_start = outfile_tell(w->o);     /* a joined part's payload starts here */
        return e;
    }
    if (w->fmt == TW_HTML) {
        e = puts_(w, OPEN_TAG);
        w->part_start = outfile_tell(w->o);
        return e;
    }
    if (!strcmp(name, "traceEvents")) {    /* its members join the result's */
        w->raw = TW_RAW_START;
        w->raw_sep = 0;
        dynbuf_init(&w->raw_hold, 1u << 20);
        w->part_start = outfile_tell(w->o);
        return ST_OK;
    }
    if (w->parts)
        puts_(w, ", ");
    puts_(w, "\"");
    tw_json_payload(w, (const unsigned char *)name, strlen(name), 1);
    e = puts_(w, "\": \"");
    w->part_start = outfile_tell(w->o);
    return e;
}

enum st_err tw_restart_part(struct tracewriter *w)
{
    if (!w->in_part)
        return ST_EINVAL;
    w->carrylen = 0;
    enum st_err e = outfile_keep(w->o, w->part_start, outfile_tell(w->o));
    if (e)
        return e;
    w->part_bytes = 0;
    w->last_nl = 1;
    w->block_bytes = 0;
    w->split_due = 0;
    if (w->raw) {
        w->raw = TW_RAW_START;
        w->raw_sep = 0;
        dynbuf_reset(&w->raw_hold);
    }
    w->hdr_state = HDR_LINE_START;
    w->hdr_overflow = 0;
    dynbuf_reset(&w->hdr);
    dynbuf_reset(&w->bounds);
    for (int i = 0; i < w->ntee; i++)
        if (w->tee[i].restart)
            w->tee[i].restart(w->tee[i].ctx);
    return ST_OK;
}

enum st_err tw_end(struct tracewriter *w)
{
    enum st_err ef = w->filtering ? w->filter.end(w->filter.ctx) : ST_OK;
    w->filtering = 0;
    enum st_err e = tw_with_carry(w, (const unsigned char *)"", 0, 1);
    if (!e)
        e = ef;
    w->in_part = 0;
    w->parts++;
    w->split_due = 0;       /* nothing follows: no empty last block */
    for (int i = 0; i < w->ntee; i++)
        if (w->tee[i].end)
            w->tee[i].end(w->tee[i].ctx);
    if (w->splittable && w->part_bytes > w->max_part_bytes)
        w->max_part_bytes = w->part_bytes;
    w->splits_done += (int)(w->bounds.len / sizeof(uint64_t));
    dynbuf_reset(&w->bounds);
    w->splittable = 0;
    if (e)
        return e;
    if (w->ftrace) {            /* the next part may continue this text */
        w->pending_close = 1;
        return ST_OK;
    }
    if (w->raw) {
        int wrote = w->raw_sep;
        e = tw_raw_end(w);
        w->parts -= !wrote;     /* an empty object: no member, no separator */
        return e;
    }
    return puts_(w, w->fmt == TW_HTML ? CLOSE_TAG : "\"");
}

enum st_err tw_commit(struct tracewriter *w)
{
    if (w->in_part)
        tw_end(w);
    if (w->fmt == TW_HTML) {
        const struct st_asset *a = asset_find("suffix.html");
        settle_close(w, 0);
        puts_(w, "<!-- END TRACE -->\n");
        if (a)
            put(w, a->data, a->len);
    } else {
        settle_close(w, 0);
        if (w->has_controller)
            puts_(w, ", \"controllerTraceDataKey\": \"systraceController\"");
        puts_(w, "}");
    }
    return outfile_commit(w->o);
}

void tw_free(struct tracewriter *w)
{
    if (!w)
        return;
    if (w->capture) {
        dynbuf_free(w->capture);
        free(w->capture);
    }
    outfile_free(w->o);
    dynbuf_free(&w->hdr);
    dynbuf_free(&w->bounds);
    dynbuf_free(&w->raw_hold);
    free(w);
}

/* A split due at a line end is made when the next line starts: on the
 * next write, or here, when the repair asks where that line starts. */
static uint64_t sink_tell(void *ctx)
{
    struct tracewriter *w = ctx;
    if (w->split_due)
        split_here(w);      /* an error is sticky in the outfile */
    return outfile_tell(w->o) + w->carrylen;
}

/* After keep(a, b): a split tag at x < a stays, one at x >= b moves to
 * a + (x - b), one inside [a, b) is gone; b < a repeats [b, a) and the
 * tags in it.  Tags are never cut through: the repair cuts at line
 * starts, and a tag directly follows a line end. */
static enum st_err keep_bounds(struct tracewriter *w, uint64_t a, uint64_t b)
{
    const uint64_t *x = (const uint64_t *)(const void *)w->bounds.data;
    size_t n = w->bounds.len / sizeof(uint64_t), o = 0;
    uint64_t *nx = malloc(2 * n * sizeof(*nx));
    if (!nx)
        return ST_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (x[i] < a)
            nx[o++] = x[i];
    for (size_t i = 0; i < n; i++)
        if (x[i] >= b)
            nx[o++] = a + (x[i] - b);
    dynbuf_reset(&w->bounds);
    enum st_err e = dynbuf_add(&w->bounds, nx, o * sizeof(*nx));
    free(nx);
    return e;
}

static enum st_err sink_keep(void *ctx, uint64_t a, uint64_t b)
{
    struct tracewriter *w = ctx;
    enum st_err e = outfile_keep(w->o, a, b);
    if (e || !w->bounds.len)
        return e;
    if ((e = keep_bounds(w, a, b)))
        return e;
    size_t n = w->bounds.len / sizeof(uint64_t);
    uint64_t end = outfile_tell(w->o);
    if (n) {
        uint64_t last = ((uint64_t *)(void *)w->bounds.data)[n - 1] + w->mark_len;
        w->block_bytes = end > last ? end - last : 0;
    }
    return ST_OK;
}

void tw_text_sink(struct tracewriter *w, struct text_sink *s)
{
    s->write = tw_write;
    s->tell = sink_tell;
    s->keep = sink_keep;
    s->ctx = w;
}

uint64_t tw_part_bytes(const struct tracewriter *w)
{
    return w->part_bytes;
}

int tw_parts(const struct tracewriter *w)
{
    return w->parts;
}

int tw_splits(const struct tracewriter *w)
{
    return w->splits_done + (int)(w->bounds.len / sizeof(uint64_t));
}

uint64_t tw_max_part_bytes(const struct tracewriter *w)
{
    return w->max_part_bytes;
}

const char *tw_errtext(const struct tracewriter *w)
{
    return w->o ? outfile_errtext(w->o) : "out of memory";
}

enum st_err tw_error(const struct tracewriter *w)
{
    return w->o ? outfile_error(w->o) : ST_ENOMEM;
}

const char *tw_path(const struct tracewriter *w)
{
    const char *p = w->o ? outfile_path(w->o) : NULL;
    return p ? p : "";
}

const char *tw_tmppath(const struct tracewriter *w)
{
    return w->o ? outfile_tmppath(w->o) : NULL;
}
