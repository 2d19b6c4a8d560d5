/*
 * Track events to trace-event JSON (formats/perfetto/pftev.c): the bounds
 * that keep its memory flat however long the trace is.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pbw.h"
#include "formats/perfetto/pftev.h"

struct out {
    size_t bytes;
    size_t bound;       /* "bind_id" seen in the output */
};

static enum st_err sink(void *ctx, const void *p, size_t n)
{
    struct out *o = ctx;
    o->bytes += n;
    for (const char *s = p, *end = s + n; (s = memchr(s, 'b', (size_t)(end - s)));
         s++)
        if ((size_t)(end - s) >= 7 && !memcmp(s, "bind_id", 7))
            o->bound++;
    return ST_OK;
}

static void feed(struct pftev *v, uint64_t ts, struct dynbuf *pkt)
{
    struct pftev_pkt k = {.ts = ts, .seq = 1};
    assert_int_equal(pftev_packet(v, &k, (const uint8_t *)pkt->data, pkt->len), ST_OK);
    dynbuf_reset(pkt);
}

/* A thread track (uuid 1) and an instant on it with flow FLOW (47) or
 * terminating flow (48). */
static void instant(struct pftev *v, uint64_t ts, uint32_t field, uint64_t flow)
{
    struct dynbuf pkt, te;
    uint8_t le[8];
    dynbuf_init(&pkt, 4096);
    dynbuf_init(&te, 4096);
    assert_int_equal(pbw_uint(&te, 9, 3), ST_OK);       /* TYPE_INSTANT */
    assert_int_equal(pbw_uint(&te, 11, 1), ST_OK);
    assert_int_equal(pbw_str(&te, 23, "step"), ST_OK);
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(flow >> (8 * i));
    assert_int_equal(pbw_varint(&te, (uint64_t)field << 3 | 1), ST_OK);
    assert_int_equal(dynbuf_add(&te, le, 8), ST_OK);
    assert_int_equal(pbw_msg(&pkt, 11, &te), ST_OK);
    feed(v, ts, &pkt);
    dynbuf_free(&te);
    dynbuf_free(&pkt);
}

static void thread_track(struct pftev *v)
{
    struct dynbuf pkt, td, th;
    dynbuf_init(&pkt, 4096);
    dynbuf_init(&td, 4096);
    dynbuf_init(&th, 4096);
    assert_int_equal(pbw_uint(&th, 1, 10), ST_OK);
    assert_int_equal(pbw_uint(&th, 2, 11), ST_OK);
    assert_int_equal(pbw_uint(&td, 1, 1), ST_OK);
    assert_int_equal(pbw_msg(&td, 4, &th), ST_OK);
    assert_int_equal(pbw_msg(&pkt, 60, &td), ST_OK);
    feed(v, 1, &pkt);
    dynbuf_free(&th);
    dynbuf_free(&td);
    dynbuf_free(&pkt);
}

/* Flows begun and never terminated: at most PFTEV_FLOWS_MAX are kept,
 * the rest counted as dropped (the user's note); a terminated flow's id
 * is forgotten, so terminating frees room for new ones, and an id begun
 * again after its end starts a new flow (no flow_in). */
static void flows_bounded(void **st)
{
    (void)st;
    struct out o = {0};
    struct pftev *v = pftev_new(sink, &o);
    assert_non_null(v);
    thread_track(v);
    uint64_t ts = 1000;
    for (uint64_t id = 1; id <= PFTEV_FLOWS_MAX + 10; id++)
        instant(v, ts++, 47, id);
    assert_int_equal(pftev_stats(v)->dropped, 10);
    /* ending 20 frees room for 20 more */
    for (uint64_t id = 1; id <= 20; id++)
        instant(v, ts++, 48, id);
    for (uint64_t id = 1; id <= 20; id++)
        instant(v, ts++, 47, (uint64_t)1 << 40 | id);
    assert_int_equal(pftev_stats(v)->dropped, 10);
    assert_int_equal(pftev_finish(v), ST_OK);
    assert_int_equal(pftev_stats(v)->flows, PFTEV_FLOWS_MAX + 10 + 40);
    assert_int_equal(o.bound, PFTEV_FLOWS_MAX + 10 + 40);
    pftev_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flows_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
