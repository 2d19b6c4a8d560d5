/* Bounded maps and stacks of the cutters; see pmap.h. */
#include "pmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

void imap_init(struct imap *m, size_t max)
{
    memset(m, 0, sizeof(*m));
    m->max = max;
}

void imap_free(struct imap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    size_t max = m->max;
    imap_init(m, max);
}

static size_t islot(const struct imap *m, int64_t key)
{
    size_t i = (size_t)(mix((uint64_t)key) & (m->cap - 1));
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static enum st_err igrow(struct imap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct imap g = {calloc(cap, sizeof(int64_t)), calloc(cap, sizeof(int64_t)),
                     calloc(cap, 1), cap, 0, m->max};
    if (!g.keys || !g.vals || !g.used) {
        imap_free(&g);
        return ST_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) {
            size_t j = islot(&g, m->keys[i]);
            g.used[j] = 1;
            g.keys[j] = m->keys[i];
            g.vals[j] = m->vals[i];
            g.n++;
        }
    imap_free(m);
    *m = g;
    return ST_OK;
}

enum st_err imap_put(struct imap *m, int64_t key, int64_t val)
{
    if (m->cap) {
        size_t i = islot(m, key);
        if (m->used[i]) {
            m->vals[i] = val;
            return ST_OK;
        }
    }
    if (m->n >= m->max)
        return ST_ETOOBIG;
    if (m->n * 2 >= m->cap) {
        enum st_err e = igrow(m);
        if (e)
            return e;
    }
    size_t i = islot(m, key);
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return ST_OK;
}

int imap_get(const struct imap *m, int64_t key, int64_t *val)
{
    if (!m->cap)
        return 0;
    size_t i = islot(m, key);
    if (!m->used[i])
        return 0;
    *val = m->vals[i];
    return 1;
}

enum st_err imap_add(struct imap *m, int64_t key, int64_t d)
{
    int64_t v = 0;
    imap_get(m, key, &v);
    return imap_put(m, key, v + d);
}

int imap_next(const struct imap *m, size_t *i, int64_t *key, int64_t *val)
{
    for (; *i < m->cap; (*i)++)
        if (m->used[*i]) {
            *key = m->keys[*i];
            *val = m->vals[*i];
            (*i)++;
            return 1;
        }
    return 0;
}

/* ---- smap ---------------------------------------------------------- */

struct sentry {
    uint64_t hash;
    size_t kn, vn;
    char data[];
};
static struct sentry tomb;
#define TOMB (&tomb)

static uint64_t shash(const void *k, size_t n)
{
    const unsigned char *p = k;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ULL;
    return mix(h);
}

void smap_init(struct smap *m, size_t max)
{
    memset(m, 0, sizeof(*m));
    m->max = max;
}

void smap_free(struct smap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i] && m->slot[i] != TOMB)
            free(m->slot[i]);
    free(m->slot);
    size_t max = m->max;
    smap_init(m, max);
}

/* The slot of k, or the first free/deleted one on its way. */
static size_t sfind(const struct smap *m, uint64_t h, const void *k, size_t kn, int *found)
{
    size_t i = (size_t)(h & (m->cap - 1)), free_at = (size_t)-1;
    *found = 0;
    for (;;) {
        struct sentry *s = m->slot[i];
        if (!s)
            return free_at != (size_t)-1 ? free_at : i;
        if (s == TOMB) {
            if (free_at == (size_t)-1)
                free_at = i;
        } else if (s->hash == h && s->kn == kn && !memcmp(s->data, k, kn)) {
            *found = 1;
            return i;
        }
        i = (i + 1) & (m->cap - 1);
    }
}

static enum st_err sgrow(struct smap *m)
{
    size_t cap = m->cap ? (m->n * 4 > m->cap ? m->cap * 2 : m->cap) : 64;
    struct sentry **slot = calloc(cap, sizeof(*slot));
    if (!slot)
        return ST_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        struct sentry *s = m->slot[i];
        if (!s || s == TOMB)
            continue;
        size_t j = (size_t)(s->hash & (cap - 1));
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = s;
    }
    free(m->slot);
    m->slot = slot;
    m->cap = cap;
    m->used = m->n;
    return ST_OK;
}

enum st_err smap_put(struct smap *m, const void *k, size_t kn, const void *v, size_t vn)
{
    uint64_t h = shash(k, kn);
    int found = 0;
    size_t i = 0;
    if (m->cap)
        i = sfind(m, h, k, kn, &found);
    if (!found) {
        if (m->n >= m->max)
            return ST_ETOOBIG;
        if ((m->used + 1) * 2 > m->cap) {
            enum st_err e = sgrow(m);
            if (e)
                return e;
        }
        i = sfind(m, h, k, kn, &found);
    }
    struct sentry *s = malloc(sizeof(*s) + kn + vn);
    if (!s)
        return ST_ENOMEM;
    s->hash = h;
    s->kn = kn;
    s->vn = vn;
    memcpy(s->data, k, kn);
    memcpy(s->data + kn, v, vn);
    if (found) {
        free(m->slot[i]);
    } else {
        if (!m->slot[i])
            m->used++;
        m->n++;
    }
    m->slot[i] = s;
    return ST_OK;
}

