/*
 * Internals shared by the result writer's files: tracewriter.c (layout,
 * parts, splitting, tee) and tracewriter_esc.c (payload escaping).
 */
#ifndef SYSTRACE_TRACEWRITER_INT_H
#define SYSTRACE_TRACEWRITER_INT_H

#include "lib/dynbuf.h"
#include "tracewriter.h"

#define CARRY_MAX 8

enum hdr_state { HDR_LINE_START, HDR_IN_LINE, HDR_DONE };

/* A trace-event JSON part of a JSON result (tracewriter_esc.c) */
enum tw_raw { TW_RAW_NONE, TW_RAW_START, TW_RAW_MEMBERS, TW_RAW_ARRAY, TW_RAW_STRING };

struct tracewriter {
    enum tw_format fmt;
    struct outfile *o;
    int discard;        /* no file (tw_open of NULL): payloads unescaped, only counted */
    int parts, in_part, has_controller;
    uint64_t part_start;        /* output offset of the current payload */
    int ftrace;                 /* the current part is ftrace text */
    enum tw_raw raw;            /* the current part is trace-event JSON in -j */
    int raw_sep;                /* its separator is written */
    struct dynbuf raw_hold;     /* a '}' and blanks after it, held back */
    uint64_t part_bytes, max_part_bytes;
    unsigned char carry[CARRY_MAX];    /* undecided bytes at a chunk end */
    size_t carrylen;
    int last_nl;                /* the payload so far ends with a newline */
    struct tw_tee tee[TW_TEES_MAX];
    int ntee;
    struct tw_filter filter;    /* filter.write NULL: none */
    int filtering;              /* the current part goes through it */
    /* splitting of HTML ftrace parts */
    uint64_t split_at;          /* 0: never */
    int splittable;             /* the current part may be split */
    int pending_close;          /* an ftrace part's close is due */
    uint64_t block_bytes;       /* payload in the current block */
    int split_due;              /* split before the next payload byte */
    enum hdr_state hdr_state;
    int hdr_overflow;
    struct dynbuf hdr;          /* the part's leading '#' lines */
    struct dynbuf bounds;       /* uint64_t output offsets of split tags */
    size_t mark_len;            /* bytes of split tag + replayed header */
    int splits_done;            /* continuation blocks of finished parts */
    /* a part written into a hole: rendered here first (tw_hole_begin) */
    struct dynbuf *capture;
    enum st_err capture_err;    /* the first failed append to it */
    struct hole_saved {
        int pending_close, last_nl, ftrace;
        uint64_t part_start, part_bytes;
    } saved;
};

enum st_err tw_put(struct tracewriter *w, const void *p, size_t n);
/* Escape and write payload, first deciding bytes carried over from the
 * last chunk; final: no more bytes follow in this part. */
enum st_err tw_with_carry(struct tracewriter *w, const unsigned char *p, size_t n,
                          int final);
enum st_err tw_json_payload(struct tracewriter *w, const unsigned char *p, size_t n,
                            int final);
/* the -j part of trace-event JSON (tracewriter_esc.c): its bytes; its end */
enum st_err tw_raw_payload(struct tracewriter *w, const unsigned char *p, size_t n, int final);
enum st_err tw_raw_end(struct tracewriter *w);

#endif
