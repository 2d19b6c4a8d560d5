/*
 * Method trace -> atrace text (docs/method-traces.md, "Timeline in the
 * page"): the form of the timeline (mtrace_tl.c) that both the classic
 * viewer's ftrace importer and Perfetto's systrace importer read, so a
 * page shows the same slices in both (Perfetto skips JSON blocks).  Every
 * call is the pair apps write themselves with android.os.Trace:
 *
 *   TASK-TID (PID) [000] ...1 SEC.USEC: tracing_mark_write: B|PID|Class.method
 *   TASK-TID (PID) [000] ...1 SEC.USEC: tracing_mark_write: E|PID
 *
 * TASK is the thread's name (plus opts.thread_suffix), TID its track id,
 * behind the usual ftrace header.  Optionally a PROCESS DUMP part naming
 * the process comes first (both viewers name processes from it).
 *
 * The text cannot escape anything, so what would change a line's meaning
 * is replaced: line breaks and other control characters, JavaScript's
 * line terminators U+2028/U+2029 and invalid UTF-8 become U+FFFD, and '|'
 * in a method name U+00A6 (the classic viewer ends a name at '|';
 * Android's dex format allows neither in names).  Blanks around thread
 * names are dropped (both importers trim them).  Timestamps before 0
 * (a clock shift) are written as 0, counted in info->clamped.  Arguments
 * and thread-CPU times are not in this form (--method-json has them).
 */
#include "mtrace_tl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT (1u << 30)         /* cached names and line prefixes */

struct mt_tform {
    struct dynbuf names;            /* per method: text, NUL-ended */
    uint32_t *name_at;              /* per method: offset+1 in names */
    uint32_t nname;
    uint32_t *prefix_at;            /* per thread id: offset+1 in names */
    int (*part)(void *ctx, const char *name);
    void *ctx;
};

static struct mt_tform *tf(struct mt_tl *j)
{
    return j->form;
}

static enum st_err add_fffd(struct dynbuf *b)
{
    return dynbuf_add(b, "\xef\xbf\xbd", 3);
}

/* Text as the atrace line can carry it (see the top of this file). */
static enum st_err add_text(struct dynbuf *b, const char *s, size_t n, int name)
{
    const unsigned char *p = (const unsigned char *)s;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && e == ST_OK;) {
        size_t l = p[i] >= 0x20 && p[i] != 0x7f ? mt_utf8_len(p + i, n - i) : 0;
        int ls = l == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 &&
                 (p[i + 2] == 0xa8 || p[i + 2] == 0xa9);
        if (!l || ls)
            e = add_fffd(b);
        else if (name && p[i] == '|')
            e = dynbuf_add(b, "\xc2\xa6", 2);
        else
            e = dynbuf_add(b, p + i, l);
        i += l ? l : 1;
    }
    return e;
}

/* "Class.method" (short class name), as the JSON form names it. */
static enum st_err add_method(struct mt_tl *j, const struct mt_method *m,
                              struct dynbuf *b)
{
    const char *cls = mt_str(j->tab, m->cls), *name = mt_str(j->tab, m->name);
    const char *shrt = cls;
    for (const char *s = cls; *s && !(m->flags & MT_M_NONAME); s++)
        if (*s == '/' || *s == '.')
            shrt = s + 1;
    enum st_err e = add_text(b, shrt, strlen(shrt), 1);
    if (e == ST_OK && !(m->flags & MT_M_NONAME))
        e = dynbuf_addc(b, '.');
    if (e == ST_OK && !(m->flags & MT_M_NONAME))
        e = add_text(b, name, strlen(name), 1);
    return e;
}

/* "TASK-TID (PID) [000] ...1 " of a thread. */
static enum st_err add_prefix(struct mt_tl *j, uint32_t id, struct dynbuf *b)
{
    const struct mt_tinfo *ti = mt_tinfo_of(j->tab, id);
    const char *name = ti->named ? mt_str(j->tab, ti->name) : "";
    size_t n = strlen(name), at = b->len;
    while (n && (*name == ' ' || *name == '\t'))
        name++, n--;
    while (n && (name[n - 1] == ' ' || name[n - 1] == '\t'))
        n--;
    enum st_err e = n ? add_text(b, name, n, 0) : dynbuf_printf(b, "Thread %u", id);
    const char *sfx = j->o.thread_suffix;
    if (e == ST_OK && sfx)
        e = add_text(b, sfx, strlen(sfx), 0);
    while (e == ST_OK && b->len > at && b->data[b->len - 1] == ' ')
        b->len--;
    if (e == ST_OK)
        e = dynbuf_printf(b, "-%lld (%ld) [000] ...1 ", (long long)mt_tl_tid(j, id), j->pid);
    return e;
}

/* Cached text: kind 0 a method's name, 1 a thread's line prefix; *out
 * is its offset in f->names (which moves as it grows). */
