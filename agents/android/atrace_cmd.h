/*
 * Pure helpers of the atrace agent (no I/O, unit-tested): reading the
 * device's answers and building atrace's argument vector exactly as
 * catapult does (catapult-systrace.md §3.1): atrace [-z] [-t N] [-b N]
 * [-a APPS] [-k FUNCS] categories... MODE, where -b defaults to 8192 when
 * both webview and sched are kept, 4096 when sched is, else atrace's own.
 */
#ifndef SYSTRACE_ATRACE_CMD_H
#define SYSTRACE_ATRACE_CMD_H

#include <stddef.h>

#include "lib/dynbuf.h"
#include "lib/error.h"
#include "agents/capture.h"

/* The SDK level from `getprop ro.build.version.sdk` output: the last
 * whitespace-separated token as an integer.  -1 if there is none. */
int atrace_parse_sdk(const char *out, size_t n);

/* Category names from `atrace --list_categories` (the text before the
 * first '-' on each line, trimmed).  Below SDK 23 `rs` is dropped. */
struct atrace_cats {
    char **name;
    size_t n;
};
enum st_err atrace_cats_parse(const char *text, size_t n, int sdk, struct atrace_cats *c);
void atrace_cats_free(struct atrace_cats *c);
int atrace_cats_has(const struct atrace_cats *c, const char *name);

/* Categories that need root on a user build: the kernel ones atrace can
 * only enable with write access to tracefs event files. */
int atrace_root_only(const char *name);

/* The device's atrace says -z is an unknown option.  Phones print
 * bionic's getopt_long text, "atrace: unknown option -- z"; glibc's
 * "invalid option -- 'z'" and "unrecognized option" are matched too.
 * out/err: its stdout and stderr (merged into out on a legacy shell). */
int atrace_rejects_z(const char *out, const char *err);

/* atrace --async_start said it did not start (it may still exit 0: on
 * some failures, e.g. -k without root, it prints "unable to start
 * tracing" on stderr and returns 0). */
int atrace_start_failed(const char *out, const char *err);

struct atrace_plan {
    const char **argv;      /* "atrace", options, categories; NULL-terminated */
    size_t argc;
    size_t nkept;
    int buf_kb;             /* the -b given to atrace; 0: atrace's default */
    char tbuf[16], bbuf[16];
};

/* requested: the user's categories (or the default list when none).
 * Unavailable ones go to `unavailable` space-separated (catapult's
 * warning text) and are dropped.  compress: add -z. */
enum st_err atrace_plan_make(const struct capture_opts *o, const struct atrace_cats *avail,
                             int compress, struct atrace_plan *p,
                             struct dynbuf *unavailable);
/* A copy of the plan's argv with MODE appended ("--async_start" ...);
 * mode "-t 0" appends two words.  Free with free(). */
const char **atrace_plan_argv(const struct atrace_plan *p, const char *mode);
void atrace_plan_free(struct atrace_plan *p);

#endif
