/* Unit tests for the atomic output file (lib/outfile.c): the target
 * appears only on commit, with every byte in order (big writes that skip
 * the writer thread too); keep rewrites the tail
 * after writes of any size; a failed write (here: the file size limit)
 * is sticky, names the system's reason, and leaves no file behind.  What
 * is there is never destroyed: a symlink stays a link (its target is
 * replaced), a FIFO or /dev/null is written in place, a replaced file
 * keeps its mode, NOREPLACE takes the next free name; flush makes what was
 * written readable from the temporary file; a directory or a
 * missing one fails at open with a message that says so. */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

static void expect_file(const char *path, const unsigned char *want, size_t len)
{
    size_t n;
    unsigned char *got = (unsigned char *)tu_read(path, &n);
    assert_int_equal(n, len);
    assert_memory_equal(got, want, n);
    free(got);
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
        expect_file(path, src, limit);
    }
    free(src);
}

/* Writes as big as a stage buffer go straight to the file: only after what
 * the stage holds, whatever came before. */
static void mixed_sizes_in_order(void **st)
{
    (void)st;
    char path[128];
    snprintf(path, sizeof(path), "%s/m.out", dir);
    static const size_t sizes[] = {100, 1u << 20, 7, (3u << 20) + 1, 65536, 3000, 2u << 20, 1};
    size_t total = 0;
    for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++)
        total += sizes[k];
    unsigned char *src = pattern(total);
    struct outfile *o;
    assert_int_equal(outfile_open(path, &o), ST_OK);
    for (size_t k = 0, off = 0; k < sizeof(sizes) / sizeof(*sizes); off += sizes[k++])
        assert_int_equal(outfile_write(o, src + off, sizes[k]), ST_OK);
    assert_int_equal(outfile_tell(o), total);
    assert_int_equal(outfile_commit(o), ST_OK);
    outfile_free(o);
    expect_file(path, src, total);
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


static void write_all(const char *path, const char *text, int flags, enum st_err want_commit)
{
    struct outfile *o;
    assert_int_equal(outfile_open_flags(path, flags, &o), ST_OK);
    assert_int_equal(outfile_write(o, text, strlen(text)), ST_OK);
    assert_int_equal(outfile_commit(o), want_commit);
    outfile_free(o);
}

static void symlink_is_followed(void **st)
{
    (void)st;
    char target[128], link1[128], dangling[128], dtarget[128];
    snprintf(target, sizeof(target), "%s/real.html", dir);
    snprintf(link1, sizeof(link1), "%s/link.html", dir);
    snprintf(dangling, sizeof(dangling), "%s/dangling.html", dir);
    snprintf(dtarget, sizeof(dtarget), "%s/made-by-link.html", dir);
    write_all(target, "old", 0, ST_OK);
    assert_int_equal(symlink("real.html", link1), 0);   /* relative, as users make them */
    write_all(link1, "new", 0, ST_OK);
    struct stat sb;
    assert_int_equal(lstat(link1, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    size_t n;
    char *got = tu_read(target, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(got, "new", 3);
    free(got);
    assert_int_equal(symlink(dtarget, dangling), 0);    /* target does not exist yet */
    write_all(dangling, "via dangling", 0, ST_OK);
    assert_int_equal(lstat(dangling, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    got = tu_read(dtarget, &n);
    assert_int_equal(n, 12);
    free(got);
}

static void modes(void **st)
{
    (void)st;
    char path[128];
    snprintf(path, sizeof(path), "%s/mode.html", dir);
    mode_t was = umask(022);
    write_all(path, "a", 0, ST_OK);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0644);         /* new: 0666 minus umask */
    assert_int_equal(chmod(path, 0600), 0);
    write_all(path, "b", 0, ST_OK);
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0600);         /* replaced: its own mode */
    umask(was);
}

static void *read_fifo(void *arg)
{
    size_t n;
    return tu_read(arg, &n);
}

static void non_regular_in_place(void **st)
{
    (void)st;
    write_all("/dev/null", "nothing", 0, ST_OK);
    struct stat sb;
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));                   /* still the device */
    char fifo[128];
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, read_fifo, fifo), 0);
    write_all(fifo, "through the fifo", 0, ST_OK);
    char *got;
    assert_int_equal(pthread_join(th, (void **)&got), 0);
    assert_non_null(got);
    assert_string_equal(got, "through the fifo");
    free(got);
    assert_int_equal(stat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
}

