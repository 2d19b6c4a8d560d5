/* libFuzzer target: the trace summary (formats/summary/summary.h) on the
 * bytes of a page's parts, and the line tokenizer's fast path against the
 * general one (formats/tevents/tevents.h).  The first byte picks a chunk
 * size and whether the input is a process dump followed by the events or
 * the events alone (split at the first NUL).  The same input fed whole and
 * in chunks gives the same totals, and fed a byte at a time (every line
 * through the tokenizer, none through the summary's fast reader) the same
 * JSON; the terminal lines and the JSON are written; where the fast
 * tokenizer answers, the general one agrees. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/summary/summary.h"
#include "formats/tevents/tevents.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_lines(const char *p, size_t n)
{
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t k = nl ? (size_t)(nl - p) : n;
        struct tev_line a, b;
        if (tev_parse_line_std(p, k, &a)) {
            if (!tev_parse_line_general(p, k, &b) || a.task != b.task ||
                a.task_len != b.task_len || a.tid != b.tid || a.tgid != b.tgid ||
                a.cpu != b.cpu || a.ts_ns != b.ts_ns || a.event != b.event ||
                a.event_len != b.event_len || a.args != b.args || a.args_len != b.args_len)
                __builtin_trap();
        }
        p += k + (nl != NULL);
        n -= k + (nl != NULL);
    }
}

static void feed(struct summary *s, const char *part, const char *p, size_t n, size_t chunk)
{
    summary_begin_part(s, part);
    for (size_t o = 0; o < n; o += chunk)
        summary_feed(s, p + o, n - o < chunk ? n - o : chunk);
    summary_end_part(s);
}

static struct summary *run(const char *ps, size_t nps, const char *ev, size_t nev,
                           size_t chunk)
{
    struct summary *s = summary_new();
    static char *const cats[] = {"sched", "gfx", "freq", "workq"};
    if (!s || summary_set_categories(s, cats, 4))
        abort();
    if (ps)
        feed(s, "androidProcessDump", ps, nps, chunk);
    feed(s, "systemTraceEvents", ev, nev, chunk);
    if (summary_finish(s))
        abort();
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t chunk = (size_t)(data[0] & 0x3f) + 1;
    const char *p = (const char *)data + 1, *ps = NULL;
    size_t n = size - 1, nps = 0;
    if (data[0] & 0x40) {
        const char *z = memchr(p, 0, n);
        if (z) {
            ps = p;
            nps = (size_t)(z - p);
            n -= nps + 1;
            p = z + 1;
        }
    }
    check_lines(p, n);
    struct summary *whole = run(ps, nps, p, n, n + nps + 1);
    struct summary *cut = run(ps, nps, p, n, chunk);
    const struct summary_totals *a = summary_totals(whole), *b = summary_totals(cut);
    if (a->events != b->events || a->lost != b->lost || a->first_ns != b->first_ns ||
        a->last_ns != b->last_ns || a->busy_ns != b->busy_ns || a->cpus != b->cpus)
        __builtin_trap();
    struct dynbuf out, ref;
    dynbuf_init(&out, 1u << 24);
    dynbuf_init(&ref, 1u << 24);
    /* a line longer than the carry's maximum is read only when it comes
     * whole: compare where none can be */
    if (size < SUM_LINE_MAX) {
        struct summary *bytewise = run(ps, nps, p, n, 1);
        if (summary_json(whole, NULL, &out) != ST_OK ||
            summary_json(bytewise, NULL, &ref) != ST_OK || out.len != ref.len ||
            memcmp(out.data, ref.data, out.len))
            __builtin_trap();
        summary_free(bytewise);
        dynbuf_reset(&out);
    }
    dynbuf_free(&ref);
    if (summary_text(cut, "X: ", &out) == ST_OK) {
        size_t lines = 0;
        for (size_t i = 0; i < out.len; i++)
            lines += out.data[i] == '\n';
        if (lines > 8)
            __builtin_trap();
    }
    dynbuf_reset(&out);
    if (summary_json(cut, "dev", &out) == ST_OK && (!out.len || out.data[0] != '{'))
        __builtin_trap();
    dynbuf_free(&out);
    summary_free(whole);
    summary_free(cut);
    return 0;
}
