/* libFuzzer target: --perfetto-config's reader of a user's TraceConfig
 * (agents/android/perfetto/pfuser.c), text or binary, whatever file the
 * user names.  The input in a buffer of its exact size (the file is not
 * NUL-ended: a read past it is ASan's).  Properties: refused with one
 * line (non-empty, no newline), or accepted with a duration_ms Perfetto
 * could hold and a config pfuser_make builds in the form it was told. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/perfetto/pfuser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *p = malloc(size ? size : 1);
    if (!p)
        return 0;
    memcpy(p, data, size);
    struct pfuser_info info;
    char why[200];
    why[0] = '\0';
    enum st_err e = pfuser_check(p, size, &info, why, sizeof(why));
    if (e) {
        if (e != ST_EINVAL || !why[0] || strchr(why, '\n'))
            __builtin_trap();
    } else {
        if (info.duration_ms < -1 || info.duration_ms > (long)UINT32_MAX ||
            memchr(info.replaced, '\0', sizeof(info.replaced)) == NULL)
            __builtin_trap();
        struct pfconfig cfg;
        if (pfuser_make(p, size, 1000, &cfg) != ST_OK)
            __builtin_trap();
        if (info.binary ? cfg.text.len || !cfg.binary.len : cfg.binary.len || !cfg.text.len)
            __builtin_trap();
        pfconfig_free(&cfg);
    }
    free(p);
    return 0;
}
