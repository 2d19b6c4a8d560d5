/* Unit tests for the Perfetto trace reader: the windowed sort (order
 * within the window, late records counted, never lost), and the reader on
 * traces encoded here by hand: the same lines whatever the feed splits,
 * events of several bundles in timestamp order, compact sched (first switch
 * per CPU dropped, prev_* from the switch before), compressed packets, a
 * cut (ST_ETRUNCATED after the complete packets), junk, nested compressed
 * packets, an intern index past its table, a trace without ftrace. */
#include "testutil.h"

#include <zlib.h>

#include "formats/perfetto/pbw.h"
#include "formats/perfetto/pfnames.h"
#include "formats/perfetto/pfsort.h"
#include "formats/perfetto/pftrace.h"
#include "lib/plat.h"   /* pthread_self: the events' writer's thread */

/* FtraceEvent { timestamp, pid, FIELD { body } } */
static void ftrace_event(struct dynbuf *bundle, uint64_t ts, uint32_t pid, uint32_t field,
                         const struct dynbuf *body)
{
    struct dynbuf ev;
    dynbuf_init(&ev, body->len + 4096);
    pbw_uint(&ev, 1, ts);
    pbw_uint(&ev, 2, pid);
    pbw_bytes(&ev, field, body->data, body->len);
    pbw_bytes(bundle, 2, ev.data, ev.len);
    dynbuf_free(&ev);
}

/* FtraceEvent { timestamp, pid, print { buf } } */
static void print_event(struct dynbuf *bundle, uint64_t ts, uint32_t pid, const char *buf)
{
    struct dynbuf pr;
    dynbuf_init(&pr, strlen(buf) + 4096);
    pbw_str(&pr, 2, buf);
    ftrace_event(bundle, ts, pid, 3, &pr);
    dynbuf_free(&pr);
}

static void packet(struct dynbuf *trace, uint32_t field, const struct dynbuf *body)
{
    struct dynbuf pk;
    dynbuf_init(&pk, body->len + 64);
    pbw_bytes(&pk, field, body->data, body->len);
    pbw_bytes(trace, 1, pk.data, pk.len);
    dynbuf_free(&pk);
}

/* Two bundles, CPU 1 written first but later in time. */
static void two_cpus(struct dynbuf *t)
{
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    pbw_uint(&b, 1, 1);
    print_event(&b, 2000000000, 10, "B|10|late\n");
    print_event(&b, 2000300000, 10, "E|10\n");
    packet(t, 1, &b);
    dynbuf_reset(&b);
    pbw_uint(&b, 1, 0);
    print_event(&b, 2000100000, 20, "B|20|early\n");
    print_event(&b, 2000200000, 20, "E|20\n");
    packet(t, 1, &b);
    dynbuf_free(&b);
}

static enum st_err collect(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

/* Both passes, fed `chunk` bytes at a time (0: at once). */
static enum st_err convert(const struct dynbuf *in, size_t chunk, struct dynbuf *out,
                           char *detail, size_t dn)
{
    struct pftrace *t = pftrace_new();
    assert_non_null(t);
    size_t step = chunk ? chunk : in->len + 1;
    for (size_t i = 0; i < in->len; i += step)
        if (pftrace_scan_feed(t, in->data + i, in->len - i < step ? in->len - i : step))
            break;
    pftrace_scan_finish(t);
    pftrace_set_output(t, collect, out);
    enum st_err e = ST_OK;
    for (size_t i = 0; !e && i < in->len; i += step)
        e = pftrace_feed(t, in->data + i, in->len - i < step ? in->len - i : step);
    if (!e)
        e = pftrace_finish(t);
    snprintf(detail, dn, "%s", pftrace_detail(t));
    pftrace_free(t);
    return e;
}

static void test_order_and_splits(void **state)
{
    (void)state;
    struct dynbuf in, whole, part;
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&whole, 1 << 20);
    dynbuf_init(&part, 1 << 20);
    char detail[320];
    two_cpus(&in);
    assert_int_equal(convert(&in, 0, &whole, detail, sizeof(detail)), ST_OK);
    const char *s = dynbuf_str(&whole);
    const char *a = strstr(s, "2.000000: tracing_mark_write: B|10|late");
    const char *b = strstr(s, "2.000100: tracing_mark_write: B|20|early");
    const char *c = strstr(s, "2.000200: tracing_mark_write: E|20");
    assert_non_null(a);
    assert_true(a < b && b < c);
    /* to_ftrace's prefix: name, tid, no TGID, CPU, flags, time */
    assert_non_null(strstr(s, "       <unknown>-20    (-----) [000] .... 2.000100: "));
    for (size_t chunk = 1; chunk < 40; chunk++) {
        dynbuf_reset(&part);
        assert_int_equal(convert(&in, chunk, &part, detail, sizeof(detail)), ST_OK);
        assert_int_equal(part.len, whole.len);
        assert_memory_equal(part.data, whole.data, whole.len);
    }
    dynbuf_free(&in);
    dynbuf_free(&whole);
    dynbuf_free(&part);
}

