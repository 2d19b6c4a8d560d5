/*
 * Method trace -> Chrome trace-event JSON (docs/method-traces.md,
 * "Timeline"): the JSON output form of the timeline passes in
 * mtrace_tl.c.  Each thread's calls become "B"/"E" slices on its own
 * track, with "tts" (thread-CPU time) for dual-clock files, the method's
 * class, signature, file and line in args, and flags for synthetic
 * begins/ends, exceptions and implicit ends.
 * B/E (not X) because the classic viewer sorts X slices by start time
 * only and nests equal starts in file order, which inner-first X output
 * breaks (sampling traces have many equal timestamps).
 */
#include "mtrace_tl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mt_jform {
    int nevents;
    uint32_t *frag;                 /* per method: offset+1 in frags */
    uint32_t nfrag;
    struct dynbuf frags;
};

static struct mt_jform *jf(struct mt_tl *j)
{
    return j->form;
}

static void ev_head(struct mt_tl *j, const struct mt_thread *th, char ph,
                    const int64_t t[2])
{
    struct mt_jw *w = j->w;
    mt_jw_lit(w, jf(j)->nevents++ ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
    mt_jw_raw(w, &ph, 1);
    mt_jw_lit(w, "\",\"pid\":");
    mt_jw_i64(w, j->pid);
    mt_jw_lit(w, ",\"tid\":");
    mt_jw_i64(w, mt_tl_tid(j, th->id));
    mt_jw_lit(w, ",\"ts\":");
    mt_jw_i64(w, mt_tl_ts(j, t));
    if (j->wcol >= 0 && j->ccol >= 0) {
        mt_jw_lit(w, ",\"tts\":");
        mt_jw_i64(w, t[j->ccol]);
    }
}

/* `,"cat":...,"name":"Class.method"` and the args object, into b. */
static enum st_err add_fragment(struct mt_tl *j, const struct mt_method *m,
                                struct dynbuf *b)
{
    const char *cls = mt_str(j->tab, m->cls), *name = mt_str(j->tab, m->name);
    const char *shrt = cls;
    for (const char *s = cls; *s; s++)
        if (*s == '/' || *s == '.')
            shrt = s + 1;
    if (m->flags & MT_M_NONAME)
        shrt = cls;
    enum st_err e = dynbuf_addstr(b, ",\"cat\":\"art_method\",\"name\":\"");
    if (e == ST_OK)
        e = mt_json_escape(b, shrt, strlen(shrt));
    if (e == ST_OK && !(m->flags & MT_M_NONAME))
        e = dynbuf_addc(b, '.');
    if (e == ST_OK && !(m->flags & MT_M_NONAME))
        e = mt_json_escape(b, name, strlen(name));
    if (e == ST_OK)
        e = dynbuf_addc(b, '"');
    if (e != ST_OK || j->o.no_args || (m->flags & MT_M_NONAME))
        return e;
    const char *sig = mt_str(j->tab, m->sig), *file = mt_str(j->tab, m->file);
    e = dynbuf_addstr(b, ",\"args\":{\"class\":\"");
    if (e == ST_OK)
        e = mt_json_escape(b, cls, strlen(cls));
    if (e == ST_OK)
        e = dynbuf_addstr(b, "\",\"signature\":\"");
    if (e == ST_OK)
        e = mt_json_escape(b, sig, strlen(sig));
    if (e == ST_OK && *file) {
        e = dynbuf_addstr(b, "\",\"file\":\"");
        if (e == ST_OK)
            e = mt_json_escape(b, file, strlen(file));
    }
    if (e == ST_OK && m->line >= 0)
        return dynbuf_printf(b, "\",\"line\":%d}", (int)m->line);
    return e == ST_OK ? dynbuf_addstr(b, "\"}") : e;
}

/* Cached fragment of a method (add_fragment's text). */
static enum st_err fragment(struct mt_tl *j, uint32_t midx, const char **p,
                            size_t *n)
{
    struct mt_jform *f = jf(j);
    if (midx >= f->nfrag) {
        uint32_t cap = j->tab->nm > midx ? j->tab->nm : midx + 1;
        uint32_t *nf = realloc(f->frag, cap * sizeof(*nf));
        if (!nf)
            return ST_ENOMEM;
        memset(nf + f->nfrag, 0, (cap - f->nfrag) * sizeof(*nf));
        f->frag = nf;
        f->nfrag = cap;
    }
    if (!f->frag[midx]) {
        size_t at = f->frags.len;
        enum st_err e = add_fragment(j, &j->tab->m[midx], &f->frags);
        if (e == ST_OK)
            e = dynbuf_addc(&f->frags, '\0');
        if (e != ST_OK) {
            f->frags.len = at;
            return e;
        }
        f->frag[midx] = (uint32_t)at + 1;
    }
    *p = f->frags.data + f->frag[midx] - 1;
    *n = strlen(*p);
    return ST_OK;
}

static enum st_err json_begin(struct mt_tl *j, const struct mt_thread *th,
                              const struct mt_frame *f, int synthetic)
{
    const char *frag;
    size_t n;
    enum st_err e = fragment(j, f->midx, &frag, &n);
    if (e != ST_OK)
        return e;
    ev_head(j, th, 'B', f->t);
    if (synthetic) {
        /* fragment ends with "}" (args) or "\"" (no args) */
        int args = frag[n - 1] == '}';
        mt_jw_raw(j->w, frag, args ? n - 1 : n);
        mt_jw_lit(j->w, args ? ",\"synthetic_begin\":true}}"
                             : ",\"args\":{\"synthetic_begin\":true}}");
    } else {
        mt_jw_raw(j->w, frag, n);
        mt_jw_lit(j->w, "}");
    }
    return ST_OK;
}

static const char *const end_flag[] = {
    [MT_END_NORMAL] = NULL, [MT_END_EXCEPTION] = "exception",
    [MT_END_IMPLICIT] = "implicit_end", [MT_END_SYNTHETIC] = "synthetic_end",
};

static void json_end(struct mt_tl *j, const struct mt_thread *th,
                     const int64_t t[2], int how)
{
    ev_head(j, th, 'E', t);
    if (end_flag[how]) {
        mt_jw_lit(j->w, ",\"args\":{\"");
        mt_jw_lit(j->w, end_flag[how]);
        mt_jw_lit(j->w, "\":true}");
    }
    mt_jw_lit(j->w, "}");
}

static void meta(struct mt_tl *j, const char *what, int64_t tid,
                 const char *name, const char *suffix)
{
    struct mt_jw *w = j->w;
    mt_jw_lit(w, jf(j)->nevents++ ? ",\n{" : "\n{");
    mt_jw_lit(w, "\"ph\":\"M\",\"pid\":");
    mt_jw_i64(w, j->pid);
    mt_jw_lit(w, ",\"tid\":");
    mt_jw_i64(w, tid);
    mt_jw_lit(w, ",\"name\":\"");
    mt_jw_lit(w, what);
    mt_jw_lit(w, "\",\"args\":{\"name\":\"");
    struct dynbuf b;
    dynbuf_init(&b, 1u << 20);
    if (mt_json_escape(&b, name, strlen(name)) == ST_OK &&
        (!suffix || mt_json_escape(&b, suffix, strlen(suffix)) == ST_OK))
        mt_jw_raw(w, dynbuf_str(&b), b.len);
    dynbuf_free(&b);
    mt_jw_lit(w, "\"}}");
}

static void json_header(struct mt_tl *j)
{
    char buf[64];
    mt_jw_lit(j->w, "{\"traceEvents\":[");
    meta(j, "process_name", 0, mt_tl_process(j, buf, sizeof(buf)), NULL);
    for (uint32_t k = 0; k < j->th.n; k++) {
        uint32_t i = j->th.ids[k];
        const struct mt_tinfo *ti = mt_tinfo_of(j->tab, i);
        char dflt[32];
        snprintf(dflt, sizeof(dflt), "Thread %u", i);
        meta(j, "thread_name", mt_tl_tid(j, i),
             ti->named ? mt_str(j->tab, ti->name) : dflt, j->o.thread_suffix);
    }
}

static void json_tail(struct mt_tl *j)
{
    struct mt_jw *w = j->w;
    const struct mt_tables *t = j->tab;
    mt_jw_lit(w, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":{"
              "\"source\":\"Android method trace\",\"version\":\"");
    mt_jw_i64(w, t->version & 0x0f);
    mt_jw_lit(w, t->streaming ? " streaming\",\"clock\":\"" : "\",\"clock\":\"");
    mt_jw_lit(w, j->info->clock);
    mt_jw_lit(w, "\",\"vm\":");
    mt_jw_str(w, t->vm, strlen(t->vm));
    if (j->wcol < 0)
        mt_jw_lit(w, ",\"note\":\"thread-cpu clock only: ts is per-thread "
                  "CPU time, not comparable across threads\"");
    mt_jw_lit(w, j->info->sampling ? ",\"sampling\":\"likely\"" : "");
    mt_jw_lit(w, "}}\n");
}

static void json_free(struct mt_tl *j)
{
    struct mt_jform *f = jf(j);
    dynbuf_free(&f->frags);
    free(f->frag);
}

static const struct mt_tl_ops json_ops = {
    json_header, json_begin, json_end, json_tail, json_free,
};

enum st_err mtrace_to_trace_events_src(const struct mtrace_src *src,
                                       const struct mtrace_json_opts *opts,
                                       mtrace_write_fn write, void *ctx,
                                       struct mtrace_info *info,
                                       char *err, size_t errlen)
{
    struct mt_jform f;
    memset(&f, 0, sizeof(f));
    dynbuf_init(&f.frags, MT_MAX_STRINGS);
    return mt_tl_convert(&json_ops, &f, src, opts, write, ctx, info, err, errlen);
}

enum st_err mtrace_to_trace_events(const char *path,
                                   const struct mtrace_json_opts *opts,
                                   mtrace_write_fn write, void *ctx,
                                   char *err, size_t errlen)
{
    struct mtrace_src src = { .path = path };
    return mtrace_to_trace_events_src(&src, opts, write, ctx, NULL, err,
                                      errlen);
}
