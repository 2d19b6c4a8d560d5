/* Unit tests for the Perfetto event text (formats/perfetto/pfevent.h) with
 * messages built byte by byte: generic field=value (signed, unsigned,
 * strings, order, fields Perfetto leaves out), hand-written formats,
 * prev_state letters per kernel layout, gfp flags, kernel symbols, compact
 * sched, and malformed or oversized input.  The expected texts are
 * Perfetto's (tests/e2e/perfetto_events.sh checks the same rules against
 * its trace processor). */
#include "testutil.h"

#include "formats/perfetto/pfevent.h"

struct msg {
    uint8_t b[256];
    size_t n;
};

static void put_varint(struct msg *m, uint64_t v)
{
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        m->b[m->n++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
}

static void vfield(struct msg *m, uint32_t num, uint64_t v)
{
    put_varint(m, (uint64_t)num << 3);
    put_varint(m, v);
}

static void sfield(struct msg *m, uint32_t num, const char *s, size_t n)
{
    put_varint(m, (uint64_t)num << 3 | 2);
    put_varint(m, n);
    memcpy(m->b + m->n, s, n);
    m->n += n;
}

static const struct pfevent_ctx k44 = {0, 0, 0, 0, NULL, NULL};

/* The body of event ID with context C, as a string owned by the caller. */
static char *body(const struct pfevent_ctx *c, uint32_t id, const struct msg *m)
{
    struct dynbuf b;
    dynbuf_init(&b, 1 << 16);
    assert_int_equal(pfevent_format(c, id, m->b, m->n, &b), ST_OK);
    return dynbuf_take(&b, NULL);
}

#define EXPECT_BODY(c, id, m, want) do {        \
        char *got_ = body(c, id, m);            \
        assert_string_equal(got_, want);        \
        free(got_);                             \
    } while (0)

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(pfevent_name(4), "sched_switch");
    assert_string_equal(pfevent_name(20), "sched_waking");
    assert_string_equal(pfevent_name(3), "tracing_mark_write");     /* print */
    assert_string_equal(pfevent_name(348), "tracing_mark_write");   /* dpu_ */
    assert_string_equal(pfevent_name(490), "panel_write_generic");
    assert_string_equal(pfevent_name(617), "long_softirq");
    assert_null(pfevent_name(0));
    assert_null(pfevent_name(1));
    assert_null(pfevent_name(5));       /* removed */
    assert_null(pfevent_name(PFEVENT_GENERIC_ID));
    assert_null(pfevent_name(100000));
}

static void test_generic_fields(void **state)
{
    (void)state;
    struct msg m = {{0}, 0};
    /* sched_process_exit: comm 1, pid 2 (int32), tgid 3, prio 4; in
     * message order, not field order */
    vfield(&m, 4, 120);
    sfield(&m, 1, "two words\nline", 14);
    vfield(&m, 2, (uint64_t)-1);        /* int32 -1: ten-byte varint */
    EXPECT_BODY(&k44, 238, &m, " prio=120 comm=two words\nline pid=-1");

    /* cpu_frequency: uint32 state 1, cpu_id 2; unknown numbers (9, 40)
     * and a string where a number belongs are left out */
    memset(&m, 0, sizeof m);
    vfield(&m, 1, 4294967295u);
    vfield(&m, 9, 5);
    vfield(&m, 40, 5);
    sfield(&m, 2, "x", 1);
    EXPECT_BODY(&k44, 11, &m, " state=4294967295");

    /* an empty string is a value; no printable field is no body at all */
    memset(&m, 0, sizeof m);
    sfield(&m, 1, "", 0);
    EXPECT_BODY(&k44, 238, &m, " comm=");
    memset(&m, 0, sizeof m);
    EXPECT_BODY(&k44, 238, &m, "");
    vfield(&m, 9, 1);
    EXPECT_BODY(&k44, 238, &m, "");
}