/* A line over 1 MB stops the conversion with the formatting thread's own
 * words (pfstage.c), whether the sort hands it on at the finish or while
 * the trace is still read (many records after it). */
static void test_line_too_long(void **state)
{
    (void)state;
    for (int later = 0; later < 2; later++) {
        struct dynbuf in, out, b;
        dynbuf_init(&in, (size_t)64 << 20);
        dynbuf_init(&out, (size_t)64 << 20);
        dynbuf_init(&b, (size_t)4 << 20);
        char *big = malloc((size_t)3 << 19);
        assert_non_null(big);
        memset(big, 'x', ((size_t)3 << 19) - 1);
        big[((size_t)3 << 19) - 1] = '\0';
        pbw_uint(&b, 1, 0);
        print_event(&b, 2000000000, 10, "B|10|before\n");
        print_event(&b, 2000000001, 10, big);
        packet(&in, 1, &b);
        for (int i = 0; later && i < 300000 / 500; i++) {
            dynbuf_reset(&b);
            pbw_uint(&b, 1, 0);
            for (int k = 0; k < 500; k++)
                print_event(&b, 2000000002 + (uint64_t)(i * 500 + k), 10, "E|10\n");
            packet(&in, 1, &b);
        }
        char detail[320];
        enum st_err e = convert(&in, 0, &out, detail, sizeof(detail));
        if (e != ST_ETOOBIG)
            fail_msg("later %d: %d %s", later, (int)e, detail);
        if (!strstr(detail, "an ftrace line over 1 MB (a tracing_mark_write event at 2000000001 ns)"))
            fail_msg("later %d: %s", later, detail);
        free(big);
        dynbuf_free(&in);
        dynbuf_free(&out);
        dynbuf_free(&b);
    }
}

static void test_cut_and_junk(void **state)
{
    (void)state;
    struct dynbuf in, out;
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&out, 1 << 20);
    char detail[320];
    two_cpus(&in);
    size_t full = in.len;
    in.len -= 5;    /* inside the second packet */
    assert_int_equal(convert(&in, 7, &out, detail, sizeof(detail)), ST_ETRUNCATED);
    assert_non_null(strstr(detail, "cut short inside packet 2"));
    assert_non_null(strstr(dynbuf_str(&out), "B|10|late"));     /* packet 1 kept */
    assert_null(strstr(dynbuf_str(&out), "early"));
    in.len = full;
    dynbuf_add(&in, "\0\0\0", 3);   /* field number 0 */
    dynbuf_reset(&out);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_EFORMAT);
    assert_non_null(strstr(detail, "no packet starts at byte"));
    dynbuf_free(&in);
    dynbuf_free(&out);
}

