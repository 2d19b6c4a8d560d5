/*
 * What to put back into the kernel after host tracing: a list of
 * (tracefs file, value) pairs recorded just before each change and written
 * back in reverse order.  Restoring uses only open/write/close on strings
 * prepared in advance, so it may also run from a signal handler.
 *
 * kstate_value() is the pure part: it turns what a tracefs file read
 * before the change into what must be written to restore it, e.g.
 * "7 (expanded: 1408)" -> "1408" (see docs/linux.md for why the expanded
 * size), "[local] global" -> "local", "#### all functions enabled ####"
 * -> "" (an empty filter), "0*" -> "0".  Limits: function filters with
 * probes attached (`func:traceon`) cannot be written back as read.
 */
#ifndef SYSTRACE_FTRACE_KSTATE_H
#define SYSTRACE_FTRACE_KSTATE_H

#include <stddef.h>

#include "lib/dynbuf.h"
#include "lib/error.h"

enum kval_kind {
    KV_PLAIN,       /* tracing_on, current_tracer, options/x: the text as read */
    KV_BUFSIZE,     /* buffer_size_kb */
    KV_CHOICE,      /* trace_clock: the [selected] item */
    KV_FILTER,      /* set_ftrace_filter & co: lines, comments dropped */
    KV_ENABLE,      /* events/../enable: 0/1, soft-mode '*' dropped */
};

/* Which kind a tracefs file (path relative to the tracefs directory) is. */
enum kval_kind kstate_kind(const char *file);

/* The value that restores a file whose text was `text` (n bytes). */
enum st_err kstate_value(enum kval_kind k, const char *text, size_t n, struct dynbuf *out);

struct kstate_item {
    char *path;         /* absolute */
    char *value;
    size_t len;
    int done;
};

struct kstate {
    struct kstate_item *items;
    size_t n, cap;
};

void kstate_init(struct kstate *k);
void kstate_free(struct kstate *k);

/* Remember that `path` must get `value` back; a path already recorded
 * keeps its first (original) value. */
enum st_err kstate_add(struct kstate *k, const char *path, const char *value, size_t len);
int kstate_has(const struct kstate *k, const char *path);

/* Write every value not yet restored, newest first.  Returns how many
 * writes failed; the first failure's path is put into fail_path (may be
 * NULL).  Async-signal-safe when fail_path is NULL. */
int kstate_restore(struct kstate *k, char *fail_path, size_t fail_len);

/* Write a value the way `echo -n value > path` does (O_TRUNC). 0 or errno. */
int kstate_write_file(const char *path, const char *value, size_t len);

#endif
