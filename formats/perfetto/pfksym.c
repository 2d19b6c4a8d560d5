/* Interned kernel symbols; see pfksym.h.  An open-addressing table of
 * (scope, iid) -> (offset, length) into one growing string buffer; a
 * scope is one sequence between two clears of its incremental state. */
#include "pfksym.h"

#include <stdlib.h>

#include "lib/dynbuf.h"
#include "pb.h"

struct pfk_ent {
    uint64_t iid;
    uint32_t off, len;
    uint32_t scope;
    int used;
};

struct pfk_seq {
    uint32_t seq, scope;
};

struct pfksym {
    struct pfk_ent *e;
    size_t n, cap;
    struct dynbuf names;
    struct pfk_seq seqs[PFKSYM_SEQS];
    size_t nseq;
    uint32_t scopes;        /* scope ids handed out */
    uint32_t cur;           /* the scope pfksym_lookup reads */
};

struct pfksym *pfksym_new(void)
{
    struct pfksym *k = calloc(1, sizeof(*k));
    if (k)
        dynbuf_init(&k->names, PFKSYM_BYTES);
    return k;
}

void pfksym_free(struct pfksym *k)
{
    if (!k)
        return;
    free(k->e);
    dynbuf_free(&k->names);
    free(k);
}

static size_t slot(uint32_t scope, uint64_t iid, size_t cap)
{
    return (size_t)(((iid ^ (uint64_t)scope << 40) * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static struct pfk_ent *find(const struct pfksym *k, uint32_t scope, uint64_t iid)
{
    if (!k->cap)
        return NULL;
    for (size_t i = slot(scope, iid, k->cap);; i = (i + 1) & (k->cap - 1)) {
        if (!k->e[i].used || (k->e[i].iid == iid && k->e[i].scope == scope))
            return &k->e[i];
    }
}

static int grow(struct pfksym *k)
{
    size_t cap = k->cap ? k->cap * 2 : 1024;
    struct pfk_ent *e = calloc(cap, sizeof(*e));
    if (!e)
        return -1;
    for (size_t i = 0; i < k->cap; i++) {
        if (!k->e[i].used)
            continue;
        size_t j = slot(k->e[i].scope, k->e[i].iid, cap);
        while (e[j].used)
            j = (j + 1) & (cap - 1);
        e[j] = k->e[i];
    }
    free(k->e);
    k->e = e;
    k->cap = cap;
    return 0;
}

static void add(struct pfksym *k, uint32_t scope, uint64_t iid, const uint8_t *s, size_t n)
{
    if ((k->n + 1) * 2 > k->cap && (k->cap >= PFKSYM_MAX * 2 || grow(k)))
        return;
    size_t off = k->names.len;
    if (dynbuf_add(&k->names, s, n))
        return;
    struct pfk_ent *e = find(k, scope, iid);
    if (!e->used)
        k->n++;
    *e = (struct pfk_ent){iid, (uint32_t)off, (uint32_t)n, scope, 1};
}

static enum st_err symbol(struct pfksym *k, uint32_t scope, const uint8_t *p, size_t n)
{
    uint64_t iid;
    const uint8_t *s;
    size_t sn;
    if (pb_id_name(p, n, &iid, &s, &sn))
        return ST_EFORMAT;
    if (s && scope)
        add(k, scope, iid, s, sn);
    return ST_OK;
}

uint32_t pfksym_scope(struct pfksym *k, uint32_t seq, int cleared)
{
    size_t i = 0;
    while (i < k->nseq && k->seqs[i].seq != seq)
        i++;
    if (i == k->nseq) {
        if (k->nseq == PFKSYM_SEQS)
            return 0;
        k->seqs[k->nseq++] = (struct pfk_seq){seq, 0};
        cleared = 1;
    }
    if (cleared && k->scopes < UINT32_MAX)
        k->seqs[i].scope = ++k->scopes;
    else if (cleared)
        k->seqs[i].scope = 0;   /* 4 billion clears: no more symbols */
    return k->seqs[i].scope;
}

void pfksym_use(struct pfksym *k, uint32_t scope)
{
    k->cur = scope;
}

enum st_err pfksym_interned(struct pfksym *k, uint32_t scope, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    int r;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && (r = pb_next(&it, &f)) == 1)
        if (f.num == 26 && f.wire == PB_LEN)
            e = symbol(k, scope, f.p, f.len);
    return e ? e : r ? ST_EFORMAT : ST_OK;
}

int pfksym_has_symbols(const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 26 && f.wire == PB_LEN)
            return 1;
    return 0;
}

const char *pfksym_lookup(void *arg, uint64_t iid, size_t *len)
{
    const struct pfksym *k = arg;
    const struct pfk_ent *e = k->cur ? find(k, k->cur, iid) : NULL;
    if (!e || !e->used)
        return NULL;
    *len = e->len;
    return k->names.data + e->off;
}
