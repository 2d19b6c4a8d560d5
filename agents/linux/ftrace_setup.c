/* Kernel configuration for a host capture; see ftrace_setup.h. */
#include "ftrace_setup.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/debug.h"

static enum st_err fail(struct capture *c, enum st_err e, const char *detail)
{
    dynbuf_reset(&c->err);
    dynbuf_addstr(&c->err, detail);
    return e;
}

static enum st_err set(struct capture *c, struct tracefs *t, const char *rel, const char *v)
{
    enum st_err e = tracefs_set(t, 0, rel, v);
    return e ? fail(c, e, t->err) : ST_OK;
}

/* WORD in a space separated list, possibly as [WORD]. */
static int has_word(const char *list, const char *word)
{
    size_t l = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += l) {
        int start = p == list || p[-1] == ' ' || p[-1] == '[';
        char e = p[l];
        if (start && (e == '\0' || e == ' ' || e == '\n' || e == ']'))
            return 1;
    }
    return 0;
}

static enum st_err read_text(struct capture *c, struct tracefs *t, const char *rel,
                             struct dynbuf *out)
{
    enum st_err e = tracefs_read(t, 0, rel, out);
    return e ? fail(c, e, t->err) : ST_OK;
}

/* -k: the functions into set_ftrace_filter first (so the tracer never
 * traces everything), then function_graph as atrace does, else function. */
static enum st_err function_tracer(struct capture *c, struct tracefs *t, struct fsetup *s)
{
    struct dynbuf tr, funcs;
    dynbuf_init(&tr, 65536);
    dynbuf_init(&funcs, 1u << 20);
    enum st_err e = read_text(c, t, "available_tracers", &tr);
    if (!e) {
        s->tracer = has_word(dynbuf_str(&tr), "function_graph") ? FT_GRAPH
                    : has_word(dynbuf_str(&tr), "function")     ? FT_FUNCTION
                                                                : FT_NOP;
        if (s->tracer == FT_NOP)
            e = fail(c, ST_EUNSUPPORTED, "-k: this kernel has no function tracer "
                                         "(CONFIG_FUNCTION_TRACER is off)");
    }
    for (const char *p = c->opt->kfuncs; !e && *p;) {
        size_t l = strcspn(p, ",");
        if (l && (e = dynbuf_add(&funcs, p, l)) == ST_OK)
            e = dynbuf_addc(&funcs, '\n');
        p += l + (p[l] == ',');
    }
    if (!e && tracefs_set(t, 0, "set_ftrace_filter", dynbuf_str(&funcs))) {
        dynbuf_reset(&c->err);
        if (t->err_no == EPERM || t->err_no == EACCES)
            dynbuf_printf(&c->err, "-k: this kernel does not allow function tracing "
                                   "(set_ftrace_filter: %s)", strerror(t->err_no));
        else
            dynbuf_printf(&c->err, "-k %s: cannot trace these kernel functions (each must "
                                   "be listed in tracefs's available_filter_functions)",
                          c->opt->kfuncs);
        e = ST_EINVAL;
    }
    if (!e && s->tracer == FT_GRAPH) {
        static const char *const opts[] = {"options/funcgraph-abstime", "options/funcgraph-cpu",
                                           "options/funcgraph-proc", "options/funcgraph-flat"};
        for (size_t i = 0; i < 4 && !e; i++)
            if (tracefs_has(t, 0, opts[i]))
                e = set(c, t, opts[i], "1");
    }
    if (!e)
        e = set(c, t, "current_tracer", s->tracer == FT_GRAPH ? "function_graph" : "function");
    dynbuf_free(&tr);
    dynbuf_free(&funcs);
    return e;
}

int ftrace_default_buf_kb(int stream, long ncpu)
{
    if (!stream)
        return FTRACE_DEFAULT_BUF_KB;
    long kb = FTRACE_STREAM_BUF_TOTAL_KB / (ncpu > 0 ? ncpu : 1);
    kb = kb > FTRACE_STREAM_BUF_KB ? FTRACE_STREAM_BUF_KB : kb;
    return kb < FTRACE_DEFAULT_BUF_KB ? FTRACE_DEFAULT_BUF_KB : (int)kb;
}

static int set_buffer(struct tracefs *t, int buf_kb)
{
    char kb[24];
    snprintf(kb, sizeof(kb), "%d", buf_kb);
    return tracefs_set(t, 0, "buffer_size_kb", kb);
}

