/*
 * Internals of the trace-event converter (tevents.h), shared by its files:
 * tevents.c (parts, lines, writing, rewinds), tevents_events.c (what each
 * ftrace event becomes), tevents_meta.c (names, the process dump, the
 * closing metadata), tevents_map.c (a bounded hash map), tevents_json.c
 * (JSON text), tevents_line.c (parsers), tevents_file.c (file output).
 */
#ifndef SYSTRACE_TEVENTS_INT_H
#define SYSTRACE_TEVENTS_INT_H

#include "formats/atrace/psdump.h"
#include "lib/dynbuf.h"
#include "lib/outfile.h"
#include "tevents.h"
#include "lib/printf.h"

/* Open-addressing hash map from byte keys to pointers, at most max keys. */
struct tev_slot {
    uint64_t hash;
    char *key;              /* NULL: empty; tev_tomb: deleted */
    size_t klen;
    void *val;
};
struct tev_map {
    struct tev_slot *slots;
    size_t cap, used, count, max;
};
extern char tev_tomb[1];

void tmap_init(struct tev_map *m, size_t max);
void *tmap_get(const struct tev_map *m, const void *k, size_t kl);
/* Add a new key (not present).  ST_ETOOBIG at max keys. */
enum st_err tmap_put(struct tev_map *m, const void *k, size_t kl, void *v);
/* Remove a key; returns its value or NULL. */
void *tmap_take(struct tev_map *m, const void *k, size_t kl);
void tmap_each(const struct tev_map *m, void (*fn)(void *ctx, void *val), void *ctx);
/* The same with each key (aligned for any key type). */
void tmap_each_kv(const struct tev_map *m, void (*fn)(void *ctx, const void *key, void *val),
                  void *ctx);
/* Drop every key, freeing values with freeval (may be NULL). */
void tmap_clear(struct tev_map *m, void (*freeval)(void *));
void tmap_free(struct tev_map *m, void (*freeval)(void *));

/* JSON text: a quoted string (control characters escaped, invalid UTF-8
 * as U+FFFD) and a microsecond number from nanoseconds. */
enum st_err tj_str(struct dynbuf *b, const char *p, size_t n);
enum st_err tj_us(struct dynbuf *b, uint64_t ns);

struct tev_open {
    char *name;
    size_t name_len;
    uint64_t ts;
    int64_t pid;
};

struct tev_thread {
    uint32_t tid;
    int64_t tgid;           /* -1: unknown */
    char *name;             /* from ftrace task names */
    int has_events;
    struct tev_open *stack;
    uint32_t depth, cap, excess;
};

struct tev_proc {
    int64_t pid;
};

struct tev_pd {             /* what the process dump says about an id */
    int64_t tgid;           /* thread form: its process; -1 */
    char *pname;            /* long form NAME: a process name */
    char *tname;            /* thread form CMD: a thread name */
};

struct tev_async {
    uint64_t *ids;
    size_t n, cap;
};

struct tev_cpu {
    int running, used;
    uint32_t pid;
    char *comm;
    uint64_t start;
};

enum tev_mode { TEV_NONE, TEV_FTRACE, TEV_PSDUMP, TEV_JSON };

/* A traceEvents part being copied (tevents_pass.c). */
struct tev_pass {
    int depth, in_str, esc, keying, in_elem;
    int arr;                /* depth of the event array; 0 not yet, -1 done */
    char root;
    char key[16];
    size_t klen;
    int side;               /* in the root's stackFrames (1) or samples (2) */
    int side_body;          /* ... and this part wrote some of it */
    uint64_t run_left;      /* bytes left of a trusted run of events */
    uint64_t run_events;    /* ... and how many events it holds */
    int run_begun;
};
/* The parts' stackFrames members and samples elements, spooled for the
 * end of the JSON (tevents_pass.c). */
struct tev_side {
    int open, fd;
    char path[4096];
    uint64_t bytes;
};

#define TEV_THCACHE 256   /* a power of two */