static void test_hand_written(void **state)
{
    (void)state;
    struct msg m = {{0}, 0};
    sfield(&m, 2, "B|12|draw frame\n", 16);         /* print buf */
    vfield(&m, 1, 0xffffffffffffffffu);             /* ip: not shown */
    EXPECT_BODY(&k44, 3, &m, " B|12|draw frame");
    memset(&m, 0, sizeof m);
    sfield(&m, 2, "a\0b", 3);                       /* C string: cut */
    EXPECT_BODY(&k44, 3, &m, " a");

    memset(&m, 0, sizeof m);                        /* sched_wakeup */
    sfield(&m, 1, "w", 1);
    vfield(&m, 2, 7);
    vfield(&m, 3, 120);
    vfield(&m, 4, 1);
    vfield(&m, 5, (uint64_t)-1);
    EXPECT_BODY(&k44, 17, &m, " comm=w pid=7 prio=120 target_cpu=-001");

    memset(&m, 0, sizeof m);                        /* softirq_entry */
    vfield(&m, 1, 3);
    EXPECT_BODY(&k44, 24, &m, " vec=3 [action=NET_RX]");
    memset(&m, 0, sizeof m);
    vfield(&m, 1, 12);
    EXPECT_BODY(&k44, 25, &m, " vec=12 [action=12]");

    memset(&m, 0, sizeof m);                        /* tracing_mark_write */
    vfield(&m, 1, 42);
    sfield(&m, 2, "slice", 5);
    vfield(&m, 3, 1);
    EXPECT_BODY(&k44, 80, &m, "B|42|slice");

    memset(&m, 0, sizeof m);                        /* binder_transaction */
    vfield(&m, 1, (uint64_t)-1);
    vfield(&m, 2, 7);
    vfield(&m, 3, 100);
    vfield(&m, 4, 101);
    vfield(&m, 5, 0);
    vfield(&m, 6, 3);
    vfield(&m, 7, 16);
    EXPECT_BODY(&k44, 50, &m,
                " transaction=4294967295 dest_node=7 dest_proc=100 dest_thread=101 reply=0"
                " flags=0x10 code=0x3");

    memset(&m, 0, sizeof m);                        /* irq_handler_exit */
    vfield(&m, 1, 30);
    vfield(&m, 2, 0);
    EXPECT_BODY(&k44, 37, &m, " irq=30 ret=unhandled");

    memset(&m, 0, sizeof m);                        /* mm_filemap_add_to_page_cache */
    vfield(&m, 1, 99);
    vfield(&m, 2, 255);
    vfield(&m, 3, 2);
    vfield(&m, 4, (253u << 20) | 5);
    EXPECT_BODY(&k44, 97, &m, " dev 253:5 ino ff page=0000000000000000 pfn=99 ofs=8192");
}

