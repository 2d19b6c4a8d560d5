/* The list of temporary files a signal handler removes; see tmpfiles.h. */
#include "tmpfiles.h"

#include <stdatomic.h>
#include <string.h>

#include "plat.h"

#define SLOTS 256   /* one per CPU for --stream spools, and the outputs */
#define PATH_BYTES 1024

/* A slot is claimed (0 -> 1), filled, then published (1 -> 2); only
 * published slots are read by the handler. */
static _Atomic int state[SLOTS];
static char paths[SLOTS][PATH_BYTES];

int tmpfiles_add(const char *path)
{
    size_t n = strlen(path);
    if (n >= PATH_BYTES)
        return -1;
    for (int i = 0; i < SLOTS; i++) {
        int free_ = 0;
        if (atomic_compare_exchange_strong(&state[i], &free_, 1)) {
            memcpy(paths[i], path, n + 1);
            atomic_store(&state[i], 2);
            return 0;
        }
    }
    return -1;
}

void tmpfiles_forget(const char *path)
{
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&state[i]) == 2 && !strcmp(paths[i], path)) {
            atomic_store(&state[i], 0);
            return;
        }
    }
}

void tmpfiles_unlink_all(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&state[i]) == 2)
            plat_unlink(paths[i]);
}
