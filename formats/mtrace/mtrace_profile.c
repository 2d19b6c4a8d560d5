/*
 * Method profile with dmtracedump's accounting (docs/method-traces.md,
 * "How the numbers are computed"), so that on files dmtracedump can read
 * the numbers are the same:
 *   entry: the caller (stack top or "(toplevel)") gets exclusive time
 *          since the thread's previous record; non-recursive exclusive too
 *          when it is on the stack once;
 *   exit:  the method gets exclusive time likewise; inclusive time goes to
 *          its outermost activation (the first nested recursion to a
 *          separate "recursive inclusive"); calls and parent/child edges
 *          are split into normal and recursive;
 *   end:   frames still open are closed at the thread's last time for
 *          inclusive/edge purposes only; "(toplevel)" inclusive = total =
 *          sum over threads of (last - first).
 * Differences (dmtracedump aborts instead): an exit that does not match the
 * stack top closes the frames above its match at the same time; an exit
 * found nowhere on the stack closes all frames, then counts as an exit
 * without entry (entry time 0, as dmtracedump does for an empty stack).
 * Unknown ids are lumped into one "(unknown)" entry, as dmtracedump does.
 */
#include "mtrace_int.h"

#include <stdlib.h>
#include <string.h>

static uint32_t key_of(const struct mt_profile *p, uint32_t midx)
{
    return (p->tab->m[midx].flags & MT_M_UNKNOWN) ? 1 : midx + 2;
}

static enum st_err grow_stats(struct mt_profile *p, uint32_t need)
{
    if (need <= p->ns)
        return ST_OK;
    if (need > p->caps) {
        uint32_t cap = p->caps ? p->caps : 256;
        while (cap < need)
            cap *= 2;
        struct mt_stat *s = realloc(p->s, cap * sizeof(*s));
        if (!s)
            return ST_ENOMEM;
        p->s = s;
        p->caps = cap;
    }
    memset(p->s + p->ns, 0, (need - p->ns) * sizeof(*p->s));
    p->ns = need;
    return ST_OK;
}

static uint32_t edge_hash(uint32_t parent, uint32_t child, uint32_t mask)
{
    uint64_t k = ((uint64_t)parent << 32 | child) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(k >> 40) & mask;
}

static enum st_err edge_rehash(struct mt_profile *p)
{
    uint32_t cap = p->ehash ? (p->ehmask + 1) * 2 : 4096;
    uint32_t *h = calloc(cap, sizeof(*h));
    if (!h)
        return ST_ENOMEM;
    free(p->ehash);
    p->ehash = h;
    p->ehmask = cap - 1;
    for (uint32_t i = 0; i < p->ne; i++) {
        uint32_t s = edge_hash(p->e[i].parent, p->e[i].child, p->ehmask);
        while (h[s])
            s = (s + 1) & p->ehmask;
        h[s] = i + 1;
    }
    return ST_OK;
}

static struct mt_edge *edge_get(struct mt_profile *p, uint32_t parent,
                                uint32_t child)
{
    if (p->ehash) {
        uint32_t s = edge_hash(parent, child, p->ehmask);
        for (; p->ehash[s]; s = (s + 1) & p->ehmask) {
            struct mt_edge *e = &p->e[p->ehash[s] - 1];
            if (e->parent == parent && e->child == child)
                return e;
        }
    }
    if (!p->ehash || (p->ne + 1) * 2 > p->ehmask + 1) {
        if (edge_rehash(p) != ST_OK)
            return NULL;
    }
    if (p->ne == p->cape) {
        uint32_t cap = p->cape ? p->cape * 2 : 1024;
        struct mt_edge *n = realloc(p->e, cap * sizeof(*n));
        if (!n)
            return NULL;
        p->e = n;
        p->cape = cap;
    }
    struct mt_edge *e = &p->e[p->ne];
    memset(e, 0, sizeof(*e));
    e->parent = parent;
    e->child = child;
    uint32_t s = edge_hash(parent, child, p->ehmask);
    while (p->ehash[s])
        s = (s + 1) & p->ehmask;
    p->ehash[s] = ++p->ne;
    return e;
}

/* dmtracedump's addInclusiveTime: caller_n = occurrences of the caller on
 * the stack (itself included), child_rec = occurrences of the child. */
static enum st_err add_incl(struct mt_profile *p, uint32_t caller,
                            uint32_t caller_n, uint32_t child,
                            uint32_t child_rec, uint64_t elapsed)
{
    int cr = child_rec > 0, pr = caller_n > 1;
    struct mt_stat *s = &p->s[child];
    if (child_rec == 0)
        s->incl += elapsed;
    else if (child_rec == 1)
        s->rec_incl += elapsed;
    s->calls[cr]++;
    /* most methods are called from one place: try the last edge first */
    struct mt_edge *e = s->last_edge ? &p->e[s->last_edge - 1] : NULL;
    if (!e || e->parent != caller) {
        e = edge_get(p, caller, child);
        if (!e)
            return ST_ENOMEM;
        s->last_edge = (uint32_t)(e - p->e) + 1;
    }
    e->ctime[pr] += elapsed;
    e->ccalls[pr]++;
    e->ptime[cr] += elapsed;
    e->pcalls[cr]++;
    return ST_OK;
}

