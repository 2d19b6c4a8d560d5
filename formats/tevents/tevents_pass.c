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
#include <string.h>

#include "tevents_int.h"

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

enum st_err tev_pass_feed(struct tevents *t, const char *p, size_t n)
{
    struct tev_pass *s = &t->pass;
    size_t run = 0;
    for (size_t i = 0; i < n && !t->err; i++) {
        char c = p[i];
        if (s->in_str) {
            string_byte(s, c);
            continue;
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
        structure(s, c);
    }
    if (s->in_elem && !t->err)
        tev_out_write(t, p + run, n - run);
    return t->err;
}
