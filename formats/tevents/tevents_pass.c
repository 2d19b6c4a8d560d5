/*
 * A page's traceEvents parts (a JSON input kept as it is, a Perfetto
 * trace's non-ftrace data: formats/input/fromfile_pfev.c) carried into
 * --trace-events: the elements of the part's event array (the root array,
 * or the root object's "traceEvents" array) are copied as they are, each
 * behind the converter's own separator; the rest of the part is skipped.
 * A byte-level scan (strings, escapes, nesting) with fixed state, any
 * chunking.  The part is trusted to be JSON: the page's writer checked it
 * (fromfile_json.c validates a JSON input, pftev writes valid objects).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/plat.h"
#include "tevents_int.h"

#define SIDE_CHUNK ((size_t)64 << 10)

void tev_pass_begin(struct tevents *t)
{
    memset(&t->pass, 0, sizeof(t->pass));
    tev_open_json(t);
}

static int blank(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Outside strings: nesting, and where the event array opens. */
static void structure(struct tev_pass *s, char c)
{
    if (c == '"') {
        s->in_str = 1;
        s->keying = s->root == '{' && s->depth == 1;
        if (s->keying)
            s->klen = 0;
    } else if (c == '{' || c == '[') {
        if (!s->depth)
            s->root = c;
        else if (s->depth == 1 && c == '[' && s->root == '{' && !s->arr &&
                 s->klen == 11 && !memcmp(s->key, "traceEvents", 11))
            s->arr = 2;
        s->depth++;
        if (s->depth == 1 && c == '[')
            s->arr = 1;
        if (s->depth == 2 && s->root == '{' && c == '{' && s->klen == 11 &&
            !memcmp(s->key, "stackFrames", 11))
            s->side = 1;
        if (s->depth == 2 && s->root == '{' && c == '[' && s->klen == 7 &&
            !memcmp(s->key, "samples", 7))
            s->side = 2;
    } else if (c == '}' || c == ']') {
        if (s->depth && s->arr > 0 && s->depth == s->arr && c == ']')
            s->arr = -1;    /* done: one event array per part */
        if (s->depth)
            s->depth--;
    }
}

static void string_byte(struct tev_pass *s, char c)
{
    if (s->esc)
        s->esc = 0;
    else if (c == '\\')
        s->esc = 1;
    else if (c == '"')
        s->in_str = 0;
    else if (s->keying && s->klen < sizeof(s->key))
        s->key[s->klen++] = c;
}

static void side_fail(struct tevents *t, const char *what)
{
    if (!t->err) {
        t->err = ST_EIO;
        snprintf(t->errtext, sizeof(t->errtext), "cannot %s the CPU samples' temporary "
                 "file: %s", what, strerror(errno ? errno : ENOSPC));
    }
}

static void side_write(struct tevents *t, struct tev_side *d, const char *p, size_t n)
{
    if (!d->open) {
        d->fd = plat_tmpfile_open(d->path, sizeof(d->path));
        if (d->fd < 0)
            return side_fail(t, "open");
        d->open = 1;
    }
    while (n && !t->err) {
        ssize_t w = write(d->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return side_fail(t, "write");
        p += w;
        n -= (size_t)w;
        d->bytes += (uint64_t)w;
    }
}

/* A run of a stackFrames object's or samples array's insides; the first
 * with content in a part is joined to earlier parts' by a comma. */
static void side_run(struct tevents *t, const char *p, size_t n)
{
    struct tev_side *d = &t->side[t->pass.side - 1];
    size_t i = 0;
    while (i < n && blank(p[i]))
        i++;
    if (i < n && !t->pass.side_body) {
        t->pass.side_body = 1;
        if (d->bytes)
            side_write(t, d, ",", 1);
    }
    side_write(t, d, p, n);
}

void tev_pass_run(struct tevents *t, uint64_t events, uint64_t bytes)
{
    struct tev_pass *s = &t->pass;
    if (t->mode != TEV_JSON || s->in_str || s->in_elem || s->arr <= 0 || s->depth != s->arr ||
        s->run_left || !bytes || !events)
        return;
    s->run_left = bytes;
    s->run_events = events;
    s->run_begun = 0;
}

/* The run's bytes as they are: its first event's separator is ours to
 * write (a ',' when events came before), the rest are in the run. */
static size_t run_copy(struct tevents *t, const char *p, size_t n)
{
    struct tev_pass *s = &t->pass;
    size_t k = n < s->run_left ? n : (size_t)s->run_left;
    if (!s->run_begun && k) {
        s->run_begun = 1;
        if (t->nev)
            tev_out_write(t, ",", 1);
    }
    tev_out_write(t, p, k);
    s->run_left -= k;
    if (!s->run_left) {     /* the last one is read on to its end, as the scan would */
        t->nev += s->run_events - 1;
        t->st.events += s->run_events - 1;
        s->in_elem = 1;
    }
    return k;
}

enum st_err tev_pass_feed(struct tevents *t, const char *p, size_t n)
{
    struct tev_pass *s = &t->pass;
    size_t run = 0, srun = 0;
    if (s->run_left) {
        size_t k = run_copy(t, p, n);
        p += k;
        n -= k;
    }
    for (size_t i = 0; i < n && !t->err; i++) {
        char c = p[i];
        if (s->in_str) {
            string_byte(s, c);
            continue;
        }
        if (s->side && s->depth == 2 && (c == '}' || c == ']')) {
            side_run(t, p + srun, i - srun);
            s->side = 0;
        }
        int at_arr = s->arr > 0 && s->depth == s->arr;
        if (s->in_elem && at_arr && (c == ',' || c == ']')) {
            tev_out_write(t, p + run, i - run);
            s->in_elem = 0;
            t->nev++;
            t->st.events++;
        } else if (!s->in_elem && at_arr && c != ',' && c != ']' && !blank(c)) {
            tev_out_write(t, t->nev ? ",\n" : "\n", t->nev ? 2 : 1);
            s->in_elem = 1;
            run = i;
        }
        int was = s->side;
        structure(s, c);
        if (s->side && !was) {
            s->side_body = 0;
            srun = i + 1;
        }
    }
    if (s->in_elem && !t->err)
        tev_out_write(t, p + run, n - run);
    if (s->side && !t->err && srun < n)
        side_run(t, p + srun, n - srun);
    return t->err;
}

static enum st_err side_copy(struct tevents *t, struct tev_side *d)
{
    if (!d->open)
        return t->err;
    char *buf = malloc(SIDE_CHUNK);
    if (!buf || plat_seek(d->fd, 0)) {
        free(buf);
        side_fail(t, "read");
        return t->err;
    }
    while (!t->err) {
        ssize_t r = read(d->fd, buf, SIDE_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            side_fail(t, "read");
        if (r <= 0)
            break;
        tev_out_write(t, buf, (size_t)r);
    }
    free(buf);
    return t->err;
}

enum st_err tev_pass_sides(struct tevents *t)
{
    static const char frames[] = "\n],\n\"stackFrames\":{", samples[] = "\n},\n\"samples\":[";
    if (t->err || !t->side[1].bytes)
        return t->err;
    tev_out_write(t, frames, sizeof(frames) - 1);
    side_copy(t, &t->side[0]);
    tev_out_write(t, samples, sizeof(samples) - 1);
    return side_copy(t, &t->side[1]);
}

void tev_pass_free(struct tevents *t)
{
    for (int i = 0; i < 2; i++)
        if (t->side[i].open)
            plat_tmpfile_done(t->side[i].fd, t->side[i].path);
}
