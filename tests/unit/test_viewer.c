/* Unit tests for the viewer lookup (formats/html/viewer.c) and the download's pure
 * parts (src/download.c): base64 bodies as gitiles sends them, raw
 * mirrors, the checksum table, the lookup order --viewer >
 * $SYSTRACE_VIEWER > cache > Debian > embedded, a bad cached copy being
 * skipped, and the message naming --update-viewer when nothing is found. */
#include "testutil.h"

#include <sys/stat.h>
#include <unistd.h>

#include "src/download.h"
#include "formats/html/viewer.h"

#define DEB VIEWER_DEBIAN_DIR

static void base64_bodies(void **st)
{
    (void)st;
    static const struct {
        const char *in, *out;
        enum st_err e;
    } cases[] = {
        {"", "", ST_OK},
        {"aGVsbG8=", "hello", ST_OK},
        {"aGVs\nbG8h\r\n", "hell" "o!", ST_OK},
        {"aGVsbA==", "hell", ST_OK},
        {"  aG Vs bG 8= ", "hello", ST_OK},
        {"aGVsbG8", NULL, ST_ETRUNCATED},
        {"aGVsbG8=aGVs", NULL, ST_EFORMAT},
        {"aG=s", NULL, ST_EFORMAT},
        {"a===", NULL, ST_EFORMAT},
        {"<!DOCTYPE html>", NULL, ST_EFORMAT},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        struct dynbuf out, err;
        dynbuf_init(&out, 1024);
        dynbuf_init(&err, 1024);
        enum st_err e = dl_base64_decode(cases[i].in, strlen(cases[i].in), &out, &err);
        if (e != cases[i].e)
            fail_msg("case %zu (%s): %s", i, cases[i].in, st_errname(e));
        if (!e)
            assert_string_equal(dynbuf_str(&out), cases[i].out);
        else
            assert_true(err.len > 0);
        dynbuf_free(&out);
        dynbuf_free(&err);
    }
    /* a body: base64 decoded, a raw file kept, base64 cut short refused */
    struct dynbuf out, err;
    dynbuf_init(&out, 1024);
    dynbuf_init(&err, 1024);
    int b64;
    assert_int_equal(dl_decode_body("PGh0bWw+", 8, &out, &b64, &err), ST_OK);
    assert_true(b64);
    assert_string_equal(dynbuf_str(&out), "<html>");
    assert_int_equal(dl_decode_body("<html>", 6, &out, &b64, &err), ST_OK);
    assert_false(b64);
    assert_string_equal(dynbuf_str(&out), "<html>");
    assert_int_equal(dl_decode_body("PGh0bWw", 7, &out, &b64, &err), ST_ETRUNCATED);
    assert_non_null(strstr(dynbuf_str(&err), "cut short"));
    dynbuf_free(&out);
    dynbuf_free(&err);
}

static void checksum_table(void **st)
{
    (void)st;
    struct dynbuf err;
    dynbuf_init(&err, 4096);
    unsetenv("SYSTRACE_TEST_VIEWER_SHA256");
    /* the pinned polyfill is Debian's, byte for byte */
    size_t n;
    char *js = tu_read(DEB "/webcomponents.min.js", &n);
    if (js) {
        assert_true(dl_verify(&dl_files[1], 0, js, n, &err));
        assert_true(viewer_known(1, js, n));
        js[100] ^= 1;
        assert_false(dl_verify(&dl_files[1], 0, js, n, &err));
        assert_non_null(strstr(dynbuf_str(&err), "same size as the pinned file"));
        free(js);
    }
    /* Debian's viewer is known-good for lookup, but not the pinned download */
    char *html = tu_read(DEB "/trace_viewer_full.html", &n);
    if (html) {
        dynbuf_reset(&err);
        assert_true(viewer_known(0, html, n));
        assert_false(dl_verify(&dl_files[0], 1, html, n, &err));
        assert_non_null(strstr(dynbuf_str(&err), "expected the pinned file (2624705 bytes"));
        free(html);
    }
    /* the test-only sum: accepted for the viewer only */
    char hex[65];
    viewer_sha256_hex("x", 1, hex);
    setenv("SYSTRACE_TEST_VIEWER_SHA256", hex, 1);
    assert_true(dl_verify(&dl_files[0], 1, "x", 1, &err));
    assert_true(viewer_known(0, "x", 1));
    assert_false(dl_verify(&dl_files[1], 0, "x", 1, &err));
    assert_false(viewer_known(1, "x", 1));
    unsetenv("SYSTRACE_TEST_VIEWER_SHA256");
    assert_false(viewer_known(0, "x", 1));
    assert_string_equal(dl_files[0].sha256,
                        "1e47680c9779f29f2f1c0179c47a69cecadfd6653f15796aa9148c195a5647b0");
    assert_int_equal(dl_files[0].size, 2624705);
    assert_int_equal(dl_files[1].size, 118419);
    dynbuf_free(&err);
}

