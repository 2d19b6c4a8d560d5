/*
 * App startups in the trace summary (summary.h), by the rules of
 * Perfetto's android_startup metric, computed as the lines stream by:
 *  - a startup is, when the trace holds launchingActivity#*:* slices
 *    (Android 12+), a `launchingActivity#N` async slice of
 *    system_server joined with its instant
 *    `launchingActivity#N:completed[-TYPE]:PKG` (package, type); else,
 *    when it holds MetricsLogger:* slices (Android 10-11), a
 *    `launching: PKG` async slice, the one of its span between two
 *    `launchObserverNotifyIntentStarted`, starting at that slice and
 *    ending inside the span, counted once a
 *    `launchObserverNotifyActivityLaunchFinished` came in the span; else
 *    (Android 9) every `launching: PKG` slice; it ends at its slice's
 *    end (to_first_frame).  An Android 12+ launch takes its package while
 *    it runs from the `launching: PKG` slice inside it (the completed
 *    event comes only at its end);
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

#include "lib/plat.h"
#include "summary_int.h"

/* The first byte before the rest: most names of a trace begin otherwise,
 * and every slice begin asks (issue 33's cost goal). */
static int has_prefix(const char *p, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && p[0] == lit[0] && !memcmp(p, lit, k);
}

static int has_suffix(const char *p, size_t n, const char *lit)
{
    size_t k = strlen(lit);
    return n >= k && !memcmp(p + n - k, lit, k);
}

/* The state in the usual shape, "prev_state=STATE ==> next_comm=...",
 * from the arrow's '>' (memchr: a vector search, where a search for the
 * key was a sixth of the summary's time); NULL when it is not so. */
static const char *state_at_arrow(const char *a, size_t n)
{
    static const char key[] = "prev_state=";
    const size_t k = sizeof(key) - 1;
    const char *g = memchr(a, '>', n);
    if (!g || g - a < (ptrdiff_t)(k + 4) || g[-1] != '=' || g[-2] != '=' || g[-3] != ' ')
        return NULL;
    size_t i = (size_t)(g - a) - 3;     /* the blank after the state */
    for (size_t j = i - 1; j >= k && j + 8 >= i; j--)   /* a state of 1 to 8 bytes */
        if (a[j - 1] == '=' && !memcmp(a + j - k, key, k))
            return a + j;
    return NULL;
}

