/*
 * The trace-event converter writing a file (`--trace-events FILE`): the
 * output goes through outfile, so FILE appears only when complete, and
 * the circular-buffer rewind is a truncation of the temporary file.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib/outfile.h"
#include "tevents_int.h"

static enum st_err f_write(void *ctx, const void *p, size_t n)
{
    return outfile_write(ctx, p, n);
}

static uint64_t f_tell(void *ctx)
{
    return outfile_tell(ctx);
}

static enum st_err f_keep(void *ctx, uint64_t a, uint64_t b)
{
    return outfile_keep(ctx, a, b);
}

enum st_err tevents_open_file(const char *path, struct tevents **out)
{
    *out = NULL;
    struct outfile *o;
    enum st_err e = outfile_open(path, &o);
    struct text_sink s = {f_write, f_tell, f_keep, o};
    struct tevents *t = o ? tevents_new(&s) : NULL;
    if (!t) {
        outfile_free(o);
        return e ? e : ST_ENOMEM;
    }
    t->own = o;
    *out = t;
    if (e)
        snprintf(t->errtext, sizeof(t->errtext), "%s", outfile_errtext(o));
    t->err = e;
    return e;
}

enum st_err tevents_commit(struct tevents *t)
{
    enum st_err e = tevents_finish(t);
    if (!e && t->own && (e = outfile_commit(t->own)))
        snprintf(t->errtext, sizeof(t->errtext), "%s", outfile_errtext(t->own));
    if (e && !t->err)
        t->err = e;
    return e;
}