static void test_compressed(void **state)
{
    (void)state;
    struct dynbuf inner, in, plain, out, body;
    dynbuf_init(&inner, 1 << 20);
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&plain, 1 << 20);
    dynbuf_init(&out, 1 << 20);
    dynbuf_init(&body, 1 << 20);
    char detail[320];
    two_cpus(&inner);
    assert_int_equal(convert(&inner, 0, &plain, detail, sizeof(detail)), ST_OK);
    uLongf zn = compressBound(inner.len);
    unsigned char *z = malloc(zn);
    assert_int_equal(compress(z, &zn, (const Bytef *)inner.data, inner.len), Z_OK);
    dynbuf_add(&body, z, zn);
    packet(&in, 50, &body);
    assert_int_equal(convert(&in, 3, &out, detail, sizeof(detail)), ST_OK);
    assert_string_equal(dynbuf_str(&out), dynbuf_str(&plain));
    /* compressed packets inside compressed packets: refused, no recursion */
    uLongf zn2 = compressBound(in.len);
    unsigned char *z2 = malloc(zn2);
    assert_int_equal(compress(z2, &zn2, (const Bytef *)in.data, in.len), Z_OK);
    dynbuf_reset(&body);
    dynbuf_add(&body, z2, zn2);
    dynbuf_reset(&in);
    packet(&in, 50, &body);
    dynbuf_reset(&out);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_EFORMAT);
    assert_non_null(strstr(detail, "compressed packets inside compressed packets"));
    free(z);
    free(z2);
    dynbuf_free(&inner);
    dynbuf_free(&in);
    dynbuf_free(&plain);
    dynbuf_free(&out);
    dynbuf_free(&body);
}

/* CPU 0 compact: switches to 100 "a", 200 "b", 0; the first is dropped. */
static void compact_trace(struct dynbuf *t, uint64_t bad_index, int columns)
{
    struct dynbuf cs, arr, b;
    dynbuf_init(&cs, 4096);
    dynbuf_init(&arr, 4096);
    dynbuf_init(&b, 4096);
    pbw_str(&cs, 5, "swapper/0");
    pbw_str(&cs, 5, "a");
    pbw_str(&cs, 5, "b");
    static const uint64_t ts[] = {5000000000, 1000, 1000}, st[] = {0, 1, 0},
                          pid[] = {100, 200, 0}, prio[] = {120, 110, 120};
    uint64_t comm[] = {1, 2, 0};
    if (bad_index)
        comm[1] = bad_index;
    const uint64_t *cols[] = {ts, st, pid, prio, comm};
    static const uint32_t nums[] = {1, 2, 3, 4, 6};
    for (int c = 0; c < columns; c++) {
        dynbuf_reset(&arr);
        for (int i = 0; i < 3; i++)
            pbw_varint(&arr, cols[c][i]);
        pbw_bytes(&cs, nums[c], arr.data, arr.len);
    }
    pbw_uint(&b, 1, 0);
    pbw_bytes(&b, 4, cs.data, cs.len);
    packet(t, 1, &b);
    dynbuf_free(&cs);
    dynbuf_free(&arr);
    dynbuf_free(&b);
}

static void test_compact(void **state)
{
    (void)state;
    struct dynbuf in, out;
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&out, 1 << 20);
    char detail[320];
    compact_trace(&in, 0, 5);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_OK);
    const char *s = dynbuf_str(&out);
    assert_null(strstr(s, "5.000000:"));        /* the first switch: no prev_* */
    assert_non_null(strstr(s, "               a-100   (-----) [000] .... 5.000001: "
                              "sched_switch: prev_comm=a prev_pid=100 prev_prio=120 "));
    assert_non_null(strstr(s, "==> next_comm=b next_pid=200 next_prio=110"));
    assert_non_null(strstr(s, "               b-200   (-----) [000] .... 5.000002: "
                              "sched_switch: prev_comm=b prev_pid=200"));
    dynbuf_reset(&in);
    dynbuf_reset(&out);
    compact_trace(&in, 1u << 30, 5);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_EFORMAT);
    assert_non_null(strstr(detail, "intern index 1073741824 past its table"));
    /* no next_comm column: no names, not intern entry 0's */
    dynbuf_reset(&in);
    dynbuf_reset(&out);
    compact_trace(&in, 0, 4);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_EFORMAT);
    assert_non_null(strstr(detail, "compact sched without its comm column"));
    assert_null(strstr(dynbuf_str(&out), "swapper/0"));
    dynbuf_free(&in);
    dynbuf_free(&out);
}

