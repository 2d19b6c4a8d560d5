/*
 * The trace summary's tables (summary_int.h): threads by tid (open
 * addressing, grown by doubling up to SUM_THREADS_MAX), CPUs by number,
 * distinct event names (a short list with a one-entry cache: a trace has
 * a few dozen), process-dump names by pid.
 */
#include <stdlib.h>
#include <string.h>

#include "summary_int.h"

void sum_copy_name_n(char *dst, size_t cap, const char *p, size_t n)
{
    if (n > cap - 1)
        n = cap - 1;
    memcpy(dst, p, n);
    dst[n] = '\0';
}

static uint32_t hash_tid(uint32_t tid)
{
    return tid * 2654435761u;
}

static int rehash(struct summary *s, uint32_t slots)
{
    uint32_t *h = calloc(slots, sizeof(*h));
    if (!h)
        return -1;
    for (uint32_t i = 0; i < s->nth; i++) {
        uint32_t k = hash_tid(s->th[i].tid) & (slots - 1);
        while (h[k])
            k = (k + 1) & (slots - 1);
        h[k] = i + 1;
    }
    free(s->thash);
    s->thash = h;
    s->thmask = slots - 1;
    return 0;
}

struct sum_thread *sum_thread_find(const struct summary *s, uint32_t tid)
{
    if (!s->thash)
        return NULL;
    uint32_t k = hash_tid(tid) & s->thmask;
    for (uint32_t i; (i = s->thash[k]); k = (k + 1) & s->thmask)
        if (s->th[i - 1].tid == tid)
            return &s->th[i - 1];
    return NULL;
}

static struct sum_thread *add_thread(struct summary *s, uint32_t tid)
{
    if (s->nth >= SUM_THREADS_MAX) {
        s->t.dropped++;
        return NULL;
    }
    if (s->nth == s->capth) {
        uint32_t cap = s->capth ? s->capth * 2 : 256;
        struct sum_thread *n = realloc(s->th, cap * sizeof(*n));
        if (n)
            s->th = n;      /* the hash is grown with it, or nothing is added */
        if (!n || rehash(s, cap * 2)) {
            s->t.dropped++;
            return NULL;
        }
        s->capth = cap;
    }
    struct sum_thread *t = &s->th[s->nth++];
    memset(t, 0, sizeof(*t));
    t->tid = tid;
    t->tgid = -1;
    uint32_t k = hash_tid(tid) & s->thmask;
    while (s->thash[k])
        k = (k + 1) & s->thmask;
    s->thash[k] = s->nth;
    return t;
}

struct sum_thread *sum_thread_add(struct summary *s, uint32_t tid)
{
    uint32_t *c = &s->tcache[tid & (SUM_TCACHE - 1)];
    struct sum_thread *t = sum_thread_find(s, tid);
    if (!t)
        t = add_thread(s, tid);
    if (t)
        *c = (uint32_t)(t - s->th) + 1;
    return t;
}

struct sum_cpu *sum_cpu_grow(struct summary *s, uint32_t cpu)
{
    if (cpu >= SUM_CPUS_MAX)
        return NULL;
    if (cpu >= s->ncpu) {
        uint32_t n = cpu + 1 > 2 * s->ncpu ? cpu + 1 : 2 * s->ncpu;
        if (n > SUM_CPUS_MAX)
            n = SUM_CPUS_MAX;
        struct sum_cpu *c = realloc(s->cpu, n * sizeof(*c));
        if (!c)
            return NULL;
        memset(c + s->ncpu, 0, (n - s->ncpu) * sizeof(*c));
        s->cpu = c;
        s->ncpu = n;
    }
    return &s->cpu[cpu];
}

int sum_event_kind(const char *p, size_t n)
{
    if (n == 12 && !memcmp(p, "sched_switch", 12))
        return SK_SWITCH;
    if ((n == 18 && !memcmp(p, "tracing_mark_write", 18)) || (n == 5 && !memcmp(p, "print", 5)) ||
        (n == 1 && p[0] == '0'))
        return SK_MARK;
    return SK_OTHER;
}

