/*
 * Internals of the Perfetto trace reader shared by pftrace.c (framing,
 * packets, bundles, compact sched) and pfemit.c (sorted records to lines).
 * Not a public header.
 */
#ifndef SYSTRACE_PFTRACE_INT_H
#define SYSTRACE_PFTRACE_INT_H

#include <zlib.h>

#include "lib/dynbuf.h"
#include "pfclk.h"
#include "pfevent.h"
#include "pfksym.h"
#include "pfnames.h"
#include "pfsort.h"
#include "pftev.h"
#include "pftrace.h"
#include "lib/printf.h"

#define PF_CPUS 1024            /* CPU numbers accepted */
#define PF_INTERN_MAX 65536     /* compact sched intern table entries */
#define PF_LINE_MAX ((size_t)1 << 20)
#define PF_OUT_CHUNK ((size_t)256 << 10)
/* Records the sort hands on at a time (pfsort_set_eager), once half its
 * window is held: a flow the formatting thread keeps up with (the whole
 * half at once left it idle while the window filled again: 15% of a
 * conversion's time), and at a trace's end little is left to sort while
 * the user waits (a recording read as it is written).  Smaller steps
 * cost more merging than they save. */
#define PF_SORT_STEP ((size_t)16 << 10)

/* What the sort holds: a header, then the event's message or a comm.
 * PFR_TEV goes to the formatting thread unsorted: a struct pftev_pkt,
 * then a packet for the trace events (pftev.h). */
enum pf_kind { PFR_EVENT = 1, PFR_CSWITCH, PFR_CWAKING, PFR_TREE, PFR_TEV };
struct pfrec {
    uint8_t kind;
    uint32_t cpu;
    uint32_t id;        /* PFR_EVENT: the FtraceEvent field number */
    uint32_t pid;       /* event: common pid; switch: next_pid; waking: pid */
    int32_t prio;       /* switch: next_prio; waking: prio */
    uint32_t aux;       /* waking: target_cpu; event: its kernel symbols' scope */
    int64_t state;      /* switch: prev_state */
};

/* The task running on a CPU, as the last switch there left it. */
struct pf_cpu {
    int known;
    uint32_t pid;
    int32_t prio;
};

/* "NAME-TID (TGID) [": a thread's part of a line's prefix, kept while
 * the names stay as they were (pfnames_gen): the names' lookups, the
 * name's length and its copy were a tenth of the formatting thread. */
#define PF_HEADS 256
#define PF_HEAD_MAX 72      /* 31 + '-' + 10 + " (" + 10 + ") [" */
struct pf_head {
    uint64_t gen, scan_gen;
    uint32_t tid;
    uint32_t len;           /* 0: nothing kept */
    char s[PF_HEAD_MAX];
};

/* Framing of the file's top level (field 1: a packet). */
enum pf_fstate { PF_TAG, PF_LEN, PF_BODY, PF_SKIP, PF_SKIPVAR };

struct pftrace {
    int scanning;               /* pass 1: names only */
    int scanned;
    /* framing */
    enum pf_fstate fs;
    uint8_t vbuf[10];
    size_t vlen;
    uint32_t field;
    uint64_t want;              /* bytes of the body or of what is skipped */
    struct dynbuf pkt;
    uint64_t offset;            /* file bytes consumed */
    uint64_t pkt_start;         /* offset of the current packet's tag */
    enum st_err err;            /* sticky: once the framing failed, every feed says so */
    /* inflating compressed_packets */
    z_stream z;
    int z_init;
    struct dynbuf infl;
    /* compact sched */
    const uint8_t **istr;
    size_t *ilen;
    size_t icap;
    /* state */
    struct pfnames *scan_names; /* pass 1's, for the dump */
    struct pfnames *names;      /* pass 2's, as Perfetto's thread table evolves */
    struct pf_cpu *cpu;
    struct pf_head head[PF_HEADS];  /* by tid, on the formatting thread */
    struct pfevent_ctx ev;
    struct pfksym *ksym;        /* interned kernel symbols */
    uint32_t ksym_scope;        /* the current packet's (pfksym_scope) */
    int have_uname;
    struct pfclk clk;           /* pass 2: the trace's clocks, for ftrace times */
    struct pfsort *sort;
    struct dynbuf out;          /* lines, each built in place at its end */
    size_t line_at;             /* where the line being built begins */
    st_write_fn write;
    void *wctx;
    uint64_t kinds[8];          /* packets of other data sources, for a message */
    struct pftev *tev;          /* their trace events, when asked for */
    uint64_t bundles;
    struct pftrace_stats st;
    char detail[320];
    /* the formatting thread (pfstage.c) and its own error text */
    struct astage *estage;
    struct dynbuf erec;         /* a record cut by a stage buffer's end */
    int estage_failed;
    char edetail[320];
};

/* pfemit.c: the reader's error text, set once (pf_efail: the formatting
 * thread's); one sorted record to a line (or a state change). */
enum st_err pf_fail(struct pftrace *t, enum st_err e, const char *fmt, ...)
    ST_PRINTF(3, 4);
enum st_err pf_efail(struct pftrace *t, enum st_err e, const char *fmt, ...)
    ST_PRINTF(3, 4);
enum st_err pf_emit(void *ctx, int64_t ts, const uint8_t *p, size_t n);
/* Pass 1: task_newtask / task_rename of a bundle name threads and processes. */
enum st_err pf_scan_bundle(struct pftrace *t, const uint8_t *p, size_t n);
enum st_err pf_flush_out(struct pftrace *t);
void pf_uname(struct pftrace *t, const uint8_t *p, size_t n);

/* pfstage.c: records to pf_emit on a thread of their own.  push is the
 * sort's emit function; drain before changing what pf_emit reads. */
struct astage;
enum st_err pfstage_push(void *ctx, int64_t ts, const uint8_t *p, size_t n);
/* A packet for the trace events, converted on that thread too. */
enum st_err pfstage_push_tev(struct pftrace *t, const struct pftev_pkt *k, const uint8_t *p,
                             size_t n);
enum st_err pfstage_drain(struct pftrace *t);
enum st_err pfstage_finish(struct pftrace *t);
void pfstage_free(struct pftrace *t);

#endif
