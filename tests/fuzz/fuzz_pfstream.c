/* libFuzzer target: the Perfetto streaming readers as a live capture feeds
 * them, with no stop at the first error.  The input's first 8 bytes seed
 * the chunk sizes (1 byte to 64 KB, redrawn per chunk), the rest is the
 * trace: pftrace_scan_feed and pftrace_feed each get every chunk even
 * after they failed (an error must be sticky, never a write past a
 * buffer), then the live conversion (ff_push with FF_PUSH_HOLE into an
 * HTML page, as --perfetto runs it) gets the same chunks.  Longer inputs
 * than the other targets (tests/fuzz/run: -max_len of 1 MB): the sort
 * window and the live hold-back only fill with traces that long. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/input/fromfile.h"
#include "formats/html/tracewriter.h"
#include "formats/perfetto/pftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct chunks {
    uint64_t x;
};

static size_t next_chunk(struct chunks *c)
{
    c->x ^= c->x << 13;
    c->x ^= c->x >> 7;
    c->x ^= c->x << 17;
    /* mostly small (varints and tags cut everywhere), sometimes large */
    size_t shift = (size_t)(c->x >> 60);
    return (size_t)(c->x % ((size_t)1 << shift)) + 1;
}

static enum st_err sink(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    if (n && ((const char *)p)[n - 1] != '\n')
        abort();
    return ST_OK;
}

static void readers(uint64_t seed, const uint8_t *data, size_t size)
{
    struct pftrace *scan = pftrace_new(), *conv = pftrace_new();
    if (scan && conv) {
        struct chunks c = {seed | 1};
        enum st_err first = ST_OK;
        pftrace_set_output(conv, sink, NULL);
        for (size_t at = 0; at < size;) {
            size_t n = next_chunk(&c);
            n = n < size - at ? n : size - at;
            pftrace_scan_feed(scan, data + at, n);
            enum st_err e = pftrace_feed(conv, data + at, n);
            if (first && e != first)
                abort();    /* an error stays the error */
            first = first ? first : e;
            at += n;
        }
        if (!first)
            pftrace_finish(conv);
    }
    pftrace_free(scan);
    pftrace_free(conv);
}

static void live(uint64_t seed, const uint8_t *data, size_t size)
{
    static char html[] = "<!-- viewer -->", js[] = "/* js */";
    struct viewer v = {.html = html, .html_len = sizeof(html) - 1, .js = js,
                       .js_len = sizeof(js) - 1};
    char out[] = "/tmp/systrace-fuzz-pfstream.XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        return;
    close(fd);
    struct tracewriter *w = NULL;
    struct ff_push *p = NULL;
    if (!tw_open(out, TW_HTML, &v, &w) && !ff_push_new(w, FF_PUSH_HOLE, &p)) {
        struct chunks c = {seed | 1};
        for (size_t at = 0; at < size;) {
            size_t n = next_chunk(&c);
            n = n < size - at ? n : size - at;
            ff_push(p, data + at, n);   /* on after an error, as a capture does */
            at += n;
        }
        enum st_err e = ff_push_finish(p);
        if (!e || e == ST_ETRUNCATED)
            tw_commit(w);
    }
    ff_push_free(p);
    tw_free(w);
    unlink(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    size_t head = size < 8 ? size : 8;
    for (size_t i = 0; i < head; i++)
        seed = seed * 131 + data[i];
    readers(seed, data + head, size - head);
    live(seed, data + head, size - head);
    return 0;
}
