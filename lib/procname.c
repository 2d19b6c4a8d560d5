/* Process names against --process's; see procname.h. */
#include "procname.h"

#include <string.h>

static int one(const char *name, size_t n, const char *want, size_t wn)
{
    if (n == wn && !memcmp(name, want, n))
        return 1;
    return n == 15 && wn > 15 && (!memcmp(name, want, 15) || !memcmp(name, want + wn - 15, 15));
}

int procname_matches(const char *name, size_t n, const char *want)
{
    size_t wn = strlen(want);
    if (one(name, n, want, wn))
        return 1;
    const char *base = name + n;
    while (base > name && base[-1] != '/')
        base--;
    return base > name && one(base, (size_t)(name + n - base), want, wn);
}
