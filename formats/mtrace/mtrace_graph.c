/*
 * Call graph as Graphviz DOT, the graph dmtracedump -g draws: starting at
 * "(toplevel)", follow non-recursive parent->child edges whose child's
 * whole-method inclusive time is at least `threshold` percent of the
 * parent's (dmtracedump -t; it defaults to 20).  Node labels are
 * "[index] Class.method (inclusive ms, exclusive ms, calls)" with times
 * integer-divided by 1000, like dmtracedump's.  Differences: we write the
 * DOT text itself (render with `dot -Tpng`), escape record-label special
 * characters (<init> would break dot), and walk the graph with an explicit
 * stack instead of recursion.
 */
#include "mtrace_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void dot_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strchr("{}|<>\"\\", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

static int passes(const struct mt_stat *parent, const struct mt_stat *child,
                  double threshold)
{
    if (parent->incl == 0)
        return 0;                   /* dmtracedump: inf/NaN -> excluded */
    double v = ((double)child->incl / (double)parent->incl) * 100.0;
    return !(v < threshold);
}

static void label(FILE *out, const struct mt_stat *s)
{
    fprintf(out, "node%u[label = \"[%u] ", s->index, s->index);
    dot_escaped(out, s->cls);
    if (s->name) {
        fputc('.', out);
        dot_escaped(out, s->name);
    }
    fprintf(out, " (%" PRIu64 ", %" PRIu64 ", %u)\"]\n", s->incl / 1000,
            s->excl / 1000, s->calls[0]);
}

struct walk {
    uint32_t key;
    struct mt_rel *kids;
    uint32_t n, next;
};

/* Depth-first from (toplevel): labels when a node is first reached, and
 * one line per qualifying edge of every reached node. */
static enum st_err walk(const struct mt_profile *p, FILE *out, double thr,
                        int links)
{
    uint8_t *seen = calloc(p->ns, 1);
    struct walk *st = malloc((p->ns + 1) * sizeof(*st));
    enum st_err e = ST_OK;
    uint32_t depth = 0;
    if (!seen || !st) {
        e = ST_ENOMEM;
        goto out;
    }
    seen[0] = 1;
    if (!links)
        label(out, &p->s[0]);
    st[depth++] = (struct walk){ .key = 0 };
    st[0].kids = mt_profile_rel(p, 0, 1, 0, &st[0].n);
    while (depth > 0 && e == ST_OK) {
        struct walk *w = &st[depth - 1];
        if (!w->kids) {
            e = ST_ENOMEM;
            break;
        }
        if (w->next == w->n) {
            free(w->kids);
            depth--;
            continue;
        }
        const struct mt_stat *ps = &p->s[w->key];
        uint32_t ck = w->kids[w->next++].key;
        if (!passes(ps, &p->s[ck], thr))
            continue;
        if (links)
            fprintf(out, "node%u -> node%u\n", ps->index, p->s[ck].index);
        if (seen[ck])
            continue;
        seen[ck] = 1;
        if (!links)
            label(out, &p->s[ck]);
        st[depth] = (struct walk){ .key = ck };
        st[depth].kids = mt_profile_rel(p, ck, 1, 0, &st[depth].n);
        depth++;
    }
    while (depth > 0)
        free(st[--depth].kids);
out:
    free(seen);
    free(st);
    return e;
}

enum st_err mt_print_dot(const struct mt_profile *p, FILE *out,
                         double threshold)
{
    fprintf(out, "digraph g {\nnode [shape = record,height=.1];\n");
    enum st_err e = walk(p, out, threshold, 0);
    if (e == ST_OK)
        e = walk(p, out, threshold, 1);
    fprintf(out, "}\n");
    return e;
}
