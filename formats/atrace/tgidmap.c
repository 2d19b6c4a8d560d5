/*
 * TID -> PID map for the TGID repair, built from the device's
 * `echo -n /proc/[0-9]*\/task/[0-9]*` output.  An item counts when it starts
 * with `/proc/DIGITS/task/DIGITS` (catapult's regex; the rest of the item
 * is ignored).  Open addressing, grows by doubling; a device has at most a
 * few tens of thousands of threads.
 */
#include "repair.h"

#include <stdlib.h>
#include <string.h>

struct tgid_map {
    uint32_t *tid;      /* 0 = empty slot (TID 0 is never mapped) */
    uint32_t *pid;
    size_t cap, n;
};

struct tgid_map *tgid_map_new(void)
{
    return calloc(1, sizeof(struct tgid_map));
}

void tgid_map_free(struct tgid_map *m)
{
    if (!m)
        return;
    free(m->tid);
    free(m->pid);
    free(m);
}

static size_t slot(uint32_t tid, size_t cap)
{
    return (size_t)(tid * 2654435761u) & (cap - 1);
}

static void put(struct tgid_map *m, uint32_t tid, uint32_t pid)
{
    size_t i = slot(tid, m->cap);
    while (m->tid[i] && m->tid[i] != tid)
        i = (i + 1) & (m->cap - 1);
    if (!m->tid[i])
        m->n++;
    m->tid[i] = tid;
    m->pid[i] = pid;
}

static enum st_err grow(struct tgid_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 1024;
    struct tgid_map old = *m;
    m->tid = calloc(cap, sizeof(uint32_t));
    m->pid = calloc(cap, sizeof(uint32_t));
    if (!m->tid || !m->pid) {
        free(m->tid);
        free(m->pid);
        *m = old;
        return ST_ENOMEM;
    }
    m->cap = cap;
    m->n = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.tid[i])
            put(m, old.tid[i], old.pid[i]);
    free(old.tid);
    free(old.pid);
    return ST_OK;
}

/* Digits at *p (bounded by end) as a value <= UINT32_MAX; advances *p. */
static int number(const char **p, const char *end, uint32_t *v)
{
    uint64_t x = 0;
    const char *s = *p;
    while (s < end && *s >= '0' && *s <= '9') {
        x = x * 10 + (uint64_t)(*s - '0');
        if (x > UINT32_MAX)
            return 0;
        s++;
    }
    if (s == *p)
        return 0;
    *p = s;
    *v = (uint32_t)x;
    return 1;
}

static int lit(const char **p, const char *end, const char *s)
{
    size_t l = strlen(s);
    if ((size_t)(end - *p) < l || memcmp(*p, s, l))
        return 0;
    *p += l;
    return 1;
}

enum st_err tgid_map_parse(struct tgid_map *m, const char *text, size_t n)
{
    const char *p = text, *end = text + n;
    /* catapult takes output line 0 and splits it on single spaces */
    const char *nl = memchr(p, '\n', n);
    if (nl)
        end = nl;
    while (p < end) {
        const char *sp = memchr(p, ' ', (size_t)(end - p));
        const char *item_end = sp ? sp : end;
        const char *q = p;
        uint32_t pid, tid;
        if (lit(&q, item_end, "/proc/") && number(&q, item_end, &pid) &&
            lit(&q, item_end, "/task/") && number(&q, item_end, &tid) && tid) {
            if ((m->n + 1) * 2 > m->cap && grow(m))
                return ST_ENOMEM;
            put(m, tid, pid);
        }
        p = item_end + 1;
    }
    return ST_OK;
}

size_t tgid_map_size(const struct tgid_map *m)
{
    return m->n;
}

uint32_t tgid_map_get(const struct tgid_map *m, uint32_t tid)
{
    if (!m->cap || !tid)
        return 0;
    size_t i = slot(tid, m->cap);
    while (m->tid[i]) {
        if (m->tid[i] == tid)
            return m->pid[i];
        i = (i + 1) & (m->cap - 1);
    }
    return 0;
}
