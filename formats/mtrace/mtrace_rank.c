/*
 * Orderings of a method profile, as dmtracedump sorts them: by time
 * (descending), ties by class name, then method name and signature (or by
 * id when one of them has no method name, e.g. "(toplevel)").  The index
 * [n] of a method is its rank by inclusive time among all methods of the
 * table, called or not, so indices match dmtracedump's.
 */
#include "mtrace_int.h"

#include <stdlib.h>
#include <string.h>

static int by_id(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

static int by_name(const struct mt_stat *a, const struct mt_stat *b)
{
    int r = strcmp(a->cls, b->cls);
    if (r != 0)
        return r;
    if (!a->name || !b->name)
        return by_id(a->id, b->id);
    r = strcmp(a->name, b->name);
    return r ? r : strcmp(a->sig, b->sig);
}

static int by_time(uint64_t a, uint64_t b)
{
    return a < b ? 1 : a > b ? -1 : 0;
}

int mt_cmp_incl(const void *pa, const void *pb)
{
    const struct mt_stat *a = *(const struct mt_stat *const *)pa;
    const struct mt_stat *b = *(const struct mt_stat *const *)pb;
    int r = by_time(a->incl, b->incl);
    return r ? r : by_name(a, b);
}

int mt_cmp_excl(const void *pa, const void *pb)
{
    const struct mt_stat *a = *(const struct mt_stat *const *)pa;
    const struct mt_stat *b = *(const struct mt_stat *const *)pb;
    int r = by_time(a->excl, b->excl);
    return r ? r : by_name(a, b);
}

struct mt_stat **mt_profile_sorted(const struct mt_profile *p,
                                   int (*cmp)(const void *, const void *),
                                   uint32_t *n)
{
    struct mt_stat **v = malloc((p->ns + 1) * sizeof(*v));
    if (!v)
        return NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < p->ns; i++) {
        if (!p->s[i].skip)
            v[k++] = &p->s[i];
    }
    qsort(v, k, sizeof(*v), cmp);
    *n = k;
    return v;
}

struct rel_sort {
    struct mt_rel r;
    const struct mt_stat *s;
};

static int cmp_rel(const void *pa, const void *pb)
{
    const struct rel_sort *a = pa, *b = pb;
    int r = by_time(a->r.time, b->r.time);
    return r ? r : by_name(a->s, b->s);
}

struct mt_rel *mt_profile_rel(const struct mt_profile *p, uint32_t key,
                              int children, int recursive, uint32_t *n)
{
    const uint32_t *start = children ? p->pstart : p->cstart;
    const uint32_t *list = children ? p->by_parent : p->by_child;
    uint32_t lo = start[key], hi = start[key + 1], k = 0;
    struct rel_sort *v = malloc((hi - lo + 1) * sizeof(*v));
    if (!v)
        return NULL;
    for (uint32_t i = lo; i < hi; i++) {
        const struct mt_edge *e = &p->e[list[i]];
        uint32_t calls = children ? e->ccalls[recursive] : e->pcalls[recursive];
        if (calls == 0)
            continue;
        v[k].r.key = children ? e->child : e->parent;
        v[k].r.calls = calls;
        v[k].r.time = children ? e->ctime[recursive] : e->ptime[recursive];
        v[k].s = &p->s[v[k].r.key];
        k++;
    }
    qsort(v, k, sizeof(*v), cmp_rel);
    struct mt_rel *out = malloc((k + 1) * sizeof(*out));
    if (out) {
        for (uint32_t i = 0; i < k; i++)
            out[i] = v[i].r;
    }
    free(v);
    *n = k;
    return out;
}
