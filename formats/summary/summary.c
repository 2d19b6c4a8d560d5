/*
 * The trace summary's streaming side (summary.h): parts from the
 * tracewriter tee are split into lines; ftrace lines are tokenized as
 * Perfetto does (formats/tevents' tokenizer; the usual shape by
 * summary_fast.c) and fold into per-CPU and per-thread state
 * (summary_ev.c); process-dump lines give process names and thread
 * bindings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/tevents/tevents.h"

#include "summary_int.h"
#include "lib/plat.h"

struct summary *summary_new(void)
{
    struct summary *s = calloc(1, sizeof(*s));
    if (s)
        dynbuf_init(&s->line, SUM_LINE_MAX);
    return s;
}

void summary_free(struct summary *s)
{
    if (!s)
        return;
    dynbuf_free(&s->line);
    sum_tab_free(s);
    sum_results_free(s);
    sum_ftl_free(s);
    for (size_t i = 0; i < s->ncats; i++)
        free(s->cats[i]);
    free(s->cats);
    free(s);
}

enum st_err summary_set_categories(struct summary *s, char *const *cats, size_t n)
{
    char **c = calloc(n ? n : 1, sizeof(*c));
    if (!c)
        return ST_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!(c[i] = strdup(cats[i]))) {
            while (i--)
                free(c[i]);
            free(c);
            return ST_ENOMEM;
        }
    for (size_t i = 0; i < s->ncats; i++)
        free(s->cats[i]);
    free(s->cats);
    s->cats = c;
    s->ncats = n;
    return ST_OK;
}

static void printable(char *dst, size_t cap, const char *src)
{
    size_t k = 0;
    for (; src && *src && k + 1 < cap; src++)
        if (*src >= ' ' && *src <= '~')
            dst[k++] = *src;
    while (k && dst[k - 1] == ' ')
        k--;
    dst[k] = '\0';
}

void summary_set_device(struct summary *s, const char *model, const char *release)
{
    printable(s->model, sizeof(s->model), model);
    printable(s->release, sizeof(s->release), release);
}

void summary_device(const struct summary *s, const char **model, const char **release)
{
    *model = s->model;
    *release = s->release;
}

/* ---- the process dump ------------------------------------------------- */

/* Thread bindings and process names; a thread keeps the first name it
 * was given, by its first word. */
static void psdump_row(struct summary *s, const char *p, size_t n)
{
    struct psdump_row r;
    enum psdump_row_kind k = psdump_line(&s->ps, p, n, &r);
    if (k == PSDUMP_THREAD) {
        struct sum_thread *t = sum_thread(s, (uint32_t)r.tid);
        if (t) {
            t->tgid = r.pid;
            if (!t->name[0])
                sum_copy_name(t->name, r.name, r.word_len);
        }
    } else if (k == PSDUMP_PROCESS) {
        sum_set_pname(s, r.pid, r.name, r.name_len);
    }
}

/* ---- parts and lines -------------------------------------------------- */

static void one_line(struct summary *s, const char *p, size_t n)
{
    if (s->mode == SM_FTRACE)
        sum_ftrace_line(s, p, n);
    else if (s->mode == SM_PSDUMP)
        psdump_row(s, p, n);
}

void summary_feed(struct summary *s, const void *buf, size_t n)
{
    const char *p = buf, *end = p + n;
    int fast_done = 0;
    while (p < end && s->mode != SM_NONE) {
        if (s->mode == SM_FTRACE && !fast_done && !s->skipping && !s->line.len) {
            /* the bulk of the write; what it leaves is a few lines at
             * most, then a line the next write goes on with */
            p += sum_fast_lines(s, p, (size_t)(end - p));
            fast_done = 1;
            continue;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t k = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (s->skipping) {
            s->skipping = !nl;
        } else if (!nl || s->line.len) {
            if (dynbuf_add(&s->line, p, k)) {
                dynbuf_reset(&s->line);
                s->skipping = !nl;
                s->t.dropped++;
            } else if (nl) {
                one_line(s, s->line.data, s->line.len);
                dynbuf_reset(&s->line);
            }
        } else {
            one_line(s, p, k);
        }
        p += k + (nl ? 1 : 0);
    }
}

void summary_begin_part(struct summary *s, const char *name)
{
    dynbuf_reset(&s->line);
    s->skipping = 0;
    s->mode = !strcmp(name, "systemTraceEvents") ? SM_FTRACE
              : !strcmp(name, "androidProcessDump") ? SM_PSDUMP : SM_NONE;
    psdump_init(&s->ps);
    s->part_body = 0;
}

void summary_end_part(struct summary *s)
{
    if (s->line.len && !s->skipping)
        one_line(s, s->line.data, s->line.len);
    dynbuf_reset(&s->line);
    s->mode = SM_NONE;
}

void summary_restart_part(struct summary *s)
{
    dynbuf_reset(&s->line);
    s->skipping = 0;
    s->part_body = 0;
    if (s->mode == SM_FTRACE)
        sum_reset_events(s);
}

static void tee_begin(void *ctx, const char *name)
{
    summary_begin_part(ctx, name);
}

static void tee_write(void *ctx, const void *p, size_t n)
{
    summary_feed(ctx, p, n);
}

static void tee_end(void *ctx)
{
    summary_end_part(ctx);
}

static void tee_restart(void *ctx)
{
    summary_restart_part(ctx);
}

static void not_shown(struct summary *s, const struct tw_fact *f)
{
    s->t.dropped += f->count;
    for (uint32_t i = 0; i < s->nnot_shown; i++)
        if (!strcmp(s->not_shown[i].what, f->what)) {
            s->not_shown[i].count += f->count;
            return;
        }
    if (s->nnot_shown == SUM_NOT_SHOWN)
        return;
    struct sum_not_shown *n = &s->not_shown[s->nnot_shown++];
    snprintf(n->what, sizeof(n->what), "%s", f->what);
    n->count = f->count;
}

/* Events other than ftrace text: they count, and widen the trace's span. */
static void tee_fact(void *ctx, const struct tw_fact *f)
{
    struct summary *s = ctx;
    if (f->kind == TW_FACT_EVENTS) {
        struct summary_totals *t = &s->t;
        if (!s->have_events || f->first_ns < t->first_ns)
            t->first_ns = f->first_ns;
        if (!s->have_events || f->last_ns > t->last_ns)
            t->last_ns = f->last_ns;
        s->have_events = 1;
        t->events += f->count;
    } else if (f->kind == TW_FACT_NOT_SHOWN && f->what) {
        not_shown(s, f);
    } else if (f->kind == TW_FACT_FRAME || f->kind == TW_FACT_FRAME_END) {
        sum_ftl_fact(s, f);
    }
}

const char *summary_not_shown(const struct summary *s, size_t i, uint64_t *count)
{
    if (i >= s->nnot_shown)
        return NULL;
    *count = s->not_shown[i].count;
    return s->not_shown[i].what;
}

void summary_tee(struct summary *s, struct tw_tee *tee)
{
    tee->begin = tee_begin;
    tee->write = tee_write;
    tee->end = tee_end;
    tee->restart = tee_restart;
    tee->ctx = s;
    tee->fact = tee_fact;
}
