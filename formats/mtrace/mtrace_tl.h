/*
 * Internals of the method-trace timeline (docs/method-traces.md,
 * "Timeline"), shared by mtrace_json.c (the two passes over the input and
 * the trace-event JSON form) and mtrace_atext.c (the atrace text form the
 * HTML page carries).  The passes decide every slice begin and end; an
 * output form (struct mt_tl_ops) only writes them.
 */
#ifndef SYSTRACE_MTRACE_TL_H
#define SYSTRACE_MTRACE_TL_H

#include "mtrace_int.h"
#include "mtrace_jw.h"

/* How a frame ended (JSON: the flag in args; text: not shown). */
enum { MT_END_NORMAL, MT_END_EXCEPTION, MT_END_IMPLICIT, MT_END_SYNTHETIC };

struct mt_tl;

struct mt_tl_ops {
    /* pass 2 starts: the tables are known (pid, vm, thread names) */
    void (*header)(struct mt_tl *j);
    enum st_err (*begin)(struct mt_tl *j, const struct mt_thread *th,
                         const struct mt_frame *f, int synthetic);
    void (*end)(struct mt_tl *j, const struct mt_thread *th,
                const int64_t t[2], int how);
    void (*tail)(struct mt_tl *j);
    void (*free)(struct mt_tl *j);
};

struct mt_tl {
    const struct mt_tl_ops *ops;
    void *form;                     /* the output form's own state */
    struct mt_tables *tab;
    struct mt_threads th;
    struct mtrace_json_opts o;
    struct mtrace_info *info;
    struct mt_jw *w;
    int wcol, ccol;                 /* wall / cpu column, -1 if none */
    int64_t base;
    int64_t end_wall;               /* latest wall time in the file */
    long pid;
    char err[160];
};

/* The thread id written for a thread (tid_base + the key's full id). */
int64_t mt_tl_tid(const struct mt_tl *j, uint32_t id);
/* The timestamp (µs) written for a record's times. */
int64_t mt_tl_ts(const struct mt_tl *j, const int64_t t[2]);
/* The process name: opts, else "<vm> method trace". */
const char *mt_tl_process(const struct mt_tl *j, char *buf, size_t len);

/* Runs both passes with the given output form (state in j->form). */
enum st_err mt_tl_convert(const struct mt_tl_ops *ops, void *form,
                          const struct mtrace_src *src,
                          const struct mtrace_json_opts *opts,
                          mtrace_write_fn write, void *ctx,
                          struct mtrace_info *info, char *err, size_t errlen);

#endif
