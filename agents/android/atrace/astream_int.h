/*
 * Internals of the atrace agent's --stream way, shared by atrace_stream.c
 * (the way: the stream and its reader), atrace_dumps.c (the fallback:
 * periodic --async_dump, which the way starts and stops) and below both
 * atrace_spool.c (the spool file beside the output, its conversion into
 * the page, and the pieces both readers use).
 *
 * Threads: the capture's own thread (start, stop, collect, cleanup) and
 * one reader.  While the reader runs, every use of the device takes
 * `lock` (capture.dev_lock points at it; devcmd.h takes it too).  The
 * reader owns the fields marked (R) until `ended` is set; the controlling
 * thread reads them only after joining it.
 */
#ifndef SYSTRACE_ASTREAM_INT_H
#define SYSTRACE_ASTREAM_INT_H

#include <stdatomic.h>

#include "atrace_int.h"
#include "formats/atrace/streamtext.h"
#include "lib/fairlock.h"

/* How long the reader holds the device for one read. */
#define ASTREAM_SLICE_MS 50

struct astream {
    struct atrace *a;
    struct capture *c;
    struct fairlock lock;
    int fallback;               /* periodic --async_dump instead of --stream */
    pthread_t th;
    int th_started;
    int wake[2];                /* written to end the reader's read or wait */
    atomic_int stop;            /* a stop was asked: an end is no surprise */
    int halted;                 /* atrace was asked to stop (astream_halt) */
    atomic_int abort;           /* end now, whatever is under way */
    atomic_int ended;           /* the reader is done */
    /* the stream command */
    struct adb_cmd *cmd;
    struct stext_head head;
    long pid;                   /* atrace's pid; -1: unknown */
    int streaming;              /* the first trace line arrived */
    struct dynbuf probe;        /* stdout before it (an error text, or noise) */
    struct dynbuf errtext;      /* atrace's stderr, bounded (R) */
    /* the spool */
    struct outfile *spool;
    struct slines *lines;       /* counts events and LOST lines on the way */
    int kept;                   /* committed under a free name */
    uint64_t cut_lines;         /* over-long lines its conversion cut */
    uint64_t bytes;             /* trace text received (R) */
    double t_ui;                /* last progress report (R) */
    /* how the reader ended (R) */
    enum st_err err;
    int early;                  /* it ended before a stop was asked */
    int exit_code;
    char why[512];
    /* fallback */
    struct djoin *join;
};

/* atrace_spool.c: the spool, and what the stream and the periodic dumps
 * share (the failure message, the abandon test, the reader thread) */
enum st_err spool_open(struct astream *s, int header);
/* Trace text for the spool: counted, progress reported (any thread). */
enum st_err spool_add(struct astream *s, const void *p, size_t n);
enum st_err spool_write(void *s, const void *p, size_t n);  /* st_write_fn */
/* The text is complete (a last line start held by the counter goes in). */
enum st_err spool_end(struct astream *s);
uint64_t spool_events(const struct astream *s);
/* Commit it under the first free name (once); that name, or NULL. */
const char *spool_keep(struct astream *s);
/* The spool into the result's systemTraceEvents part: TGID repair from m,
 * flags normalisation (when the kernel's need it), header. */
enum st_err spool_convert(struct astream *s, struct tracewriter *w, const struct tgid_map *m);
/* c->err = what, and where the bytes received are kept. */
enum st_err astream_failed(struct astream *s, enum st_err e, const char *what);
/* SIGTERM, a second Ctrl-C or the deadline. */
int astream_abandoned(void);
/* Start the reader thread on fn with signals blocked. */
enum st_err astream_thread(struct astream *s, void *(*fn)(void *));

/* atrace_dumps.c; adumps_halt: no dump after the one under way (joined),
 * so that the clock-sync marker written next stays for the last dump */
enum st_err adumps_start(struct astream *s, const char *why);
void adumps_halt(struct astream *s);
enum st_err adumps_stop(struct astream *s);

#endif