/* FtraceEvent { timestamp, pid, task_rename { pid, newcomm } } */
static void rename_event(struct dynbuf *bundle, uint64_t ts, uint32_t pid, const char *comm)
{
    struct dynbuf rn;
    dynbuf_init(&rn, 4096);
    pbw_uint(&rn, 1, pid);
    pbw_str(&rn, 3, comm);
    ftrace_event(bundle, ts, pid, 236, &rn);
    dynbuf_free(&rn);
}

/* A thread's name in its lines' prefix follows its renames: what was
 * built of the prefix for a thread is not used once a name changed. */
static void test_prefix_follows_renames(void **state)
{
    (void)state;
    struct dynbuf in, out, b;
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&out, 1 << 20);
    dynbuf_init(&b, 1 << 20);
    char detail[320];
    pbw_uint(&b, 1, 0);
    print_event(&b, 1000000000, 10, "B|10|a\n");
    rename_event(&b, 1000001000, 10, "first");
    print_event(&b, 1000002000, 10, "E|10\n");
    rename_event(&b, 1000003000, 10, "sec-ond");
    print_event(&b, 1000004000, 10, "B|10|b\n");
    packet(&in, 1, &b);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_OK);
    const char *s = dynbuf_str(&out);
    /* before any rename: the name the first pass saw last */
    assert_non_null(strstr(s, "sec_ond-10    (-----) [000] .... 1.000000: tracing_mark_write: B|10|a"));
    assert_non_null(strstr(s, "first-10    (-----) [000] .... 1.000002: tracing_mark_write: E|10"));
    assert_non_null(strstr(s, "sec_ond-10    (-----) [000] .... 1.000004: tracing_mark_write: B|10|b"));
    dynbuf_free(&in);
    dynbuf_free(&out);
    dynbuf_free(&b);
}

static void test_no_ftrace(void **state)
{
    (void)state;
    struct dynbuf in, out, body;
    dynbuf_init(&in, 4096);
    dynbuf_init(&out, 4096);
    dynbuf_init(&body, 4096);
    pbw_str(&body, 23, "frame");     /* TrackEvent.name */
    packet(&in, 11, &body);
    packet(&in, 11, &body);
    char detail[320];
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_ENOTRACE);
    assert_non_null(strstr(detail, "with nothing systrace shows (it holds 2 track events)"));
    assert_non_null(strstr(detail, "https://ui.perfetto.dev"));
    dynbuf_free(&in);
    dynbuf_free(&out);
    dynbuf_free(&body);
}

/* A top-level varint of 11+ bytes is an error, and so is every feed after
 * it: the reader must not go on writing the varint past its buffer (a
 * live capture fed on after the first error). */
static void test_feed_after_error(void **state)
{
    (void)state;
    unsigned char junk[64];
    memset(junk, 0xff, sizeof(junk));
    junk[0] = 0x0a;
    for (int scan = 0; scan < 2; scan++) {
        struct pftrace *t = pftrace_new();
        assert_non_null(t);
        enum st_err (*feed)(struct pftrace *, const void *, size_t) =
            scan ? pftrace_scan_feed : pftrace_feed;
        assert_int_equal(feed(t, junk, 12), ST_EFORMAT);
        assert_non_null(strstr(pftrace_detail(t), "a varint longer than 10 bytes"));
        for (int i = 0; i < 100; i++)
            assert_int_equal(feed(t, junk + 1, sizeof(junk) - 1), ST_EFORMAT);
        pftrace_free(t);
    }
}

/* ---- the sort ------------------------------------------------------------- */

struct seen {
    int64_t ts[64];
    int n;
};

static enum st_err note(void *ctx, int64_t ts, const uint8_t *p, size_t n)
{
    struct seen *s = ctx;
    (void)p;
    assert_int_equal(n, 8);
    s->ts[s->n++] = ts;
    return ST_OK;
}

