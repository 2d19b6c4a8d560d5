/*
 * Android method traces (Traceview / dmtrace ".trace" files): reading,
 * dmtracedump-compatible profiles, call graphs and Chrome trace-event JSON.
 *
 * Reads the classic layout (key text + binary data, versions 1-3: 9-, 10-
 * and 14-byte records, single or dual clock) and the ART streaming layout
 * (header version 0xF2/0xF3, inline thread/method packets, summary at the
 * end).  Input is streamed through a fixed-size buffer: memory is bounded
 * by the method/thread tables plus stack depth x threads, not by file size.
 * Spec: docs/method-traces.md (and the format notes it cites).
 *
 * Limits: the new ART "V2" binary format (versions 4/5/0xF4/0xF5) is
 * recognised and rejected; stacks deeper than MTRACE_MAX_DEPTH are an
 * error.  Nothing here prints: errors go to the caller's err buffer as one
 * line ("truncated data header at offset 581"), without the file name.
 */
#ifndef SYSTRACE_MTRACE_H
#define SYSTRACE_MTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/error.h"

#define MTRACE_MAX_DEPTH 100000u    /* frames per thread */

enum mtrace_fmt {
    MTRACE_FMT_TEXT,    /* dmtracedump's four text sections */
    MTRACE_FMT_TSV,     /* one table: method, parent and child rows */
};

/* Which time column a profile or call graph uses. */
enum mtrace_clock {
    MTRACE_CLOCK_DEFAULT,   /* the first column, as dmtracedump does:
                               thread-cpu for dual-clock files */
    MTRACE_CLOCK_CPU,       /* thread CPU time; error if the file has none */
    MTRACE_CLOCK_WALL,      /* wall time; error if the file has none */
};

/* Where the trace comes from: a path, or bytes in memory (tests, fuzzing;
 * fed in pieces of `chunk` bytes, 0 = all at once). */
struct mtrace_src {
    const char *path;
    const void *data;
    size_t len;
    size_t chunk;
};

/* What a read found besides the records; warnings worth telling the user. */
enum mtrace_warn {
    MTRACE_W_TRUNCATED = 1u << 0,   /* partial record / packet at the end */
    MTRACE_W_NO_SUMMARY = 1u << 1,  /* streaming file without its summary */
    MTRACE_W_OVERFLOW = 1u << 2,    /* data-file-overflow=true: tail dropped */
    MTRACE_W_FILL = 1u << 3,        /* stopped at Dalvik's unwritten 0xEE fill */
    MTRACE_W_TRAILING = 1u << 4,    /* bytes after the streaming summary */
    MTRACE_W_MISMATCH = 1u << 5,    /* exits that did not match the stack */
    MTRACE_W_UNKNOWN = 1u << 6,     /* records of methods not in the table */
    MTRACE_W_CLAMPED = 1u << 7,     /* atrace text: events before 0 put at 0 */
};

struct mtrace_info {
    int version;            /* 1, 2, 3; streaming: 0xF2, 0xF3 */
    int streaming;
    int dual_clock;
    const char *clock;      /* "dual", "thread-cpu", "wall" (static) */
    int64_t start_us;       /* header start time */
    uint64_t records;
    uint32_t threads;       /* threads with records */
    uint32_t methods;       /* entries in the method table */
    uint64_t orphan_exits;  /* exits with nothing on the stack */
    uint64_t unrolls;       /* action 2 */
    uint64_t mismatches;    /* exits whose method was not on top */
    uint64_t open_at_end;   /* frames still open when the data ended */
    uint64_t clamped;       /* atrace text: events placed at time 0 */
    uint32_t max_depth;
    int sampling;           /* heuristic: most records share timestamps */
    unsigned warnings;      /* enum mtrace_warn bits */
    uint64_t warn_offset;   /* byte offset for TRUNCATED / FILL / TRAILING */
};

/* One slice begin or end as the trace-event writer emits it (for
 * observers such as clock alignment): tid and ts exactly as written. */
struct mtrace_slice {
    char ph;                    /* 'B' or 'E' */
    int synthetic;              /* open at start / still open at the end */
    int64_t tid, ts;
    uint32_t depth;             /* 1 = outermost frame */
    const char *cls, *name;     /* the method ("" when unknown) */
};

