/* Control characters of quoted outside text made visible; see esctext.h. */
#include "esctext.h"

#include <stdio.h>

static int is_ctl(unsigned char c, int flags)
{
    if ((flags & ESC_KEEP_NL) && (c == '\n' || c == '\t'))
        return 0;
    return c < 0x20 || c == 0x7f;
}

size_t esc_text(char *out, size_t n, const char *s, size_t len, int flags)
{
    if (!n)
        return 0;
    const unsigned char *p = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = p[i];
        int c1 = c == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f;
        if (!is_ctl(c, flags) && !c1) {
            if (o + 1 >= n)
                break;
            out[o++] = (char)c;
            continue;
        }
        size_t need = c1 ? 8 : 4;
        if (o + need >= n)
            break;
        if (c1)
            snprintf(out + o, n - o, "\\x%02x\\x%02x", c, p[++i]);
        else
            snprintf(out + o, n - o, "\\x%02x", c);
        o += need;
    }
    out[o] = 0;
    return o;
}