static enum st_err cached(struct mt_tl *j, int kind, uint32_t i, size_t *out)
{
    struct mt_tform *f = tf(j);
    uint32_t *slot;
    if (kind == 1) {
        if (!f->prefix_at && !(f->prefix_at = calloc(MT_NTHREADS, sizeof(uint32_t))))
            return ST_ENOMEM;
        slot = &f->prefix_at[i & (MT_NTHREADS - 1)];
    } else {
        if (i >= f->nname) {
            uint32_t cap = j->tab->nm > i ? j->tab->nm : i + 1;
            uint32_t *na = realloc(f->name_at, cap * sizeof(*na));
            if (!na)
                return ST_ENOMEM;
            memset(na + f->nname, 0, (cap - f->nname) * sizeof(*na));
            f->name_at = na;
            f->nname = cap;
        }
        slot = &f->name_at[i];
    }
    if (!*slot) {
        size_t at = f->names.len;
        enum st_err e = kind ? add_prefix(j, i, &f->names)
                             : add_method(j, &j->tab->m[i], &f->names);
        if (e == ST_OK)
            e = dynbuf_addc(&f->names, '\0');
        if (e != ST_OK) {
            f->names.len = at;
            return e;
        }
        *slot = (uint32_t)at + 1;
    }
    *out = *slot - 1;
    return ST_OK;
}

static void line(struct mt_tl *j, const char *prefix, const int64_t t[2],
                 char ph, const char *name)
{
    int64_t ts = mt_tl_ts(j, t);
    if (ts < 0) {
        ts = 0;
        j->info->clamped++;
        j->info->warnings |= MTRACE_W_CLAMPED;
    }
    char buf[96];
    int n = snprintf(buf, sizeof(buf), "%lld.%06lld: tracing_mark_write: %c|%ld%s",
                     (long long)(ts / 1000000), (long long)(ts % 1000000), ph, j->pid,
                     name ? "|" : "\n");
    if (n < 0 || (size_t)n >= sizeof(buf)) {    /* cannot happen: <= 75 bytes */
        j->w->failed = 1;
        return;
    }
    mt_jw_lit(j->w, prefix);
    mt_jw_raw(j->w, buf, (size_t)n);
    if (name) {
        mt_jw_lit(j->w, name);
        mt_jw_lit(j->w, "\n");
    }
}

static enum st_err text_begin(struct mt_tl *j, const struct mt_thread *th,
                              const struct mt_frame *f, int synthetic)
{
    (void)synthetic;
    size_t prefix, name;
    enum st_err e = cached(j, 1, th->id, &prefix);
    if (e == ST_OK)
        e = cached(j, 0, f->midx, &name);
    if (e == ST_OK)
        line(j, tf(j)->names.data + prefix, f->t, 'B', tf(j)->names.data + name);
    return e;
}

static void text_end(struct mt_tl *j, const struct mt_thread *th,
                     const int64_t t[2], int how)
{
    (void)how;
    size_t prefix;
    if (cached(j, 1, th->id, &prefix) != ST_OK) {
        j->w->failed = 1;   /* its begin was written, so this cannot fail */
        return;
    }
    line(j, tf(j)->names.data + prefix, t, 'E', NULL);
}

/* The process as one token of a `ps` line (both viewers split on blanks). */
static void process_dump(struct mt_tl *j)
{
    char buf[64], name[256];
    const char *p = mt_tl_process(j, buf, sizeof(buf));
    size_t n = 0;
    for (; *p && n + 1 < sizeof(name); p++)
        name[n++] = (unsigned char)*p <= ' ' || *p == 0x7f ? '-' : *p;
    name[n] = '\0';
    mt_jw_lit(j->w, "PROCESS DUMP\nUSER           PID  PPID     VSZ    RSS WCHAN"
                    "            PC S NAME                        COMM\n");
    char row[600];
    snprintf(row, sizeof(row), "app %8ld     0       0      0 0                 0 S %s %s\n",
             j->pid, name, name);
    mt_jw_lit(j->w, row);
}

static int new_part(struct mt_tl *j, const char *name)
{
    mt_jw_flush(j->w);
    if (!j->w->failed && tf(j)->part(tf(j)->ctx, name) != 0)
        j->w->failed = 1;
    return !j->w->failed;
}

static void text_header(struct mt_tl *j)
{
    if (tf(j)->part) {
        if (!new_part(j, "androidProcessDump"))
            return;
        process_dump(j);
        if (!new_part(j, "systemTraceEvents"))
            return;
    }
    mt_jw_lit(j->w, "# tracer: nop\n#\n"
                    "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
                    "#              | |        |      |   ||||       |         |\n");
}

static void text_tail(struct mt_tl *j)
{
    (void)j;
}

static void text_free(struct mt_tl *j)
{
    struct mt_tform *f = tf(j);
    dynbuf_free(&f->names);
    free(f->name_at);
    free(f->prefix_at);
}

static const struct mt_tl_ops text_ops = {
    text_header, text_begin, text_end, text_tail, text_free,
};

enum st_err mtrace_to_atrace_src(const struct mtrace_src *src,
                                 const struct mtrace_json_opts *opts,
                                 int (*part)(void *ctx, const char *name),
                                 mtrace_write_fn write, void *ctx,
                                 struct mtrace_info *info,
                                 char *err, size_t errlen)
{
    struct mt_tform f;
    memset(&f, 0, sizeof(f));
    dynbuf_init(&f.names, MAX_TEXT);
    f.part = part;
    f.ctx = ctx;
    return mt_tl_convert(&text_ops, &f, src, opts, write, ctx, info, err, errlen);
}
