/* Unit tests for --perfetto's TraceConfig (agents/android/perfetto/pfconfig.c):
 * categories split into ftrace events and atrace categories, dropped ones
 * named, names that could reach a shell refused, -b/-t defaults, the
 * binary form read back with the protobuf reader (the same fields as the
 * text), and the echo escapes that carry it through a device shell. */
#include "testutil.h"

#include "agents/android/perfetto/pfconfig.h"
#include "formats/perfetto/pb.h"

static struct atrace_cats avail(void)
{
    static char *names[] = {"gfx", "view", "am"};
    return (struct atrace_cats){names, 3};
}

static struct capture_opts opts(char **cats, size_t n, const char *apps)
{
    return (struct capture_opts){.target = TARGET_ANDROID, .time_s = -1, .time_ms = -1,
                                 .buf_kb = -1, .categories = cats, .ncategories = n,
                                 .apps = apps};
}

/* The strings of field num in a message, space-joined. */
static void strings(const uint8_t *p, size_t n, uint32_t num, struct dynbuf *out)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.wire == PB_LEN && f.num == num)
            dynbuf_printf(out, "%.*s ", (int)f.len, (const char *)f.p);
    assert_false(it.bad);
}

/* The k-th (0-based) submessage of field num; NULL if none. */
static const uint8_t *sub(const uint8_t *p, size_t n, uint32_t num, int k, size_t *len)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.wire == PB_LEN && f.num == num && k-- == 0) {
            *len = f.len;
            return f.p;
        }
    return NULL;
}

/* TraceConfig.data_sources[k].config */
static const uint8_t *source(const struct pfconfig *c, int k, size_t *len)
{
    const uint8_t *ds = sub((const uint8_t *)c->binary.data, c->binary.len, 2, k, len);
    assert_non_null(ds);
    return sub(ds, *len, 1, 0, len);
}

static uint64_t top_varint(const struct pfconfig *c, uint32_t num)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, (const uint8_t *)c->binary.data, c->binary.len);
    while (pb_next(&it, &f) == 1)
        if (f.num == num && f.wire == PB_VARINT)
            return f.v;
    return UINT64_MAX;
}

static void test_split(void **state)
{
    (void)state;
    char *cats[] = {"sched", "gfx", "freq", "nope", "view"};
    struct capture_opts o = opts(cats, 5, "com.example.app,com.other");
    o.buf_kb = 16384;
    o.time_ms = 1500;
    struct atrace_cats a = avail();
    struct pfconfig c;
    struct dynbuf dropped;
    dynbuf_init(&dropped, 4096);
    assert_int_equal(pfconfig_make(&o, &a, &c, &dropped), ST_OK);
    assert_string_equal(dynbuf_str(&dropped), "nope");
    assert_int_equal(c.nkernel, 2);
    assert_int_equal(c.nuser, 2);
    const char *t = dynbuf_str(&c.text);
    assert_non_null(strstr(t, "size_kb: 16384"));
    assert_non_null(strstr(t, "duration_ms: 1500"));
    assert_non_null(strstr(t, "ftrace_events: \"sched/sched_switch\""));
    assert_non_null(strstr(t, "ftrace_events: \"power/cpu_frequency\""));
    assert_non_null(strstr(t, "atrace_categories: \"gfx\""));
    assert_non_null(strstr(t, "atrace_apps: \"com.other\""));
    assert_non_null(strstr(t, "compact_sched {\n        enabled: true"));
    assert_non_null(strstr(t, "name: \"linux.process_stats\""));
    /* written into the file as it records, so the host reads it meanwhile */
    assert_non_null(strstr(t, "write_into_file: true\nfile_write_period_ms: 100\n"));
    assert_int_equal(top_varint(&c, 8), 1);
    assert_int_equal(top_varint(&c, 9), PFCONFIG_WRITE_PERIOD_MS);
    assert_null(strstr(t, "nope"));
    /* binary: data_sources[0].config is linux.ftrace with the same fields
     * (FtraceConfig: 1 events, 2 atrace categories, 3 apps), [1] process_stats */
    struct dynbuf s;
    dynbuf_init(&s, 1 << 20);
    size_t n;
    const uint8_t *ds = source(&c, 0, &n);
    strings(ds, n, 1, &s);
    assert_string_equal(dynbuf_str(&s), "linux.ftrace ");
    const uint8_t *ft = sub(ds, n, 100, 0, &n);
    assert_non_null(ft);
    dynbuf_reset(&s);
    strings(ft, n, 2, &s);
    assert_string_equal(dynbuf_str(&s), "gfx view ");
    dynbuf_reset(&s);
    strings(ft, n, 3, &s);
    assert_string_equal(dynbuf_str(&s), "com.example.app com.other ");
    dynbuf_reset(&s);
    strings(ft, n, 1, &s);
    assert_non_null(strstr(dynbuf_str(&s), "sched/sched_switch sched/sched_waking "));
    assert_non_null(strstr(dynbuf_str(&s), "power/cpu_frequency "));
    assert_non_null(sub(ft, n, 12, 0, &n));         /* compact_sched */
    ds = source(&c, 1, &n);
    dynbuf_reset(&s);
    strings(ds, n, 1, &s);
    assert_string_equal(dynbuf_str(&s), "linux.process_stats ");
    ds = sub((const uint8_t *)c.binary.data, c.binary.len, 1, 0, &n);   /* buffers */
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, ds, n);
    assert_int_equal(pb_next(&it, &f), 1);
    assert_int_equal(f.num, 1);
    assert_int_equal(f.v, 16384);                   /* size_kb */
    assert_int_equal(top_varint(&c, 3), 1500);     /* duration_ms */
    dynbuf_free(&s);
    dynbuf_free(&dropped);
    pfconfig_free(&c);
}

