/*
 * `systrace --rows=FILE --from-file=A [B ...]`: many traces (files, or
 * directories of them) converted to their summaries' metrics, one row
 * per metric per trace (rows.h), by -J workers at once (threads; each
 * holds one conversion, in a conversion's bounded memory, its stages
 * inline: lib/astage.h).  The rows are
 * written in the inputs' order whatever the number of workers, so -J 1
 * and -J 8 give the same file; a worker may run at most WINDOW inputs
 * ahead of the writer, which bounds the rows waiting in memory.  A trace
 * that cannot be read is an error row and one line on stderr, never an
 * aborted batch; the exit status counts them (100 + N, at most 200).
 * FILE appears only when complete (lib/outfile.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "lib/astage.h"
#include "lib/dynbuf.h"
#include "lib/outfile.h"
#include "lib/plat.h"
#include "lib/signals.h"
#include "rows.h"
#include "trsum.h"

#define ROWS_JOBS_MAX 64
#define ROWS_TRACE_MAX ((size_t)16 << 20)    /* one trace's rows */
#define SUMMARY_MAX ((size_t)64 << 20)
#define DIR_ENTRIES_MAX 1000000
#define WINDOW_PER_JOB 64     /* traces' rows waiting: some 64 x 5 KB a worker */

struct slot {
    struct dynbuf rows;
    char err[600], warn[600];
    int done, failed;
};

struct batch {
    char **paths;
    size_t n, cap;
    enum rows_format fmt;
    struct slot *slots;
    size_t next, written, window;
    pthread_mutex_t lock;
    pthread_cond_t cond;
};

/* ---- the inputs ---- */

static int add_path(struct batch *b, const char *p)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        char **v = realloc(b->paths, cap * sizeof(*v));
        if (!v)
            return -1;
        b->paths = v;
        b->cap = cap;
    }
    if (!(b->paths[b->n] = strdup(p)))
        return -1;
    b->n++;
    return 0;
}

static int by_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A directory's regular files that do not start with '.', in name order
 * (as compare reads one). */
