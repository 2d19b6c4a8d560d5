/*
 * Method profile output.
 *
 * Text: dmtracedump's four sections with its column formats (exclusive
 * times; inclusive times with parents and children; per class; per method
 * name), so existing habits and scripts keep working.  Signatures of ART
 * traces are printed without dmtracedump's "<TAB>File.java" artefact.
 * TSV: one table, a "method" row per method followed by its "parent",
 * "child", "parent_recursive" and "child_recursive" rows (see
 * docs/method-traces.md for the columns).
 */
#include "mtrace_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char sep[] =
    "======================================================================";

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_name(FILE *out, const struct mt_stat *s)
{
    if (s->name)
        fprintf(out, "%s.%s %s\n", s->cls, s->name, s->sig);
    else
        fprintf(out, "%s\n", s->cls);
}

static enum st_err print_exclusive(const struct mt_profile *p, FILE *out)
{
    uint32_t n;
    struct mt_stat **v = mt_profile_sorted(p, mt_cmp_excl, &n);
    if (!v)
        return ST_ENOMEM;
    fprintf(out, "\n%s\nTotal cycles: %" PRIu64 "\n\n", sep, p->total);
    fprintf(out, "Exclusive elapsed times for each method, not including "
            "time spent in\nchildren, sorted by exclusive time.\n\n");
    fprintf(out, "    Usecs  self %%  sum %%  Method\n");
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n && v[i]->excl; i++) {
        sum += v[i]->excl;
        fprintf(out, "%9" PRIu64 "  %6.2f %6.2f  [%u] ", v[i]->excl,
                pct(v[i]->excl, p->total), pct(sum, p->total), v[i]->index);
        print_name(out, v[i]);
    }
    free(v);
    return ST_OK;
}

static enum st_err print_rel(const struct mt_profile *p, FILE *out,
                             const struct mt_stat *s, int children,
                             int recursive)
{
    uint32_t n, key = (uint32_t)(s - p->s);
    struct mt_rel *r = mt_profile_rel(p, key, children, recursive, &n);
    if (!r)
        return ST_ENOMEM;
    if (recursive && n)
        fprintf(out, "               +++++++++++++++++++++++++\n");
    for (uint32_t i = 0; i < n; i++) {
        const struct mt_stat *o = &p->s[r[i].key];
        char idx[16];
        uint32_t total = children ? o->calls[0] + o->calls[1]
                                  : s->calls[0] + s->calls[1];
        snprintf(idx, sizeof(idx), "[%u]", o->index);
        if (recursive)
            fprintf(out, "%6s %5s   %6s %6s %6u/%-6u %9" PRIu64 " ", "", "",
                    "", idx, r[i].calls, total, r[i].time);
        else
            fprintf(out, "%6s %5s   %5.1f%% %6s %6u/%-6u %9" PRIu64 " ", "",
                    "", pct(r[i].time, s->incl), idx, r[i].calls, total,
                    r[i].time);
        print_name(out, o);
    }
    free(r);
    return ST_OK;
}

static enum st_err print_inclusive(const struct mt_profile *p, FILE *out)
{
    uint32_t n;
    struct mt_stat **v = mt_profile_sorted(p, mt_cmp_incl, &n);
    if (!v)
        return ST_ENOMEM;
    fprintf(out, "\n%s\n\nInclusive elapsed times for each method and its "
            "parents and children,\nsorted by inclusive time.\n\n", sep);
    fprintf(out, "index  %%/total %%/self  index     calls         usecs "
            "name\n");
    enum st_err e = ST_OK;
    for (uint32_t i = 0; i < n && v[i]->incl && e == ST_OK; i++) {
        const struct mt_stat *s = v[i];
        char idx[16];
        fprintf(out, "----------------------------------------------------\n");
        e = print_rel(p, out, s, 0, 0);
        if (e == ST_OK)
            e = print_rel(p, out, s, 0, 1);
        snprintf(idx, sizeof(idx), "[%u]", s->index);
        fprintf(out, "%-6s %5.1f%%   %5s %6s %6u+%-6u %9" PRIu64 " ", idx,
                pct(s->incl, p->total), "", "", s->calls[0], s->calls[1],
                s->incl);
        print_name(out, s);
        fprintf(out, "%6s %5s   %5.1f%% %6s %6s %6s %9" PRIu64 "\n", "", "",
                pct(s->top_excl, s->incl), "excl", "", "", s->top_excl);
        if (e == ST_OK)
            e = print_rel(p, out, s, 1, 0);
        if (e == ST_OK)
            e = print_rel(p, out, s, 1, 1);
    }
    free(v);
    return e;
}