static void test_defaults(void **state)
{
    (void)state;
    char *cats[] = {"idle"};
    struct capture_opts o = opts(cats, 1, NULL);
    struct atrace_cats a = avail();
    struct pfconfig c;
    struct dynbuf dropped;
    dynbuf_init(&dropped, 4096);
    assert_int_equal(pfconfig_make(&o, &a, &c, &dropped), ST_OK);
    assert_int_equal(dropped.len, 0);
    assert_non_null(strstr(dynbuf_str(&c.text), "size_kb: 65536"));
    assert_non_null(strstr(dynbuf_str(&c.text), "duration_ms: 0\n"));  /* until stopped */
    assert_int_equal(top_varint(&c, 3), 0);
    assert_null(strstr(dynbuf_str(&c.text), "atrace_"));
    dynbuf_free(&dropped);
    pfconfig_free(&c);
}

static void test_refused(void **state)
{
    (void)state;
    struct atrace_cats a = avail();
    struct pfconfig c;
    struct dynbuf why;
    dynbuf_init(&why, 4096);
    char *bad[] = {"sched", "x'; reboot"};
    struct capture_opts o = opts(bad, 2, NULL);
    assert_int_equal(pfconfig_make(&o, &a, &c, &why), ST_EINVAL);
    assert_non_null(strstr(dynbuf_str(&why), "not a category name"));
    pfconfig_free(&c);
    dynbuf_reset(&why);
    char *ok[] = {"sched"};
    o = opts(ok, 1, "com.app,$(reboot)");
    assert_int_equal(pfconfig_make(&o, &a, &c, &why), ST_EINVAL);
    assert_non_null(strstr(dynbuf_str(&why), "-a $(reboot): not an app"));
    pfconfig_free(&c);
    dynbuf_free(&why);
}

/* The echo argument is octal escapes only (nothing a shell interprets),
 * and decodes to the binary config byte for byte. */
static void test_echo_binary(void **state)
{
    (void)state;
    char *cats[] = {"sched", "gfx"};
    struct capture_opts o = opts(cats, 2, "com.example");
    struct atrace_cats a = avail();
    struct pfconfig c;
    struct dynbuf d, cmd;
    dynbuf_init(&d, 4096);
    dynbuf_init(&cmd, 1 << 22);
    assert_int_equal(pfconfig_make(&o, &a, &c, &d), ST_OK);
    assert_int_equal(pfconfig_echo_binary(&c, &cmd), ST_OK);
    const char *s = dynbuf_str(&cmd);
    assert_int_equal(strncmp(s, "echo -n '", 9), 0);
    s += 9;
    size_t i = 0;
    for (; *s == '\\'; s += 5, i++) {
        assert_int_equal(s[1], '0');
        unsigned v = (unsigned)(s[2] - '0') * 64 + (unsigned)(s[3] - '0') * 8 +
                     (unsigned)(s[4] - '0');
        assert_true(i < c.binary.len);
        assert_int_equal(v, (unsigned char)c.binary.data[i]);
    }
    assert_int_equal(i, c.binary.len);
    assert_string_equal(s, "'");
    dynbuf_free(&d);
    dynbuf_free(&cmd);
    pfconfig_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_echo_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
