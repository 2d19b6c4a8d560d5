/*
 * Kernel trace categories for --target=linux: catapult's linux target
 * (catapult-systrace.md §12: sched freq irq workq memreclaim idle
 * regulators disk) plus atrace's other kernel categories (binder_driver,
 * binder_lock, sync, i2c, mmc, membus, load, pagecache, memory, thermal),
 * each mapped to the ftrace events it enables.  Every event is checked
 * against the kernel's available_events: a category is available when its
 * required events exist and at least one of its events does.
 *
 * Beyond catapult: a "category" written SUBSYSTEM/EVENT (or SUBSYSTEM:EVENT,
 * or SUBSYSTEM/\* for a whole subsystem) names events directly.
 *
 * Pure: no I/O; the caller reads available_events.
 */
#ifndef SYSTRACE_FTRACE_CATS_H
#define SYSTRACE_FTRACE_CATS_H

#include <stddef.h>

#include "lib/dynbuf.h"
#include "lib/error.h"

/* The kernel's events, from available_events ("subsystem:event" lines). */
struct evset;
struct evset *evset_new(void);
void evset_free(struct evset *s);
enum st_err evset_parse(struct evset *s, const char *text, size_t n);
size_t evset_count(const struct evset *s);
/* "subsystem/event" */
int evset_has(const struct evset *s, const char *sub, const char *event);

/* A list of "subsystem/event" strings, no duplicates, in first-seen order. */
struct evlist {
    char **v;
    size_t n, cap;
};
void evlist_free(struct evlist *l);
int evlist_has(const struct evlist *l, const char *ev);

struct fcat {
    const char *name;
    const char *desc;
    /* "sub/event"; "sub/\*": every event of sub; a leading '+' marks a
     * required event */
    const char *const *events;
};

/* The table, NULL-name terminated. */
extern const struct fcat ftrace_categories[];

const struct fcat *fcat_find(const char *name);
int fcat_available(const struct fcat *c, const struct evset *s);

/* Events for the requested categories.  Unknown or unavailable names go
 * into `unavailable` (space separated); the rest are expanded. */
enum st_err fcat_resolve(const struct evset *s, char *const *cats, size_t n,
                         struct evlist *events, struct dynbuf *unavailable);

/* catapult's -l text: "tracing config:" then "NAME<pad 16> :  DESC" for
 * each available category, or its "No tracing categories available -
 * perhaps you need root?" line. */
enum st_err fcat_list(const struct evset *s, struct dynbuf *out);

#endif
