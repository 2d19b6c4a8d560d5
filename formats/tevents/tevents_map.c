/*
 * A small open-addressing hash map (FNV-1a, linear probing, tombstones)
 * for the trace-event converter's tables; see tevents_int.h.  Bounded by
 * a maximum number of keys; grows by doubling at half load.
 */
#include <stdlib.h>
#include <string.h>

#include "tevents_int.h"

char tev_tomb[1];

static uint64_t hash(const void *k, size_t n)
{
    const unsigned char *p = k;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

void tmap_init(struct tev_map *m, size_t max)
{
    memset(m, 0, sizeof(*m));
    m->max = max;
}

static struct tev_slot *find(const struct tev_map *m, const void *k, size_t kl, uint64_t h)
{
    if (!m->cap)
        return NULL;
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        struct tev_slot *s = &m->slots[i];
        if (!s->key)
            return NULL;
        if (s->key != tev_tomb && s->hash == h && s->klen == kl && !memcmp(s->key, k, kl))
            return s;
    }
}

void *tmap_get(const struct tev_map *m, const void *k, size_t kl)
{
    struct tev_slot *s = find(m, k, kl, hash(k, kl));
    return s ? s->val : NULL;
}

static void insert(struct tev_slot *slots, size_t cap, const struct tev_slot *v)
{
    size_t i = v->hash & (cap - 1);
    while (slots[i].key)
        i = (i + 1) & (cap - 1);
    slots[i] = *v;
}

static enum st_err grow(struct tev_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    if (m->count * 2 < m->cap)
        cap = m->cap;       /* mostly tombstones: rehash in place */
    struct tev_slot *s = calloc(cap, sizeof(*s));
    if (!s)
        return ST_ENOMEM;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key && m->slots[i].key != tev_tomb)
            insert(s, cap, &m->slots[i]);
    free(m->slots);
    m->slots = s;
    m->cap = cap;
    m->used = m->count;
    return ST_OK;
}

enum st_err tmap_put(struct tev_map *m, const void *k, size_t kl, void *v)
{
    if (m->count >= m->max)
        return ST_ETOOBIG;
    enum st_err e;
    if ((m->used + 1) * 2 > m->cap && (e = grow(m)))
        return e;
    struct tev_slot s = {hash(k, kl), malloc(kl ? kl : 1), kl, v};
    if (!s.key)
        return ST_ENOMEM;
    if (kl)
        memcpy(s.key, k, kl);
    insert(m->slots, m->cap, &s);
    m->used++;
    m->count++;
    return ST_OK;
}

void *tmap_take(struct tev_map *m, const void *k, size_t kl)
{
    struct tev_slot *s = find(m, k, kl, hash(k, kl));
    if (!s)
        return NULL;
    void *v = s->val;
    free(s->key);
    s->key = tev_tomb;
    s->val = NULL;
    m->count--;
    return v;
}

void tmap_each(const struct tev_map *m, void (*fn)(void *ctx, void *val), void *ctx)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key && m->slots[i].key != tev_tomb)
            fn(ctx, m->slots[i].val);
}

void tmap_each_kv(const struct tev_map *m, void (*fn)(void *ctx, const void *key, void *val),
                  void *ctx)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key && m->slots[i].key != tev_tomb)
            fn(ctx, m->slots[i].key, m->slots[i].val);
}

void tmap_clear(struct tev_map *m, void (*freeval)(void *))
{
    for (size_t i = 0; i < m->cap; i++) {
        struct tev_slot *s = &m->slots[i];
        if (s->key && s->key != tev_tomb) {
            if (freeval)
                freeval(s->val);
            free(s->key);
        }
    }
    if (m->cap)
        memset(m->slots, 0, m->cap * sizeof(*m->slots));
    m->used = m->count = 0;
}

void tmap_free(struct tev_map *m, void (*freeval)(void *))
{
    tmap_clear(m, freeval);
    free(m->slots);
    m->slots = NULL;
    m->cap = 0;
}