static void test_prev_state(void **state)
{
    (void)state;
    static const struct { int major, minor; int64_t raw; const char *want; } cases[] = {
        {0, 0, 0, "R"}, {0, 0, 1, "S"}, {0, 0, 2, "D"}, {0, 0, 0x40, "x"}, {0, 0, 0x80, "K"},
        {0, 0, 0x100, "W"}, {0, 0, 0x200, "P"}, {0, 0, 0x400, "N"}, {0, 0, 0x800, "R+"},
        {0, 0, 0x402, "I"}, {0, 0, 0x82, "D|K"}, {0, 0, 0x3f, "S|D"}, {0, 0, -1, "S|D"},
        {0, 0, 0x10000, "R"}, {4, 9, 0x800, "R"}, {4, 9, 0x1000, "R+"},
        {5, 10, 0x40, "P"}, {5, 10, 0x80, "I"}, {5, 10, 0x100, "R+"}, {5, 10, 0x101, "S"},
        {5, 10, 0x200, "?"}, {4, 14, 0x82, "D|I"}, {3, 18, 0x800, "R+"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pfevent_ctx c = {0, 0, cases[i].major, cases[i].minor, NULL, NULL};
        char buf[4];
        pfevent_task_state(&c, cases[i].raw, buf);
        assert_string_equal(buf, cases[i].want);
    }

    struct msg m = {{0}, 0};
    sfield(&m, 1, "a b", 3);
    vfield(&m, 2, (uint64_t)-1);
    vfield(&m, 3, 120);
    vfield(&m, 4, 1);
    sfield(&m, 5, "c", 1);
    vfield(&m, 6, 11);
    vfield(&m, 7, 100);
    EXPECT_BODY(&k44, 4, &m, " prev_comm=a b prev_pid=4294967295 prev_prio=120 prev_state=S"
                             " ==> next_comm=c next_pid=11 next_prio=100");
    memset(&m, 0, sizeof m);        /* Perfetto always has all seven */
    EXPECT_BODY(&k44, 4, &m, " prev_comm=<...> prev_pid=0 prev_prio=0 prev_state=R"
                             " ==> next_comm=<...> next_pid=0 next_prio=0");
}

static void test_compact(void **state)
{
    (void)state;
    struct dynbuf b;
    struct pfevent_ctx c510 = {5, 10, 5, 10, NULL, NULL};
    struct pf_switch s = {"Render Thread", 501, 98, 0x80, NULL, 0, 120};
    struct pf_waking w = {"surfaceflinger", 502, 98, 3};
    dynbuf_init(&b, 4096);
    assert_int_equal(pfevent_sched_switch(&c510, &s, &b), ST_OK);
    assert_string_equal(dynbuf_str(&b), " prev_comm=Render Thread prev_pid=501 prev_prio=98"
                                        " prev_state=I ==> next_comm=<...> next_pid=0 next_prio=120");
    dynbuf_reset(&b);
    assert_int_equal(pfevent_sched_waking(&k44, &w, &b), ST_OK);
    assert_string_equal(dynbuf_str(&b), " comm=surfaceflinger pid=502 prio=98 target_cpu=3");
    dynbuf_free(&b);
}

static void test_gfp(void **state)
{
    (void)state;
    static const struct { int major, minor; uint64_t flags; const char *want; } cases[] = {
        {0, 0, 0, " gfp_flags=GFP_NOWAIT"},
        {0, 0, 0xd0, " gfp_flags=GFP_IO|GFP_RECLAIMABLE|0x80"},
        {0, 0, 0x24000c0, " gfp_flags=GFP_KERNEL"},
        {5, 10, 0x14000c0, " gfp_flags=GFP_KERNEL"},
        /* today's GFP_KERNEL: Perfetto knows no layout newer than 4.14's */
        {5, 10, 0xcc0, " gfp_flags=__GFP_IO|__GFP_FS|__GFP_RETRY_MAYFAIL|__GFP_NOFAIL"},
        {5, 10, 0x1, " gfp_flags=GFP_DMA"},
        {3, 4, 0xd0, " gfp_flags=GFP_KERNEL|GFP_NOTRACK"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pfevent_ctx c = {cases[i].major, cases[i].minor, 0, 0, NULL, NULL};
        struct msg m = {{0}, 0};
        vfield(&m, 3, cases[i].flags);      /* mm_vmscan_direct_reclaim_begin */
        EXPECT_BODY(&c, 46, &m, cases[i].want);
    }
}

static const char *sym(void *arg, uint64_t iid, size_t *len)
{
    (void)arg;
    if (iid != 7)
        return NULL;
    *len = 11;
    return "do_sys_poll";
}

static void test_kernel_symbols(void **state)
{
    (void)state;
    struct pfevent_ctx c = {0, 0, 0, 0, sym, NULL};
    struct msg m = {{0}, 0};
    vfield(&m, 1, 12);                      /* sched_blocked_reason */
    vfield(&m, 2, 7);
    vfield(&m, 3, 1);
    EXPECT_BODY(&c, 18, &m, " pid=12 iowait=1 caller=do_sys_poll");
    EXPECT_BODY(&k44, 18, &m, " pid=12 iowait=1 caller=7");
    memset(&m, 0, sizeof m);
    vfield(&m, 1, 4096);                    /* workqueue_execute_start */
    vfield(&m, 2, 255);
    EXPECT_BODY(&c, 58, &m, " work struct 1000: function ff");
}

static void test_generic_event(void **state)
{
    (void)state;
    struct msg f1 = {{0}, 0}, f2 = {{0}, 0}, f3 = {{0}, 0}, m = {{0}, 0};
    const char *name;
    size_t name_len;
    sfield(&f1, 1, "i", 1);
    vfield(&f1, 4, (uint64_t)-3);
    sfield(&f2, 1, "u", 1);
    vfield(&f2, 5, 0xffffffffffffffffu);    /* kept signed, as Perfetto does */
    sfield(&f3, 1, "none", 4);
    sfield(&m, 1, "my_event", 8);
    sfield(&m, 2, (const char *)f1.b, f1.n);
    sfield(&m, 2, (const char *)f2.b, f2.n);
    sfield(&m, 2, (const char *)f3.b, f3.n);
    assert_int_equal(pfevent_generic_name(m.b, m.n, &name, &name_len), ST_OK);
    assert_int_equal(name_len, 8);
    assert_memory_equal(name, "my_event", 8);
    EXPECT_BODY(&k44, PFEVENT_GENERIC_ID, &m, " i=-3 u=-1");
}

static void test_bad_input(void **state)
{
    (void)state;
    struct dynbuf b;
    static const uint8_t cut_varint[] = {0x08, 0x80};
    static const uint8_t long_len[] = {0x0a, 0x05, 'a'};
    static const uint8_t group[] = {0x0b};
    dynbuf_init(&b, 16);
    assert_int_equal(pfevent_format(&k44, 238, cut_varint, sizeof cut_varint, &b), ST_EFORMAT);
    assert_int_equal(pfevent_format(&k44, 3, long_len, sizeof long_len, &b), ST_EFORMAT);
    assert_int_equal(pfevent_format(&k44, 4, group, sizeof group, &b), ST_EFORMAT);
    assert_int_equal(pfevent_format(&k44, PFEVENT_GENERIC_ID, long_len, sizeof long_len, &b),
                     ST_EFORMAT);
    assert_int_equal(pfevent_format(&k44, 5, NULL, 0, &b), ST_EINVAL);
    assert_int_equal(pfevent_format(&k44, 99999, NULL, 0, &b), ST_EINVAL);

    struct msg m = {{0}, 0};                 /* 40 bytes into a 16-byte buffer */
    sfield(&m, 2, "0123456789012345678901234567890123456789", 40);
    assert_int_equal(pfevent_format(&k44, 3, m.b, m.n, &b), ST_ETOOBIG);
    dynbuf_free(&b);
}

static void test_uname(void **state)
{
    (void)state;
    static const struct { const char *sys, *rel; int major, minor; } cases[] = {
        {"Linux", "5.10.43-android12-9-g1", 5, 10}, {"Linux", "4.19", 4, 19},
        {"Linux", "6.1-rc1", 0, 0}, {"Darwin", "5.10.1", 0, 0}, {"Linux", "", 0, 0},
        {"Linux", "x.1", 0, 0}, {"Linux", "5.", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pfevent_ctx c = {9, 9, 9, 9, NULL, NULL};
        pfevent_ctx_uname(&c, cases[i].sys, strlen(cases[i].sys), cases[i].rel,
                          strlen(cases[i].rel));
        assert_int_equal(c.kernel_major, cases[i].major);
        assert_int_equal(c.kernel_minor, cases[i].minor);
        assert_int_equal(c.sched_major, cases[i].major);
        assert_int_equal(c.sched_minor, cases[i].minor);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_generic_fields),
        cmocka_unit_test(test_hand_written),
        cmocka_unit_test(test_prev_state),
        cmocka_unit_test(test_compact),
        cmocka_unit_test(test_gfp),
        cmocka_unit_test(test_kernel_symbols),
        cmocka_unit_test(test_generic_event),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_uname),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
