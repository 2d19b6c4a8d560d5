/*
 * JSON input of `--from-file` (jsonscan.h does the scanning):
 *
 *  - an object whose first member is a string is catapult's -j form (ours
 *    or catapult's): each string member becomes the part of its name again
 *    (systemTraceEvents through the ftrace chain, so the page is the one
 *    -j was written instead of; controllerTraceDataKey is dropped, the
 *    writer adds it back), other members go together into a JSON part;
 *  - anything else (a Chrome / trace-event JSON file, ours from
 *    --trace-events and --method-json included) is one JSON part, as it is.
 *
 * Either way the JSON is validated (an error names the byte), its trace
 * events are counted, and a cut-off file is closed after what it held.
 */
#include <stdio.h>
#include <string.h>

#include "fromfile_int.h"

static enum st_err put(struct ff *f, const void *p, size_t n)
{
    f->res->text_bytes += n;
    return tw_write(f->w, p, n);
}

static enum st_err whole_data(void *ctx, const void *p, size_t n)
{
    return put(ctx, p, n);
}

/* A member name back as a JSON string. */
static enum st_err put_key(struct ff *f, const char *key)
{
    enum st_err e = put(f, "\"", 1);
    for (const char *k = key; !e && *k; k++) {
        char esc[8];
        unsigned char c = (unsigned char)*k;
        int n = c == '"' || c == '\\' ? snprintf(esc, sizeof(esc), "\\%c", c)
              : c < 0x20 ? snprintf(esc, sizeof(esc), "\\u%04x", c)
              : snprintf(esc, sizeof(esc), "%c", c);
        e = put(f, esc, (size_t)n);
    }
    return e ? e : put(f, "\":", 2);
}

static enum st_err close_raw(struct ff *f)
{
    if (!f->raw_open)
        return ST_OK;
    f->raw_open = 0;
    enum st_err e = put(f, "}", 1);
    return e ? e : tw_end(f->w);
}

/* Non-string members share one JSON part while they come in a row. */
static enum st_err raw_member(struct ff *f, const char *key)
{
    enum st_err e;
    f->mkind = M_RAW;
    if (f->raw_open) {
        e = put(f, ",", 1);
    } else {
        f->raw_open = 1;
        f->res->parts++;
        if (!(e = tw_begin(f->w, "traceEvents")))
            e = put(f, "{", 1);
    }
    return e ? e : put_key(f, key);
}

static enum st_err member(void *ctx, const char *key, int is_string)
{
    struct ff *f = ctx;
    if (!is_string)
        return raw_member(f, key);
    enum st_err e = close_raw(f);
    if (e)
        return e;
    if (!strcmp(key, "controllerTraceDataKey")) {
        f->mkind = M_SKIP;
        return ST_OK;
    }
    if (strcmp(key, "systemTraceEvents")) {
        f->mkind = M_VERBATIM;
        return ff_verbatim_begin(f, key);
    }
    f->mkind = M_TEXT;
    f->res->parts++;
    if ((e = tw_begin(f->w, key)))
        return e;
    return ff_chain_new(f, 1);
}

static enum st_err member_data(void *ctx, const void *p, size_t n)
{
    struct ff *f = ctx;
    switch (f->mkind) {
    case M_TEXT:
        return ff_chain_feed(f, p, n);
    case M_VERBATIM:
        return ff_verbatim_write(f, p, n);
    case M_RAW:
        return put(f, p, n);
    default:
        return ST_OK;
    }
}

static enum st_err member_end(void *ctx)
{
    struct ff *f = ctx;
    enum ff_member k = f->mkind;
    f->mkind = M_NONE;
    if (k == M_VERBATIM)
        return ff_verbatim_end(f);
    if (k != M_TEXT)
        return ST_OK;
    enum st_err e = ff_chain_finish(f);
    /* an empty text (only its header, or nothing) is judged at the end */
    return e == ST_ENOTRACE ? tw_end(f->w) : e;
}

static enum st_err ff_json_begin(struct ff *f, const unsigned char *p, size_t n)
{
    struct jscan *probe = jscan_new(JSCAN_COUNT, NULL);
    if (!probe)
        return ST_ENOMEM;
    jscan_feed(probe, p, n);    /* errors show in the real pass */
    int members = jscan_shape(probe) == JSCAN_SHAPE_STRINGS;
    jscan_free(probe);
    struct jscan_cb cb = {member, member_data, member_end, f};
    if (members) {
        f->js = jscan_new(JSCAN_MEMBERS, &cb);
        return f->js ? ST_OK : ST_ENOMEM;
    }
    cb.member = NULL;
    cb.member_end = NULL;
    cb.data = whole_data;
    f->res->parts = 1;
    f->json_whole = 1;
    enum st_err e = tw_begin(f->w, "traceEvents");
    if (!e && !(f->js = jscan_new(JSCAN_WHOLE, &cb)))
        e = ST_ENOMEM;
    return e;
}

static enum st_err ff_json_feed(struct ff *f, const void *p, size_t n)
{
    enum st_err e = jscan_feed(f->js, p, n);
    if ((e == ST_EFORMAT || e == ST_ETOOBIG) && !f->res->detail[0])
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", jscan_detail(f->js));
    return e;
}

static enum st_err ff_json_finish(struct ff *f)
{
    enum st_err e = jscan_finish(f->js);
    f->json_events += jscan_events(f->js);
    if (f->json_whole)      /* members' text is watched by the guard instead */
        f->json_events += (uint64_t)jscan_system_text(f->js);
    if (e == ST_ENOTRACE || e == ST_ETRUNCATED)
        snprintf(f->res->detail, sizeof(f->res->detail), "%s", jscan_detail(f->js));
    if (e == ST_ETRUNCATED) {
        f->res->truncated = 1;
        e = ST_OK;
    }
    if (e)
        return e;
    return f->json_whole ? tw_end(f->w) : close_raw(f);
}

static void ff_json_free(struct ff *f)
{
    jscan_free(f->js);
    f->js = NULL;
}

const struct ff_reader ff_json_reader = {
    .begin = ff_json_begin,
    .feed = ff_json_feed,
    .finish = ff_json_finish,
    .free = ff_json_free,
};
