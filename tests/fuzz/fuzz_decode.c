/* libFuzzer target: the capture chain on arbitrary bytes, split into two
 * chunks at a data-chosen point: atrace dump decoder, line repairs (and,
 * with bit 3 of data[0], the coverage measurement) and the cut of
 * over-long lines, its bound picked by data[0]'s high bits so that lines
 * are cut.  The cut alone on the same chunks is checked against a
 * byte-by-byte reference: each line's first max bytes and its LF. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/atrace/decode.h"
#include "formats/atrace/linecut.h"
#include "formats/atrace/repair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem {
    uint64_t len;
};

static enum st_err w(void *ctx, const void *p, size_t n)
{
    (void)p;
    ((struct mem *)ctx)->len += n;
    return ST_OK;
}

static uint64_t tell(void *ctx)
{
    return ((struct mem *)ctx)->len;
}

static enum st_err keep(void *ctx, uint64_t a, uint64_t b)
{
    struct mem *m = ctx;
    if (a > m->len || b > m->len)
        __builtin_trap();
    m->len = a + (m->len - b);
    return ST_OK;
}

struct buf {
    unsigned char *p;
    size_t len;
};

static enum st_err add(void *ctx, const void *p, size_t n)
{
    struct buf *b = ctx;
    memcpy(b->p + b->len, p, n);   /* a cut never writes more than it got */
    b->len += n;
    return ST_OK;
}

static void cut_alone(const uint8_t *p, size_t n, size_t cut, uint64_t max)
{
    struct buf got = {malloc(n + 1), 0}, want = {malloc(n + 1), 0};
    struct text_sink s = {add, NULL, NULL, &got};
    struct lcut *c = lcut_new(&s, max);
    if (!got.p || !want.p || !c)
        __builtin_trap();
    lcut_write(c, p, cut);
    lcut_write(c, p + cut, n - cut);
    uint64_t len = 0, lines = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n' || len < max)
            want.p[want.len++] = p[i];
        lines += p[i] != '\n' && len == max;
        len = p[i] == '\n' ? 0 : len + 1;
    }
    if (got.len != want.len || memcmp(got.p, want.p, got.len) || lcut_lines(c) != lines)
        __builtin_trap();
    lcut_free(c);
    free(got.p);
    free(want.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    struct tgid_map *map = tgid_map_new();
    static const char listing[] = "/proc/10/task/10 /proc/10/task/11 /proc/5/task/6";
    tgid_map_parse(map, listing, sizeof(listing) - 1);
    struct mem m = {0};
    struct text_sink s = {w, tell, keep, &m}, cs;
    uint64_t max = 1 + (uint64_t)(data[0] >> 4) * 9;   /* 1 .. 136 */
    struct lcut *lc = lcut_new(&s, max);
    lcut_sink(lc, &cs);
    struct repair_opts o = {.tgids = data[0] & 1 ? map : NULL, .circular = 1,
                            .add_header = data[0] & 2, .watch = "clock_sync",
                            .coverage = data[0] & 8};
    struct repair *r = repair_new(&o, &cs);
    struct decoder *d = decoder_new(data[0] & 4 ? DECODE_TEXT : DECODE_ATRACE, repair_write, r);
    size_t cut = size > 2 ? data[1] % (size - 2) : 0;
    const uint8_t *p = data + 2;
    size_t n = size - 2;
    if (!decoder_feed(d, p, cut) && !decoder_feed(d, p + cut, n - cut)) {
        enum st_err e = decoder_finish(d);
        if (!e || e == ST_ETRUNCATED)
            repair_finish(r);
    }
    if (coverage_seconds(repair_coverage(r)) < 0)
        __builtin_trap();
    decoder_free(d);
    repair_free(r);
    lcut_free(lc);
    tgid_map_free(map);
    cut_alone(p, n, cut, max);
    return 0;
}