static void test_sort_window(void **state)
{
    (void)state;
    struct seen s = {.n = 0};
    /* 8 records of 8 bytes fit: a flush hands on the older half */
    struct pfsort *ps = pfsort_new(64 * 4, 8, note, &s);
    static const int64_t in[] = {5, 3, 4, 1, 2, 8, 7, 6, 9, 10, 0, 11};
    for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++)
        assert_int_equal(pfsort_push(ps, in[i], "abcd", 4, "efgh", 4), ST_OK);
    assert_int_equal(pfsort_finish(ps), ST_OK);
    assert_int_equal(s.n, 12);          /* nothing lost */
    /* the older half (1-4) went at the first flush; 0 came later and is
     * written at the next one, out of order, and counted */
    static const int64_t want[] = {1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10, 11};
    for (int i = 0; i < 12; i++)
        assert_int_equal(s.ts[i], want[i]);
    assert_int_equal(pfsort_late(ps), 1);
    pfsort_free(ps);
}

/* Eager (a trace converted while it records): once half the bound plus a
 * step are held, the older ones go, down to half the bound; so little is
 * left for the end, and a late record still has half the bound to come in. */
static void test_sort_eager(void **state)
{
    (void)state;
    struct seen s = {.n = 0};
    struct pfsort *ps = pfsort_new(64 * 4, 8, note, &s);
    pfsort_set_eager(ps, 2);
    static const int64_t in[] = {5, 3, 4, 1, 2, 8, 7, 6, 9, 10, 0, 11};
    for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
        assert_int_equal(pfsort_push(ps, in[i], "abcd", 4, "efgh", 4), ST_OK);
        if (i == 5)
            assert_int_equal(s.n, 0);       /* 6 held: nothing handed on yet */
        if (i == 6)
            assert_int_equal(s.n, 2);       /* the 7th: down to 4, then it */
    }
    assert_int_equal(s.n, 6);               /* at most 4 + 2 left for the end */
    assert_int_equal(pfsort_finish(ps), ST_OK);
    assert_int_equal(s.n, 12);
    /* in order but for 0, which came after 6 had gone (counted late) */
    static const int64_t want[] = {1, 2, 3, 4, 5, 6, 0, 7, 8, 9, 10, 11};
    for (int i = 0; i < 12; i++)
        assert_int_equal(s.ts[i], want[i]);
    assert_int_equal(pfsort_late(ps), 1);
    pfsort_free(ps);
}

struct order {
    int64_t last;
    uint32_t last_seq, n, bad;
};

static enum st_err in_order(void *ctx, int64_t ts, const uint8_t *p, size_t n)
{
    struct order *o = ctx;
    uint32_t seq;
    assert_int_equal(n, 4);
    memcpy(&seq, p, 4);
    if (o->n && (ts < o->last || (ts == o->last && seq < o->last_seq)))
        o->bad++;
    o->last = ts;
    o->last_seq = seq;
    o->n++;
    return ST_OK;
}

/* Many eager flushes over bundles of four CPUs that overlap in time (as
 * Perfetto writes them): each flush merges the new records into the tail
 * of the run from where the first goes, and the index moves down when
 * its end is reached; everything comes out in (time, arrival) order. */
static void test_sort_many_flushes(void **state)
{
    (void)state;
    struct order o = {0, 0, 0, 0};
    struct pfsort *ps = pfsort_new(1 << 20, 512, in_order, &o);
    pfsort_set_eager(ps, 40);
    uint32_t seq = 0;
    for (int64_t round = 0; round < 200; round++)
        for (int64_t cpu = 0; cpu < 4; cpu++)
            for (int64_t i = 0; i < 25; i++) {
                int64_t ts = round * 100 + i * 4 + (cpu == 2 ? 0 : cpu);   /* ties */
                assert_int_equal(pfsort_push(ps, ts, &seq, 4, NULL, 0), ST_OK);
                seq++;
            }
    assert_int_equal(pfsort_finish(ps), ST_OK);
    assert_int_equal(o.n, 20000);
    assert_int_equal(o.bad, 0);
    assert_int_equal(pfsort_late(ps), 0);
    pfsort_free(ps);
}

static enum st_err count(void *ctx, int64_t ts, const uint8_t *p, size_t n)
{
    (void)ts;
    (void)p;
    size_t *seen = ctx;
    seen[0]++;
    seen[1] += n;
    return ST_OK;
}

