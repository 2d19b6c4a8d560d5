/* Unit tests for the atomic output file (lib/outfile.c): the target
 * appears only on commit, with every byte in order; keep rewrites the tail
 * after writes of any size; a failed write (here: the file size limit)
 * is sticky, names the system's reason, and leaves no file behind. */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/outfile.h"

static char dir[] = "/tmp/outfile-test.XXXXXX";

static unsigned char *pattern(size_t n)
{
    unsigned char *p = malloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 2654435761u >> 11);
    return p;
}

static void commit_in_order(void **st)
{
    (void)st;
    char path[128];
    snprintf(path, sizeof(path), "%s/a.out", dir);
    size_t total = (5u << 20) + 77;
    unsigned char *src = pattern(total);
    static const size_t sizes[] = {1, 4093, 1u << 20, 3u << 20};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
        unlink(path);
        struct outfile *o;
        assert_int_equal(outfile_open(path, &o), ST_OK);
        size_t limit = sizes[k] == 1 ? 100000 : total;
        for (size_t off = 0; off < limit; off += sizes[k])
            assert_int_equal(outfile_write(o, src + off, limit - off < sizes[k] ? limit - off
                                                                               : sizes[k]),
                             ST_OK);
        assert_int_equal(outfile_tell(o), limit);
        assert_int_equal(access(path, F_OK), -1);       /* not before commit */
        assert_int_equal(outfile_commit(o), ST_OK);
        outfile_free(o);
        size_t n;
        unsigned char *got = (unsigned char *)tu_read(path, &n);
        assert_int_equal(n, limit);
        assert_memory_equal(got, src, n);
        free(got);
    }
    free(src);
}

static void keep_after_big_writes(void **st)
{
    (void)st;
    char path[128];
    snprintf(path, sizeof(path), "%s/k.out", dir);
    size_t total = (3u << 20) + 5;
    unsigned char *src = pattern(total);
    struct outfile *o;
    assert_int_equal(outfile_open(path, &o), ST_OK);
    assert_int_equal(outfile_write(o, src, total), ST_OK);
    uint64_t a = 1000, b = (2u << 20) + 3;             /* drop [a, b) */
    assert_int_equal(outfile_keep(o, a, b), ST_OK);
    assert_int_equal(outfile_tell(o), total - (b - a));
    assert_int_equal(outfile_write(o, "end", 3), ST_OK);
    assert_int_equal(outfile_commit(o), ST_OK);
    outfile_free(o);
    size_t n;
    unsigned char *got = (unsigned char *)tu_read(path, &n);
    assert_int_equal(n, total - (b - a) + 3);
    assert_memory_equal(got, src, a);
    assert_memory_equal(got + a, src + b, total - b);
    assert_memory_equal(got + n - 3, "end", 3);
    free(got);
    free(src);
}

static void write_error_is_sticky(void **st)
{
    (void)st;
    char path[128];
    snprintf(path, sizeof(path), "%s/big.out", dir);
    struct rlimit old, lim = {1u << 20, 1u << 20};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim.rlim_max = old.rlim_max;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    struct outfile *o;
    assert_int_equal(outfile_open(path, &o), ST_OK);
    char *tmp = strdup(outfile_tmppath(o));
    unsigned char *src = pattern(1u << 20);
    enum st_err e = ST_OK;
    for (int i = 0; i < 8 && !e; i++)
        e = outfile_write(o, src, 1u << 20);
    assert_int_equal(outfile_commit(o), ST_EIO);
    assert_string_equal(outfile_errtext(o), strerror(EFBIG));
    assert_int_equal(outfile_write(o, "x", 1), ST_EIO);  /* sticky */
    outfile_free(o);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, was);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(access(tmp, F_OK), -1);
    free(tmp);
    free(src);
}

static int setup(void **st)
{
    (void)st;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) != 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commit_in_order),
        cmocka_unit_test(keep_after_big_writes),
        cmocka_unit_test(write_error_is_sticky),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
