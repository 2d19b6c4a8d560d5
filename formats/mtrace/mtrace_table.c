/*
 * Method and thread tables of a method trace.
 *
 * Methods are found by id through an open-addressing hash (ids are Dalvik
 * Method* pointers or ART's small index<<2; both hash well after a
 * multiply).  Names live in one string buffer addressed by offsets, so the
 * table can grow without invalidating them.  Ids seen in records but never
 * declared get "unknown" entries, at most MT_MAX_UNKNOWN of them; beyond
 * that they share one entry, so a hostile file cannot grow the table by
 * record count.  Threads are indexed by the 16-bit id used in records.
 */
#include "mtrace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mt_tables *mt_tables_new(void)
{
    struct mt_tables *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    dynbuf_init(&t->str, MT_MAX_STRINGS);
    /* offset 0 is the empty string */
    if (dynbuf_addc(&t->str, '\0') != ST_OK) {
        mt_tables_free(t);
        return NULL;
    }
    t->pid = -1;
    t->elapsed_us = -1;
    return t;
}

void mt_tables_free(struct mt_tables *t)
{
    if (!t)
        return;
    free(t->m);
    free(t->hash);
    for (int i = 0; i < 256; i++)
        free(t->thr[i]);
    dynbuf_free(&t->str);
    free(t);
}

const char *mt_str(const struct mt_tables *t, uint32_t off)
{
    return off < t->str.len ? t->str.data + off : "";
}

enum st_err mt_add_str(struct mt_tables *t, const char *p, size_t n,
                       uint32_t *off)
{
    if (n == 0) {
        *off = 0;
        return ST_OK;
    }
    if (t->str.len + n + 1 > UINT32_MAX)
        return ST_ETOOBIG;
    size_t at = t->str.len;
    enum st_err e = dynbuf_add(&t->str, p, n);
    if (e == ST_OK)
        e = dynbuf_addc(&t->str, '\0');
    if (e != ST_OK) {
        t->str.len = at;
        return e;
    }
    *off = (uint32_t)at;
    return ST_OK;
}

static uint32_t hash_id(uint32_t id, uint32_t mask)
{
    return (uint32_t)((id * 2654435761u) >> 7) & mask;
}

long mt_method_find(const struct mt_tables *t, uint32_t id)
{
    if (!t->hash)
        return -1;
    for (uint32_t h = hash_id(id, t->hmask);; h = (h + 1) & t->hmask) {
        uint32_t v = t->hash[h];
        if (v == 0)
            return -1;
        if (t->m[v - 1].id == id)
            return (long)(v - 1);
    }
}

static enum st_err rehash(struct mt_tables *t)
{
    uint32_t cap = t->hash ? (t->hmask + 1) * 2 : 1024;
    uint32_t *h = calloc(cap, sizeof(*h));
    if (!h)
        return ST_ENOMEM;
    free(t->hash);
    t->hash = h;
    t->hmask = cap - 1;
    for (uint32_t i = 0; i < t->nm; i++) {
        if (t->unknown_shared == i + 1)
            continue;               /* the lumped entry has no own id */
        uint32_t s = hash_id(t->m[i].id, t->hmask);
        while (h[s])
            s = (s + 1) & t->hmask;
        h[s] = i + 1;
    }
    return ST_OK;
}

static enum st_err append(struct mt_tables *t, const struct mt_method *m,
                          int hashed, uint32_t *idx)
{
    if (t->nm >= MT_MAX_METHODS)
        return ST_ETOOBIG;
    if (t->nm == t->capm) {
        uint32_t cap = t->capm ? t->capm * 2 : 256;
        struct mt_method *n = realloc(t->m, cap * sizeof(*n));
        if (!n)
            return ST_ENOMEM;
        t->m = n;
        t->capm = cap;
    }
    if (hashed && (!t->hash || (t->nm + 1) * 2 > t->hmask + 1)) {
        enum st_err e = rehash(t);
        if (e != ST_OK)
            return e;
    }
    t->m[t->nm] = *m;
    if (hashed) {
        uint32_t s = hash_id(m->id, t->hmask);
        while (t->hash[s])
            s = (s + 1) & t->hmask;
        t->hash[s] = t->nm + 1;
    }
    *idx = t->nm++;
    return ST_OK;
}