/* ---- per class / per method name ---- */

struct group {
    uint64_t excl;
    uint32_t calls[2];
    struct mt_stat **m;             /* members, by exclusive time */
    uint32_t n;
};

static int cmp_class(const void *pa, const void *pb)
{
    const struct mt_stat *a = *(const struct mt_stat *const *)pa;
    const struct mt_stat *b = *(const struct mt_stat *const *)pb;
    int r = strcmp(a->cls, b->cls);
    return r ? r : (a->id < b->id ? -1 : a->id > b->id);
}

static int cmp_mname(const void *pa, const void *pb)
{
    const struct mt_stat *a = *(const struct mt_stat *const *)pa;
    const struct mt_stat *b = *(const struct mt_stat *const *)pb;
    int r = strcmp(a->name, b->name);
    return r ? r : cmp_class(pa, pb);
}

static int cmp_group(const void *pa, const void *pb)
{
    const struct group *a = pa, *b = pb;
    if (a->excl != b->excl)
        return a->excl < b->excl ? 1 : -1;
    return cmp_class(&a->m[0], &b->m[0]);
}

/* Named methods grouped by class (by_class) or by method name. */
static struct group *make_groups(const struct mt_profile *p, int by_class,
                                 struct mt_stat ***store, uint32_t *ng)
{
    struct mt_stat **v = malloc((p->ns + 1) * sizeof(*v));
    struct group *g = malloc((p->ns + 1) * sizeof(*g));
    uint32_t n = 0;
    *ng = 0;
    *store = v;
    if (!v || !g) {
        free(g);
        return NULL;
    }
    for (uint32_t i = 0; i < p->ns; i++) {
        if (!p->s[i].skip && p->s[i].name)
            v[n++] = &p->s[i];
    }
    qsort(v, n, sizeof(*v), by_class ? cmp_class : cmp_mname);
    for (uint32_t i = 0; i < n; i++) {
        int same = i > 0 && strcmp(by_class ? v[i]->cls : v[i]->name,
                                   by_class ? v[i - 1]->cls
                                            : v[i - 1]->name) == 0;
        if (!same)
            g[(*ng)++] = (struct group){ .m = &v[i] };
        struct group *c = &g[*ng - 1];
        c->n++;
        c->excl += v[i]->excl;
        c->calls[0] += v[i]->calls[0];
        c->calls[1] += v[i]->calls[1];
    }
    for (uint32_t i = 0; i < *ng; i++)
        qsort(g[i].m, g[i].n, sizeof(*g[i].m), mt_cmp_excl);
    qsort(g, *ng, sizeof(*g), cmp_group);
    return g;
}

