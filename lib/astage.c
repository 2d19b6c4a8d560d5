/* A write stage on its own thread; see astage.h. */
#include "astage.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "plat.h"

struct astage {
    st_write_fn out;
    void *ctx;
    pthread_t th;
    int running;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
    char *buf[ASTAGE_NBUF];
    size_t len[ASTAGE_NBUF];
    size_t head, count;         /* under mu: the queue of full buffers */
    size_t cur, fill;           /* producer only: the slot being filled
                                 * (once fill > 0) and its bytes */
    int stop;                   /* under mu */
    _Atomic int err;            /* the next stage's first error */
    int inline_;                /* no thread: buf[0] handed on when full */
    size_t size;                /* of each buffer */
};

/* Stages made on this thread run inline (astage_inline_here). */
static _Thread_local int make_inline;

void astage_inline_here(int on)
{
    make_inline = on;
}

static void *run(void *arg)
{
    struct astage *a = arg;
    pthread_mutex_lock(&a->mu);
    for (;;) {
        while (!a->count && !a->stop)
            pthread_cond_wait(&a->filled, &a->mu);
        if (!a->count)
            break;
        size_t i = a->head;
        pthread_mutex_unlock(&a->mu);
        if (!atomic_load(&a->err)) {
            enum st_err e = a->out(a->ctx, a->buf[i], a->len[i]);
            if (e)
                atomic_store(&a->err, (int)e);
        }
        pthread_mutex_lock(&a->mu);
        a->head = (a->head + 1) % ASTAGE_NBUF;
        a->count--;
        pthread_cond_signal(&a->freed);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

struct astage *astage_new(st_write_fn out, void *ctx)
{
    return astage_new_sized(out, ctx, ASTAGE_BUF);
}

struct astage *astage_new_sized(st_write_fn out, void *ctx, size_t size)
{
    struct astage *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    a->size = size ? size : 1;
    a->out = out;
    a->ctx = ctx;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->filled, NULL);
    pthread_cond_init(&a->freed, NULL);
    a->inline_ = make_inline;
    for (int i = 0; i < (a->inline_ ? 1 : ASTAGE_NBUF); i++)
        if (!(a->buf[i] = malloc(a->inline_ ? ASTAGE_INLINE_BUF : a->size))) {
            astage_free(a);
            return NULL;
        }
    if (a->inline_)
        return a;
    a->running = !plat_thread_start(&a->th, run, a);
    if (!a->running) {
        astage_free(a);
        return NULL;
    }
    return a;
}

/* The slot after the queued ones, once there is one. */
static size_t next_slot(struct astage *a)
{
    pthread_mutex_lock(&a->mu);
    while (a->count == ASTAGE_NBUF)
        pthread_cond_wait(&a->freed, &a->mu);
    size_t i = (a->head + a->count) % ASTAGE_NBUF;
    pthread_mutex_unlock(&a->mu);
    return i;
}

static void queue(struct astage *a, size_t i)
{
    pthread_mutex_lock(&a->mu);
    a->len[i] = a->fill;
    a->count++;
    pthread_cond_signal(&a->filled);
    pthread_mutex_unlock(&a->mu);
    a->fill = 0;
}

/* Inline: what buf[0] holds handed on now, on this thread. */
static enum st_err flush_inline(struct astage *a)
{
    if (a->fill && !atomic_load(&a->err)) {
        enum st_err e = a->out(a->ctx, a->buf[0], a->fill);
        if (e)
            atomic_store(&a->err, (int)e);
    }
    a->fill = 0;
    return (enum st_err)atomic_load(&a->err);
}

static enum st_err write_inline(struct astage *a, const char *s, size_t n)
{
    while (n && !atomic_load(&a->err)) {
        size_t k = ASTAGE_INLINE_BUF - a->fill < n ? ASTAGE_INLINE_BUF - a->fill : n;
        memcpy(a->buf[0] + a->fill, s, k);
        a->fill += k;
        s += k;
        n -= k;
        if (a->fill == ASTAGE_INLINE_BUF)
            flush_inline(a);
    }
    return (enum st_err)atomic_load(&a->err);
}

enum st_err astage_write(void *ctx, const void *p, size_t n)
{
    struct astage *a = ctx;
    const char *s = p;
    if (a->inline_)
        return write_inline(a, s, n);
    while (n && !atomic_load(&a->err)) {
        if (!a->fill)           /* small writes into a started slot take no lock */
            a->cur = next_slot(a);
        size_t k = a->size - a->fill < n ? a->size - a->fill : n;
        memcpy(a->buf[a->cur] + a->fill, s, k);
        a->fill += k;
        s += k;
        n -= k;
        if (a->fill == a->size)
            queue(a, a->cur);
    }
    return (enum st_err)atomic_load(&a->err);
}

enum st_err astage_drain(struct astage *a)
{
    if (a->inline_)
        return flush_inline(a);
    if (!a->running)
        return (enum st_err)atomic_load(&a->err);
    if (a->fill)
        queue(a, a->cur);
    pthread_mutex_lock(&a->mu);
    while (a->count)
        pthread_cond_wait(&a->freed, &a->mu);
    pthread_mutex_unlock(&a->mu);
    return (enum st_err)atomic_load(&a->err);
}

enum st_err astage_finish(struct astage *a)
{
    if (a->inline_)
        return flush_inline(a);
    if (!a->running)
        return (enum st_err)atomic_load(&a->err);
    astage_drain(a);
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_signal(&a->filled);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->th, NULL);
    a->running = 0;
    return (enum st_err)atomic_load(&a->err);
}

void astage_free(struct astage *a)
{
    if (!a)
        return;
    if (a->running || a->inline_)
        astage_finish(a);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->filled);
    pthread_cond_destroy(&a->freed);
    for (int i = 0; i < ASTAGE_NBUF; i++)
        free(a->buf[i]);
    free(a);
}
