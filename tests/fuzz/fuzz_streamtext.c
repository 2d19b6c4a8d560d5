/* libFuzzer target: what an Android --stream capture parses of the device's
 * bytes (formats/atrace/streamtext.h): the pid line at the head of the
 * stream, fed in two pieces, and --async_dump outputs joined, the input cut
 * into dumps at every 0x01 byte and fed in chunks of data[0] bytes.  The
 * joined text never holds more than the input plus one LF per dump.  Then
 * the spool's line counter over the same chunks: its output is the input
 * plus "# " per LOST line. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/atrace/streamtext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static enum st_err count(void *ctx, const void *p, size_t n)
{
    (void)p;
    *(uint64_t *)ctx += n;
    return ST_OK;
}

static void head(const char *p, size_t n)
{
    struct stext_head h = {0};
    size_t cut = n ? (size_t)(unsigned char)p[0] % n : 0, used = 0, total = 0;
    long pid = 0;
    int r = stext_head_feed(&h, p, cut, &used, &pid);
    total += used;
    if (!r) {
        r = stext_head_feed(&h, p + cut, n - cut, &used, &pid);
        total += used;
    }
    if (total > n || (r == 1 && (pid <= 0 || pid > 9999999999L)))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data;
    head(p, size);
    size_t chunk = size ? (size_t)data[0] % 61 + 1 : 1;
    uint64_t out = 0;
    struct djoin *d = djoin_new(count, &out);
    if (!d)
        return 0;
    unsigned dumps = 0;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != 1)
            continue;
        djoin_next(d);
        dumps++;
        for (size_t off = start; off < i; off += chunk) {
            size_t k = i - off < chunk ? i - off : chunk;
            djoin_write(d, p + off, k);
        }
        djoin_end(d);
        start = i + 1;
    }
    if (out > size + dumps || djoin_dumps(d) != dumps)
        __builtin_trap();
    uint64_t a, b;
    stext_entries(p, size, &a, &b);
    djoin_free(d);
    /* counting what is spooled: output = input + "# " per LOST line */
    uint64_t sout = 0;
    struct slines *l = slines_new(count, &sout);
    if (!l)
        return 0;
    for (size_t off = 0; off < size; off += chunk)
        slines_write(l, p + off, size - off < chunk ? size - off : chunk);
    slines_finish(l);
    if (sout != size + 2 * slines_lost_lines(l) ||
        slines_events(l) + slines_lost_lines(l) > size)
        __builtin_trap();
    slines_free(l);
    stext_lost(p, size);
    return 0;
}
