/*
 * Internals of `--from-file`'s room (formats/input/): the conversion's
 * state, the readers' one interface, and what they write into.  From the
 * top down: fromfile.c (the router: reading, gunzip, sniffing, the end),
 * the readers (fromfile_html.c: text and pages; fromfile_json.c;
 * fromfile_pf.c: Perfetto), fromfile_parts.c (the ftrace chain and parts
 * copied as they are) and fromfile_read.c (the read loop).  Not a public
 * header: only this room's files include it.
 *
 * Every part goes out through the text guard (textguard.h): ftrace text
 * parts are watched for event lines, other line-based parts (process
 * dumps) only have their lines bounded, JSON parts go straight to the
 * writer and their trace events are counted by a JSON scanner instead.
 */
#ifndef SYSTRACE_FROMFILE_INT_H
#define SYSTRACE_FROMFILE_INT_H

#include <zlib.h>

#include "fromfile.h"
#include "formats/atrace/jsonscan.h"
#include "lib/dynbuf.h"
#include "formats/atrace/textguard.h"

struct decoder;
struct astage;
struct fnorm;
struct repair;
struct htmlx;
struct pftrace;

/* What the data of the current JSON root member is for. */
enum ff_member { M_NONE, M_TEXT, M_VERBATIM, M_RAW, M_SKIP };

/* A temporary file written through a buffer (fromfile_pfev.c). */
struct ff_spool {
    struct ff *f;
    int open, fd;
    char path[4096];
    struct dynbuf buf;
    uint64_t bytes;
};
#define FF_SPOOLS 3
#define FF_PF_FACTS 512

struct ff {
    struct tracewriter *w;
    struct ff_result *res;
    int no_cut;                 /* FF_NO_CUT */
    int text_only;              /* FF_TEXT_ONLY */
    struct text_sink ts;        /* the writer's current part */
    struct tguard *guard;       /* in front of ts */
    struct text_sink gts;       /* the guard, as a sink */
    struct dynbuf sniff;
    int decided;
    const struct ff_reader *reader;     /* chosen once decided */
    /* gunzip */
    z_stream gz;
    int gz_on, gz_init, gz_end;
    uint64_t gz_base;           /* input bytes of the gzip members before this one */
    unsigned char *gzbuf;
    /* atrace/text chain */
    struct decoder *dec;
    struct astage *as;      /* what follows the decoder, on its own thread */
    struct fnorm *norm;     /* 5-column flags of kernels >= 5.18, when present */
    struct repair *rep;
    int text_parts;         /* ftrace text parts begun */
    /* html */
    struct htmlx *hx;
    struct dynbuf bhead;
    int bdecided, bverbatim;
    /* verbatim parts */
    int vguard;             /* its lines go through the guard */
    struct jscan *vcount;   /* a trace-event part: its events are counted */
    /* json */
    struct jscan *js;
    int json_whole;         /* kept as one part (not member by member) */
    enum ff_member mkind;
    int raw_open;           /* a part of the root's non-string members */
    uint64_t json_events;
    /* perfetto (fromfile_pf.c) */
    const char *path;
    struct pftrace *pf;
    int pf_dump_after;          /* no second pass (no spool): the dump goes last */
    /* from a pipe: scanned as it arrives into a temporary file, converted
     * from there at the end, after the dump */
    int pf_spooling, pf_spool_fd;
    char pf_spool_path[4096];
    /* ... or, pushed with FF_PUSH_HOLE: scanned as it arrives, the dump
     * written at the end into room kept before the text */
    int pf_live, pf_begun, pf_has_hole, pf_scan_failed;
    struct pftrace *pf_scan;
    struct dynbuf pf_pending;   /* held back until the room is sized */
    struct tw_hole pf_hole;
    /* the text's way to the guard and the page (and the writer's tees:
     * the trace-event converter, the summary): a thread of its own; the
     * frames' facts for the tees wait for it (FF_PF_FACTS) */
    struct astage *pf_stage;
    struct tw_fact pf_facts[FF_PF_FACTS];
    size_t pf_nfacts;
    /* its other data as trace events, spooled (fromfile_pfev.c): the
     * events, the stack frames and the samples, a file each */
    struct ff_spool pfev[FF_SPOOLS];
};

/* FF_TEXT_ONLY's refusal of another kind (fromfile_parts.c). */
enum st_err ff_not_text(struct ff *f);
/* The ftrace chain: decoder -> thread -> flags -> repair -> guard -> part. */
enum st_err ff_chain_new(struct ff *f, int text);
/* Data for the chain; an error on its thread may come back here. */
enum st_err ff_chain_feed(struct ff *f, const void *p, size_t n);
/* Finish and free the chain, end the part (a truncated input too). */
enum st_err ff_chain_finish(struct ff *f);
void ff_chain_free(struct ff *f);

/* A part copied as it is (a process dump, a JSON part). */
enum st_err ff_verbatim_begin(struct ff *f, const char *name);
/* The same for a traceEvents part of our own JSON, its `events` counted
 * by its writer (not read again to count them). */
enum st_err ff_verbatim_begin_counted(struct ff *f, const char *name, uint64_t events);
enum st_err ff_verbatim_write(struct ff *f, const void *p, size_t n);
enum st_err ff_verbatim_end(struct ff *f);

/* A Perfetto trace's other data (fromfile_pfev.c): spooled from pf's
 * conversion, then written as a traceEvents part (none if empty). */
enum st_err ff_pfev_open(struct ff *f, struct pftrace *pf);
enum st_err ff_pfev_part(struct ff *f);
void ff_pfev_free(struct ff *f);

/* Reading (fromfile_read.c): path, or "-" for standard input; every chunk
 * goes to input().  A method trace is converted there instead (method is
 * set): its reader reads a file by path, twice, so one from a pipe is
 * first copied to an unlinked temporary file. */
struct ff_input {
    struct ff *f;
    enum st_err (*input)(struct ff *f, const unsigned char *p, size_t n);
    int method;
};
enum st_err ff_read(const char *path, struct ff_input *in);

/* A reader of one input form: begin with the sniffed start (also fed
 * again through feed, after begin), feed the rest as it comes, finish at
 * the end of the input; free whatever it holds (also after an error, and
 * when never begun: the state starts zeroed). */
struct ff_reader {
    enum st_err (*begin)(struct ff *f, const unsigned char *p, size_t n);
    enum st_err (*feed)(struct ff *f, const void *p, size_t n);
    enum st_err (*finish)(struct ff *f);
    void (*free)(struct ff *f);
};
extern const struct ff_reader ff_text_reader;   /* fromfile_html.c */
extern const struct ff_reader ff_html_reader;   /* fromfile_html.c */
extern const struct ff_reader ff_json_reader;   /* fromfile_json.c */
extern const struct ff_reader ff_pf_reader;     /* fromfile_pf.c */

#endif