static void caller_of(const struct mt_thread *th, uint32_t depth,
                      uint32_t *key, uint32_t *n)
{
    *key = depth ? th->f[depth - 1].key : 0;
    *n = depth ? th->f[depth - 1].rec + 1 : 0;
}

/* The frame f has just been removed from th's stack at time now. */
static enum st_err account_exit(struct mt_profile *p, struct mt_thread *th,
                                const struct mt_frame *f, int64_t now,
                                int64_t *prev)
{
    uint32_t ck, cn;
    caller_of(th, th->depth, &ck, &cn);
    enum st_err e = add_incl(p, ck, cn, f->key, f->rec,
                             (uint64_t)(now - f->t[p->col]));
    uint64_t d = (uint64_t)(now - *prev);
    p->s[f->key].excl += d;
    if (f->rec == 0)
        p->s[f->key].top_excl += d;
    *prev = now;
    return e;
}

static enum st_err prof_exit(struct mt_profile *p, struct mt_thread *th,
                           uint32_t midx, uint32_t key, int64_t now,
                           int64_t prev)
{
    long j = mt_find(th, midx);
    enum st_err e = ST_OK;
    if (j != (long)th->depth - 1 && th->depth > 0) {
        p->info->mismatches++;
        p->info->warnings |= MTRACE_W_MISMATCH;
    }
    /* close frames above the match (all of them when there is none) */
    long stop = j < 0 ? 0 : j;
    while (e == ST_OK && (long)th->depth > stop) {
        struct mt_frame f = th->f[--th->depth];
        e = account_exit(p, th, &f, now, &prev);
    }
    if (e == ST_OK && j < 0) {
        struct mt_frame f = { .midx = midx, .key = key };
        p->info->orphan_exits++;
        e = account_exit(p, th, &f, now, &prev);
    }
    return e;
}

static enum st_err on_record(void *ctx, const struct mt_rec *r)
{
    struct mt_profile *p = ctx;
    struct mt_thread *th;
    enum st_err e = mt_thread_get(&p->th, r->tid, &th);
    uint32_t key = key_of(p, r->midx);
    if (e == ST_OK)
        e = grow_stats(p, p->tab->nm + 2);
    if (e != ST_OK)
        return e;
    int64_t t[2];
    int first = th->nrec == 0;
    int64_t prev = th->last[p->col];
    mt_thread_times(&p->th, th, r->t, t);
    int64_t now = t[p->col];
    if (first)
        prev = now;
    if (r->action != MT_A_ENTER)
        return prof_exit(p, th, r->midx, key, now, prev);
    uint32_t ck, cn;
    caller_of(th, th->depth, &ck, &cn);
    p->s[ck].excl += (uint64_t)(now - prev);
    if (cn <= 1)
        p->s[ck].top_excl += (uint64_t)(now - prev);
    e = mt_push(th, r->midx, key, t);
    if (e == ST_ETOOBIG)
        mt_err(p->err, sizeof(p->err), "call stack deeper than %u frames "
               "on thread %u at offset %llu", MTRACE_MAX_DEPTH, r->tid,
               (unsigned long long)r->off);
    return e;
}

static enum st_err on_header(void *ctx, struct mt_tables *t)
{
    struct mt_profile *p = ctx;
    mt_threads_setup(&p->th, t);
    p->col = 0;
    if (p->want != MTRACE_CLOCK_DEFAULT && t->ncol == 2)
        p->col = p->want == MTRACE_CLOCK_WALL ? 1 : 0;
    return grow_stats(p, 2);
}

static enum st_err finish_threads(struct mt_profile *p)
{
    enum st_err e = ST_OK;
    mt_threads_sort(&p->th);
    for (uint32_t k = 0; k < p->th.n && e == ST_OK; k++) {
        struct mt_thread *th = mt_thread_at(&p->th, p->th.ids[k]);
        int64_t last = th->last[p->col];
        p->total += (uint64_t)(last - th->first[p->col]);
        for (uint32_t d = 0; d < th->depth && e == ST_OK; d++) {
            uint32_t ck, cn;
            caller_of(th, d, &ck, &cn);
            e = add_incl(p, ck, cn, th->f[d].key, th->f[d].rec,
                         (uint64_t)(last - th->f[d].t[p->col]));
        }
    }
    p->s[0].incl = p->total;
    return e;
}