static enum st_err print_groups(const struct mt_profile *p, FILE *out,
                                int by_class)
{
    struct mt_stat **store;
    uint32_t ng;
    struct group *g = make_groups(p, by_class, &store, &ng);
    if (!g) {
        free(store);
        return ST_ENOMEM;
    }
    if (by_class || ng)
        fprintf(out, "\n%s\n", sep);
    if (by_class && ng == 0)
        fprintf(out, "\nNo classes.\n");
    else if (ng)
        fprintf(out, by_class
                ? "\nExclusive elapsed time for each class, summed over all "
                  "the methods\nin the class.\n\n"
                  "   Cycles %%/total Cumul.%%  Calls+Recur  Class\n"
                : "\nExclusive elapsed time for each method, summed over all "
                  "the classes\nthat contain a method with the same name.\n\n"
                  "   Cycles %%/total Cumul.%%  Calls+Recur  Method\n");
    uint64_t sum = 0;
    for (uint32_t i = 0; i < ng && g[i].excl; i++) {
        sum += g[i].excl;
        fprintf(out, "---------------------------------------------\n");
        fprintf(out, "%9" PRIu64 " %7.1f %7.1f %6u+%-6u %s\n", g[i].excl,
                pct(g[i].excl, p->total), pct(sum, p->total), g[i].calls[0],
                g[i].calls[1], by_class ? g[i].m[0]->cls : g[i].m[0]->name);
        uint64_t msum = 0;
        for (uint32_t j = 0; j < g[i].n; j++) {
            const struct mt_stat *s = g[i].m[j];
            msum += s->excl;
            fprintf(out, "%9" PRIu64 " %9" PRIu64 " %7.1f %7.1f %6u+%-6u "
                    "[%u] ", s->excl, s->incl, pct(s->excl, g[i].excl),
                    pct(msum, g[i].excl), s->calls[0], s->calls[1], s->index);
            if (by_class)
                fprintf(out, "%s %s\n", s->name, s->sig);
            else
                fprintf(out, "%s.%s %s\n", s->cls, s->name, s->sig);
        }
    }
    free(g);
    free(store);
    return ST_OK;
}

enum st_err mt_print_text(const struct mt_profile *p, FILE *out)
{
    enum st_err e = print_exclusive(p, out);
    if (e == ST_OK)
        e = print_inclusive(p, out);
    if (e == ST_OK)
        e = print_groups(p, out, 1);
    if (e == ST_OK)
        e = print_groups(p, out, 0);
    return e;
}

/* ---- TSV ---- */

static void tsv_names(FILE *out, const struct mt_stat *s)
{
    fprintf(out, "\t%s\t%s\t%s\n", s->cls, s->name ? s->name : "",
            s->name ? s->sig : "");
}

static enum st_err tsv_rel(const struct mt_profile *p, FILE *out,
                           const struct mt_stat *s, int children,
                           int recursive)
{
    static const char *kinds[2][2] = {
        { "parent", "parent_recursive" }, { "child", "child_recursive" },
    };
    uint32_t n;
    struct mt_rel *r = mt_profile_rel(p, (uint32_t)(s - p->s), children,
                                      recursive, &n);
    if (!r)
        return ST_ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
        const struct mt_stat *o = &p->s[r[i].key];
        fprintf(out, "%s\t%u\t%u\t%u\t\t%" PRIu64 "\t\t\t",
                kinds[children][recursive], s->index, o->index, r[i].calls,
                r[i].time);
        tsv_names(out, o);
    }
    free(r);
    return ST_OK;
}

enum st_err mt_print_tsv(const struct mt_profile *p, FILE *out)
{
    uint32_t n;
    struct mt_stat **v = mt_profile_sorted(p, mt_cmp_incl, &n);
    if (!v)
        return ST_ENOMEM;
    fprintf(out, "kind\tindex\trelative\tcalls\trecursive_calls\t"
            "inclusive_us\texclusive_us\tnonrecursive_exclusive_us\t"
            "recursive_inclusive_us\tclass\tmethod\tsignature\n");
    enum st_err e = ST_OK;
    for (uint32_t i = 0; i < n && e == ST_OK; i++) {
        const struct mt_stat *s = v[i];
        if (!s->incl && !s->excl && !s->calls[0] && !s->calls[1] &&
            !s->rec_incl)
            continue;
        fprintf(out, "method\t%u\t\t%u\t%u\t%" PRIu64 "\t%" PRIu64 "\t%"
                PRIu64 "\t%" PRIu64, s->index, s->calls[0], s->calls[1],
                s->incl, s->excl, s->top_excl, s->rec_incl);
        tsv_names(out, s);
        for (int k = 0; k < 4 && e == ST_OK; k++)
            e = tsv_rel(p, out, s, k >> 1, k & 1);
    }
    free(v);
    return e;
}
