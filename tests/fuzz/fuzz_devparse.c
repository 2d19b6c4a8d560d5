/* libFuzzer target: parsers of what the device prints — atrace's category
 * list, getprop's SDK line, the /proc task listing for the TGID map. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agents/android/atrace_cmd.h"
#include "formats/atrace/repair.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    struct atrace_cats c;
    if (!atrace_cats_parse(s, size, size & 1 ? 22 : 33, &c)) {
        for (size_t i = 0; i < c.n; i++)
            if (!c.name[i][0] || strchr(c.name[i], '\n'))
                __builtin_trap();   /* names are non-empty single tokens */
        atrace_cats_free(&c);
    }
    int sdk = atrace_parse_sdk(s, size);
    if (sdk < -1)
        __builtin_trap();
    struct tgid_map *m = tgid_map_new();
    if (m && !tgid_map_parse(m, s, size))
        (void)tgid_map_get(m, 1);
    tgid_map_free(m);
    free(s);
    return 0;
}
