/* libFuzzer target: the JSON scanner of --from-file (jsonscan.c) in all
 * three modes, fed in chunks whose size the first byte picks.  Properties
 * checked: members begin and end in pairs; what WHOLE mode hands on for a
 * complete or cut document is valid JSON (scanned again) with at least the
 * complete events counted the first time. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/atrace/jsonscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int open_member;
static unsigned char *out;
static size_t outlen, outcap;

static enum st_err member(void *ctx, const char *key, int is_string)
{
    (void)ctx;
    (void)is_string;
    if (open_member || strlen(key) > JSCAN_KEY_MAX)
        __builtin_trap();
    open_member = 1;
    return ST_OK;
}

static enum st_err member_end(void *ctx)
{
    (void)ctx;
    if (!open_member)
        __builtin_trap();
    open_member = 0;
    return ST_OK;
}

static enum st_err keep(void *ctx, const void *p, size_t n)
{
    (void)ctx;
    if (outlen + n > outcap) {
        outcap = (outlen + n) * 2;
        out = realloc(out, outcap);
        if (!out)
            __builtin_trap();
    }
    memcpy(out + outlen, p, n);
    outlen += n;
    return ST_OK;
}

static enum st_err run(struct jscan *s, const uint8_t *p, size_t n, size_t chunk)
{
    enum st_err e = ST_OK;
    for (size_t off = 0; off < n && !e; off += chunk)
        e = jscan_feed(s, p + off, n - off < chunk ? n - off : chunk);
    return e ? e : jscan_finish(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t chunk = 1 + data[0] % 17;
    enum jscan_mode mode = (enum jscan_mode)(data[0] / 17 % 3);
    data++;
    size--;
    open_member = 0;
    outlen = 0;
    struct jscan_cb cb = {member, keep, member_end, NULL};
    struct jscan *s = jscan_new(mode, &cb);
    enum st_err e = run(s, data, size, chunk);
    uint64_t done = jscan_events_complete(s);
    if (open_member && (e == ST_OK || e == ST_ETRUNCATED))
        __builtin_trap();
    jscan_free(s);
    if (mode == JSCAN_WHOLE && (e == ST_OK || e == ST_ETRUNCATED)) {
        struct jscan *again = jscan_new(JSCAN_COUNT, NULL);
        if (run(again, out, outlen, 4096) != ST_OK || jscan_events_complete(again) < done)
            __builtin_trap();
        jscan_free(again);
    }
    return 0;
}
