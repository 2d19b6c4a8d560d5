/*
 * What the `--from-file` readers write into (fromfile_int.h): the ftrace
 * chain (decoder -> a thread of its own -> 5-column flags -> repairs ->
 * the guard -> the writer's part) and parts copied as they are (a process
 * dump, a JSON part, counted but not judged).  The lowest file of the
 * router's room: the router and every reader call down to it.
 */
#include <stdio.h>
#include <string.h>

#include "formats/atrace/decode.h"
#include "formats/atrace/ftrace_norm.h"
#include "formats/atrace/repair.h"
#include "fromfile_int.h"
#include "lib/astage.h"

static const struct repair_opts file_repair = {.circular = 1, .add_header = 1};
static const struct repair_opts no_cut_repair = {.add_header = 1};

enum st_err ff_not_text(struct ff *f)
{
    f->res->not_text = 1;
    snprintf(f->res->detail, sizeof(f->res->detail), "not ftrace text");
    return ST_EUNSUPPORTED;
}

enum st_err ff_chain_new(struct ff *f, int text)
{
    static const struct fnorm_opts auto_flags = {.flags = FNORM_AUTO};
    f->text_parts++;
    tguard_begin(f->guard, 1);
    f->rep = repair_new(f->no_cut ? &no_cut_repair : &file_repair, &f->gts);
    f->norm = f->rep ? fnorm_new(&auto_flags, repair_write, f->rep) : NULL;
    f->as = f->norm ? astage_new(fnorm_write, f->norm) : NULL;
    f->dec = f->as ? decoder_new(text ? DECODE_TEXT : DECODE_ATRACE, astage_write, f->as)
                   : NULL;
    return f->dec ? ST_OK : ST_ENOMEM;
}

void ff_chain_free(struct ff *f)
{
    decoder_free(f->dec);
    astage_free(f->as);     /* its thread still calls into norm and rep */
    fnorm_free(f->norm);
    repair_free(f->rep);
    f->dec = NULL;
    f->as = NULL;
    f->norm = NULL;
    f->rep = NULL;
}

/* The guard's word on an over-long line wins: it is why the chain stopped. */
static enum st_err chain_error(struct ff *f, enum st_err e)
{
    if (e == ST_ETOOBIG && tguard_detail(f->guard)[0])
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", tguard_detail(f->guard));
    return e;
}

static enum st_err chain_end(struct ff *f)
{
    enum st_err e = decoder_finish(f->dec), e2;
    if ((!e || e == ST_ETRUNCATED) && (e2 = astage_finish(f->as)))
        return chain_error(f, e2);
    if (e && e != ST_ETRUNCATED) {
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", decoder_detail(f->dec));
        return e;
    }
    if (e == ST_ETRUNCATED) {
        f->res->truncated = 1;
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", decoder_detail(f->dec));
    }
    f->res->text_bytes += decoder_bytes_out(f->dec);
    if ((e2 = fnorm_finish(f->norm)) || (e2 = repair_finish(f->rep)))
        return chain_error(f, e2);
    tguard_end(f->guard);
    return tw_end(f->w);
}

enum st_err ff_chain_finish(struct ff *f)
{
    enum st_err e = chain_end(f);
    ff_chain_free(f);
    return e;
}

enum st_err ff_chain_feed(struct ff *f, const void *p, size_t n)
{
    return chain_error(f, decoder_feed(f->dec, p, n));
}

/* ---- parts copied as they are --------------------------------------- */

static int is_json_part(const char *name)
{
    return !strcmp(name, "traceEvents") || !strcmp(name, "systraceController");
}

enum st_err ff_verbatim_begin(struct ff *f, const char *name)
{
    enum st_err e = tw_begin(f->w, name);
    if (e)
        return e;
    f->res->parts++;
    f->vguard = !is_json_part(name);
    if (f->vguard)
        tguard_begin(f->guard, 0);
    if (!strcmp(name, "traceEvents") && !(f->vcount = jscan_new(JSCAN_COUNT, NULL)))
        return ST_ENOMEM;
    return ST_OK;
}

enum st_err ff_verbatim_begin_counted(struct ff *f, const char *name, uint64_t events)
{
    enum st_err e = ff_verbatim_begin(f, name);
    jscan_free(f->vcount);
    f->vcount = NULL;
    f->json_events += events;
    return e;
}

enum st_err ff_verbatim_write(struct ff *f, const void *p, size_t n)
{
    f->res->text_bytes += n;
    /* the page held this part as it is: count its events, do not judge it */
    if (f->vcount && jscan_feed(f->vcount, p, n)) {
        f->json_events += jscan_events(f->vcount);
        jscan_free(f->vcount);
        f->vcount = NULL;
    }
    if (f->vguard)
        return chain_error(f, tguard_write(f->guard, p, n));
    return tw_write(f->w, p, n);
}

enum st_err ff_verbatim_end(struct ff *f)
{
    if (f->vcount) {
        jscan_finish(f->vcount);
        f->json_events += jscan_events(f->vcount);
        jscan_free(f->vcount);
        f->vcount = NULL;
    }
    if (f->vguard)
        tguard_end(f->guard);
    f->vguard = 0;
    return tw_end(f->w);
}