static void name_stats(struct mt_profile *p)
{
    p->s[0].cls = "(toplevel)";
    p->s[0].id = -2;
    p->s[1].cls = "(unknown)";
    p->s[1].id = -1;
    for (uint32_t k = 2; k < p->ns; k++) {
        const struct mt_method *m = &p->tab->m[k - 2];
        struct mt_stat *s = &p->s[k];
        s->skip = (m->flags & MT_M_UNKNOWN) != 0;
        s->id = m->id;
        s->cls = mt_str(p->tab, m->cls);
        s->name = (m->flags & MT_M_NONAME) ? NULL : mt_str(p->tab, m->name);
        s->sig = mt_str(p->tab, m->sig);
    }
}

/* Group edge numbers by parent and by child (counting sort). */
static enum st_err index_edges(struct mt_profile *p)
{
    p->by_parent = malloc((p->ne + 1) * sizeof(uint32_t));
    p->by_child = malloc((p->ne + 1) * sizeof(uint32_t));
    p->pstart = calloc(p->ns + 1, sizeof(uint32_t));
    p->cstart = calloc(p->ns + 1, sizeof(uint32_t));
    if (!p->by_parent || !p->by_child || !p->pstart || !p->cstart)
        return ST_ENOMEM;
    for (uint32_t i = 0; i < p->ne; i++) {
        p->pstart[p->e[i].parent + 1]++;
        p->cstart[p->e[i].child + 1]++;
    }
    for (uint32_t k = 0; k < p->ns; k++) {
        p->pstart[k + 1] += p->pstart[k];
        p->cstart[k + 1] += p->cstart[k];
    }
    uint32_t *pf = calloc(p->ns + 1, sizeof(uint32_t));
    uint32_t *cf = calloc(p->ns + 1, sizeof(uint32_t));
    if (!pf || !cf) {
        free(pf);
        free(cf);
        return ST_ENOMEM;
    }
    for (uint32_t i = 0; i < p->ne; i++) {
        uint32_t a = p->e[i].parent, b = p->e[i].child;
        p->by_parent[p->pstart[a] + pf[a]++] = i;
        p->by_child[p->cstart[b] + cf[b]++] = i;
    }
    free(pf);
    free(cf);
    return ST_OK;
}

static enum st_err rank(struct mt_profile *p)
{
    uint32_t n;
    struct mt_stat **v = mt_profile_sorted(p, mt_cmp_incl, &n);
    if (!v)
        return ST_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        v[i]->index = i;
    free(v);
    return ST_OK;
}

static const char *clock_name(int clk)
{
    return clk == MT_CLK_CPU ? "thread-cpu" : clk == MT_CLK_WALL ? "wall"
                                                                 : "unknown";
}

enum st_err mt_profile_read(struct mt_profile *p, const struct mtrace_src *src,
                            enum mtrace_clock clock, struct mtrace_info *info,
                            char *err, size_t errlen)
{
    memset(p, 0, sizeof(*p));
    p->info = info;
    p->want = clock;
    p->tab = mt_tables_new();
    if (!p->tab || mt_threads_init(&p->th) != ST_OK)
        return ST_ENOMEM;
    struct mt_sink sink = { p, on_header, on_record };
    enum st_err e = mt_run(src, p->tab, &sink, 0, info, err, errlen);
    if (e != ST_OK && p->err[0])
        mt_err(err, errlen, "%s", p->err);
    if (e != ST_OK)
        return e;
    int clk = p->tab->col_clock[p->col];
    if ((clock == MTRACE_CLOCK_CPU && clk != MT_CLK_CPU) ||
        (clock == MTRACE_CLOCK_WALL && clk != MT_CLK_WALL)) {
        mt_err(err, errlen, "this trace has no %s clock (clock=%s)",
               clock == MTRACE_CLOCK_CPU ? "thread-cpu" : "wall",
               p->tab->clock[0] ? p->tab->clock : clock_name(clk));
        return ST_EINVAL;
    }
    mt_stack_info(&p->th, info);
    info->methods = p->tab->nm;
    info->clock = p->tab->ncol == 2 ? "dual" : clock_name(clk);
    e = grow_stats(p, p->tab->nm + 2);
    if (e == ST_OK)
        e = finish_threads(p);
    name_stats(p);
    if (e == ST_OK)
        e = index_edges(p);
    if (e == ST_OK)
        e = rank(p);
    if (e != ST_OK)
        mt_err(err, errlen, "%s", st_strerror(e));
    return e;
}

void mt_profile_free(struct mt_profile *p)
{
    mt_threads_free(&p->th);
    mt_tables_free(p->tab);
    free(p->s);
    free(p->e);
    free(p->ehash);
    free(p->by_parent);
    free(p->by_child);
    free(p->pstart);
    free(p->cstart);
    memset(p, 0, sizeof(*p));
}
