/*
 * App startups in the trace summary (summary.h), by the rules of
 * Perfetto's android_startup metric, computed as the lines stream by:
 *  - a startup is a `launching: PKG` async slice (atrace S/F) of
 *    system_server; it starts at the slice's begin, or at the last
 *    `MetricsLogger:launchObserverNotifyIntentStarted` before it (Android
 *    10+), and ends at the slice's end (to_first_frame);
 *  - its processes: those whose name (the process dump's, else the main
 *    thread's comm) begins with PKG, found as their threads show up in
 *    the window;
 *  - cold: bindApplication, activityStart and activityResume began on
 *    the main thread in the window; warm: the last two; hot: only
 *    activityResume; otherwise no type;
 *  - main thread time by state: its sched_switch states clipped to the
 *    window (runnable: preempted, prev_state R; Perfetto reading ftrace
 *    text takes no runnable time from sched_wakeup, nor do we);
 *  - well-known slices begun in the window on the app's threads, whole
 *    (lock contention and binder transactions on the main thread only);
 *  - to_full_display: the begin of the first reportFullyDrawn slice of
 *    the app after the startup began.
 * Memory: SUM_LAUNCHES_MAX startups, SUM_LOPEN open slices; beyond,
 * counted in dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "summary_int.h"

static int has_prefix(const char *p, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && !memcmp(p, lit, k);
}

static int has_suffix(const char *p, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && !memcmp(p + n - k, lit, k);
}

int sum_prev_state(const char *a, size_t n)
{
    const char *at = memmem(a, n, "prev_state=", 11);
    if (!at || at + 11 >= a + n)
        return TS_NONE;
    switch (at[11]) {
    case 'R':
        return TS_RUNNABLE;
    case 'D':
        return TS_D;
    case 'S':
        return TS_S;
    default:
        return TS_NONE;
    }
}

/* LS_* of a slice name, -1: none counted */
static int slice_kind(const char *p, size_t n)
{
    static const char *const exact[] = {"bindApplication", "activityStart", "activityResume",
                                        "inflate", "ResourcesManager#getResources"};
    for (int i = 0; i < 5; i++)
        if (n == strlen(exact[i]) && !memcmp(p, exact[i], n))
            return LS_BIND + i;
    if (has_prefix(p, n, "OpenDexFilesFromOat"))
        return LS_DEXOPEN;
    if (has_prefix(p, n, "VerifyClass"))
        return LS_VERIFY;
    if (has_suffix(p, n, "semispace GC") || has_suffix(p, n, "mark sweep GC") ||
        has_suffix(p, n, "concurrent copying GC"))
        return LS_GC;
    if (has_prefix(p, n, "Lock contention on"))
        return LS_LOCK;
    if (n == 18 && !memcmp(p, "binder transaction", 18))
        return LS_BINDER;
    if (has_prefix(p, n, "reportFullyDrawn"))
        return LS_RFD;
    return -1;
}

/* The process pid is the app of launch L: its name begins with the
 * package (a comm keeps the name's last 15 characters). */
static int proc_is(const struct summary *s, int64_t pid, const struct sum_launch *L)
{
    size_t k = strlen(L->pkg);
    const char *n = sum_pname(s, pid);
    if (n && n[0])
        return !strncmp(n, L->pkg, k);
    const struct sum_thread *t = pid <= UINT32_MAX ? sum_thread_find(s, (uint32_t)pid) : NULL;
    if (!t || !t->name[0])
        return 0;
    size_t c = strlen(t->name);
    return c >= 15 ? k >= c && !memcmp(L->pkg + k - c, t->name, c) : !strcmp(t->name, L->pkg);
}

/* The open launch thread t's process belongs to (index + 1), 0: none;
 * looked for once per thread per launch begun. */
