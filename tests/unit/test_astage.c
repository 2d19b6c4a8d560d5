/* Unit tests for the threaded write stage (lib/astage.c): every byte
 * arrives once and in order whatever the write sizes, the next stage's
 * error comes back to the writer and stops the flow, and finishing or
 * freeing at any point is safe. */
#include "testutil.h"

#include "lib/astage.h"
#include "lib/plat.h"   /* pthread_self: the sink's thread */

struct sinkstate {
    struct dynbuf got;
    size_t calls;
    size_t fail_after;      /* fail the call after this many bytes (0: never) */
};

static enum st_err sink(void *ctx, const void *p, size_t n)
{
    struct sinkstate *s = ctx;
    s->calls++;
    if (s->fail_after && s->got.len + n > s->fail_after)
        return ST_EIO;
    return dynbuf_add(&s->got, p, n);
}

static void in_order(void **st)
{
    (void)st;
    size_t total = ASTAGE_BUF * ASTAGE_NBUF * 3 + 12345;
    unsigned char *src = malloc(total);
    for (size_t i = 0; i < total; i++)
        src[i] = (unsigned char)(i * 2654435761u >> 13);
    static const size_t sizes[] = {1, 7, 4096, ASTAGE_BUF - 1, ASTAGE_BUF, ASTAGE_BUF * 2 + 3};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
        struct sinkstate s = {0};
        dynbuf_init(&s.got, 1u << 30);
        struct astage *a = astage_new(sink, &s);
        assert_non_null(a);
        size_t limit = sizes[k] < 64 ? 300000 : total;  /* byte-sized writes: a prefix */
        for (size_t off = 0; off < limit; off += sizes[k])
            assert_int_equal(astage_write(a, src + off, limit - off < sizes[k] ? limit - off
                                                                              : sizes[k]),
                             ST_OK);
        assert_int_equal(astage_finish(a), ST_OK);
        astage_free(a);
        assert_int_equal(s.got.len, limit);
        assert_memory_equal(s.got.data, src, limit);
        dynbuf_free(&s.got);
    }
    free(src);
}

/* Small buffers (astage_new_sized): the same bytes in order, a write
 * spanning many buffers included. */
static void sized_in_order(void **st)
{
    (void)st;
    static const size_t sizes[] = {1, 5, 100, 1000, 70000};
    unsigned char src[200000];
    for (size_t i = 0; i < sizeof(src); i++)
        src[i] = (unsigned char)(i * 2654435761u >> 13);
    for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
        struct sinkstate s = {0};
        dynbuf_init(&s.got, 1u << 20);
        struct astage *a = astage_new_sized(sink, &s, 64);
        assert_non_null(a);
        for (size_t off = 0; off < sizeof(src); off += sizes[k]) {
            size_t n = sizeof(src) - off < sizes[k] ? sizeof(src) - off : sizes[k];
            assert_int_equal(astage_write(a, src + off, n), ST_OK);
        }
        assert_int_equal(astage_finish(a), ST_OK);
        astage_free(a);
        assert_int_equal(s.got.len, sizeof(src));
        assert_memory_equal(s.got.data, src, sizeof(src));
        dynbuf_free(&s.got);
    }
}

static void error_comes_back(void **st)
{
    (void)st;
    struct sinkstate s = {.fail_after = ASTAGE_BUF + 10};
    dynbuf_init(&s.got, 1u << 30);
    struct astage *a = astage_new(sink, &s);
    char *chunk = calloc(1, ASTAGE_BUF);
    enum st_err e = ST_OK;
    for (int i = 0; i < 100 && !e; i++)
        e = astage_write(a, chunk, ASTAGE_BUF);
    assert_int_equal(e, ST_EIO);     /* the writer learns, and stops */
    assert_int_equal(astage_finish(a), ST_EIO);
    size_t calls = s.calls;
    astage_free(a);
    assert_int_equal(s.calls, calls);   /* nothing more after the error */
    assert_int_equal(s.got.len, ASTAGE_BUF);
    free(chunk);
    dynbuf_free(&s.got);
}

static void free_without_finish(void **st)
{
    (void)st;
    struct sinkstate s = {0};
    dynbuf_init(&s.got, 1u << 30);
    struct astage *a = astage_new(sink, &s);
    assert_int_equal(astage_write(a, "abc", 3), ST_OK);
    astage_free(a);                     /* hands on what it holds, then stops */
    assert_int_equal(s.got.len, 3);
    astage_free(NULL);
    a = astage_new(sink, &s);
    assert_int_equal(astage_finish(a), ST_OK);  /* nothing written */
    assert_int_equal(astage_finish(a), ST_OK);  /* twice */
    astage_free(a);
    assert_int_equal(s.got.len, 3);
    dynbuf_free(&s.got);
}

/* The same, with the stages of this thread inline (--rows' workers). */
static int go_inline(void **st)
{
    (void)st;
    astage_inline_here(1);
    return 0;
}

static int go_threaded(void **st)
{
    (void)st;
    astage_inline_here(0);
    return 0;
}

static pthread_t sink_thread;

static enum st_err thread_sink(void *ctx, const void *p, size_t n)
{
    sink_thread = pthread_self();
    return sink(ctx, p, n);
}

/* Inline: the next stage runs on the writer's thread, in buffers of
 * ASTAGE_INLINE_BUF, nothing handed on before one is full or drained. */
static void inline_gathers(void **st)
{
    (void)st;
    struct sinkstate s = {0};
    dynbuf_init(&s.got, 1u << 30);
    astage_inline_here(1);
    struct astage *a = astage_new(thread_sink, &s);
    astage_inline_here(0);
    char *chunk = calloc(1, ASTAGE_INLINE_BUF);
    assert_int_equal(astage_write(a, chunk, 100), ST_OK);
    assert_int_equal(s.calls, 0);
    assert_int_equal(astage_write(a, chunk, ASTAGE_INLINE_BUF), ST_OK);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.got.len, ASTAGE_INLINE_BUF);
    assert_true(pthread_equal(sink_thread, pthread_self()));
    assert_int_equal(astage_drain(a), ST_OK);
    assert_int_equal(s.got.len, ASTAGE_INLINE_BUF + 100);
    astage_free(a);
    free(chunk);
    dynbuf_free(&s.got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(in_order),
        cmocka_unit_test(error_comes_back),
        cmocka_unit_test(free_without_finish),
        cmocka_unit_test_setup_teardown(in_order, go_inline, go_threaded),
        cmocka_unit_test_setup_teardown(error_comes_back, go_inline, go_threaded),
        cmocka_unit_test_setup_teardown(free_without_finish, go_inline, go_threaded),
        cmocka_unit_test(inline_gathers),
        cmocka_unit_test(sized_in_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
