/*
 * Fuzz the sync: reply decoder for each kind of request (STAT, STA2,
 * LIST, RECV), fed in pieces whose size comes from byte 0: progress is
 * always made, DATA never exceeds 64 KiB per record, DENT names are
 * NUL-free, and the result does not depend on how the bytes were split.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adb/adb_int.h"

struct tally {
    uint64_t data, events;
    enum st_err e;
    int complete;
};

static void decode(enum adb_sync_expect x, const uint8_t *p, size_t n, size_t chunk,
                   struct tally *t)
{
    struct adb_sync_dec d;
    adb_sync_dec_init(&d, x);
    memset(t, 0, sizeof *t);
    for (size_t off = 0; off < n && !t->e;) {
        size_t k = n - off < chunk ? n - off : chunk;
        const uint8_t *q = p + off;
        off += k;
        while (k && !t->e) {
            struct adb_sync_ev ev;
            size_t used = 0;
            t->e = adb_sync_dec_feed(&d, q, k, &used, &ev);
            if (used > k || (!t->e && !used && ev.type == ADB_SYNC_EV_NONE))
                abort();
            if (ev.type == ADB_SYNC_EV_DATA && (ev.len > ADB_SYNC_DATA_MAX ||
                                                ev.data < q || ev.data + ev.len > q + used))
                abort();
            if (ev.type == ADB_SYNC_EV_DENT && strlen(ev.name) != ev.name_len)
                abort();
            if (ev.type == ADB_SYNC_EV_DATA)
                t->data += ev.len;
            else if (ev.type != ADB_SYNC_EV_NONE)
                t->events++;
            q += used;
            k -= used;
        }
    }
    t->complete = adb_sync_dec_complete(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum adb_sync_expect x = (enum adb_sync_expect)(data[0] & 3);
    size_t chunk = 1 + (data[0] >> 2);
    struct tally a, b;
    decode(x, data + 1, size - 1, chunk, &a);
    decode(x, data + 1, size - 1, size, &b);
    if (a.e != b.e || a.complete != b.complete ||
        (!a.e && (a.data != b.data || a.events != b.events)))
        abort();
    return 0;
}
