/* libFuzzer target: the Perfetto cutter (formats/perfetto/pfcut.h): a scan,
 * then a cut into up to four pieces over what the scan found (and pieces
 * of a size from its byte counts), fed in chunks whose size the first byte
 * picks (packets, varints, compressed packets cut at every place), going
 * on feeding after an error (which must stay the same).  Each piece's
 * bytes must be whole packets: field 1, a length, that many bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pb.h"
#include "formats/perfetto/pfcut.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct piece_out {
    uint8_t *buf;
    size_t n;
};

static enum st_err sink(void *ctx, const void *p, size_t n)
{
    struct piece_out *o = ctx;
    uint8_t *b = realloc(o->buf, o->n + n + 1);
    if (!b)
        return ST_ENOMEM;
    memcpy(b + o->n, p, n);
    o->buf = b;
    o->n += n;
    return ST_OK;
}

static void check_framing(const struct piece_out *o)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    if (!o->n)
        return;
    pb_iter_init(&it, o->buf, o->n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.num != 1 || f.wire != PB_LEN)
            abort();
    if (k)
        abort();
}

static void feed(struct pfcut *c, const uint8_t *data, size_t size, size_t chunk)
{
    enum st_err first = ST_OK;
    for (size_t i = 0; i < size; i += chunk) {
        size_t n = size - i < chunk ? size - i : chunk;
        enum st_err e = pfcut_feed(c, data + i, n);
        if (first && e != first)
            abort();    /* errors are sticky */
        if (e)
            first = e;
    }
    pfcut_finish(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t chunk = size ? (size_t)(data[0] % 97) + 1 : 1;
    struct pfcut *scan = pfcut_new(NULL, 0);
    if (!scan)
        return 0;
    feed(scan, data, size, chunk);
    const struct pfcut_span *sp = pfcut_span(scan);
    struct pfcut_piece pc[4];
    struct piece_out out[4] = {{0}};
    size_t n = size > 1 ? (size_t)(data[1] % 4) + 1 : 1;
    int64_t starts[4];
    if (sp->first <= sp->last) {
        uint64_t span = (uint64_t)sp->last - (uint64_t)sp->first + 1;
        for (size_t i = 0; i < n; i++)
            starts[i] = (int64_t)((uint64_t)sp->first + span / n * i);
        if (size > 2 && data[2] & 1) {     /* pieces of a size */
            size_t m = pfcut_bounds(scan, 4096 + (uint64_t)data[2] * 64, starts, 4);
            n = m ? m : 1;
        }
    } else {
        starts[0] = 0;
        n = 1;
    }
    for (size_t i = 0; i < n; i++)
        pc[i] = (struct pfcut_piece){starts[i], i + 1 < n ? starts[i + 1] : INT64_MAX, sink,
                                     &out[i]};
    struct pfcut *c = pfcut_new(pc, n);
    if (c) {
        pfcut_set_last(c, sp->last);
        feed(c, data, size, chunk * 7);
    }
    for (size_t i = 0; i < n; i++) {
        if (c)
            check_framing(&out[i]);
        free(out[i].buf);
    }
    pfcut_free(c);
    pfcut_free(scan);
    return 0;
}
