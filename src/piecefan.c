/* Several pieces in one read; see piecefan.h. */
#include "piecefan.h"

#include <string.h>

#include "lib/plat.h"

struct fan {
    struct piece_out *p;
    size_t n;
};

static int fan_begin(void *ctx, const char *part)
{
    struct fan *f = ctx;
    for (size_t i = 0; i < f->n; i++) {
        tw_begin(f->p[i].w, part);      /* an error is sticky in the writer */
        f->p[i].taking = pcut_begin(f->p[i].c, part);
    }
    return 1;
}

static enum st_err fan_write(void *ctx, const void *p, size_t n)
{
    struct fan *f = ctx;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < f->n && !e; i++) {
        struct piece_out *o = &f->p[i];
        e = o->taking ? pcut_write(o->c, p, n) : tw_write_kept(o->w, p, n);
        if (!e)
            e = tw_error(o->w);
    }
    return e;
}

static enum st_err fan_end(void *ctx)
{
    struct fan *f = ctx;
    enum st_err e = ST_OK, e2;
    for (size_t i = 0; i < f->n; i++) {
        struct piece_out *o = &f->p[i];
        if (o->taking && (e2 = pcut_end(o->c)) && !e)
            e = e2;
        if ((e2 = tw_end(o->w)) && !e)
            e = e2;
        o->taking = 0;
    }
    return e;
}

enum st_err piecefan_run(const char *path, struct piece_out *p, size_t n,
                         struct ff_result *res)
{
    struct tracewriter *nowhere = NULL;
    struct fan f = {p, n};
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++)
        if (!(p[i].c = pcut_new(&p[i].win, tw_write_kept, p[i].w)))
            e = ST_ENOMEM;
    if (!e)
        e = tw_open(plat_null_device(), TW_JSON, NULL, &nowhere);
    if (!e) {
        struct tw_filter filter = {fan_begin, fan_write, fan_end, &f};
        tw_set_filter(nowhere, &filter);
        e = fromfile_convert_flags(path, nowhere, FF_NO_CUT, res);
    }
    tw_free(nowhere);
    for (size_t i = 0; i < n; i++) {
        p[i].kept = p[i].c ? pcut_kept(p[i].c) : 0;
        pcut_free(p[i].c);
        p[i].c = NULL;
    }
    return e;
}