/* The name's slot did not lead to it (sum_count_name). */
struct sum_evname *sum_count_name_slot(struct summary *s, const char *p, size_t n)
{
    size_t full = n;
    if (n >= SUM_NAME_LEN)
        n = SUM_NAME_LEN - 1;
    unsigned slot = sum_name_slot(p, n);
    struct sum_evname *e;
    uint32_t c = s->name_slot[slot];
    if (c && (e = &s->names[c - 1])->len == n && sum_same_name(e->name, p, n)) {
        e->count++;
        return e;
    }
    for (uint32_t i = 0; i < s->nnames; i++) {
        e = &s->names[i];
        if (e->len == n && !memcmp(e->name, p, n)) {
            e->count++;
            s->name_slot[slot] = i + 1;
            return e;
        }
    }
    if (s->nnames == SUM_NAMES_MAX) {
        s->t.dropped++;
        return NULL;
    }
    e = &s->names[s->nnames];
    sum_copy_name(e->name, p, n);
    e->len = (uint8_t)n;
    /* names as long as the table keeps are not those of sched_switch or a
     * marker: a later, longer name that shares the entry is no other kind */
    e->kind = (uint8_t)sum_event_kind(p, full);
    e->count = 1;
    s->name_slot[slot] = ++s->nnames;
    return e;
}

void sum_set_pname(struct summary *s, int64_t pid, const char *p, size_t n)
{
    for (size_t i = 0; i < s->npn; i++)
        if (s->pn[i].pid == pid) {
            sum_copy_name_n(s->pn[i].name, SUM_PNAME_LEN, p, n);
            return;
        }
    if (s->npn == s->cappn) {
        size_t cap = s->cappn ? s->cappn * 2 : 64;
        struct sum_pname *q = cap <= SUM_THREADS_MAX ? realloc(s->pn, cap * sizeof(*q)) : NULL;
        if (!q) {
            s->t.dropped++;
            return;
        }
        s->pn = q;
        s->cappn = cap;
    }
    s->pn[s->npn].pid = pid;
    sum_copy_name_n(s->pn[s->npn].name, SUM_PNAME_LEN, p, n);
    s->npn++;
}

const char *sum_pname(const struct summary *s, int64_t pid)
{
    for (size_t i = 0; i < s->npn; i++)
        if (s->pn[i].pid == pid)
            return s->pn[i].name;
    return NULL;
}

/* Thread names and bindings from the process dump stay; what the events
 * said goes. */
void sum_reset_events(struct summary *s)
{
    sum_slices_reset(s);
    for (uint32_t i = 0; i < s->nth; i++) {
        struct sum_thread *t = &s->th[i];
        t->cpu_ns = 0;
        t->depth = t->nopen = t->nlopen = 0;
        memset(t->fs, 0, sizeof(t->fs));
    }
    if (s->cpu)     /* none yet: memset(NULL, 0, 0) is undefined */
        memset(s->cpu, 0, s->ncpu * sizeof(*s->cpu));
    s->nnames = 0;
    memset(s->name_slot, 0, sizeof(s->name_slot));
    memset(s->vsync, 0, sizeof(s->vsync));
    uint64_t lost = s->t.lost, dropped = s->t.dropped;
    memset(&s->t, 0, sizeof(s->t));
    s->t.lost = lost;
    s->t.dropped = dropped;
    s->have_events = s->have_marks = 0;
    s->nlaunch = s->nlopen = 0;     /* startups too (summary_launch.c) */
    s->intent_ts = 0;
    s->part = 0;
    s->part_fin = s->saw_ml = s->saw_la = 0;
    s->lgen++;
}

void sum_tab_free(struct summary *s)
{
    sum_slices_reset(s);
    free(s->launch);
    free(s->th);
    free(s->thash);
    free(s->cpu);
    free(s->pn);
    s->th = NULL;
    s->thash = NULL;
    s->cpu = NULL;
    s->pn = NULL;
}
