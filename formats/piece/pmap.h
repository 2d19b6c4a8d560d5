/*
 * The cutters' bounded memory: imap (int64 -> int64: a thread's process,
 * events per process), smap (bytes -> bytes: a counter's last value, an
 * async slice still open) and pstack (records stacked per int64 key: the
 * slices open on a thread).  Open addressing, each with a stated maximum
 * of entries: past it an insert fails (ST_ETOOBIG) and the caller goes
 * on without (it says so where it matters).
 */
#ifndef SYSTRACE_PMAP_H
#define SYSTRACE_PMAP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/dynbuf.h"
#include "lib/error.h"

struct imap {
    int64_t *keys, *vals;
    uint8_t *used;
    size_t cap, n, max;
};
void imap_init(struct imap *m, size_t max);
void imap_free(struct imap *m);
enum st_err imap_put(struct imap *m, int64_t key, int64_t val);
/* 1 and *val if there, else 0. */
int imap_get(const struct imap *m, int64_t key, int64_t *val);
/* Adds d (0 when new). */
enum st_err imap_add(struct imap *m, int64_t key, int64_t d);
/* Iteration: i from 0 while imap_next returns 1. */
int imap_next(const struct imap *m, size_t *i, int64_t *key, int64_t *val);

struct sentry;
struct smap {
    struct sentry **slot;       /* NULL: free; TOMB: deleted */
    size_t cap, n, used, max;
};
void smap_init(struct smap *m, size_t max);
void smap_free(struct smap *m);
enum st_err smap_put(struct smap *m, const void *k, size_t kn, const void *v, size_t vn);
/* The value (not NUL-terminated) or NULL. */
const char *smap_get(const struct smap *m, const void *k, size_t kn, size_t *vn);
void smap_del(struct smap *m, const void *k, size_t kn);
/* Iteration in slot order: i from 0. */
int smap_next(const struct smap *m, size_t *i, const char **k, size_t *kn, const char **v,
              size_t *vn);

#define PSTACK_BYTES_MAX (1u << 20)     /* records held per key */
struct pstack {
    struct imap idx;            /* key -> index into bufs */
    struct dynbuf *bufs;
    size_t n, cap;
};
void pstack_init(struct pstack *s, size_t max_keys);
void pstack_free(struct pstack *s);
enum st_err pstack_push(struct pstack *s, int64_t key, const void *p, size_t n);
/* The top record (valid until the next change of that key) or NULL. */
const char *pstack_top(const struct pstack *s, int64_t key, size_t *n);
void pstack_pop(struct pstack *s, int64_t key);
/* Iteration over keys with records: i from 0. */
int pstack_next(const struct pstack *s, size_t *i, int64_t *key);
/* The records of key bottom first: cursor *at from 0. */
const char *pstack_walk(const struct pstack *s, int64_t key, size_t *at, size_t *n);

#endif
