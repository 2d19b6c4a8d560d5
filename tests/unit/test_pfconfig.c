/* Unit tests for --perfetto's TraceConfig (agents/android/perfetto/pfconfig.c):
 * categories split into ftrace events and atrace categories, dropped ones
 * named, names that could reach a shell refused, -b/-t defaults, the
 * binary form read back with the protobuf reader (the same fields as the
 * text), and the echo escapes that carry it through a device shell. */
#include "testutil.h"

#include "agents/android/perfetto/pfconfig.h"
#include "formats/perfetto/pb.h"

#include <unistd.h>

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
    assert_int_equal(pfconfig_make(&o, &a, 34, &c, &dropped), ST_OK);
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
    assert_int_equal(pfconfig_make(&o, &a, 34, &c, &dropped), ST_OK);
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
    assert_int_equal(pfconfig_make(&o, &a, 34, &c, &why), ST_EINVAL);
    assert_non_null(strstr(dynbuf_str(&why), "not a category name"));
    pfconfig_free(&c);
    dynbuf_reset(&why);
    char *ok[] = {"sched"};
    o = opts(ok, 1, "com.app,$(reboot)");
    assert_int_equal(pfconfig_make(&o, &a, 34, &c, &why), ST_EINVAL);
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
    assert_int_equal(pfconfig_make(&o, &a, 34, &c, &d), ST_OK);
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

#define PROTOS "../shared/reference/perfetto-protos"

/* The config in protoc's text, as protoc reads it with Perfetto's own
 * perfetto_config.proto (the text form through --encode first): what
 * the device's perfetto makes of it.  0: protoc or the protos absent. */
static int protoc_decode(const struct dynbuf *cfg, int text, struct dynbuf *out)
{
#ifdef _WIN32
    (void)cfg, (void)text, (void)out;
    return 0;   /* a POSIX shell's check; protoc is the host's (the Linux run has it) */
#endif
    if (system("protoc --version >/dev/null 2>&1 && [ -f " PROTOS "/perfetto_config.proto ]"))
        return 0;
    char in[] = "/tmp/test_pfconfig.XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, cfg->data, cfg->len), (ssize_t)cfg->len);
    close(fd);
    char cmd[1024];
    if (text)   /* "protoc --encode ... <IN | protoc --decode ..." */
        snprintf(cmd, sizeof(cmd), "protoc --encode=perfetto.protos.TraceConfig -I " PROTOS
                 " perfetto_config.proto <%s | protoc --decode=perfetto.protos.TraceConfig -I "
                 PROTOS " perfetto_config.proto 2>&1", in);
    else
        snprintf(cmd, sizeof(cmd), "protoc --decode=perfetto.protos.TraceConfig -I " PROTOS
                 " perfetto_config.proto <%s 2>&1", in);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        dynbuf_add(out, buf, n);
    assert_int_equal(pclose(f), 0);
    unlink(in);
    return 1;
}

/* A preset's data sources, the same in both forms as Perfetto reads them. */
static void decoded(const struct pfconfig *c, struct dynbuf *out)
{
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    if (!protoc_decode(&c->text, 1, out)) {
        print_message("protoc or " PROTOS " absent: the forms are not decoded\n");
        dynbuf_addstr(out, dynbuf_str(&c->text));
    } else {
        assert_int_equal(protoc_decode(&c->binary, 0, &b), 1);
        assert_string_equal(dynbuf_str(out), dynbuf_str(&b));
    }
    dynbuf_free(&b);
}

static void test_preset_sources(void **state)
{
    (void)state;
    char *cats[] = {"sched", "gfx"};
    struct capture_opts o = opts(cats, 2, NULL);
    o.pf_sources = PF_SRC_FRAMETIMELINE | PF_SRC_PACKAGES | PF_SRC_PROC_POLL |
                   PF_SRC_BATTERY | PF_SRC_POWER_RAILS;
    struct atrace_cats a = avail();
    struct pfconfig c;
    struct dynbuf d, t;
    dynbuf_init(&d, 4096);
    dynbuf_init(&t, 1 << 20);
    assert_int_equal(pfconfig_make(&o, &a, 31, &c, &d), ST_OK);
    assert_string_equal(c.lacking, "");
    decoded(&c, &t);
    const char *s = dynbuf_str(&t);
    assert_non_null(strstr(s, "name: \"android.surfaceflinger.frametimeline\""));
    assert_non_null(strstr(s, "name: \"android.packages_list\""));
    assert_non_null(strstr(s, "scan_all_processes_on_start: true\n"));
    assert_non_null(strstr(s, "proc_stats_poll_ms: 1000\n"));
    assert_non_null(strstr(s, "name: \"android.power\""));
    assert_non_null(strstr(s, "battery_poll_ms: 1000\n"));
    for (const char *k = "CHARGE\0CAPACITY_PERCENT\0CURRENT\0VOLTAGE\0"; *k; k += strlen(k) + 1) {
        char want[80];
        snprintf(want, sizeof(want), "battery_counters: BATTERY_COUNTER_%s\n", k);
        assert_non_null(strstr(s, want));
    }
    assert_non_null(strstr(s, "collect_power_rails: true\n"));
    assert_non_null(strstr(s, "write_into_file: true\n"));
    pfconfig_free(&c);
    /* Android 11: no frame timeline, named once; the rest kept */
    dynbuf_reset(&t);
    assert_int_equal(pfconfig_make(&o, &a, 30, &c, &d), ST_OK);
    assert_string_equal(c.lacking, "android.surfaceflinger.frametimeline (Android SDK 31+)");
    decoded(&c, &t);
    assert_null(strstr(dynbuf_str(&t), "frametimeline"));
    assert_non_null(strstr(dynbuf_str(&t), "android.packages_list"));
    pfconfig_free(&c);
    /* Android 9: only the ftrace and process stats */
    dynbuf_reset(&t);
    assert_int_equal(pfconfig_make(&o, &a, 28, &c, &d), ST_OK);
    assert_non_null(strstr(c.lacking, "android.packages_list (Android SDK 29+), android.power"));
    decoded(&c, &t);
    assert_null(strstr(dynbuf_str(&t), "android."));
    assert_non_null(strstr(dynbuf_str(&t), "proc_stats_poll_ms: 1000"));
    pfconfig_free(&c);
    /* no preset: nothing beyond ftrace and process names */
    o.pf_sources = 0;
    dynbuf_reset(&t);
    assert_int_equal(pfconfig_make(&o, &a, 34, &c, &d), ST_OK);
    decoded(&c, &t);
    assert_null(strstr(dynbuf_str(&t), "android."));
    assert_null(strstr(dynbuf_str(&t), "proc_stats_poll_ms"));
    pfconfig_free(&c);
    dynbuf_free(&d);
    dynbuf_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_echo_binary),
        cmocka_unit_test(test_preset_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
