/* The window and processes of a piece, from the first pass; see
 * pscan.h (pscan_window, piece_keeps). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/procname.h"
#include "pscan_int.h"

static const char *name_of(const struct pscan *s, int64_t pid, size_t *n)
{
    char k[24];
    int kn = snprintf(k, sizeof(k), "%lld", (long long)pid);
    return smap_get(&s->names, k, (size_t)kn, n);
}

/* "a (pid 12), b (pid 7), c (pid 3)": the three with the most events. */
static void busiest(const struct pscan *s, char *buf, size_t len)
{
    int64_t top[3] = {-1, -1, -1}, topn[3] = {0, 0, 0}, k, v;
    size_t i = 0, at = 0;
    while (imap_next(&s->count, &i, &k, &v))
        for (int j = 0; j < 3; j++)
            if (v > topn[j]) {
                memmove(top + j + 1, top + j, (size_t)(2 - j) * sizeof(*top));
                memmove(topn + j + 1, topn + j, (size_t)(2 - j) * sizeof(*topn));
                top[j] = k;
                topn[j] = v;
                break;
            }
    buf[0] = 0;
    for (int j = 0; j < 3 && top[j] >= 0 && at < len; j++) {
        size_t n = 0;
        const char *nm = name_of(s, top[j], &n);
        int w = snprintf(buf + at, len - at, "%s%.*s (pid %lld)", j ? ", " : "",
                         nm ? (int)n : 1, nm ? nm : "?", (long long)top[j]);
        at += w > 0 ? (size_t)w : 0;
    }
}

static int add_pid(struct piece_window *w, int64_t pid)
{
    for (size_t i = 0; i < w->npids; i++)
        if (w->pids[i] == pid)
            return 0;
    if (w->npids == sizeof(w->pids) / sizeof(*w->pids))
        return -1;
    w->pids[w->npids++] = pid;
    return 0;
}

static int known_pid(const struct pscan *s, int64_t pid)
{
    int64_t v;
    size_t n;
    return imap_get(&s->count, pid, &v) || name_of(s, pid, &n) || imap_get(&s->tgid, pid, &v);
}

static int one_proc(const struct pscan *s, const struct piece_proc *p, struct piece_window *w,
                    char *err, size_t errlen)
{
    if (!p->name) {
        if (known_pid(s, p->pid))
            return add_pid(w, p->pid);
        char top[400];
        busiest(s, top, sizeof(top));
        snprintf(err, errlen, "--process: no process with pid %lld in the trace; the "
                 "busiest: %s", (long long)p->pid, top[0] ? top : "none");
        return -1;
    }
    size_t i = 0, kn, vn, before = w->npids;
    const char *k, *v;
    while (smap_next(&s->names, &i, &k, &kn, &v, &vn)) {
        char num[24];
        if (!procname_matches(v, vn, p->name) || kn >= sizeof(num))
            continue;
        memcpy(num, k, kn);
        num[kn] = 0;
        if (add_pid(w, strtoll(num, NULL, 10)))
            break;
    }
    if (w->npids > before)
        return 0;
    char top[400];
    busiest(s, top, sizeof(top));
    snprintf(err, errlen, "--process: no process named %s in the trace; the busiest: %s",
             p->name, top[0] ? top : "none");
    return -1;
}

/* --process-and-deps: the processes whose threads woke or called a kept
 * one's, or were called by it. */
static void add_deps(const struct pscan *s, struct piece_window *w)
{
    size_t n = w->npids, i = 0;
    int64_t k, v;
    while (imap_next(&s->edges, &i, &k, &v)) {
        int64_t a = tgid_of(s, k >> 32), b = tgid_of(s, k & 0xffffffff);
        for (size_t j = 0; j < n; j++) {
            if (b == w->pids[j] && a > 0)
                add_pid(w, a);
            if (a == w->pids[j] && b > 0)
                add_pid(w, b);
        }
    }
}

static void span_text(const struct pscan *s, char *buf, size_t len)
{
    char a[32], b[32];
    pline_fmt_secs(a, sizeof(a), s->first);
    pline_fmt_secs(b, sizeof(b), s->last);
    snprintf(buf, len, "the trace spans 0.0..%.3f s (ts:%s..%s)",
             (double)(s->last - s->first) / 1e9, a, b);
}

static int range(const struct pscan *s, const struct piece_spec *spec,
                 struct piece_window *w, char *err, size_t errlen)
{
    int64_t INF = INT64_MAX;
    switch (spec->range) {
    case PIECE_ALL:
        w->lo = INT64_MIN;
        w->hi = INF;
        return 0;
    case PIECE_REL:
        w->lo = s->first + spec->start_ns;
        w->hi = spec->end_ns == INF ? INF : s->first + spec->end_ns;
        break;
    case PIECE_TS:
        w->lo = spec->start_ns;
        w->hi = spec->end_ns;
        break;
    case PIECE_SLICE:
        if (!s->found) {
            snprintf(err, errlen, "--time-range: no slice named %s in the trace",
                     spec->slice);
            if (s->seen)
                snprintf(err, errlen, "--time-range: the trace has %u slices named %s, not %u",
                         s->seen, spec->slice, spec->slice_nth);
            return -1;
        }
        w->lo = s->slice_at - spec->margin_ns;
        w->hi = (s->ended ? s->slice_end : s->last) + spec->margin_ns + 1;
        break;
    }
    char span[200];
    span_text(s, span, sizeof(span));
    if (piece_empty(spec)) {
        snprintf(err, errlen, "--time-range: the range is empty; %s", span);
        return -1;
    }
    if (!s->any || w->lo >= w->hi || w->lo > s->last || w->hi <= s->first) {
        snprintf(err, errlen, "--time-range: the range is outside the trace; %s", span);
        return -1;
    }
    return 0;
}

int pscan_window(const struct pscan *s, const struct piece_spec *spec,
                 struct piece_window *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof(*w));
    w->tgid = &s->tgid;
    w->unordered = s->unordered;
    w->all = !spec->nprocs;
    if (range(s, spec, w, err, errlen))
        return -1;
    for (size_t i = 0; i < spec->nprocs; i++)
        if (one_proc(s, &spec->procs[i], w, err, errlen))
            return -1;
    if (spec->deps)
        add_deps(s, w);
    return 0;
}

int piece_keeps(const struct piece_window *w, int64_t tid, int64_t tgid)
{
    if (w->all || tid == 0)
        return 1;
    if (tgid < 0 && !imap_get(w->tgid, tid, &tgid))
        tgid = tid;
    for (size_t i = 0; i < w->npids; i++)
        if (w->pids[i] == tgid || w->pids[i] == tid)
            return 1;
    return 0;
}