static char dir[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void copy(const char *from, const char *rel, const char *append)
{
    size_t n;
    char *b = tu_read(from, &n);
    assert_non_null(b);
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fwrite(b, 1, n, f);
    fputs(append, f);
    fclose(f);
    free(b);
}

static const char *load(const struct viewer_cfg *c, struct dynbuf *warn, enum st_err *e)
{
    static char src[4200];
    struct viewer v;
    struct dynbuf err;
    dynbuf_init(&err, 4096);
    *e = viewer_load_cfg(c, &v, warn, &err);
    snprintf(src, sizeof(src), "%s", *e ? dynbuf_str(&err) : v.source);
    if (!*e) {
        assert_non_null(v.js);
        assert_true(viewer_known(1, v.js, v.js_len));
    }
    viewer_free(&v);
    dynbuf_free(&err);
    return src;
}

static void lookup_order(void **st)
{
    (void)st;
    if (access(DEB "/trace_viewer_full.html", R_OK))
        skip();
    snprintf(dir, sizeof(dir), "/tmp/test_viewer.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char cache[128], sub[128];
    snprintf(cache, sizeof(cache), "%s/cache", dir);
    snprintf(sub, sizeof(sub), "%s/x", dir);
    mkdir(cache, 0700);
    mkdir(sub, 0700);
    /* a cached viewer (known through the test sum) with its polyfill */
    copy(DEB "/trace_viewer_full.html", "cache/" VIEWER_CACHE_FILE, "<!-- cached -->");
    copy(DEB "/webcomponents.min.js", "cache/webcomponents.min.js", "");
    put("x/explicit.html", "<html>explicit</html>");
    put("x/env.html", "<html>env</html>");
    char p[4200];
    snprintf(p, sizeof(p), "%s/cache/" VIEWER_CACHE_FILE, dir);
    size_t n;
    char *cached = tu_read(p, &n);
    char hex[65];
    viewer_sha256_hex(cached, n, hex);
    free(cached);
    setenv("SYSTRACE_TEST_VIEWER_SHA256", hex, 1);

    char ex[256], en[256];
    snprintf(ex, sizeof(ex), "%s/x/explicit.html", dir);
    snprintf(en, sizeof(en), "%s/x/env.html", dir);
    struct viewer_cfg c = {ex, en, cache, DEB, 1};
    struct dynbuf warn;
    dynbuf_init(&warn, 4096);
    enum st_err e;
    assert_string_equal(load(&c, &warn, &e), ex);
    /* unknown sums named by the user: used, with a warning */
    assert_non_null(strstr(dynbuf_str(&warn), "not a known trace viewer build"));
    c.explicit_path = NULL;
    assert_string_equal(load(&c, &warn, &e), en);
    c.env_path = NULL;
    assert_string_equal(load(&c, &warn, &e), p);
    c.cache_dir = NULL;
    assert_string_equal(load(&c, &warn, &e), DEB "/trace_viewer_full.html");
    c.debian_dir = NULL;
    const char *s = load(&c, &warn, &e);
    if (!e)     /* built without Debian's copy: nothing embedded */
        assert_string_equal(s, "embedded copy");
    c.embedded = 0;
    s = load(&c, &warn, &e);
    assert_int_equal(e, ST_ENOENT);
    assert_non_null(strstr(s, "systrace --update-viewer"));

    /* a cached copy with a wrong sum is skipped, said so, Debian's used */
    unsetenv("SYSTRACE_TEST_VIEWER_SHA256");
    dynbuf_reset(&warn);
    struct viewer_cfg c2 = {NULL, NULL, cache, DEB, 1};
    assert_string_equal(load(&c2, &warn, &e), DEB "/trace_viewer_full.html");
    assert_non_null(strstr(dynbuf_str(&warn), "checksum does not match a known viewer"));
    assert_non_null(strstr(dynbuf_str(&warn), p));
    /* an explicit file that is not there */
    struct viewer_cfg c3 = {"/nonexistent/v.html", NULL, NULL, DEB, 1};
    s = load(&c3, &warn, &e);
    assert_int_equal(e, ST_ENOENT);
    assert_non_null(strstr(s, "/nonexistent/v.html: cannot read the trace viewer (--viewer)"));
    dynbuf_free(&warn);

    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void cache_dir(void **st)
{
    (void)st;
    char b[4096];
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    setenv("HOME", "/home/u", 1);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    assert_int_equal(viewer_cache_dir(b, sizeof(b)), 0);
    assert_string_equal(b, "/xdg/systrace");
    setenv("XDG_CACHE_HOME", "relative", 1);     /* the spec says: ignore */
    assert_int_equal(viewer_cache_dir(b, sizeof(b)), 0);
    assert_string_equal(b, "/home/u/.cache/systrace");
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    assert_int_equal(viewer_cache_dir(b, sizeof(b)), -1);
    if (home)
        setenv("HOME", home, 1);
    if (xdg)
        setenv("XDG_CACHE_HOME", xdg, 1);
    free(home);
    free(xdg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(base64_bodies),
        cmocka_unit_test(checksum_table),
        cmocka_unit_test(lookup_order),
        cmocka_unit_test(cache_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