enum st_err mt_method_put(struct mt_tables *t, const struct mt_method *m,
                          uint32_t *idx)
{
    long i = mt_method_find(t, m->id);
    if (i < 0)
        return append(t, m, 1, idx);
    /* A declaration replaces an unknown placeholder; a duplicate id in
     * the key keeps the first declaration. */
    if (t->m[i].flags & MT_M_UNKNOWN)
        t->m[i] = *m;
    *idx = (uint32_t)i;
    return ST_OK;
}

static enum st_err unknown_entry(struct mt_tables *t, uint32_t id, int hashed,
                                 uint32_t *idx)
{
    char buf[40];
    int n = hashed ? snprintf(buf, sizeof(buf), "(unknown 0x%x)", id)
                   : snprintf(buf, sizeof(buf), "(unknown)");
    struct mt_method m = { .id = id, .line = -1,
                           .flags = MT_M_UNKNOWN | MT_M_NONAME };
    enum st_err e = mt_add_str(t, buf, (size_t)n, &m.cls);
    if (e == ST_OK)
        e = append(t, &m, hashed, idx);
    return e;
}

enum st_err mt_method_ref(struct mt_tables *t, uint32_t id, uint32_t *idx)
{
    long i = mt_method_find(t, id);
    if (i >= 0) {
        *idx = (uint32_t)i;
        return ST_OK;
    }
    if (t->nunknown < MT_MAX_UNKNOWN) {
        t->nunknown++;
        return unknown_entry(t, id, 1, idx);
    }
    if (!t->unknown_shared) {
        enum st_err e = unknown_entry(t, 0, 0, idx);
        if (e != ST_OK)
            return e;
        t->unknown_shared = *idx + 1;
    }
    *idx = t->unknown_shared - 1;
    return ST_OK;
}

enum st_err mt_thread_name(struct mt_tables *t, uint32_t id,
                           const char *p, size_t n, int from_packet)
{
    /* Records carry 16 bits (v1: 8); old ART wrote the full Linux tid in
     * the key, so key ids are folded and the full one kept for display. */
    uint32_t slot = id & (MT_NTHREADS - 1);
    if (!t->thr[slot >> 8]) {
        t->thr[slot >> 8] = calloc(256, sizeof(struct mt_tinfo));
        if (!t->thr[slot >> 8])
            return ST_ENOMEM;
    }
    struct mt_tinfo *ti = &t->thr[slot >> 8][slot & 255];
    if (ti->named > (from_packet ? 1 : 0))
        return ST_OK;               /* inline names win; first key wins */
    uint32_t off;
    enum st_err e = mt_add_str(t, p, n, &off);
    if (e != ST_OK)
        return e;
    ti->name = off;
    ti->full_id = id;
    ti->named = from_packet ? 2 : 1;
    return ST_OK;
}

const struct mt_tinfo *mt_tinfo_of(const struct mt_tables *t, uint32_t id)
{
    static const struct mt_tinfo none;
    id &= MT_NTHREADS - 1;
    return t->thr[id >> 8] ? &t->thr[id >> 8][id & 255] : &none;
}

void mt_tables_set_clocks(struct mt_tables *t)
{
    int cpu = strcmp(t->clock, "thread-cpu") == 0;
    int dual = strcmp(t->clock, "dual") == 0;
    if (t->ncol == 2) {
        /* dual: column A thread-cpu, column B wall */
        t->col_clock[0] = MT_CLK_CPU;
        t->col_clock[1] = MT_CLK_WALL;
    } else if (cpu || dual) {
        t->col_clock[0] = MT_CLK_CPU;
    } else if (t->clock[0] || !t->streaming) {
        /* wall, "global" (v1 gettimeofday) or no clock= key at all */
        t->col_clock[0] = MT_CLK_WALL;
    } else {
        t->col_clock[0] = MT_CLK_UNKNOWN;   /* streaming, summary not seen */
    }
}