/* A record too big for a block once every block was made: the blocks
 * (kept for reuse) held the whole bound, so handing every record on
 * could not make room and the flush loop spun with an empty index (a
 * 35 KB process tree after 400k prints hung the conversion). */
static void test_sort_big_after_full(void **state)
{
    (void)state;
    size_t seen[2] = {0, 0};
    /* 8 blocks of 64 bytes; a record over 16 bytes gets its own allocation */
    struct pfsort *ps = pfsort_new(64 * 8, 1024, count, seen);
    for (int i = 0; i < 200; i++)
        assert_int_equal(pfsort_push(ps, i, "abcd", 4, "efgh", 4), ST_OK);
    char big[100];
    memset(big, 'x', sizeof(big));
    for (int i = 0; i < 3; i++)
        assert_int_equal(pfsort_push(ps, 200 + i, big, sizeof(big), NULL, 0), ST_OK);
    assert_int_equal(pfsort_push(ps, 300, "abcd", 4, "efgh", 4), ST_OK);
    assert_int_equal(pfsort_finish(ps), ST_OK);
    assert_int_equal(seen[0], 204);             /* nothing lost */
    assert_int_equal(seen[1], 201 * 8 + 3 * 100);
    assert_int_equal(pfsort_late(ps), 0);
    pfsort_free(ps);
}

/* Thread ids a trace crafts to share hash slots (every one a multiple of
 * 1024, 262,142 of them): no insertion, so no lookup, visits more than
 * PFN_PROBE_MAX slots (before, each walked the whole cluster: 9 s for a
 * 3.6 MB trace), and the threads are still named. */
static void test_names_colliding_tids(void **state)
{
    (void)state;
    struct pfnames *n = pfnames_new();
    assert_non_null(n);
    for (uint32_t k = 1; k <= 262142; k++)
        pfnames_thread(n, k * 1024, "t", 1, PFN_FTRACE);
    assert_true(pfnames_longest_probe(n) <= PFN_PROBE_MAX);
    uint32_t named = 0;
    for (uint32_t k = 1; k <= 262142; k++)
        named += !strcmp(pfnames_name(n, k * 1024), "t");
    assert_true(named + pfnames_dropped(n) == 262142);
    assert_true(named > 262000);    /* a mixing hash spreads them */
    pfnames_free(n);
}

/* A thread name from a ProcessTree with a newline, a tab and an OSC
 * sequence: the PROCESS DUMP shows them as \xHH, so the name cannot forge
 * a dump line or reach a terminal showing the page's text raw. */
static void test_names_dump_escaped(void **state)
{
    (void)state;
    static const char evil[] = "a\nroot 1 1 forged\tz\x1b]0;x\x07";
    struct dynbuf tree, sub, out;
    dynbuf_init(&tree, 4096);
    dynbuf_init(&sub, 4096);
    dynbuf_init(&out, 1 << 16);
    pbw_uint(&sub, 1, 100);                     /* a process without cmdline */
    pbw_uint(&sub, 2, 1);
    pbw_msg(&tree, 1, &sub);
    pbw_uint(&sub, 1, 100);                     /* its main thread */
    pbw_str(&sub, 2, evil);
    pbw_uint(&sub, 3, 100);
    pbw_msg(&tree, 2, &sub);
    pbw_uint(&sub, 1, 101);                     /* another thread */
    pbw_str(&sub, 2, evil);
    pbw_uint(&sub, 3, 100);
    pbw_msg(&tree, 2, &sub);
    struct pfnames *n = pfnames_new();
    assert_int_equal(pfnames_tree(n, (const uint8_t *)tree.data, tree.len), ST_OK);
    assert_int_equal(pfnames_dump(n, collect, &out), ST_OK);
    const char *d = dynbuf_str(&out);
    int lines = 0;
    for (const char *c = d; *c; c++) {
        lines += *c == '\n';
        assert_true((unsigned char)*c >= 0x20 || *c == '\n');
    }
    assert_int_equal(lines, 6);     /* PROCESS DUMP, a header, 1 process, a header, 2 threads */
    assert_non_null(strstr(d, " a\\x0aroot_1_1_forged\\x09z\\x1b]0;x\\x07\n"));
    assert_non_null(strstr(d, " a\\x0aroot 1 1 forged\\x09z\\x1b]0;x\\x07\n"));   /* COMM */
    pfnames_free(n);
    dynbuf_free(&tree);
    dynbuf_free(&sub);
    dynbuf_free(&out);
}