static void noreplace_takes_free_name(void **st)
{
    (void)st;
    char path[128], next[128];
    snprintf(path, sizeof(path), "%s/trace.atrace", dir);
    snprintf(next, sizeof(next), "%s/trace-1.atrace", dir);
    write_all(path, "first", OUTFILE_NOREPLACE, ST_OK);
    struct outfile *o;
    assert_int_equal(outfile_open_flags(path, OUTFILE_NOREPLACE, &o), ST_OK);
    assert_int_equal(outfile_write(o, "second", 6), ST_OK);
    assert_int_equal(outfile_commit(o), ST_OK);
    assert_string_equal(outfile_path(o), next);
    outfile_free(o);
    size_t n;
    char *got = tu_read(path, &n);
    assert_int_equal(n, 5);                             /* the first one is untouched */
    free(got);
}

/* A spool read back while it is still being written: flush puts every
 * byte written so far into the temporary file. */
static void flush_then_read_back(void **st)
{
    (void)st;
    char path[128];
    snprintf(path, sizeof(path), "%s/spool.atrace", dir);
    size_t total = 3u << 20;
    unsigned char *src = pattern(total);
    struct outfile *o;
    assert_int_equal(outfile_open_flags(path, OUTFILE_NOREPLACE, &o), ST_OK);
    for (size_t off = 0; off < total; off += 65536)
        assert_int_equal(outfile_write(o, src + off, 65536), ST_OK);
    assert_int_equal(outfile_flush(o), ST_OK);
    size_t n;
    unsigned char *got = (unsigned char *)tu_read(outfile_tmppath(o), &n);
    assert_int_equal(n, total);
    assert_memory_equal(got, src, n);
    free(got);
    outfile_free(o);                                    /* never committed: gone */
    assert_int_equal(access(path, F_OK), -1);
    free(src);
}

/* No path: nothing is created anywhere, yet tell and keep add up as
 * for a file (the repair's cut works on a writer read through tees). */
static void discard_counts_only(void **st)
{
    (void)st;
    setenv("TMPDIR", "/nonexistent-systrace-tmp", 1);
    struct outfile *o;
    assert_int_equal(outfile_open(NULL, &o), ST_OK);
    unsetenv("TMPDIR");
    assert_null(outfile_tmppath(o));
    assert_int_equal(outfile_write(o, "0123456789", 10), ST_OK);
    assert_int_equal(outfile_keep(o, 2, 6), ST_OK);     /* drops 4 */
    assert_int_equal(outfile_tell(o), 6);
    assert_int_equal(outfile_insert(o, 1, 5), ST_OK);
    assert_int_equal(outfile_pwrite(o, 0, "ab", 2), ST_OK);
    assert_int_equal(outfile_tell(o), 11);
    assert_int_equal(outfile_keep(o, 12, 0), ST_EINVAL);     /* past the end */
    assert_int_equal(outfile_commit(o), ST_EINVAL);
    outfile_free(o);
    assert_int_equal(outfile_open(NULL, &o), ST_OK);
    assert_int_equal(outfile_write(o, "x", 1), ST_OK);
    assert_int_equal(outfile_commit(o), ST_OK);
    assert_null(outfile_path(o));
    outfile_free(o);
}

static void bad_targets_fail_at_open(void **st)
{
    (void)st;
    char path[160], err[300];
    assert_int_equal(outfile_check(dir, 0, err, sizeof(err)), -1);
    assert_string_equal(err, "is a directory");
    snprintf(path, sizeof(path), "%s/newdir/", dir);
    assert_int_equal(outfile_check(path, 0, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "directory name"));
    snprintf(path, sizeof(path), "%s/missing/x.html", dir);
    assert_int_equal(outfile_check(path, 0, err, sizeof(err)), -1);
    char want[200];
    snprintf(want, sizeof(want), "directory '%s/missing' does not exist", dir);
    assert_string_equal(err, want);
    snprintf(path, sizeof(path), "%s/ok.html", dir);
    assert_int_equal(outfile_check(path, 0, err, sizeof(err)), 0);
    assert_int_equal(access(path, F_OK), -1);           /* a check leaves nothing */
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
        cmocka_unit_test(mixed_sizes_in_order),
        cmocka_unit_test(keep_after_big_writes),
        cmocka_unit_test(write_error_is_sticky),
        cmocka_unit_test(symlink_is_followed),
        cmocka_unit_test(modes),
        cmocka_unit_test(non_regular_in_place),
        cmocka_unit_test(noreplace_takes_free_name),
        cmocka_unit_test(bad_targets_fail_at_open),
        cmocka_unit_test(flush_then_read_back),
        cmocka_unit_test(discard_counts_only),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