static uint16_t launch_of(struct summary *s, struct sum_thread *t)
{
    if (t->lchk == s->lgen)
        return t->lnch;
    t->lchk = s->lgen;
    int64_t pid = t->tgid > 0 ? t->tgid : (int64_t)t->tid;
    for (uint32_t i = s->nlaunch; i-- > 0;) {
        struct sum_launch *L = &s->launch[i];
        if (!L->open)
            continue;
        for (unsigned j = 0; j < L->npid; j++)
            if (L->pid[j] == pid)
                return t->lnch = (uint16_t)(i + 1);
        if (L->npid < SUM_LPIDS && proc_is(s, pid, L)) {
            L->pid[L->npid++] = pid;
            return t->lnch = (uint16_t)(i + 1);
        }
    }
    return t->lnch = 0;
}

static void clip_add(struct sum_launch *L, int st, uint64_t from, uint64_t to)
{
    if (from < L->ts)
        from = L->ts;
    if (!L->open && to > L->ts_end)
        to = L->ts_end;
    if (st != TS_NONE && to > from)
        L->state_ns[st] += to - from;
}

void sum_launch_state(struct summary *s, struct sum_thread *t, int st, uint64_t ts)
{
    if (s->nlaunch && t->tgid == (int64_t)t->tid) {
        uint16_t li = launch_of(s, t);
        if (li)
            clip_add(&s->launch[li - 1], t->st, t->st_since, ts);
    }
    t->st = (uint8_t)st;
    t->st_since = ts;
}

static void launch_begin(struct summary *s, const struct tev_mark *m, uint64_t ts)
{
    if (!s->launch && !(s->launch = calloc(SUM_LAUNCHES_MAX, sizeof(*s->launch))))
        return;
    if (s->nlaunch == SUM_LAUNCHES_MAX) {
        s->t.dropped++;
        return;
    }
    struct sum_launch *L = &s->launch[s->nlaunch++];
    memset(L, 0, sizeof(*L));
    sum_copy_name_n(L->pkg, sizeof(L->pkg), m->name + 11, m->name_len - 11);
    L->ts = s->intent_ts && s->intent_ts <= ts ? s->intent_ts : ts;
    L->open = 1;
    s->intent_ts = 0;
    s->lgen++;
}

/* The main thread's state until the end, then the launch closed. */
static void launch_end(struct summary *s, const struct tev_mark *m, uint64_t ts)
{
    for (uint32_t i = 0; i < s->nlaunch; i++) {
        struct sum_launch *L = &s->launch[i];
        size_t k = strlen(L->pkg);
        if (!L->open || m->name_len - 11 != k || memcmp(m->name + 11, L->pkg, k))
            continue;
        L->ts_end = ts;
        for (unsigned j = 0; j < L->npid; j++) {
            struct sum_thread *t = sum_thread_find(s, (uint32_t)L->pid[j]);
            if (t && t->lnch == i + 1) {
                clip_add(L, t->st, t->st_since, ts);
                t->st_since = ts > t->st_since ? ts : t->st_since;
            }
        }
        L->open = 0;
        s->lgen++;
        return;
    }
}

/* reportFullyDrawn begun: the latest startup of the thread's process
 * without one, ended or not (Perfetto takes the slice's begin). */
static void full_display(struct summary *s, const struct sum_thread *t, uint64_t ts)
{
    int64_t pid = t->tgid > 0 ? t->tgid : (int64_t)t->tid;
    for (uint32_t i = s->nlaunch; i-- > 0;) {
        struct sum_launch *L = &s->launch[i];
        for (unsigned j = 0; j < L->npid; j++)
            if (L->pid[j] == pid) {
                if (!L->rfd_end && ts >= L->ts)
                    L->rfd_end = ts;
                return;
            }
    }
}

static void slice_open(struct summary *s, struct sum_thread *t, const struct tev_mark *m,
                       uint64_t ts)
{
    int kind = slice_kind(m->name, m->name_len);
    if (kind == LS_RFD) {
        full_display(s, t, ts);
        return;
    }
    if (kind < 0)
        return;
    uint16_t li = launch_of(s, t);
    if (!li)
        return;
    struct sum_launch *L = &s->launch[li - 1];
    int main = t->tgid == (int64_t)t->tid;
    if ((kind == LS_LOCK || kind == LS_BINDER) && !main)
        return;
    if (kind <= LS_ARESUME && main)
        L->ind[kind]++;
    if (s->nlopen == SUM_LOPEN || t->nlopen == UINT8_MAX) {
        s->t.dropped++;
        return;
    }
    s->lopen[s->nlopen++] = (struct sum_lopen){t->tid, t->depth, li, (uint8_t)kind, ts};
    t->nlopen++;
}

