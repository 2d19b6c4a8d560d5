/*
 * The GNU and POSIX 2008 string functions the code uses, for C libraries
 * without them (plat.h): memrchr on Windows and macOS, memmem and strndup
 * on Windows.  Elsewhere this file is empty.
 */
#include "plat.h"

#include <stdlib.h>
#include <string.h>

#if PLAT_WINDOWS || defined(__APPLE__)
void *memrchr(const void *p, int c, size_t n)
{
    const unsigned char *b = p;
    while (n--)
        if (b[n] == (unsigned char)c)
            return (void *)(b + n);
    return NULL;
}
#endif

#if PLAT_WINDOWS
void *memmem(const void *hay, size_t hn, const void *needle, size_t nn)
{
    const unsigned char *h = hay, *n = needle;
    if (!nn)
        return (void *)hay;
    for (size_t i = 0; i + nn <= hn; i++)
        if (h[i] == n[0] && !memcmp(h + i, n, nn))
            return (void *)(h + i);
    return NULL;
}

char *strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = malloc(len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}
#endif
