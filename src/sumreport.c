/* The summary after a capture or conversion; see sumreport.h. */
#include "sumreport.h"

#include <stdio.h>

#include "cli.h"
#include "formats/html/tracewriter.h"
#include "lib/outfile.h"

#define SUMMARY_TEXT_MAX (1u << 20)
#define SUMMARY_JSON_MAX (256u << 20)

int sumreport_open(const char *path, int show, struct tracewriter *w, char *const *cats,
                   size_t ncats, struct summary **out)
{
    *out = NULL;
    if (!show && !path)
        return 0;
    char err[300];
    if (path && outfile_check(path, 0, err, sizeof(err))) {
        fprintf(stderr, "systrace: %s: cannot write: %s\n", path, err);
        return -1;
    }
    struct summary *s = summary_new();
    if (!s || summary_set_categories(s, cats, ncats)) {
        fprintf(stderr, "systrace: out of memory\n");
        summary_free(s);
        return -1;
    }
    struct tw_tee tee;
    summary_tee(s, &tee);
    if (tw_add_tee(w, &tee)) {
        fprintf(stderr, "systrace: internal error: too many listeners on the output\n");
        summary_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int sumreport_write_json(const char *path, size_t max,
                         enum st_err (*make)(const void *ctx, struct dynbuf *o),
                         const void *ctx)
{
    struct dynbuf j;
    dynbuf_init(&j, max);
    struct outfile *f = NULL;
    enum st_err e = make(ctx, &j);
    if (!e)
        e = outfile_open(path, &f);
    if (!e)
        e = outfile_write(f, j.data, j.len);
    if (!e)
        e = outfile_commit(f);
    if (e)
        fprintf(stderr, "systrace: %s: cannot write: %s\n", path,
                f ? outfile_errtext(f) : st_strerror(e));
    outfile_free(f);
    dynbuf_free(&j);
    return e ? EXIT_ERROR : EXIT_OK;
}

struct summary_json_ctx {
    const struct summary *s;
    const char *device;
};

static enum st_err make_summary_json(const void *ctx, struct dynbuf *o)
{
    const struct summary_json_ctx *k = ctx;
    return summary_json(k->s, k->device, o);
}

static int write_json(const struct summary *s, const char *path, const char *device)
{
    struct summary_json_ctx k = {s, device};
    return sumreport_write_json(path, SUMMARY_JSON_MAX, make_summary_json, &k);
}

int sumreport_commit(struct summary *s, const char *path, int show, const char *prefix,
                     const char *device)
{
    if (!s)
        return EXIT_OK;
    if (summary_finish(s)) {
        fprintf(stderr, "systrace: summary: out of memory\n");
        return EXIT_ERROR;
    }
    if (show) {
        struct dynbuf t;
        dynbuf_init(&t, SUMMARY_TEXT_MAX);
        if (!summary_text(s, prefix ? prefix : "", &t) && !dynbuf_addc(&t, '\n')) {
            /* one write: devices finishing together do not mix lines */
            fwrite(t.data, 1, t.len, stdout);
            fflush(stdout);
        }
        dynbuf_free(&t);
    }
    return path ? write_json(s, path, device) : EXIT_OK;
}
