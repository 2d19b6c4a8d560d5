/*
 * A lock that is handed on in the order it was asked for (a ticket lock on
 * a mutex and a condition variable).  A plain mutex lets a thread that
 * unlocks and at once locks again win every time; with a stream reader
 * that takes the device for one short read after another, that would
 * starve the commands other threads need to run on the same device
 * (adb's wire transports are single-threaded: one user at a time).
 * Functions taking NULL do nothing, so code can lock unconditionally.
 */
#ifndef SYSTRACE_FAIRLOCK_H
#define SYSTRACE_FAIRLOCK_H

#include "plat.h"

struct fairlock {
    pthread_mutex_t m;
    pthread_cond_t c;
    unsigned long next, serving;
};

void fairlock_init(struct fairlock *l);
void fairlock_destroy(struct fairlock *l);
void fairlock_acquire(struct fairlock *l);
void fairlock_release(struct fairlock *l);

#endif