static void slice_close(struct summary *s, struct sum_thread *t, uint64_t ts)
{
    for (uint32_t i = s->nlopen; i-- > 0;) {
        struct sum_lopen *o = &s->lopen[i];
        if (o->tid != t->tid)
            continue;
        if (o->level < t->depth)
            return;     /* its slices open below this one */
        struct sum_launch *L = &s->launch[o->launch - 1];
        uint64_t d = ts >= o->ts ? ts - o->ts : 0;
        if (o->level == t->depth) {
            L->slice_ns[o->kind] += d;
        }
        s->lopen[i] = s->lopen[--s->nlopen];
        t->nlopen--;
        if (o->level == t->depth || !t->nlopen)
            return;
    }
}

void sum_launch_mark(struct summary *s, uint32_t tid, const struct tev_mark *m, uint64_t ts)
{
    static const char intent[] = "MetricsLogger:launchObserverNotifyIntentStarted";
    if (m->phase == 'S' || m->phase == 'F') {
        if (m->name_len > 11 && !memcmp(m->name, "launching: ", 11))
            (m->phase == 'S' ? launch_begin : launch_end)(s, m, ts);
        return;
    }
    if (m->phase == 'B' && m->name_len == sizeof(intent) - 1 && !memcmp(m->name, intent,
                                                                        m->name_len))
        s->intent_ts = ts;
    if (!s->nlaunch)
        return;
    struct sum_thread *t = sum_thread_find(s, tid);
    if (!t)
        return;
    if (m->phase == 'B')
        slice_open(s, t, m, ts);
    else if (m->phase == 'E' && t->nlopen)
        slice_close(s, t, ts);
}

/* ---- results ---------------------------------------------------------- */

size_t summary_startups(const struct summary *s)
{
    size_t n = 0;
    for (uint32_t i = 0; i < s->nlaunch; i++)
        n += !s->launch[i].open;
    return n;
}

const char *summary_startup_slice(size_t k)
{
    static const char *const keys[LS_RFD] = {
        "bindApplication", "activityStart", "activityResume", "inflate", "ResourcesManager",
        "dex_open", "verify_class", "gc", "lock_contention", "binder_transaction"};
    return k < LS_RFD ? keys[k] : NULL;
}

static const char *startup_type(const struct sum_launch *L)
{
    if (L->ind[LS_BIND] && L->ind[LS_ASTART] && L->ind[LS_ARESUME])
        return "cold";
    if (L->ind[LS_ASTART] && L->ind[LS_ARESUME])
        return "warm";
    return L->ind[LS_ARESUME] ? "hot" : NULL;
}

/* Startups whose launching slice ended (Perfetto drops the others). */
int summary_startup(const struct summary *s, size_t i, struct summary_startup *o)
{
    const struct sum_launch *L = NULL;
    for (uint32_t j = 0; j < s->nlaunch && !L; j++)
        if (!s->launch[j].open && !i--)
            L = &s->launch[j];
    if (!L)
        return 0;
    memset(o, 0, sizeof(*o));
    o->package = L->pkg;
    o->type = startup_type(L);
    o->ts = L->ts;
    o->to_first_frame_ns = L->ts_end - L->ts;
    o->to_full_display_ns = L->rfd_end > L->ts ? L->rfd_end - L->ts : 0;
    o->pid = L->npid ? L->pid[0] : -1;
    o->running_ns = L->state_ns[TS_RUN];
    o->runnable_ns = L->state_ns[TS_RUNNABLE];
    o->uninterruptible_ns = L->state_ns[TS_D];
    o->sleeping_ns = L->state_ns[TS_S];
    memcpy(o->slice_ns, L->slice_ns, sizeof(o->slice_ns));
    return 1;
}