int sum_prev_state(const char *a, size_t n)
{
    const char *at = state_at_arrow(a, n);
    if (!at && (at = memmem(a, n, "prev_state=", 11)))
        at += 11;
    if (!at || at >= a + n)
        return TS_NONE;
    switch (*at) {
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
    if (has_prefix(p, n, "Lock contention on a monitor"))
        return LS_MONITOR;
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
    if (!k)
        return 0;   /* an Android 12+ launch not named yet */
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

void sum_launch_state_in(struct summary *s, struct sum_thread *t, uint64_t ts)
{
    uint16_t li = launch_of(s, t);
    if (li)
        clip_add(&s->launch[li - 1], t->st, t->st_since, ts);
}

static struct sum_launch *launch_new(struct summary *s, uint64_t ts)
{
    if (!s->launch && !(s->launch = calloc(SUM_LAUNCHES_MAX, sizeof(*s->launch))))
        return NULL;
    if (s->nlaunch == SUM_LAUNCHES_MAX) {
        s->t.dropped++;
        return NULL;
    }
    struct sum_launch *L = &s->launch[s->nlaunch++];
    memset(L, 0, sizeof(*L));
    L->ts = ts;
    L->open = 1;
    L->ctype = -1;
    s->lgen++;
    return L;
}

/* The open Android 12+ launch still without a package (its
 * `launching: PKG` names it while it runs; the completed event only at
 * its end), NULL: none. */
static struct sum_launch *unnamed_v33(struct summary *s)
{
    for (uint32_t i = s->nlaunch; i-- > 0;)
        if (s->launch[i].open && s->launch[i].v33 && !s->launch[i].pkg[0])
            return &s->launch[i];
    return NULL;
}

/* `launching: PKG` began.  Android 10-11 (Perfetto's minsdk29): the
 * startup spans from the intent-started before it, and counts only if
 * it is the one launch of that span and a launch-finished came in it. */
static void launch_begin(struct summary *s, const struct tev_mark *m, uint64_t ts)
{
    struct sum_launch *L = unnamed_v33(s);
    if (L) {
        sum_copy_name_n(L->pkg, sizeof(L->pkg), m->name + 11, m->name_len - 11);
        s->lgen++;
        return;
    }
    uint32_t prev = s->nlaunch;
    if (!(L = launch_new(s, s->intent_ts && s->intent_ts <= ts ? s->intent_ts : ts)))
        return;
    sum_copy_name_n(L->pkg, sizeof(L->pkg), m->name + 11, m->name_len - 11);
    L->part = s->part;
    L->fin = s->part_fin;
    for (uint32_t i = prev; i-- > 0 && L->part;)
        if (!s->launch[i].v33) {
            if (s->launch[i].part == L->part)
                L->spill = s->launch[i].spill = 1;
            break;
        }
    s->intent_ts = 0;
}

/* The main thread's state until the end, then launch L closed. */
static void launch_close(struct summary *s, struct sum_launch *L, uint64_t ts)
{
    uint32_t i = (uint32_t)(L - s->launch);
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
}

static void launch_end(struct summary *s, const struct tev_mark *m, uint64_t ts)
{
    for (uint32_t i = 0; i < s->nlaunch; i++) {
        struct sum_launch *L = &s->launch[i];
        size_t k = strlen(L->pkg);
        if (L->open && !L->v33 && m->name_len - 11 == k && !memcmp(m->name + 11, L->pkg, k)) {
            launch_close(s, L, ts);
            return;
        }
    }
}

/* The digits at p[0..n) as N of launchingActivity#N; 0: not a number. */
static int launch_id(const char *p, size_t n, uint32_t *id)
{
    uint64_t v = 0;
    if (!n || n > 9)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    *id = (uint32_t)v;
    return 1;
}

static struct sum_launch *v33_find(struct summary *s, uint32_t id)
{
    for (uint32_t i = s->nlaunch; i-- > 0;)
        if (s->launch[i].v33 && s->launch[i].aid == id)
            return &s->launch[i];
    return NULL;
}

/* Android 12+ (Perfetto's minsdk33): the async slice
 * `launchingActivity#N` is the startup; the instant
 * `launchingActivity#N:completed[-TYPE]:PKG` names its package and type
 * (a canceled or same-process launch has none and is no startup). */
static void launch_activity(struct summary *s, const struct tev_mark *m, uint64_t ts)
{
    const char *p = m->name + 18, *e = m->name + m->name_len;
    const char *c = memchr(p, ':', (size_t)(e - p));
    uint32_t id;
    if (c)
        s->saw_la = 1;
    if (!launch_id(p, (size_t)((c ? c : e) - p), &id))
        return;
    struct sum_launch *L = v33_find(s, id);
    if (!c && m->phase == 'S' && (!L || !L->open) && (L = launch_new(s, ts))) {
        L->v33 = 1;
        L->aid = id;
    } else if (!c && m->phase == 'F' && L && L->open) {
        launch_close(s, L, ts);
    } else if (c && m->phase == 'I' && L && !L->done) {
        const char *r = c + 1, *q = memchr(r, ':', (size_t)(e - r));
        size_t rl = q ? (size_t)(q - r) : 0;
        if (!q || !has_prefix(r, rl, "completed") ||
            (rl == 22 && !memcmp(r, "completed-same-process", 22)))
            return;
        static const char *const types[] = {"completed-cold", "completed-warm", "completed-hot"};
        for (int k = 0; k < 3; k++)
            if (rl == strlen(types[k]) && !memcmp(r, types[k], rl))
                L->ctype = (int8_t)k;
        const char *pk = q + 1, *pe = memchr(pk, ':', (size_t)(e - pk));
        sum_copy_name_n(L->pkg, sizeof(L->pkg), pk, (size_t)((pe ? pe : e) - pk));
        L->done = 1;
    }
}

/* A new intent-started span: the launches of the last one that are still
 * open end past it. */
static void intent_started(struct summary *s, uint64_t ts)
{
    for (uint32_t i = s->nlaunch; i-- > 0 && s->part;)
        if (!s->launch[i].v33 && s->launch[i].part == s->part && s->launch[i].open)
            s->launch[i].spill = 1;
    s->intent_ts = ts;
    s->part++;
    s->part_fin = 0;
}

static void launch_finished(struct summary *s)
{
    s->part_fin = 1;
    for (uint32_t i = s->nlaunch; i-- > 0;)
        if (!s->launch[i].v33 && s->launch[i].part == s->part && s->part)
            s->launch[i].fin = 1;
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
    /* most slices are of threads in no open launch: the (cached) launch
     * first, the name's kind only for those and for reportFullyDrawn */
    uint16_t li = launch_of(s, t);
    if (!li) {
        if (has_prefix(m->name, m->name_len, "reportFullyDrawn"))
            full_display(s, t, ts);
        return;
    }
    int kind = slice_kind(m->name, m->name_len);
    if (kind == LS_RFD) {
        full_display(s, t, ts);
        return;
    }
    if (kind < 0)
        return;
    struct sum_launch *L = &s->launch[li - 1];
    int main = t->tgid == (int64_t)t->tid;
    if ((kind == LS_LOCK || kind == LS_MONITOR || kind == LS_BINDER) && !main)
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
            if (o->kind == LS_MONITOR)
                L->slice_ns[LS_LOCK] += d;
        }
        int ended = o->level == t->depth;
        /* kept in begin order (the scan above relies on it for each
         * thread): a swap with the last broke it once two launches'
         * threads interleave, and a later end closed the wrong slice */
        memmove(o, o + 1, (--s->nlopen - i) * sizeof(*o));
        t->nlopen--;
        if (ended || !t->nlopen)
            return;
    }
}

