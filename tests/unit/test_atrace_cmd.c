/* Unit tests for the pure atrace helpers (agents/android/atrace_cmd.c) and the
 * command line (src/options.c): catapult's argument vectors (the examples
 * verified against catapult in catapult-systrace.md §3.1), category
 * parsing, SDK parsing and output naming. */
#include "testutil.h"

#include "agents/android/atrace_cmd.h"
#include "src/options.h"

static const char listing[] =
    "         gfx - Graphics\n"
    "       input - Input\n"
    "        view - View System\n"
    "     webview - WebView\n"
    "          wm - Window Manager\n"
    "          rs - RenderScript\n"
    "       sched - CPU Scheduling\n"
    "        freq - CPU Frequency\n"
    "  binder_driver - Binder Kernel driver\r\n"
    "no dash here\n";

static void parse(int argc, const char **argv, struct st_options *o)
{
    char err[256];
    assert_int_equal(options_parse(o, argc, (char **)argv, err, sizeof(err)), 0);
}

static char *joined(const char **v)
{
    struct dynbuf b;
    dynbuf_init(&b, 4096);
    for (size_t i = 0; v[i]; i++)
        dynbuf_printf(&b, "%s%s", i ? " " : "", v[i]);
    return dynbuf_take(&b, NULL);
}

static void plan_is(int argc, const char **argv, int compress, const char *mode,
                    const char *want, const char *unavailable)
{
    struct st_options o;
    struct atrace_cats c;
    parse(argc, argv, &o);
    assert_int_equal(atrace_cats_parse(listing, sizeof(listing) - 1, 33, &c), ST_OK);
    struct atrace_plan p;
    struct dynbuf un;
    dynbuf_init(&un, 4096);
    struct capture_opts co;
    options_capture(&o, &co);
    assert_int_equal(atrace_plan_make(&co, &c, compress, &p, &un), ST_OK);
    const char **v = atrace_plan_argv(&p, mode);
    char *s = joined(v);
    assert_string_equal(s, want);
    assert_string_equal(dynbuf_str(&un), unavailable);
    free(s);
    free(v);
    dynbuf_free(&un);
    atrace_plan_free(&p);
    atrace_cats_free(&c);
    options_free(&o);
}

static void catapult_examples(void **st)
{
    (void)st;
    const char *a1[] = {"systrace", "-t", "10", "-e", "SERIAL", "sched", "gfx", "view", "wm"};
    plan_is(9, a1, 1, "--async_start", "atrace -z -t 10 -b 4096 sched gfx view wm --async_start",
            "");
    const char *a2[] = {"systrace", "-t", "2", "-b", "1234", "-a", "com.foo,com.bar", "-k",
                        "func1,func2", "--no-compress", "gfx", "sched", "nonexist"};
    plan_is(13, a2, 0, "--async_start",
            "atrace -t 2 -b 1234 -a com.foo,com.bar -k func1,func2 gfx sched --async_start",
            "nonexist");
}

static void buffer_defaults(void **st)
{
    (void)st;
    const char *a[] = {"systrace", "webview,sched", "gfx"};
    plan_is(3, a, 1, "--async_stop", "atrace -z -b 8192 webview sched gfx --async_stop", "");
    const char *b[] = {"systrace", "gfx", "memory"};
    plan_is(3, b, 1, "-t 0", "atrace -z gfx -t 0", "memory");
    /* webview asked for but unavailable: the -b rule looks at kept ones */
    const char *c[] = {"systrace", "-t", "0", "sched", "nothere"};
    plan_is(5, c, 1, "--async_start", "atrace -z -b 4096 sched --async_start", "nothere");
}

static void default_categories(void **st)
{
    (void)st;
    const char *a[] = {"systrace", "-t", "1"};
    /* the 18 defaults minus what the listing lacks, in catapult's order */
    plan_is(3, a, 1, "--async_start",
            "atrace -z -t 1 -b 8192 binder_driver freq gfx input sched view webview wm "
            "--async_start",
            "am camera dalvik hal idle memory memreclaim res sync workq");
}

static void categories_and_sdk(void **st)
{
    (void)st;
    struct atrace_cats c;
    assert_int_equal(atrace_cats_parse(listing, sizeof(listing) - 1, 22, &c), ST_OK);
    assert_int_equal(c.n, 8);   /* rs dropped below SDK 23, junk line ignored */
    assert_false(atrace_cats_has(&c, "rs"));
    assert_true(atrace_cats_has(&c, "binder_driver"));
    atrace_cats_free(&c);
    assert_int_equal(atrace_parse_sdk("33\n", 3), 33);
    assert_int_equal(atrace_parse_sdk("WARNING: linker: x\n 28 \r\n", 24), 28);
    assert_int_equal(atrace_parse_sdk("", 0), -1);
    assert_int_equal(atrace_parse_sdk("error: closed\n", 14), -1);
}

