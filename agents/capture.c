/* Small helpers for capture state; see capture.h. */
#include "capture.h"

#include <stdio.h>
#include <time.h>

#include "lib/plat.h"

#include "formats/atrace/linecut.h"

double capture_now_us(void)
{
    return plat_now_us();
}

void capture_uuid(char out[40])
{
    unsigned char b[16] = {0};
    if (plat_random(b, sizeof(b)) != 0) {
        uint64_t t = (uint64_t)time(NULL) ^ (uint64_t)(plat_now_us() * 1e3);
        for (int i = 0; i < 16; i++)
            b[i] ^= (unsigned char)(t >> (i % 8 * 8)) ^ (unsigned char)plat_getpid();
    }
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, 40,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
             b[12], b[13], b[14], b[15]);
}

void capture_warn_cut(struct capture *c, uint64_t lines)
{
    char cut[200];
    if (!lines)
        return;
    lcut_message(cut, sizeof(cut), lines);
    c->ui.warn(c->ui.ctx, "%s", cut);
}
