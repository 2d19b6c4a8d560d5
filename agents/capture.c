/* Small helpers for capture state; see capture.h. */
#include "capture.h"

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "formats/atrace/linecut.h"

double capture_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void capture_uuid(char out[40])
{
    unsigned char b[16] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        if (read(fd, b, sizeof(b)) != (ssize_t)sizeof(b)) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            for (int i = 0; i < 16; i++)
                b[i] ^= (unsigned char)(ts.tv_nsec >> (i % 4 * 8)) ^ (unsigned char)getpid();
        }
        close(fd);
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
