/* libFuzzer target: the body handling of --update-viewer (src/download.c).
 * Any input through dl_decode_body must not crash and must come out
 * either decoded (base64) or unchanged (raw); base64 of the input, with
 * line breaks wherever the first byte says, must decode back to it. */
#include <stdint.h>
#include <string.h>

#include "src/download.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void encode(const uint8_t *p, size_t n, size_t wrap, struct dynbuf *out)
{
    size_t col = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        char q[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63],
                     i + 1 < n ? tab[v >> 6 & 63] : '=', i + 2 < n ? tab[v & 63] : '='};
        for (int k = 0; k < 4; k++) {
            dynbuf_addc(out, q[k]);
            if (wrap && ++col % wrap == 0)
                dynbuf_addc(out, '\n');
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dynbuf out, err, enc;
    dynbuf_init(&out, 1u << 24);
    dynbuf_init(&err, 4096);
    dynbuf_init(&enc, 1u << 24);
    int b64 = 0;
    enum st_err e = dl_decode_body((const char *)data, size, &out, &b64, &err);
    if (!e && !b64 && (out.len != size || (size && memcmp(out.data, data, size))))
        __builtin_trap();
    if (!e && b64 && out.len > size)
        __builtin_trap();
    if (e && e != ST_ETRUNCATED)
        __builtin_trap();
    size_t wrap = size ? data[0] % 80 : 0;
    encode(data, size, wrap, &enc);
    dynbuf_reset(&out);
    if (dl_base64_decode(dynbuf_str(&enc), enc.len, &out, &err) != ST_OK ||
        out.len != size || (size && memcmp(out.data, data, size)))
        __builtin_trap();
    dynbuf_free(&out);
    dynbuf_free(&err);
    dynbuf_free(&enc);
    return 0;
}
