/*
 * Public entry points for profiles and call graphs (mtrace.h): read the
 * source once into a profile, then print it.  The output FILE is checked
 * once at the end (sticky error).
 */
#include "mtrace_int.h"

#include <string.h>

typedef enum st_err (*printer_fn)(const struct mt_profile *p, FILE *out,
                                  const void *arg);

static enum st_err run(const struct mtrace_src *src, FILE *out,
                       enum mtrace_clock clock, struct mtrace_info *info,
                       printer_fn print, const void *arg, char *err,
                       size_t errlen)
{
    struct mtrace_info local;
    struct mt_profile p;
    if (!info)
        info = &local;
    memset(info, 0, sizeof(*info));
    if (err && errlen)
        err[0] = '\0';
    enum st_err e = mt_profile_read(&p, src, clock, info, err, errlen);
    if (e == ST_OK) {
        e = print(&p, out, arg);
        if (e == ST_OK && (fflush(out) != 0 || ferror(out))) {
            e = ST_EIO;
            mt_err(err, errlen, "cannot write the output");
        } else if (e != ST_OK) {
            mt_err(err, errlen, "%s", st_strerror(e));
        }
    } else if (err && errlen && !err[0]) {
        mt_err(err, errlen, "%s", st_strerror(e));
    }
    mt_profile_free(&p);
    return e;
}

static enum st_err print_profile(const struct mt_profile *p, FILE *out,
                                 const void *arg)
{
    enum mtrace_fmt fmt = *(const enum mtrace_fmt *)arg;
    return fmt == MTRACE_FMT_TSV ? mt_print_tsv(p, out) : mt_print_text(p, out);
}

static enum st_err print_graph(const struct mt_profile *p, FILE *out,
                               const void *arg)
{
    return mt_print_dot(p, out, *(const double *)arg);
}

enum st_err mtrace_profile_src(const struct mtrace_src *src, FILE *out,
                               enum mtrace_fmt fmt, enum mtrace_clock clock,
                               struct mtrace_info *info,
                               char *err, size_t errlen)
{
    return run(src, out, clock, info, print_profile, &fmt, err, errlen);
}

enum st_err mtrace_profile(const char *path, FILE *out, enum mtrace_fmt fmt,
                           char *err, size_t errlen)
{
    struct mtrace_src src = { .path = path };
    return mtrace_profile_src(&src, out, fmt, MTRACE_CLOCK_DEFAULT, NULL, err,
                              errlen);
}

enum st_err mtrace_callgraph_src(const struct mtrace_src *src, FILE *out,
                                 double threshold_pct, enum mtrace_clock clock,
                                 struct mtrace_info *info,
                                 char *err, size_t errlen)
{
    return run(src, out, clock, info, print_graph, &threshold_pct, err,
               errlen);
}

enum st_err mtrace_callgraph(const char *path, FILE *out, double threshold_pct,
                             char *err, size_t errlen)
{
    struct mtrace_src src = { .path = path };
    return mtrace_callgraph_src(&src, out, threshold_pct,
                                MTRACE_CLOCK_DEFAULT, NULL, err, errlen);
}
