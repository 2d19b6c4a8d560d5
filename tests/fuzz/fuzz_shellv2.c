/*
 * Fuzz the shell protocol v2 decoder: the input is fed in pieces whose
 * sizes come from byte 0; checks that the decoder always makes progress,
 * never reports more payload than it was given and that the stdout/stderr
 * total matches what a one-shot decode of the same bytes gives.
 */
#include <stdint.h>
#include <stdlib.h>

#include "adb/adb_int.h"

struct tally {
    uint64_t out, err;
    int exit_code;
    enum st_err e;
};

static void decode(const uint8_t *p, size_t n, size_t chunk, struct tally *t)
{
    struct adb_shv2_dec d;
    adb_shv2_init(&d);
    t->out = t->err = 0;
    t->exit_code = -1;
    t->e = ST_OK;
    for (size_t off = 0; off < n && !t->e;) {
        size_t k = n - off < chunk ? n - off : chunk;
        const uint8_t *q = p + off;
        off += k;
        while (k && !t->e) {
            struct adb_shv2_ev ev;
            size_t used = 0;
            t->e = adb_shv2_feed(&d, q, k, &used, &ev);
            if (used > k || (!t->e && !used && ev.type == ADB_SHV2_EV_NONE))
                abort();
            if (ev.type == ADB_SHV2_EV_OUT || ev.type == ADB_SHV2_EV_ERR) {
                if (ev.p < q || ev.p + ev.n > q + used)
                    abort();
                *(ev.type == ADB_SHV2_EV_OUT ? &t->out : &t->err) += ev.n;
            } else if (ev.type == ADB_SHV2_EV_EXIT) {
                if (ev.code < 0 || ev.code > 255)
                    abort();
                t->exit_code = ev.code;
            }
            q += used;
            k -= used;
        }
    }
    if (!t->e)
        t->e = adb_shv2_finish(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t chunk = 1 + data[0];
    struct tally a, b;
    decode(data + 1, size - 1, chunk, &a);
    decode(data + 1, size - 1, size, &b);
    if (a.e != b.e || (!a.e && (a.out != b.out || a.err != b.err ||
                                a.exit_code != b.exit_code)))
        abort();
    return 0;
}
