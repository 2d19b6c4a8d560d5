/* libFuzzer target: a Perfetto trace's track events and descriptors as
 * trace-event JSON (formats/perfetto/pftev.h), two ways: every packet of
 * the input handed to the writer directly (malformed ones too: it keeps
 * going after each), then the whole input through the trace reader with
 * events on, in chunks whose sizes the input's bytes pick.  Each object
 * handed on must start "\n{" or ",\n{" and end "}", and all of them
 * together, in an array, must be one valid JSON document (jsonscan). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/atrace/jsonscan.h"
#include "formats/perfetto/pb.h"
#include "formats/perfetto/pftev.h"
#include "formats/perfetto/pftrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct out {
    struct jscan *js;
    int n;
};

static enum st_err sink(void *ctx, const void *p, size_t n)
{
    struct out *o = ctx;
    const char *s = p;
    size_t lead = o->n ? 2 : 1;
    if (n < lead + 2 || memcmp(s, o->n ? ",\n{" : "\n{", lead + 1) || s[n - 1] != '}')
        abort();
    o->n++;
    if (o->js && jscan_feed(o->js, p, n) == ST_EFORMAT)
        abort();
    return ST_OK;
}

static void out_begin(struct out *o)
{
    o->js = jscan_new(JSCAN_COUNT, NULL);
    o->n = 0;
    if (o->js)
        jscan_feed(o->js, "[", 1);
}

static void out_end(struct out *o)
{
    if (!o->js)
        return;
    if (jscan_feed(o->js, "]", 1) == ST_EFORMAT || jscan_finish(o->js) == ST_EFORMAT)
        abort();
    jscan_free(o->js);
}

/* CPU samples' stack frames and samples: members, not whole JSON values. */
static enum st_err side(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return ST_OK;
}

static void direct(const uint8_t *data, size_t size)
{
    struct out o;
    out_begin(&o);
    struct pftev *v = pftev_new(sink, &o);
    if (v && size && (data[0] & 1))
        pftev_set_samples(v, side, side, NULL);
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, data, size);
    for (uint32_t i = 0; v && pb_next(&it, &f) == 1; i++) {
        if (f.wire != PB_LEN)
            continue;
        struct pftev_pkt k = {.ts = i * 1000ULL, .seq = f.num % 4, .flags = f.num & 1};
        pftev_packet(v, &k, f.p, f.len);
        pftev_other(v, f.num);
    }
    char note[512];
    if (v) {
        pftev_finish(v);
        pftev_note(v, note, sizeof(note));
    }
    pftev_free(v);
    out_end(&o);
}

static enum st_err lines(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    (void)p;
    (void)n;
    return ST_OK;
}

static void through_reader(const uint8_t *data, size_t size)
{
    struct out o;
    out_begin(&o);
    struct pftrace *t = pftrace_new();
    if (t && !pftrace_set_events(t, sink, &o) && !pftrace_set_samples(t, side, side, NULL)) {
        pftrace_set_output(t, lines, NULL);
        for (size_t i = 0, k = 0; i < size; k++) {
            size_t chunk = (size_t)data[k % size] % 61 + 1;
            size_t n = size - i < chunk ? size - i : chunk;
            if (pftrace_feed(t, data + i, n))
                break;
            i += n;
        }
        pftrace_finish(t);
    }
    pftrace_free(t);
    out_end(&o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    direct(data, size);
    through_reader(data, size);
    return 0;
}