/* A packet over 8 MB is skipped and counted once, though both passes
 * read it. */
static void test_big_packet_counted_once(void **state)
{
    (void)state;
    struct dynbuf in, out;
    dynbuf_init(&in, 16 << 20);
    dynbuf_init(&out, 1 << 20);
    size_t big = PFTRACE_PACKET_MAX + 1;
    unsigned char *filler = calloc(1, big);
    assert_non_null(filler);
    assert_int_equal(pbw_bytes(&in, 1, filler, big), ST_OK);
    free(filler);
    two_cpus(&in);
    struct pftrace *t = pftrace_new();
    assert_non_null(t);
    assert_int_equal(pftrace_scan_feed(t, in.data, in.len), ST_OK);
    pftrace_scan_finish(t);
    pftrace_set_output(t, collect, &out);
    assert_int_equal(pftrace_feed(t, in.data, in.len), ST_OK);
    assert_int_equal(pftrace_finish(t), ST_OK);
    assert_int_equal(pftrace_stats(t)->big_skipped, 1);
    assert_non_null(strstr(dynbuf_str(&out), "B|20|early"));
    pftrace_free(t);
    dynbuf_free(&in);
    dynbuf_free(&out);
}

/* A packet of sequence seq (clearing its incremental state if asked),
 * interning kernel symbol 1 as sym (unless NULL), with one
 * sched_blocked_reason whose caller is symbol 1. */
static void ksym_packet(struct dynbuf *t, uint32_t seq, int cleared, const char *sym,
                        uint64_t ts)
{
    struct dynbuf pk, sub, ks, ev, b;
    dynbuf_init(&pk, 4096);
    dynbuf_init(&sub, 4096);
    dynbuf_init(&ks, 4096);
    dynbuf_init(&ev, 4096);
    dynbuf_init(&b, 4096);
    pbw_uint(&pk, 10, seq);
    if (cleared)
        pbw_uint(&pk, 41, 1);
    if (sym) {
        pbw_uint(&ks, 1, 1);
        pbw_str(&ks, 2, sym);
        pbw_msg(&sub, 26, &ks);
        pbw_msg(&pk, 12, &sub);
    }
    pbw_uint(&sub, 1, 12);                  /* pid */
    pbw_uint(&sub, 2, 1);                   /* caller: symbol 1 */
    pbw_uint(&ev, 1, ts);
    pbw_uint(&ev, 2, 5);
    pbw_msg(&ev, 18, &sub);
    pbw_uint(&b, 1, 0);
    pbw_msg(&b, 2, &ev);
    pbw_msg(&pk, 1, &b);
    pbw_msg(t, 1, &pk);
    dynbuf_free(&pk);
    dynbuf_free(&sub);
    dynbuf_free(&ks);
    dynbuf_free(&ev);
    dynbuf_free(&b);
}

/* Interned kernel symbols belong to their packet sequence until it clears
 * its incremental state, as in Perfetto: two sequences give symbol 1
 * different names, and a clear forgets it (was: one global table, the
 * last definition named every event). */
static void test_ksym_sequences(void **state)
{
    (void)state;
    struct dynbuf in, out;
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&out, 1 << 20);
    char detail[320];
    ksym_packet(&in, 1, 1, "func_one", 1000000000);
    ksym_packet(&in, 2, 1, "func_two", 1100000000);
    ksym_packet(&in, 1, 0, NULL, 1200000000);
    ksym_packet(&in, 1, 1, NULL, 1300000000);
    assert_int_equal(convert(&in, 0, &out, detail, sizeof(detail)), ST_OK);
    const char *s = dynbuf_str(&out);
    const char *a = strstr(s, "1.000000: sched_blocked_reason: pid=12 caller=func_one\n");
    const char *b = strstr(s, "1.100000: sched_blocked_reason: pid=12 caller=func_two\n");
    const char *c = strstr(s, "1.200000: sched_blocked_reason: pid=12 caller=func_one\n");
    const char *d = strstr(s, "1.300000: sched_blocked_reason: pid=12 caller=1\n");
    if (!a || !b || !c || !d)
        fail_msg("%s", s);
    dynbuf_free(&in);
    dynbuf_free(&out);
}