static enum st_err buffer_and_clock(struct capture *c, struct tracefs *t, struct fsetup *s)
{
    int given = c->opt->buf_kb > 0;
    s->buf_kb = given ? c->opt->buf_kb
                      : ftrace_default_buf_kb(c->opt->stream, sysconf(_SC_NPROCESSORS_CONF));
    int failed = set_buffer(t, s->buf_kb);
    if (failed && !given && s->buf_kb != FTRACE_DEFAULT_BUF_KB)    /* short of memory */
        failed = set_buffer(t, s->buf_kb = FTRACE_DEFAULT_BUF_KB);
    if (failed) {
        dynbuf_reset(&c->err);
        dynbuf_printf(&c->err, "-b %d: the kernel cannot make a trace buffer of %d KB "
                               "per CPU (%s)", s->buf_kb, s->buf_kb, strerror(t->err_no));
        return ST_EINVAL;
    }
    struct dynbuf clocks;
    dynbuf_init(&clocks, 65536);
    enum st_err e = read_text(c, t, "trace_clock", &clocks);
    if (!e) {
        const char *want = has_word(dynbuf_str(&clocks), "mono") ? "mono" : "global";
        snprintf(s->clock, sizeof(s->clock), "%s", want);
        e = set(c, t, "trace_clock", want);
    }
    dynbuf_free(&clocks);
    return e;
}

static enum st_err enable_events(struct capture *c, struct tracefs *t, const struct evlist *ev)
{
    for (size_t i = 0; i < ev->n; i++) {
        char rel[600];
        if (snprintf(rel, sizeof(rel), "events/%s/enable", ev->v[i]) >= (int)sizeof(rel))
            continue;
        enum st_err e = set(c, t, rel, "1");
        if (e)
            return e;
    }
    return ST_OK;
}

enum st_err ftrace_configure(struct capture *c, struct tracefs *t, const struct evlist *ev,
                             struct fsetup *s)
{
    memset(s, 0, sizeof(*s));
    enum st_err e = set(c, t, "tracing_on", "0");
    if (!e)
        e = buffer_and_clock(c, t, s);
    if (!e && tracefs_has(t, 0, "options/overwrite"))
        e = set(c, t, "options/overwrite", "0");
    if (!e && tracefs_has(t, 0, "options/record-tgid")) {
        e = set(c, t, "options/record-tgid", "1");
        s->tgid_col = !e;
    }
    if (!e)
        e = enable_events(c, t, ev);
    if (!e && c->opt->kfuncs && *c->opt->kfuncs)
        e = function_tracer(c, t, s);
    if (!e && tracefs_write(t, 0, "trace", ""))
        e = fail(c, ST_EIO, t->err);
    return e;
}

static uint64_t field(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        return 0;
    p += strlen(key);
    while (*p == ' ')
        p++;
    return strtoull(p, NULL, 10);
}

void ftrace_read_stats(struct tracefs *t, struct kstats *s)
{
    memset(s, 0, sizeof(*s));
    char dir[PATH_MAX];
    if (tracefs_path(t, 0, "per_cpu", dir, sizeof(dir)))
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d))) {
        char rel[300];
        if (strncmp(de->d_name, "cpu", 3) ||
            snprintf(rel, sizeof(rel), "per_cpu/%s/stats", de->d_name) >= (int)sizeof(rel))
            continue;
        struct dynbuf b;
        dynbuf_init(&b, 65536);
        if (!tracefs_read(t, 0, rel, &b)) {
            const char *x = dynbuf_str(&b);
            struct kstats c = {field(x, "entries:"), field(x, "\noverrun:"),
                               field(x, "commit overrun:"), field(x, "dropped events:"),
                               field(x, "read events:"), 1};
            s->entries += c.entries;
            s->overrun += c.overrun;
            s->commit_overrun += c.commit_overrun;
            s->dropped += c.dropped;
            s->read += c.read;
            s->cpus++;
            ST_DBG(DBG_FTRACE, "kernel %s stats: entries=%llu overrun=%llu commit_overrun=%llu "
                               "dropped=%llu read=%llu", de->d_name,
                   (unsigned long long)c.entries, (unsigned long long)c.overrun,
                   (unsigned long long)c.commit_overrun, (unsigned long long)c.dropped,
                   (unsigned long long)c.read);
        }
        dynbuf_free(&b);
    }
    closedir(d);
}

uint64_t kstats_lost(const struct kstats *s)
{
    return s->overrun + s->commit_overrun + s->dropped;
}
