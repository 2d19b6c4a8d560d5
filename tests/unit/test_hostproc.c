/* Unit tests for the host process dump (agents/linux/hostproc.c) on a fake /proc
 * tree: the toybox columns split the way the classic viewer and Perfetto
 * split them, kernel threads, odd names, vanished processes, numeric
 * order, and the task listing for the TGID map. */
#include "testutil.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents/linux/hostproc.h"
#include "formats/atrace/repair.h"

static char root[] = "/tmp/hostproc-test.XXXXXX";

static void put(const char *rel, const char *text, size_t n)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fwrite(text, 1, n, f);
    fclose(f);
}

static void dir(const char *rel)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    assert_int_equal(mkdir(p, 0755), 0);
}

#define PUTS(rel, s) put(rel, s, sizeof(s) - 1)

static int setup(void **st)
{
    (void)st;
    assert_non_null(mkdtemp(root));
    dir("1");
    dir("1/task");
    dir("1/task/1");
    dir("1/task/7");
    PUTS("1/stat", "1 (in it) S 0 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 2 0 100 10485760 256 0\n");
    PUTS("1/cmdline", "/sbin/init\0splash\0");
    PUTS("1/wchan", "do_epoll_wait");
    PUTS("1/task/1/comm", "init\n");
    PUTS("1/task/7/comm", "worker thread\n");
    char p[256];
    snprintf(p, sizeof(p), "%s/1/exe", root);
    assert_int_equal(symlink("/sbin/init", p), 0);
    dir("2");
    dir("2/task");
    dir("2/task/2");
    PUTS("2/stat", "2 (kthreadd) I 0 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0 0\n");
    PUTS("2/cmdline", "");
    PUTS("2/wchan", "0");
    PUTS("2/task/2/comm", "kthreadd\n");
    dir("10");
    dir("10/task");
    dir("10/task/10");
    /* a name with ") " and an argv[0] holding a space */
    PUTS("10/stat", "10 (a) b (c) R 1 10 10 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9 2048 1 0\n");
    PUTS("10/cmdline", "sshd: root@pts/0\0");
    PUTS("10/task/10/comm", "a) b (c\n");
    dir("11");          /* a zombie: no cmdline, a blank in its name */
    PUTS("11/stat", "11 (my proc) Z 1 11 11 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9 0 0 0\n");
    dir("3");           /* exited between readdir and open: no files */
    dir("self");
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    return system(cmd) != 0;
}

/* A line split on runs of spaces (in place), as both viewers do. */
static size_t split(char *line, char **tok, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (*p && n < max) {
        while (*p == ' ')
            *p++ = '\0';
        if (!*p)
            break;
        tok[n++] = p;
        while (*p && *p != ' ')
            p++;
    }
    return n;
}

static char *line_at(const char *text, size_t idx)
{
    const char *p = text;
    for (size_t i = 0; i < idx && p; i++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    assert_non_null(p);
    size_t l = strcspn(p, "\n");
    char *s = malloc(l + 1);
    memcpy(s, p, l);
    s[l] = '\0';
    return s;
}

static void tables(void **st)
{
    (void)st;
    struct dynbuf ps, tasks;
    dynbuf_init(&ps, 1u << 20);
    dynbuf_init(&tasks, 1u << 20);
    assert_int_equal(hostproc_snapshot(root, &ps, &tasks), ST_OK);
    const char *t = dynbuf_str(&ps);
    char *l = line_at(t, 0);
    assert_string_equal(l, "USER           PID  PPID     VSZ    RSS WCHAN            PC S "
                           "NAME                        COMM                       ");
    free(l);

    long page_kb = sysconf(_SC_PAGESIZE) / 1024;
    char rss[32];
    snprintf(rss, sizeof(rss), "%ld", 256 * page_kb);
    char *tok[16];
    l = line_at(t, 1);
    assert_int_equal(split(l, tok, 16), 10);
    assert_string_equal(tok[1], "1");
    assert_string_equal(tok[2], "0");
    assert_string_equal(tok[3], "10240");
    assert_string_equal(tok[4], rss);
    assert_string_equal(tok[5], "do_epoll_wait");
    assert_string_equal(tok[6], "0");
    assert_string_equal(tok[7], "S");
    assert_string_equal(tok[8], "init");
    assert_string_equal(tok[9], "/sbin/init");
    free(l);

    l = line_at(t, 2);
    assert_int_equal(split(l, tok, 16), 10);
    assert_string_equal(tok[1], "2");
    assert_string_equal(tok[7], "I");
    assert_string_equal(tok[8], "[kthreadd]");
    assert_string_equal(tok[9], "[kthreadd]");
    free(l);
    if (geteuid() == 0) {   /* toybox's padding, exactly */
        l = line_at(t, 2);
        assert_string_equal(l, "root             2     0       0      0 0                 0 I "
                               "[kthreadd]                  [kthreadd]");
        free(l);
    }

    l = line_at(t, 3);      /* pid 10 after 2: numeric order; one-token NAME */
    assert_int_equal(split(l, tok, 16), 12);   /* COMM "[a) b (c]" is the rest */
    assert_string_equal(tok[1], "10");
    assert_string_equal(tok[2], "1");
    assert_string_equal(tok[7], "R");
    assert_string_equal(tok[8], "sshd:");
    assert_string_equal(tok[9], "[a)");
    free(l);

    l = line_at(t, 4);
    assert_int_equal(split(l, tok, 16), 11);
    assert_string_equal(tok[1], "11");
    assert_string_equal(tok[8], "[my_proc]");
    free(l);

    l = line_at(t, 5);
    assert_int_equal(split(l, tok, 16), 4);
    assert_string_equal(tok[0], "USER");
    assert_string_equal(tok[3], "CMD");
    free(l);
    /* thread rows: pid, tid, name (names with spaces are the rest) */
    assert_non_null(strstr(t, "    1     7 worker thread\n"));
    assert_non_null(strstr(t, "   10    10 a) b (c\n"));
    assert_null(strstr(t, "  3 "));     /* the vanished process */

    struct tgid_map *m = tgid_map_new();
    assert_int_equal(tgid_map_parse(m, dynbuf_str(&tasks), tasks.len), ST_OK);
    assert_int_equal(tgid_map_size(m), 4);     /* the zombie has no task dir */
    assert_int_equal(tgid_map_get(m, 7), 1);
    assert_int_equal(tgid_map_get(m, 10), 10);
    tgid_map_free(m);
    dynbuf_free(&ps);
    dynbuf_free(&tasks);
}

static void real_proc(void **st)
{
    (void)st;
    struct dynbuf ps;
    dynbuf_init(&ps, 64u << 20);
    assert_int_equal(hostproc_snapshot(NULL, &ps, NULL), ST_OK);
    char pid[32];
    snprintf(pid, sizeof(pid), " %d ", (int)getpid());
    assert_non_null(strstr(dynbuf_str(&ps), pid));
    assert_non_null(strstr(dynbuf_str(&ps), "test_hostproc"));
    dynbuf_free(&ps);
}

static void missing_root(void **st)
{
    (void)st;
    struct dynbuf ps;
    dynbuf_init(&ps, 1024);
    assert_int_equal(hostproc_snapshot("/nonexistent/proc", &ps, NULL), ST_ENOENT);
    dynbuf_free(&ps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables),
        cmocka_unit_test(real_proc),
        cmocka_unit_test(missing_root),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