/* The trace events are written where the lines are formatted, off the
 * thread that feeds the trace (a third of that thread's time on a mixed
 * trace), and a failing write still stops the conversion in its words. */
struct tev_out {
    struct dynbuf json;
    pthread_t feeder;
    int on_feeder, writes;
    enum st_err fail;
};

static enum st_err tev_write(void *ctx, const void *p, size_t n)
{
    struct tev_out *o = ctx;
    o->writes++;
    o->on_feeder |= pthread_equal(pthread_self(), o->feeder) != 0;
    return o->fail ? o->fail : dynbuf_add(&o->json, p, n);
}

/* two_cpus' lines and a ThreadDescriptor (pid 10, tid 10, "main"). */
static enum st_err tev_convert(struct tev_out *o, struct dynbuf *lines, char *detail,
                               size_t dn)
{
    struct dynbuf in, td;
    dynbuf_init(&in, 1 << 20);
    dynbuf_init(&td, 4096);
    two_cpus(&in);
    pbw_uint(&td, 1, 10);
    pbw_uint(&td, 2, 10);
    pbw_str(&td, 5, "main");
    packet(&in, 44, &td);
    struct pftrace *t = pftrace_new();
    assert_non_null(t);
    pftrace_set_output(t, collect, lines);
    assert_int_equal(pftrace_set_events(t, tev_write, o), ST_OK);
    o->feeder = pthread_self();
    enum st_err e = pftrace_feed(t, in.data, in.len);
    if (!e)
        e = pftrace_finish(t);
    snprintf(detail, dn, "%s", pftrace_detail(t));
    pftrace_free(t);
    dynbuf_free(&in);
    dynbuf_free(&td);
    return e;
}

static void test_events_off_feeder(void **state)
{
    (void)state;
    struct tev_out o = {0};
    struct dynbuf lines;
    dynbuf_init(&o.json, 1 << 20);
    dynbuf_init(&lines, 1 << 20);
    char detail[320];
    assert_int_equal(tev_convert(&o, &lines, detail, sizeof(detail)), ST_OK);
    assert_non_null(strstr(o.json.data ? o.json.data : "", "\"thread_name\""));
    assert_non_null(strstr(lines.data, "B|20|early"));
    assert_true(o.writes > 0);
    assert_int_equal(o.on_feeder, 0);

    struct tev_out bad = {.fail = ST_EIO};
    dynbuf_init(&bad.json, 1 << 20);
    dynbuf_reset(&lines);
    assert_int_equal(tev_convert(&bad, &lines, detail, sizeof(detail)), ST_EIO);
    assert_string_equal(detail, "writing the trace events: input/output error");
    dynbuf_free(&o.json);
    dynbuf_free(&bad.json);
    dynbuf_free(&lines);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_splits),
        cmocka_unit_test(test_cut_and_junk),
        cmocka_unit_test(test_compressed),
        cmocka_unit_test(test_compact),
        cmocka_unit_test(test_no_ftrace),
        cmocka_unit_test(test_feed_after_error),
        cmocka_unit_test(test_sort_window),
        cmocka_unit_test(test_sort_eager),
        cmocka_unit_test(test_sort_many_flushes),
        cmocka_unit_test(test_prefix_follows_renames),
        cmocka_unit_test(test_sort_big_after_full),
        cmocka_unit_test(test_names_colliding_tids),
        cmocka_unit_test(test_names_dump_escaped),
        cmocka_unit_test(test_big_packet_counted_once),
        cmocka_unit_test(test_ksym_sequences),
        cmocka_unit_test(test_line_too_long),
        cmocka_unit_test(test_events_off_feeder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