struct tevents {
    struct text_sink out;
    struct outfile *own;    /* tevents_open_file: the file, freed with us */
    enum st_err err;
    char errtext[256];
    enum tev_mode mode;
    struct dynbuf line;     /* a line cut by a chunk end */
    int skipping;           /* in an over-long line */
    int started;            /* the JSON opening is written */
    uint64_t nev;           /* events written */
    /* where the current ftrace part began, for circular-buffer rewinds */
    uint64_t part_off, part_nev;
    struct tevents_stats part_st;
    int part_body;          /* a line other than a '#' comment was seen */
    struct tev_map threads, procs, pdump, async;
    /* the threads last looked up, by tid's low bits: a line looks its
     * task up three or four times (kept until the end, as in threads) */
    struct tev_thread *thcache[TEV_THCACHE];
    struct tev_cpu *cpus;
    size_t ncpus;
    int cpu_used;           /* the CPU pseudo process has events */
    size_t name_bytes;
    size_t open;            /* open slices of all threads (TEV_OPEN_MAX) */
    uint64_t next_id, last_ts;
    struct psdump ps;       /* the PROCESS DUMP part's form */
    struct dynbuf ev;       /* the event being composed */
    int ev_bad;             /* an append to ev failed: drop the event */
    struct tevents_stats st;
    struct tev_pass pass;
    struct tev_side side[2];
};

/* tevents_pass.c: a traceEvents part's events copied as they are. */
void tev_pass_begin(struct tevents *t);
enum st_err tev_pass_feed(struct tevents *t, const char *p, size_t n);
/* The next `bytes` fed are `events` whole events, "\n{...}" each behind
 * a ',' but the first (TW_FACT_EVENT_RUN): copied without being read.
 * Ignored unless the part is inside its event array between events. */
void tev_pass_run(struct tevents *t, uint64_t events, uint64_t bytes);
/* Before the end of the JSON: close the event array, write what the
 * parts had of stackFrames and samples (leaving the samples array open
 * for the caller's closing), if any. */
enum st_err tev_pass_sides(struct tevents *t);
void tev_pass_free(struct tevents *t);

/* tevents_emit.c */
enum st_err tev_fail(struct tevents *t, enum st_err e, const char *what);
/* Start an event object in t->ev: `{"name":NAME,"ph":"P"` (name may be
 * NULL for none); finish with tev_emit (closes the object and writes). */
void tev_start(struct tevents *t, const char *name, size_t nlen, char ph);
void tev_add(struct tevents *t, const char *s);
void tev_addf(struct tevents *t, const char *fmt, ...) ST_PRINTF(2, 3);
void tev_addstr(struct tevents *t, const char *p, size_t n);
void tev_int(struct tevents *t, int64_t n);
void tev_uint(struct tevents *t, uint64_t n);
void tev_hexid(struct tevents *t, uint64_t n);     /* "0x..." */
void tev_pidtid(struct tevents *t, int64_t pid, int64_t tid);
enum st_err tev_emit(struct tevents *t);
char *tev_strdup(struct tevents *t, const char *p, size_t n);
/* ,"key":MICROSECONDS */
void tev_ts(struct tevents *t, const char *key, uint64_t ns);
/* the output's opening, once; raw bytes behind it */
enum st_err tev_open_json(struct tevents *t);
enum st_err tev_out_write(struct tevents *t, const void *p, size_t n);

/* tevents_events.c */
enum st_err tev_ftrace_event(struct tevents *t, const struct tev_line *l);
/* Write the slice of what ran on CPU n until ts, if anything. */
enum st_err tev_cpu_close(struct tevents *t, uint32_t n, uint64_t ts);
void tev_proc_used(struct tevents *t, int64_t pid);
void tev_free_thread(void *v);
void tev_free_async(void *v);

/* tevents_meta.c */
void tev_psdump_line(struct tevents *t, const char *p, size_t n);
enum st_err tev_write_metadata(struct tevents *t);
void tev_free_pd(void *v);

#endif
