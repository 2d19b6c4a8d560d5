/* lib/fairlock: mutual exclusion under contention (four threads, each
 * adding to a counter only while holding the lock), NULL as a no-op, and
 * FIFO hand-over: a thread that queued first gets the lock first, so a
 * thread that keeps taking it again cannot starve the others. */
#include "testutil.h"

#include <pthread.h>
#include <sched.h>

#include "lib/fairlock.h"

#define ROUNDS 20000

struct shared {
    struct fairlock l;
    unsigned long counter;
    int order[2];
    int norder;
};

static void *adder(void *arg)
{
    struct shared *s = arg;
    for (int i = 0; i < ROUNDS; i++) {
        fairlock_acquire(&s->l);
        unsigned long v = s->counter;
        if (i % 1000 == 0)
            sched_yield();
        s->counter = v + 1;
        fairlock_release(&s->l);
    }
    return NULL;
}

static void test_exclusion(void **state)
{
    (void)state;
    struct shared s = {.counter = 0};
    fairlock_init(&s.l);
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&t[i], NULL, adder, &s), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(s.counter, 4ul * ROUNDS);
    fairlock_destroy(&s.l);
    fairlock_acquire(NULL);
    fairlock_release(NULL);
}

struct waiter {
    struct shared *s;
    int id;
};

static void *queue_up(void *arg)
{
    struct waiter *w = arg;
    fairlock_acquire(&w->s->l);
    w->s->order[w->s->norder++] = w->id;
    fairlock_release(&w->s->l);
    return NULL;
}

/* Wait until the lock has handed out n tickets (the waiters are queued). */
static void until_tickets(struct shared *s, unsigned long n)
{
    for (;;) {
        pthread_mutex_lock(&s->l.m);
        unsigned long next = s->l.next;
        pthread_mutex_unlock(&s->l.m);
        if (next >= n)
            return;
        sched_yield();
    }
}

static void test_fifo(void **state)
{
    (void)state;
    struct shared s = {.counter = 0};
    fairlock_init(&s.l);
    fairlock_acquire(&s.l);         /* held: the others queue behind */
    struct waiter a = {&s, 1}, b = {&s, 2};
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, queue_up, &a), 0);
    until_tickets(&s, 2);
    assert_int_equal(pthread_create(&tb, NULL, queue_up, &b), 0);
    until_tickets(&s, 3);
    fairlock_release(&s.l);
    fairlock_acquire(&s.l);         /* asks again at once: behind both */
    assert_int_equal(s.norder, 2);
    assert_int_equal(s.order[0], 1);
    assert_int_equal(s.order[1], 2);
    fairlock_release(&s.l);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    fairlock_destroy(&s.l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exclusion),
        cmocka_unit_test(test_fifo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
