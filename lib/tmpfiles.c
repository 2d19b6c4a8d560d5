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

/* Files being made, not yet listed, and whether the process is ending:
 * a maker counts itself in and then looks at closing, the closer sets
 * closing and then waits for the count (sequentially consistent atomics:
 * one of the two sees the other). */
static _Atomic int making, closing;

int tmpfiles_hold(void)
{
    atomic_fetch_add(&making, 1);
    if (atomic_load(&closing)) {
        atomic_fetch_sub(&making, 1);
        return -1;
    }
    return 0;
}

void tmpfiles_release(void)
{
    atomic_fetch_sub(&making, 1);
}

void tmpfiles_close(void)
{
    atomic_store(&closing, 1);
    /* bounded: the maker may be the thread this handler interrupted */
    for (long spin = 0; atomic_load(&making) > 0 && spin < 100000000L; spin++)
        ;
    tmpfiles_unlink_all();
}

void tmpfiles_unlink_all(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (atomic_load(&state[i]) == 2)
            plat_unlink(paths[i]);
}
