/* A FIFO-fair lock; see fairlock.h. */
#include "fairlock.h"

void fairlock_init(struct fairlock *l)
{
    pthread_mutex_init(&l->m, NULL);
    pthread_cond_init(&l->c, NULL);
    l->next = l->serving = 0;
}

void fairlock_destroy(struct fairlock *l)
{
    pthread_cond_destroy(&l->c);
    pthread_mutex_destroy(&l->m);
}

void fairlock_acquire(struct fairlock *l)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->m);
    unsigned long ticket = l->next++;
    while (ticket != l->serving)
        pthread_cond_wait(&l->c, &l->m);
    pthread_mutex_unlock(&l->m);
}

void fairlock_release(struct fairlock *l)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->m);
    l->serving++;
    pthread_cond_broadcast(&l->c);
    pthread_mutex_unlock(&l->m);
}