const char *smap_get(const struct smap *m, const void *k, size_t kn, size_t *vn)
{
    int found = 0;
    if (!m->cap)
        return NULL;
    size_t i = sfind(m, shash(k, kn), k, kn, &found);
    if (!found)
        return NULL;
    *vn = m->slot[i]->vn;
    return m->slot[i]->data + kn;
}

void smap_del(struct smap *m, const void *k, size_t kn)
{
    int found = 0;
    if (!m->cap)
        return;
    size_t i = sfind(m, shash(k, kn), k, kn, &found);
    if (!found)
        return;
    free(m->slot[i]);
    m->slot[i] = TOMB;
    m->n--;
}

int smap_next(const struct smap *m, size_t *i, const char **k, size_t *kn, const char **v,
              size_t *vn)
{
    for (; *i < m->cap; (*i)++) {
        struct sentry *s = m->slot[*i];
        if (!s || s == TOMB)
            continue;
        *k = s->data;
        *kn = s->kn;
        *v = s->data + s->kn;
        *vn = s->vn;
        (*i)++;
        return 1;
    }
    return 0;
}

/* ---- pstack: records, each followed by its length ------------------- */

void pstack_init(struct pstack *s, size_t max_keys)
{
    memset(s, 0, sizeof(*s));
    imap_init(&s->idx, max_keys);
}

void pstack_free(struct pstack *s)
{
    for (size_t i = 0; i < s->n; i++)
        dynbuf_free(&s->bufs[i]);
    free(s->bufs);
    imap_free(&s->idx);
    size_t max = s->idx.max;
    pstack_init(s, max);
}

static struct dynbuf *buf_of(const struct pstack *s, int64_t key)
{
    int64_t i;
    return imap_get(&s->idx, key, &i) ? &s->bufs[i] : NULL;
}

enum st_err pstack_push(struct pstack *s, int64_t key, const void *p, size_t n)
{
    struct dynbuf *b = buf_of(s, key);
    if (!b) {
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 16;
            struct dynbuf *nb = realloc(s->bufs, cap * sizeof(*nb));
            if (!nb)
                return ST_ENOMEM;
            s->bufs = nb;
            s->cap = cap;
        }
        enum st_err e = imap_put(&s->idx, key, (int64_t)s->n);
        if (e)
            return e;
        b = &s->bufs[s->n++];
        dynbuf_init(b, PSTACK_BYTES_MAX);
    }
    uint32_t len = (uint32_t)n;
    size_t was = b->len;
    enum st_err e = dynbuf_add(b, p, n);
    if (!e)
        e = dynbuf_add(b, &len, sizeof(len));
    if (e)
        b->len = was;
    return e;
}

const char *pstack_top(const struct pstack *s, int64_t key, size_t *n)
{
    struct dynbuf *b = buf_of(s, key);
    if (!b || !b->len)
        return NULL;
    uint32_t len;
    memcpy(&len, b->data + b->len - sizeof(len), sizeof(len));
    *n = len;
    return b->data + b->len - sizeof(len) - len;
}

void pstack_pop(struct pstack *s, int64_t key)
{
    size_t n;
    struct dynbuf *b = buf_of(s, key);
    if (pstack_top(s, key, &n))
        b->len -= n + sizeof(uint32_t);
}

int pstack_next(const struct pstack *s, size_t *i, int64_t *key)
{
    int64_t k, v;
    while (imap_next(&s->idx, i, &k, &v))
        if (s->bufs[v].len) {
            *key = k;
            return 1;
        }
    return 0;
}

/* Records are walked bottom first: each is data then its length, so the
 * walk finds a record's end by reading lengths from the top down once. */
const char *pstack_walk(const struct pstack *s, int64_t key, size_t *at, size_t *n)
{
    struct dynbuf *b = buf_of(s, key);
    if (!b || *at >= b->len)
        return NULL;
    /* find the record starting at *at: scan from the top for it */
    size_t end = b->len;
    for (;;) {
        uint32_t len;
        memcpy(&len, b->data + end - sizeof(len), sizeof(len));
        size_t start = end - sizeof(len) - len;
        if (start == *at) {
            *n = len;
            *at = end;
            return b->data + start;
        }
        if (start < *at || !start)
            return NULL;
        end = start;
    }
}