static int add_dir(struct batch *b, const char *dir)
{
    struct plat_dir *d = plat_opendir(dir);
    if (!d) {
        fprintf(stderr, "systrace: --rows: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    size_t first = b->n, seen = 0;
    const char *e;
    int rc = 0;
    while (!rc && (e = plat_readdir(d)) && seen++ < DIR_ENTRIES_MAX) {
        char path[PATH_MAX];
        struct plat_stat st;
        if (e[0] == '.' || (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e) >= sizeof(path) ||
            plat_stat(path, &st) || st.kind != PLAT_FILE)
            continue;
        rc = add_path(b, path);
    }
    plat_closedir(d);
    if (rc)
        fprintf(stderr, "systrace: --rows: %s: out of memory\n", dir);
    else if (b->n > first)
        qsort(b->paths + first, b->n - first, sizeof(*b->paths), by_str);
    return rc;
}

/* A missing file stays in the list: its row says so. */
static int add_input(struct batch *b, const char *p)
{
    struct plat_stat st;
    if (!plat_stat(p, &st) && st.kind == PLAT_DIR)
        return add_dir(b, p);
    if (add_path(b, p)) {
        fprintf(stderr, "systrace: --rows: out of memory\n");
        return -1;
    }
    return 0;
}

/* ---- one trace ---- */

static int ends_row(const struct dynbuf *o)
{
    return o->len && o->data[o->len - 1] == '\n';
}

static void convert_one(const struct batch *b, const char *path, struct slot *s)
{
    struct trsum_info info;
    struct dynbuf json;
    char err[300];
    dynbuf_init(&json, SUMMARY_MAX);
    struct rows_meta meta = {path, NULL, NULL, NULL, NULL, NULL};
    if (trsum_convert(path, &json, &info)) {
        snprintf(s->err, sizeof(s->err), "%s", info.err);
    } else {
        meta.model = info.model;
        meta.release = info.release;
        snprintf(s->warn, sizeof(s->warn), "%s", info.warn);
        if (rows_of_json(b->fmt, &meta, json.data, json.len, &s->rows, err, sizeof(err)))
            snprintf(s->err, sizeof(s->err), "%s: its summary: %s", path, err);
        else if (s->rows.len && !ends_row(&s->rows))
            snprintf(s->err, sizeof(s->err), "%s: more rows than %zu MB", path,
                     ROWS_TRACE_MAX >> 20);
    }
    dynbuf_free(&json);
    if (s->err[0]) {
        s->failed = 1;
        dynbuf_reset(&s->rows);
        rows_error(b->fmt, &meta, s->err, &s->rows);
    }
}

static void *worker(void *arg)
{
    struct batch *b = arg;
    /* the workers are the parallelism: a conversion's stages stay on its
     * worker (no thread each, 64 KB instead of 4 MB of buffers a stage) */
    astage_inline_here(1);
    pthread_mutex_lock(&b->lock);
    for (;;) {
        while (b->next < b->n && b->next >= b->written + b->window)
            pthread_cond_wait(&b->cond, &b->lock);
        if (b->next >= b->n)
            break;
        size_t i = b->next++;
        pthread_mutex_unlock(&b->lock);
        struct slot s;
        memset(&s, 0, sizeof(s));
        dynbuf_init(&s.rows, ROWS_TRACE_MAX);
        convert_one(b, b->paths[i], &s);
        s.done = 1;
        pthread_mutex_lock(&b->lock);
        b->slots[i % b->window] = s;
        /* a wake-up only for the trace the writer waits for: on a busy
         * machine each one costs a wait for a core */
        if (i == b->written)
            pthread_cond_broadcast(&b->cond);
    }
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* ---- the writer ---- */

static void progress(size_t done, size_t n, size_t failed, int last)
{
    fprintf(stderr, "\rsystrace: --rows: %zu/%zu traces, %zu failed%s", done, n, failed,
            last ? "\n" : "");
    fflush(stderr);
}

/* Writes each trace's rows in order as they come; how many failed. */
static size_t write_all(struct batch *b, struct outfile *out, int show_progress)
{
    size_t failed = 0;
    for (size_t i = 0; i < b->n; i++) {
        struct slot *s = &b->slots[i % b->window];
        pthread_mutex_lock(&b->lock);
        while (!s->done)
            pthread_cond_wait(&b->cond, &b->lock);
        struct slot got = *s;
        memset(s, 0, sizeof(*s));
        b->written++;
        if (b->next >= b->written - 1 + b->window)     /* a worker waits for room */
            pthread_cond_broadcast(&b->cond);
        pthread_mutex_unlock(&b->lock);
        if (got.warn[0] || got.err[0])
            fprintf(stderr, "%ssystrace: %s%s\n", show_progress ? "\r\033[K" : "",
                    got.err[0] ? "" : "warning: ", got.err[0] ? got.err : got.warn);
        failed += (size_t)got.failed;
        outfile_write(out, got.rows.data ? got.rows.data : "", got.rows.len);
        dynbuf_free(&got.rows);
        if (show_progress)
            progress(i + 1, b->n, failed, i + 1 == b->n);
    }
    return failed;
}

static int run_batch(struct batch *b, int jobs, const char *file, int show_progress)
{
    struct outfile *out = NULL;
    pthread_t th[ROWS_JOBS_MAX];
    int started = 0;
    if (outfile_open(file, &out)) {
        fprintf(stderr, "systrace: --rows %s: cannot write: %s\n", file,
                out ? outfile_errtext(out) : "out of memory");
        outfile_free(out);
        return EXIT_ERROR;
    }
    struct dynbuf head;
    dynbuf_init(&head, 4096);
    rows_header(b->fmt, &head);
    outfile_write(out, head.data ? head.data : "", head.len);
    dynbuf_free(&head);
    b->window = (size_t)jobs * WINDOW_PER_JOB;
    b->slots = calloc(b->window, sizeof(*b->slots));
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->cond, NULL);
    for (; b->slots && started < jobs; started++)
        if (plat_thread_start(&th[started], worker, b))
            break;
    size_t failed = 0;
    int rc = EXIT_ERROR;
    if (!started)
        fprintf(stderr, "systrace: --rows: cannot start a worker\n");
    else
        failed = write_all(b, out, show_progress);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (started && outfile_commit(out))
        fprintf(stderr, "systrace: --rows %s: cannot write: %s\n", file, outfile_errtext(out));
    else if (started)
        rc = !failed ? EXIT_OK : 100 + (int)(failed > 100 ? 100 : failed);
    if (started && failed)
        fprintf(stderr, "systrace: --rows: %zu of %zu traces could not be read (error rows "
                        "in %s)\n", failed, b->n, file);
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->lock);
    free(b->slots);
    outfile_free(out);
    return rc;
}

int cmd_rows(const struct st_options *o)
{
    struct batch b;
    memset(&b, 0, sizeof(b));
    if (rows_format_of(o->rows, &b.fmt)) {
        fprintf(stderr, "systrace: error: --rows %s: name a .jsonl (or .ndjson, .json) or "
                        ".csv file\n", o->rows);
        return EXIT_USAGE;
    }
    int rc = add_input(&b, o->from_file) ? EXIT_ERROR : EXIT_OK;
    for (size_t i = 0; !rc && i < o->nargs; i++)
        rc = add_input(&b, o->args[i]) ? EXIT_ERROR : EXIT_OK;
    if (!rc && !b.n) {
        fprintf(stderr, "systrace: --rows: no trace files in %s\n", o->from_file);
        rc = EXIT_ERROR;
    }
    int jobs = o->jobs > 0 ? o->jobs : plat_ncpus();
    if (jobs > ROWS_JOBS_MAX)
        jobs = ROWS_JOBS_MAX;
    if ((size_t)jobs > b.n && b.n)
        jobs = (int)b.n;
    plat_malloc_for_workers();
    /* Ctrl-C: the unfinished rows file and the conversions' temporary
     * outputs go */
    sig_install();
    sig_exit_first();
    if (!rc)
        rc = run_batch(&b, jobs, o->rows, !o->quiet && plat_isatty(2));
    sig_restore();
    for (size_t i = 0; i < b.n; i++)
        free(b.paths[i]);
    free(b.paths);
    return rc;
}