void sum_launch_mark(struct summary *s, struct sum_thread *t, const struct tev_mark *m,
                     uint64_t ts)
{
    static const char intent[] = "MetricsLogger:launchObserverNotifyIntentStarted";
    static const char finished[] = "MetricsLogger:launchObserverNotifyActivityLaunchFinished";
    if (m->phase != 'E' && has_prefix(m->name, m->name_len, "launchingActivity#")) {
        launch_activity(s, m, ts);
        return;
    }
    if (m->phase == 'S' || m->phase == 'F') {
        if (m->name_len > 11 && !memcmp(m->name, "launching: ", 11))
            (m->phase == 'S' ? launch_begin : launch_end)(s, m, ts);
        return;
    }
    if (m->phase == 'B' && has_prefix(m->name, m->name_len, "MetricsLogger:")) {
        s->saw_ml = 1;
        if (m->name_len == sizeof(intent) - 1 && !memcmp(m->name, intent, m->name_len))
            intent_started(s, ts);
        else if (m->name_len == sizeof(finished) - 1 && !memcmp(m->name, finished, m->name_len))
            launch_finished(s);
    }
    if (!s->nlaunch || !t)
        return;
    if (m->phase == 'B')
        slice_open(s, t, m, ts);
    else if (m->phase == 'E' && t->nlopen)
        slice_close(s, t, ts);
}

/* ---- results ---------------------------------------------------------- */

/* Perfetto's android_startup picks its rules by what the trace holds
 * (no SDK version in the trace): launchingActivity#*:* slices, Android
 * 12+; MetricsLogger:* ones, 10-11; else 9 and before. */
static int kept(const struct summary *s, const struct sum_launch *L)
{
    if (L->open)
        return 0;
    if (s->saw_la)
        return L->v33 && L->done && L->ts_end > L->ts;
    if (L->v33)
        return 0;
    return !s->saw_ml || (L->part && L->fin && !L->spill);
}

size_t summary_startups(const struct summary *s)
{
    size_t n = 0;
    for (uint32_t i = 0; i < s->nlaunch; i++)
        n += kept(s, &s->launch[i]);
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
    static const char *const named[] = {"cold", "warm", "hot"};
    if (L->ctype >= 0 && L->ctype < 3)
        return named[L->ctype];
    if (L->ind[LS_BIND] && L->ind[LS_ASTART] && L->ind[LS_ARESUME])
        return "cold";
    if (L->ind[LS_ASTART] && L->ind[LS_ARESUME])
        return "warm";
    return L->ind[LS_ARESUME] ? "hot" : NULL;
}

/* Another kept startup's window overlaps L's (Perfetto's
 * _is_spans_overlapping). */
static int concurrent(const struct summary *s, const struct sum_launch *L)
{
    for (uint32_t j = 0; j < s->nlaunch; j++) {
        const struct sum_launch *M = &s->launch[j];
        if (M != L && kept(s, M) && M->ts < L->ts_end && L->ts < M->ts_end)
            return 1;
    }
    return 0;
}

/* Perfetto's slow_start_reason, in its order, for the reasons this
 * summary can compute from sched_switch and atrace slices (those needing
 * the package list, ART's odex state, io_wait, the CPU table, other
 * processes' CPU time, JIT or binder replies are not given). */
static void slow_reasons(const struct summary *s, const struct sum_launch *L,
                         struct summary_startup *o)
{
    uint64_t dur = L->ts_end - L->ts;
    const struct { int yes; const char *why; } r[] = {
        {L->slice_ns[LS_GC] > 0, "GC Activity"},
        {L->state_ns[TS_S] > 2900000000u, "Main Thread - Time spent in interruptible sleep state"},
        {L->slice_ns[LS_BIND] > 1250000000u, "Time spent in bindApplication"},
        {L->slice_ns[LS_INFLATE] > 450000000u, "Time spent in view inflation"},
        {L->slice_ns[LS_RES] > 130000000u, "Time spent in ResourcesManager#getResources"},
        {L->slice_ns[LS_VERIFY] * 20 > dur * 3, "Time spent verifying classes"},
        {L->slice_ns[LS_LOCK] * 5 > dur, "Main Thread - Lock contention"},
        {L->slice_ns[LS_MONITOR] * 20 > dur * 3, "Main Thread - Monitor contention"},
        {concurrent(s, L), "Startup running concurrent to launch"},
    };
    for (size_t k = 0; k < sizeof(r) / sizeof(r[0]) && o->nslow < 9; k++)
        if (r[k].yes)
            o->slow[o->nslow++] = r[k].why;
}

/* Startups by Perfetto's rules (kept). */
int summary_startup(const struct summary *s, size_t i, struct summary_startup *o)
{
    const struct sum_launch *L = NULL;
    for (uint32_t j = 0; j < s->nlaunch && !L; j++)
        if (kept(s, &s->launch[j]) && !i--)
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
    slow_reasons(s, L, o);
    return 1;
}