/* Options of the timeline writers (trace-event JSON and atrace text).
 * Zero-initialised = defaults. */
struct mtrace_json_opts {
    int pid;                    /* 0: the key's pid=, else 1 */
    int64_t tid_base;           /* added to every thread id (own tracks) */
    int relative;               /* ts from 0 instead of header start */
    int64_t ts_shift_us;        /* added to every ts (clock alignment) */
    const char *process_name;   /* NULL: "<vm> method trace" (in a
                                   PROCESS DUMP: blanks become '-') */
    const char *thread_suffix;  /* appended to thread names, e.g. " (methods)" */
    unsigned max_depth;         /* 0: all; else skip deeper frames */
    int no_args;                /* omit class/signature args (smaller) */
    /* optional: called for every B and E written (not for frames left
     * out by max_depth) */
    void (*on_slice)(void *ctx, const struct mtrace_slice *s);
    void *slice_ctx;
};

/* Chunks of JSON text; return 0 to go on, non-zero to stop (-> ST_EIO). */
typedef int (*mtrace_write_fn)(void *ctx, const void *p, size_t n);

/* 1 if the first bytes look like a method trace ("*version" key start or
 * the "SLOW" magic with a known version), else 0.  Needs 4+ bytes. */
int mtrace_detect(const void *head, size_t n);

/* For bytes that are not a method trace: what they look like instead
 * ("a Perfetto trace", "a simpleperf recording", ...) or NULL. */
const char *mtrace_sniff_other(const void *head, size_t n);

/* Profile as dmtracedump prints it (text) or as TSV, written to out. */
enum st_err mtrace_profile_src(const struct mtrace_src *src, FILE *out,
                               enum mtrace_fmt fmt, enum mtrace_clock clock,
                               struct mtrace_info *info,
                               char *err, size_t errlen);
enum st_err mtrace_profile(const char *path, FILE *out, enum mtrace_fmt fmt,
                           char *err, size_t errlen);

/* dmtracedump -g's graph as DOT text: from (toplevel), non-recursive
 * child edges whose child's inclusive time is >= threshold_pct of its
 * parent's (dmtracedump's -t, default 20). */
enum st_err mtrace_callgraph_src(const struct mtrace_src *src, FILE *out,
                                 double threshold_pct, enum mtrace_clock clock,
                                 struct mtrace_info *info,
                                 char *err, size_t errlen);
enum st_err mtrace_callgraph(const char *path, FILE *out, double threshold_pct,
                             char *err, size_t errlen);

/* Chrome trace-event JSON ({"traceEvents":[M ..., B/E ...], ...}):
 * per-thread B/E slices, ts = wall clock (µs), tts = thread CPU time for
 * dual-clock files.  Reads the input twice (the first pass finds frames
 * that were already open when tracing began). */
enum st_err mtrace_to_trace_events_src(const struct mtrace_src *src,
                                       const struct mtrace_json_opts *opts,
                                       mtrace_write_fn write, void *ctx,
                                       struct mtrace_info *info,
                                       char *err, size_t errlen);
enum st_err mtrace_to_trace_events(const char *path,
                                   const struct mtrace_json_opts *opts,
                                   mtrace_write_fn write, void *ctx,
                                   char *err, size_t errlen);

/* The same timeline as atrace text (tracing_mark_write B|pid|name and
 * E|pid lines behind an ftrace header), which the classic viewer and
 * Perfetto both read from an HTML page; names are made safe for the line
 * format (docs/method-traces.md).  With part set, part(ctx, name) is
 * called before each piece: "androidProcessDump" (a `ps` listing naming
 * the process) and "systemTraceEvents" (the text); non-zero stops. */
enum st_err mtrace_to_atrace_src(const struct mtrace_src *src,
                                 const struct mtrace_json_opts *opts,
                                 int (*part)(void *ctx, const char *name),
                                 mtrace_write_fn write, void *ctx,
                                 struct mtrace_info *info,
                                 char *err, size_t errlen);

/* One line per warning bit set in info ("partial record at offset 123
 * ignored"), for the caller to print; returns the number of lines. */
int mtrace_warnings(const struct mtrace_info *info,
                    void (*line)(void *ctx, const char *msg), void *ctx);

#endif
