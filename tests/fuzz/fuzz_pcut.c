/* libFuzzer target: the pieces' readers of outside bytes (formats/piece/):
 * the scan (pscan.c) and the cutter (pcut.c, pcutj.c) of ftrace text,
 * process dumps and trace-event JSON, fed in chunks whose size the first
 * byte picks, a window and processes the next bytes pick, and fed on
 * after an error.  Properties: no crash, no leak, and with nothing to cut
 * (the whole window, every process) the text comes out as it went in. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/piece/pcut.h"
#include "formats/piece/pscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum st_err keep(void *ctx, const void *p, size_t n)
{
    return dynbuf_add(ctx, p, n);
}

static const char *const parts[] = {"systemTraceEvents", "traceEvents", "androidProcessDump"};

static void run(const struct piece_window *w, const char *part, const uint8_t *p, size_t n,
                size_t chunk, struct dynbuf *out)
{
    struct pcut *c = pcut_new(w, keep, out);
    if (!c)
        return;
    pcut_begin(c, part);
    for (size_t off = 0; off < n; off += chunk)
        pcut_write(c, p + off, n - off < chunk ? n - off : chunk);     /* on after errors */
    pcut_end(c);
    pcut_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    size_t chunk = 1 + data[0] % 64 * (data[0] & 0x80 ? 97 : 1);
    int which = data[1] % 3, all = data[2] >> 7;
    const char *part = parts[which];
    int64_t lo = (int64_t)(data[2] % 16) * 500000000, hi = lo + (int64_t)(data[3] % 16 + 1) *
                                                                 700000000;
    data += 4;
    size -= 4;

    struct piece_spec spec;
    memset(&spec, 0, sizeof(spec));
    spec.range = PIECE_SLICE;
    memcpy(spec.slice, "work", 5);
    struct pscan *s = pscan_new(&spec);
    if (!s)
        return 0;
    pscan_begin(s, part);
    for (size_t off = 0; off < size; off += chunk)
        pscan_write(s, data + off, size - off < chunk ? size - off : chunk);
    pscan_end(s);
    struct piece_window w;
    char err[512];
    pscan_window(s, &spec, &w, err, sizeof(err));

    struct dynbuf out;
    dynbuf_init(&out, (size_t)1 << 30);
    w.lo = lo;
    w.hi = hi;
    w.all = all;
    w.npids = 1;
    w.pids[0] = 7;
    run(&w, part, data, size, chunk, &out);

    /* nothing to cut: text out as it went in (only a line too long to
     * read whole may be dropped, and only outside a window: none here) */
    dynbuf_reset(&out);
    w.lo = INT64_MIN;
    w.hi = INT64_MAX;
    w.all = 1;
    if (which == 0) {
        run(&w, part, data, size, chunk, &out);
        if (out.len != size || (size && memcmp(out.data, data, size)))
            __builtin_trap();
    }
    dynbuf_free(&out);
    pscan_free(s);
    return 0;
}