static void output_names(void **st)
{
    (void)st;
    struct {
        const char *in;
        int json;
        const char *want;
    } cases[] = {
        {"dir/trace.txt", 0, "dir/trace.html"}, {"a.b/c", 1, "a.b/c.json"},
        {".hidden", 0, ".hidden.html"}, {"x.tar.gz", 0, "x.tar.html"},
        {"plain", 0, "plain.html"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct st_options o;
        const char *argv[] = {"systrace", "--from-file", cases[i].in, cases[i].json ? "-j" : "-q"};
        parse(4, argv, &o);
        char *p = options_output_path(&o);
        assert_string_equal(p, cases[i].want);
        free(p);
        options_free(&o);
    }
    struct st_options o;
    const char *live[] = {"systrace", "-t", "3"};
    parse(3, live, &o);
    char *p = options_output_path(&o);
    assert_string_equal(p, "trace.html");
    free(p);
    options_free(&o);
}

static void bad_options(void **st)
{
    (void)st;
    struct {
        int argc;
        const char *argv[6];
        const char *msg;
    } cases[] = {
        {3, {"systrace", "-t", "-1"}, "non-negative"},
        {3, {"systrace", "-b", "0"}, "positive"},
        {3, {"systrace", "-t", "5x"}, "option -t: '5x': unknown unit 'x'"},
        {3, {"systrace", "-t", "abc"}, "option -t: 'abc' is not a duration: seconds, or a "
                                       "number with a unit: 500ms, 10s, 2m, 1h"},
        {3, {"systrace", "-b", "big"}, "option -b: 'big' is not a size: KB, or a number "
                                       "with a unit: 32mb, 64MiB, 1g"},
        {3, {"systrace", "--timeout", "soon"}, "option --timeout: 'soon' is not a duration"},
        {3, {"systrace", "-b", "4 mb"}, "option -b: '4 mb': unknown unit ' mb'"},
        {5, {"systrace", "-e", "a", "-e", "a"}, "-e a given twice"},
        {4, {"systrace", "--all-devices", "-e", "a"}, "exclude each other"},
        {2, {"systrace", "--bogus"}, "no such option: --bogus"},
        {2, {"systrace", "-t"}, "option -t needs a value"},
        {2, {"systrace", "--from-file"}, "option --from-file needs a value"},
        {2, {"systrace", "--trace-events"}, "option --trace-events needs a value"},
        {2, {"systrace", "--preset"}, "option --preset needs a value"},
        {2, {"systrace", "--viewer"}, "option --viewer needs a value"},
        {2, {"systrace", "--ftrace-categories"}, "option --ftrace-categories needs a value"},
        {2, {"systrace", "--method-profile"}, "option --method-profile needs a value"},
        {2, {"systrace", "--json=yes"}, "option --json takes no value"},
        {3, {"systrace", "-q", "--nope"}, "no such option: --nope"},
        {2, {"systrace", "--target=windows"}, "unknown target"},
        {3, {"systrace", "--timeout", "0"}, "positive"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct st_options o;
        char err[256] = "";
        int rc = options_parse(&o, cases[i].argc, (char **)cases[i].argv, err, sizeof(err));
        if (rc != 2)
            fail_msg("case %zu (%s): exit %d", i, cases[i].argv[1], rc);
        if (!strstr(err, cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].msg);
        options_free(&o);
    }
}

/* What an atrace that cannot compress prints: bionic's getopt_long on
 * phones, glibc's on host builds; other option errors are not about -z. */
static void z_rejections(void **st)
{
    (void)st;
    assert_true(atrace_rejects_z("", "atrace: unknown option -- z\n\nusage: atrace"));
    assert_true(atrace_rejects_z("atrace: unknown option -- z\r\n", ""));
    assert_true(atrace_rejects_z("", "/system/bin/atrace: unknown option -- z"));
    assert_true(atrace_rejects_z("", "atrace: invalid option -- 'z'\n"));
    assert_true(atrace_rejects_z("atrace: invalid option -- z\n", ""));
    assert_true(atrace_rejects_z("", "atrace: unrecognized option '-z'\n"));
    assert_false(atrace_rejects_z("", "atrace: unknown option -- k\n"));
    assert_false(atrace_rejects_z("", "atrace: unknown option -- zz\n"));
    assert_false(atrace_rejects_z("capturing trace...", ""));
    assert_false(atrace_rejects_z("", "error: unknown tracing category \"z\"\n"));
}

/* -k on a user build: atrace exits 0 but says it did not start. */
static void start_failures(void **st)
{
    (void)st;
    assert_true(atrace_start_failed("", "error opening /sys/kernel/tracing/current_tracer: "
                                        "Permission denied (13)\nunable to start tracing\n"));
    assert_true(atrace_start_failed("error opening x\r\nunable to start tracing\r\n", ""));
    assert_false(atrace_start_failed("capturing trace...", ""));
    assert_false(atrace_start_failed("", ""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(catapult_examples),
        cmocka_unit_test(buffer_defaults),
        cmocka_unit_test(default_categories),
        cmocka_unit_test(categories_and_sdk),
        cmocka_unit_test(output_names),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(z_rejections),
        cmocka_unit_test(start_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
