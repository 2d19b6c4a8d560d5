/* Unit tests for a Perfetto trace's clocks (formats/perfetto/pfclk.c): a
 * timestamp on another clock to the trace's through the latest snapshot
 * at or before it (the first one before all), across two groups of
 * clocks, sequence-scoped and incremental clocks with their units, a
 * snapshot going back refused, primary_trace_clock, no path. */
#include "testutil.h"

#include "formats/perfetto/pbw.h"
#include "formats/perfetto/pfclk.h"

struct ck {
    uint32_t id;
    uint64_t ts;
    int incremental;
    uint64_t mult;
};

/* A ClockSnapshot of n clocks (primary: 0 for none) given to c. */
static void snap(struct pfclk *c, uint32_t seq, const struct ck *k, size_t n, uint32_t primary)
{
    struct dynbuf b, one;
    dynbuf_init(&b, 4096);
    dynbuf_init(&one, 256);
    for (size_t i = 0; i < n; i++) {
        dynbuf_reset(&one);
        assert_int_equal(pbw_uint(&one, 1, k[i].id), ST_OK);
        assert_int_equal(pbw_uint(&one, 2, k[i].ts), ST_OK);
        if (k[i].incremental)
            assert_int_equal(pbw_uint(&one, 3, 1), ST_OK);
        if (k[i].mult)
            assert_int_equal(pbw_uint(&one, 4, k[i].mult), ST_OK);
        assert_int_equal(pbw_msg(&b, 1, &one), ST_OK);
    }
    if (primary)
        assert_int_equal(pbw_uint(&b, 2, primary), ST_OK);
    pfclk_snapshot(c, seq, (const uint8_t *)b.data, b.len);
    dynbuf_free(&b);
    dynbuf_free(&one);
}

static int64_t conv(struct pfclk *c, uint32_t seq, uint64_t id, uint64_t ts)
{
    int64_t out = -1;
    assert_int_equal(pfclk_convert(c, seq, id, ts, &out), 0);
    return out;
}

static void offsets(void **st)
{
    (void)st;
    struct pfclk c;
    pfclk_init(&c);
    struct ck a[] = {{6, 1000, 0, 0}, {3, 400, 0, 0}};
    struct ck b[] = {{6, 2000, 0, 0}, {3, 1300, 0, 0}};
    snap(&c, 1, a, 2, 0);
    snap(&c, 1, b, 2, 0);
    assert_int_equal(conv(&c, 0, 3, 500), 1100);     /* the first snapshot's offset */
    assert_int_equal(conv(&c, 0, 3, 1400), 2100);    /* the second's */
    assert_int_equal(conv(&c, 0, 3, 100), 700);      /* before all: the first */
    assert_int_equal(conv(&c, 0, 6, 42), 42);        /* the trace's own */
    int64_t out;
    assert_int_equal(pfclk_convert(&c, 0, 5, 1, &out), -1);   /* never snapshotted */
    struct ck back[] = {{6, 1500, 0, 0}, {3, 1400, 0, 0}};
    snap(&c, 1, back, 2, 0);                          /* BOOTTIME going back: refused */
    assert_int_equal(c.dropped, 1);
    pfclk_free(&c);
}

static void two_groups(void **st)
{
    (void)st;
    struct pfclk c;
    pfclk_init(&c);
    struct ck a[] = {{6, 1000, 0, 0}, {3, 400, 0, 0}};
    struct ck b[] = {{3, 500, 0, 0}, {1, 10000, 0, 0}};    /* REALTIME only via MONOTONIC */
    snap(&c, 1, a, 2, 0);
    snap(&c, 1, b, 2, 0);
    assert_int_equal(conv(&c, 0, 1, 10100), 1200);
    pfclk_free(&c);
}

static void sequence_clocks(void **st)
{
    (void)st;
    struct pfclk c;
    pfclk_init(&c);
    struct ck s1[] = {{6, 5000, 0, 0}, {64, 5, 1, 1000}};   /* µs, incremental */
    struct ck s2[] = {{6, 9000, 0, 0}, {64, 0, 0, 0}};      /* the same id, another sequence */
    snap(&c, 1, s1, 2, 0);
    snap(&c, 2, s2, 2, 0);
    assert_int_equal(conv(&c, 1, 64, 2), 7000);     /* 5 + 2 µs = 7000 ns: +2000 */
    assert_int_equal(conv(&c, 1, 64, 3), 10000);    /* + 3 µs */
    assert_int_equal(conv(&c, 2, 64, 100), 9100);
    int64_t out;
    assert_int_equal(pfclk_convert(&c, 3, 64, 1, &out), -1);  /* no snapshot on seq 3 */
    pfclk_free(&c);
}

static void primary(void **st)
{
    (void)st;
    struct pfclk c;
    pfclk_init(&c);
    struct ck a[] = {{6, 1000, 0, 0}, {3, 400, 0, 0}};
    snap(&c, 1, a, 2, 3);
    assert_int_equal(c.trace_clock, 3);
    assert_int_equal(conv(&c, 0, 6, 1100), 500);
    struct ck b[] = {{6, 2000, 0, 0}, {3, 1400, 0, 0}};
    snap(&c, 1, b, 2, 6);           /* used: it no longer changes */
    assert_int_equal(c.trace_clock, 3);
    pfclk_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(offsets),
        cmocka_unit_test(two_groups),
        cmocka_unit_test(sequence_clocks),
        cmocka_unit_test(primary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
