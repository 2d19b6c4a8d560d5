/*
 * pfgen SIZE OUT [SEED]: writes a realistic Perfetto trace of about SIZE
 * bytes (suffix K, M or G) for benchmarks: a system_info (Linux 5.10), a
 * process tree (80 processes with cmdlines, 4-12 named threads each), then
 * ftrace bundles from 8 CPUs in rounds of 20 ms, each with compact sched
 * (switches and wakings in packed arrays with an intern table, as phones
 * record them since Perfetto v42) and full events: atrace print events
 * (B|tgid|name / E|tgid from the running thread), cpu_frequency, and
 * cpu_idle around idle periods.  Deterministic for a seed.  Perfetto's
 * trace processor reads the output without errors (checked with a small
 * one in tests/e2e/perfetto_events.sh).
 * pfgen -m SIZE OUT [SEED]: a mixed trace, as a phone records with the SDK
 * and Android's data sources on (scripts/bench/bench-pfmix): the same
 * ftrace plus, each round, track events of 16 app threads (nested slices
 * with interned names, categories and a debug annotation, flows between
 * threads, a counter track per process), logcat lines, the frame timeline
 * (SurfaceFlinger's display frames and two apps' surface frames), perf
 * samples with interned callstacks, and every 100 ms process stats (RSS,
 * swap, oom_score_adj of every process) and sys stats (meminfo, vmstat);
 * a thread's atrace slices end when it runs again, not lost at a switch.
 * It prints each kind's share of the bytes to stderr.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pbw.h"
#include "lib/dynbuf.h"

#define NCPU 8
#define NPROC 80
#define MAXTHR 12
#define ROUND_NS 20000000ull
#define BUF_MAX (64u << 20)
#define NTE 16             /* threads writing track events (-m) */
#define NFUNC 40           /* interned functions of the perf samples (-m) */

struct thr { uint32_t tid, tgid; char name[16]; int depth, sdk; };

/* -m: a thread's atrace slices stay open while it sleeps and are ended
 * when it runs again (as apps' are); without it each CPU forgets them at
 * a switch, the input bench-perfetto has always measured. */
static int mixed;

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(uint64_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? rng % n : rng;
}

static void die(const char *what)
{
    fprintf(stderr, "pfgen: %s\n", what);
    exit(1);
}

static void varint(struct dynbuf *b, uint64_t v)
{
    if (pbw_varint(b, v))
        die("buffer full");
}

static void uint_field(struct dynbuf *b, uint32_t num, uint64_t v)
{
    if (pbw_uint(b, num, v))
        die("buffer full");
}

static void bytes_field(struct dynbuf *b, uint32_t num, const void *p, size_t n)
{
    if (pbw_bytes(b, num, p, n))
        die("buffer full");
}

static void str_field(struct dynbuf *b, uint32_t num, const char *s)
{
    bytes_field(b, num, s, strlen(s));
}

/* SUB as field NUM of B; SUB is emptied. */
static void msg_field(struct dynbuf *b, uint32_t num, struct dynbuf *sub)
{
    if (pbw_msg(b, num, sub))
        die("buffer full");
}

static struct thr threads[NPROC * MAXTHR];
static size_t nthreads;

static const char *const apps[] = {
    "com.android.systemui", "com.google.android.apps.maps", "surfaceflinger",
    "system_server", "com.android.chrome", "/system/bin/audioserver",
    "com.google.android.gms.persistent", "/vendor/bin/hw/android.hardware.graphics.composer",
};
static const char *const tnames[] = {
    "main", "RenderThread", "binder:%u_1", "binder:%u_2", "HeapTaskDaemon", "hwuiTask0",
    "Jit thread pool", "FinalizerDaemon", "GLThread 12", "AsyncTask #1", "OkHttp Dispatch",
    "Signal Catcher",
};
static const char *const slices[] = {
    "Choreographer#doFrame", "traversal", "draw", "Record View#draw()", "binder transaction",
    "inflate", "Lock contention on a monitor lock", "DrawFrame", "dequeueBuffer", "queueBuffer",
};

static void process_tree(struct dynbuf *out, struct dynbuf *pkt, struct dynbuf *tree,
                         struct dynbuf *sub)
{
    uint32_t pid = 1000;
    for (size_t p = 0; p < NPROC; p++, pid += 50) {
        char cmd[96];
        snprintf(cmd, sizeof cmd, "%s%s%zu", apps[p % 8], p < 8 ? "" : ":svc", p);
        uint_field(sub, 1, pid);
        uint_field(sub, 2, 1);
        str_field(sub, 3, cmd);
        msg_field(tree, 1, sub);
        size_t n = 4 + rnd(MAXTHR - 3);
        for (size_t t = 0; t < n; t++) {
            struct thr *th = &threads[nthreads++];
            th->tid = pid + (uint32_t)t;
            th->tgid = pid;
            if (t == 0) {
                const char *base = strrchr(cmd, '.');
                snprintf(th->name, sizeof th->name, "%.15s", base ? base + 1 : cmd);
            } else if (strchr(tnames[t], '%')) {
                char full[48];  /* the kernel keeps 15 bytes of a name */
                snprintf(full, sizeof full, "binder:%u_%zu", pid, t);
                snprintf(th->name, sizeof th->name, "%.15s", full);
            } else {
                snprintf(th->name, sizeof th->name, "%s", tnames[t]);
            }
            uint_field(sub, 1, th->tid);
            str_field(sub, 2, th->name);
            uint_field(sub, 3, pid);
            msg_field(tree, 2, sub);
        }
    }
    uint_field(pkt, 10, 1);
    msg_field(pkt, 2, tree);
    msg_field(out, 1, pkt);
}

struct cpu {
    size_t cur;             /* index+1 into threads, 0: idle */
    uint64_t ts;
    int depth;              /* open atrace slices of the running thread */
};

/* One CPU's round: compact sched arrays plus full events into BUNDLE. */
static void cpu_round(struct cpu *c, uint32_t cpu, uint64_t end, struct dynbuf *bundle,
                      struct dynbuf *arr, struct dynbuf *ev, struct dynbuf *sub)
{
    enum { SW_TS, SW_STATE, SW_PID, SW_PRIO, SW_COMM, WK_TS, WK_PID, WK_CPU, WK_PRIO,
           WK_COMM, WK_FLAGS, NARR };
    static const uint32_t field[NARR] = {1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12};
    struct dynbuf *a = arr;
    size_t intern_n = 0;
    size_t intern_of[NPROC * MAXTHR + 1];
    size_t intern_list[4096];
    uint64_t last_sw = 0, last_wk = 0;

    memset(intern_of, 0, sizeof intern_of);
    uint_field(bundle, 1, cpu);
    while (c->ts < end && intern_n < 4000) {
        size_t next = rnd(4) == 0 ? 0 : 1 + rnd(nthreads);
        uint64_t run = 5000 + rnd(200000);
        /* a waking for the next thread just before it runs */
        if (next) {
            uint64_t wts = c->ts > 2000 ? c->ts - 1000 - rnd(900) : c->ts;
            if (!intern_of[next]) {
                intern_list[intern_n++] = next;
                intern_of[next] = intern_n;
            }
            varint(&a[WK_TS], wts - last_wk);
            last_wk = wts;
            varint(&a[WK_PID], threads[next - 1].tid);
            varint(&a[WK_CPU], cpu);
            varint(&a[WK_PRIO], 100 + rnd(40));
            varint(&a[WK_COMM], intern_of[next] - 1);
            varint(&a[WK_FLAGS], 1);
        }
        if (!intern_of[next]) {
            intern_list[intern_n++] = next;
            intern_of[next] = intern_n;
        }
        static const int64_t states[] = {0, 1, 1, 1, 2, 0x100, 0x80};
        varint(&a[SW_TS], c->ts - last_sw);
        last_sw = c->ts;
        varint(&a[SW_STATE], (uint64_t)states[rnd(7)]);
        varint(&a[SW_PID], next ? threads[next - 1].tid : 0);
        varint(&a[SW_PRIO], next ? 100 + rnd(40) : 120);
        varint(&a[SW_COMM], intern_of[next] - 1);
        if (!c->cur != !next) {     /* entering or leaving idle */
            uint_field(sub, 1, next ? 4294967295u : 1);
            uint_field(sub, 2, cpu);
            uint_field(ev, 1, c->ts);
            uint_field(ev, 2, 0);
            msg_field(ev, 13, sub);
            msg_field(bundle, 2, ev);
        }
        c->cur = next;
        c->depth = 0;
        if (next) {     /* atrace slices while it runs */
            struct thr *th = &threads[next - 1];
            int *depth = mixed ? &th->depth : &c->depth;
            uint64_t t = c->ts + 500;
            /* a thread tracing with the SDK (-m) writes no atrace: the
             * two kinds of slice on one thread would not nest here */
            while (!th->sdk && t + 3000 < c->ts + run) {
                char buf[96];
                if (*depth < 3 && rnd(3)) {
                    snprintf(buf, sizeof buf, "B|%u|%s", th->tgid, slices[rnd(10)]);
                    (*depth)++;
                } else if (*depth) {
                    snprintf(buf, sizeof buf, "E|%u", th->tgid);
                    (*depth)--;
                } else {
                    snprintf(buf, sizeof buf, "C|%u|frames|%u", th->tgid, (unsigned)rnd(100));
                }
                uint_field(sub, 1, 0xffffffc010203040ull);
                str_field(sub, 2, buf);
                uint_field(ev, 1, t);
                uint_field(ev, 2, th->tid);
                msg_field(ev, 3, sub);
                msg_field(bundle, 2, ev);
                t += 60000 + rnd(400000);
            }
        }
        if (rnd(50) == 0) {
            uint_field(sub, 1, 300000 + 100000 * rnd(20));
            uint_field(sub, 2, cpu);
            uint_field(ev, 1, c->ts + 100);
            uint_field(ev, 2, next ? threads[next - 1].tid : 0);
            msg_field(ev, 11, sub);
            msg_field(bundle, 2, ev);
        }
        c->ts += run;
    }
    struct dynbuf *cs = sub;
    for (size_t i = 0; i < intern_n; i++) {
        char idle[16];
        snprintf(idle, sizeof idle, "swapper/%u", cpu);
        str_field(cs, 5, intern_list[i] ? threads[intern_list[i] - 1].name : idle);
    }
    for (int i = 0; i < NARR; i++) {
        if (a[i].len)
            msg_field(cs, field[i], &a[i]);
    }
    msg_field(bundle, 4, cs);
}

/* ---- -m: the data beside ftrace ---- */

enum kind { K_FTRACE, K_TEV, K_LOG, K_FRAME, K_PERF, K_STATS, K_N };
static const char *const kind_names[K_N] = {
    "ftrace", "track events", "logcat", "frame timeline", "perf samples", "process/sys stats",
};
static uint64_t kind_bytes[K_N];

static const char *const tev_names[] = {
    "Choreographer#doFrame", "RV OnBindView", "measure", "layout", "draw", "inflate",
    "Compose:recompose", "Lazy list prefetch", "binder transaction", "SQLiteDatabase.query",
    "OkHttp call", "decodeBitmap", "ImageDecoder#decode", "obtainView", "setupListItem",
    "androidx.work.Worker", "Fragment.onCreateView", "RecyclerView.Scroll", "animation",
    "input", "traversal", "Record View#draw()", "GC: Wait For Completion", "loadResource",
};
static const char *const tev_cats[] = {"app", "rendering", "io", "androidx"};
static const char *const log_tags[] = {
    "ActivityManager", "ActivityTaskManager", "WindowManager", "chatty", "OpenGLRenderer",
    "Choreographer", "BluetoothAdapter", "NetworkMonitor", "Zygote", "DisplayPowerController",
};
static const char *const log_msgs[] = {
    "Displayed com.google.android.apps.maps/.MainActivity: +412ms",
    "Skipped 3 frames!  The application may be doing too much work on its main thread.",
    "Davey! duration=812ms; Flags=0, FrameTimelineVsyncId=118220, IntendedVsync=9210",
    "Start proc 4211:com.android.chrome/u0a123 for service",
    "onConnectionStateChanged: state=2",
    "Background concurrent copying GC freed 21011(1024KB) AllocSpace objects",
    "setPowerMode(DISPLAY_ON) brightness=0.39",
    "Validation result: 204 in 38ms",
};

/* Logcat stamps its lines with the wall clock (REALTIME): a snapshot of
 * BOOTTIME, MONOTONIC and REALTIME lets both readers place them. */
#define REALTIME_OFF 1700000000000000000ull

struct mix {
    struct dynbuf *pkt, *mid, *sub, *ev;
    uint64_t flow;              /* last flow id */
    uint64_t frame_ts;          /* next vsync */
    uint64_t cookie, token;
    uint32_t round;
};

/* A packet of sequence SEQ at TS holding MID as field NUM, into OUT. */
static void packet(struct mix *m, struct dynbuf *out, uint32_t seq, uint64_t ts, uint32_t flags,
                   uint32_t num, struct dynbuf *body)
{
    uint_field(m->pkt, 8, ts);
    uint_field(m->pkt, 10, seq);
    if (flags)
        uint_field(m->pkt, 13, flags);
    msg_field(m->pkt, num, body);
    msg_field(out, 1, m->pkt);
}

static void fixed64_field(struct dynbuf *b, uint32_t num, uint64_t v)
{
    uint8_t le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(v >> (8 * i));
    varint(b, (uint64_t)num << 3 | 1);
    if (dynbuf_add(b, le, 8))
        die("buffer full");
}

static const struct thr *te_thread(size_t i)
{
    return &threads[(i * 37) % nthreads];
}

/* Each track-event sequence's first packet: incremental state cleared,
 * its names interned, its thread's (and process's) track described. */
static void tev_start(struct mix *m, struct dynbuf *out, uint64_t ts)
{
    for (size_t i = 0; i < NTE; i++) {
        const struct thr *th = te_thread(i);
        struct dynbuf *in = m->mid, *e = m->sub;
        for (size_t k = 0; k < sizeof tev_names / sizeof *tev_names; k++) {
            uint_field(e, 1, k + 1);
            str_field(e, 2, tev_names[k]);
            msg_field(in, 2, e);
        }
        for (size_t k = 0; k < 4; k++) {
            uint_field(e, 1, k + 1);
            str_field(e, 2, tev_cats[k]);
            msg_field(in, 1, e);
        }
        uint_field(e, 1, 1);
        str_field(e, 2, "item");
        msg_field(in, 3, e);
        packet(m, out, 100 + (uint32_t)i, ts, 1, 12, in);
        /* process track, thread track, a counter track on the process */
        uint_field(e, 1, th->tgid);
        uint_field(in, 1, (uint64_t)th->tgid << 32);
        msg_field(in, 3, e);
        packet(m, out, 100 + (uint32_t)i, ts, 2, 60, in);
        uint_field(e, 1, th->tgid);
        uint_field(e, 2, th->tid);
        str_field(e, 5, th->name);
        uint_field(in, 1, (uint64_t)th->tgid << 32 | th->tid);
        uint_field(in, 5, (uint64_t)th->tgid << 32);
        msg_field(in, 4, e);
        packet(m, out, 100 + (uint32_t)i, ts, 2, 60, in);
        uint_field(in, 1, (uint64_t)th->tgid << 32 | 0x80000000u | (uint32_t)i);
        uint_field(in, 5, (uint64_t)th->tgid << 32);
        str_field(in, 2, i % 2 ? "heap.allocated" : "queued.jobs");
        msg_field(in, 8, e);
        packet(m, out, 100 + (uint32_t)i, ts, 2, 60, in);
    }
}

static void tev_slice_edge(struct mix *m, struct dynbuf *out, size_t i, uint64_t ts,
                           int begin, uint64_t name)
{
    const struct thr *th = te_thread(i);
    struct dynbuf *te = m->mid, *e = m->sub;
    uint_field(te, 9, begin ? 1 : 2);
    uint_field(te, 11, (uint64_t)th->tgid << 32 | th->tid);
    if (begin) {
        uint_field(te, 3, 1 + name % 4);
        uint_field(te, 10, name);
        if (rnd(3) == 0) {
            uint_field(e, 1, 1);
            uint_field(e, 4, rnd(1000));
            msg_field(te, 4, e);
        }
        if (rnd(20) == 0)               /* a flow to a later slice elsewhere */
            fixed64_field(te, 47, ++m->flow);
        else if (m->flow && rnd(20) == 0)
            fixed64_field(te, 48, m->flow);
    }
    packet(m, out, 100 + (uint32_t)i, ts, 2, 11, te);
}

/* One round of one thread: nested slices, a counter every 2 ms. */
static void tev_round(struct mix *m, struct dynbuf *out, size_t i, uint64_t from, uint64_t to)
{
    const struct thr *th = te_thread(i);
    uint64_t t = from + rnd(100000);
    while (t + 400000 < to) {
        uint64_t dur = 100000 + rnd(600000);
        uint64_t name = 1 + rnd(sizeof tev_names / sizeof *tev_names);
        uint64_t end = t + dur;
        tev_slice_edge(m, out, i, t, 1, name);
        for (uint64_t c = t + 20000, n = rnd(3); n && c + 60000 < end; n--) {
            uint64_t cd = 20000 + rnd(end - c - 40000 > 200000 ? 200000 : end - c - 40000);
            tev_slice_edge(m, out, i, c, 1, 1 + rnd(sizeof tev_names / sizeof *tev_names));
            tev_slice_edge(m, out, i, c + cd, 0, 0);
            c += cd + 10000;
        }
        tev_slice_edge(m, out, i, end, 0, 0);
        t = end + 20000 + rnd(300000);
    }
    for (uint64_t c = from + 1000; c < to; c += 2000000) {
        uint_field(m->mid, 9, 4);
        uint_field(m->mid, 11, (uint64_t)th->tgid << 32 | 0x80000000u | (uint32_t)i);
        uint_field(m->mid, 30, rnd(1u << 24));
        packet(m, out, 100 + (uint32_t)i, c, 2, 11, m->mid);
    }
}

static void logcat_round(struct mix *m, struct dynbuf *out, uint64_t from)
{
    struct dynbuf *lp = m->mid, *e = m->sub;
    for (int k = 0; k < 20; k++) {
        const struct thr *th = &threads[rnd(nthreads)];
        uint_field(e, 1, rnd(4) ? 0 : 3);
        uint_field(e, 2, th->tgid);
        uint_field(e, 3, th->tid);
        uint_field(e, 5, REALTIME_OFF + from + (uint64_t)k * 1000000 + rnd(900000));
        str_field(e, 6, log_tags[rnd(10)]);
        uint_field(e, 7, 2 + rnd(6));
        str_field(e, 8, log_msgs[rnd(8)]);
        msg_field(lp, 1, e);
    }
    packet(m, out, 4, from + ROUND_NS - 1, 0, 39, lp);
}

static void frame_field(struct mix *m, struct dynbuf *out, uint64_t ts, uint32_t which)
{
    struct dynbuf *fe = m->ev;
    msg_field(fe, which, m->sub);
    packet(m, out, 2, ts, 0, 76, fe);
}

/* One vsync: SurfaceFlinger's display frame and two apps' surface frames
 * (expected and actual, then their ends), one in 8 of them late. */
static void frame_one(struct mix *m, struct dynbuf *out, uint64_t ts)
{
    const uint32_t sf = 1100, app[2] = {1000, 1200};
    uint64_t c0 = m->cookie, dtok = ++m->token;
    int late = rnd(8) == 0;
    uint64_t lag = late ? 9000000 : 0;
    uint_field(m->sub, 1, ++m->cookie);
    uint_field(m->sub, 2, dtok);
    uint_field(m->sub, 3, sf);
    frame_field(m, out, ts, 1);
    uint_field(m->sub, 1, ++m->cookie);
    uint_field(m->sub, 2, dtok);
    uint_field(m->sub, 3, sf);
    uint_field(m->sub, 4, late ? 2 : 1);
    uint_field(m->sub, 5, !late);
    uint_field(m->sub, 6, 0);
    uint_field(m->sub, 7, late ? 8 : 1);
    uint_field(m->sub, 8, 1);
    frame_field(m, out, ts + 200000, 2);
    for (int a = 0; a < 2; a++) {
        char layer[96];
        snprintf(layer, sizeof layer, "%s/MainActivity#%d", apps[a == 0 ? 0 : 4], a);
        uint64_t tok = ++m->token;
        uint_field(m->sub, 1, ++m->cookie);
        uint_field(m->sub, 2, tok);
        uint_field(m->sub, 3, dtok);
        uint_field(m->sub, 4, app[a]);
        str_field(m->sub, 5, layer);
        frame_field(m, out, ts - 8000000, 3);
        uint_field(m->sub, 1, ++m->cookie);
        uint_field(m->sub, 2, tok);
        uint_field(m->sub, 3, dtok);
        uint_field(m->sub, 4, app[a]);
        str_field(m->sub, 5, layer);
        uint_field(m->sub, 6, late ? 2 : 1);
        uint_field(m->sub, 7, !late);
        uint_field(m->sub, 8, 0);
        uint_field(m->sub, 9, late ? 64 : 1);
        uint_field(m->sub, 10, 1);
        uint_field(m->sub, 11, 1);
        frame_field(m, out, ts - 7500000, 4);
    }
    /* ends: display expected, actual, then the apps' */
    for (uint64_t k = 1; k <= 6; k++) {
        uint_field(m->sub, 1, c0 + k);
        frame_field(m, out, ts + (k % 2 ? 16000000 : 16000000 + lag), 5);
    }
}

/* The perf samples' sequence: functions, frames of one mapping, and 30
 * callstacks of 3-12 frames, interned once. */
static void perf_start(struct mix *m, struct dynbuf *out, uint64_t ts)
{
    struct dynbuf *in = m->mid, *e = m->sub;
    char name[64];
    for (uint64_t f = 1; f <= NFUNC; f++) {
        snprintf(name, sizeof name, "android::Looper::pollOnce_%u", (unsigned)f);
        uint_field(e, 1, f);
        str_field(e, 2, name);
        msg_field(in, 5, e);
        uint_field(e, 1, f);
        uint_field(e, 2, f);
        uint_field(e, 3, 1);
        uint_field(e, 4, 0x1000 * f);
        msg_field(in, 6, e);
    }
    uint_field(e, 1, 1);
    str_field(e, 2, "/system/lib64/libutils.so");
    msg_field(in, 17, e);
    uint_field(e, 1, 1);
    uint_field(e, 4, 0x7f000000);
    uint_field(e, 5, 0x7f100000);
    uint_field(e, 7, 1);
    msg_field(in, 19, e);
    for (uint64_t c = 1; c <= 30; c++) {
        uint_field(e, 1, c);
        for (uint64_t d = 0, n = 3 + c % 10; d < n; d++)
            uint_field(e, 2, 1 + (c * 7 + d * 3) % NFUNC);
        msg_field(in, 7, e);
    }
    packet(m, out, 3, ts, 1, 12, in);
}

static void perf_round(struct mix *m, struct dynbuf *out, uint64_t from)
{
    for (uint32_t cpu = 0; cpu < NCPU; cpu++) {
        for (uint64_t t = from + rnd(1000000); t < from + ROUND_NS; t += 5000000) {
            const struct thr *th = &threads[rnd(nthreads)];
            uint_field(m->mid, 1, cpu);
            uint_field(m->mid, 2, th->tgid);
            uint_field(m->mid, 3, th->tid);
            uint_field(m->mid, 4, 1 + rnd(30));
            uint_field(m->mid, 5, 2);
            uint_field(m->mid, 6, 1000000);
            packet(m, out, 3, t, 2, 66, m->mid);
        }
    }
}

static void stats_round(struct mix *m, struct dynbuf *out, uint64_t ts)
{
    struct dynbuf *ps = m->mid, *e = m->sub;
    for (uint32_t p = 0; p < NPROC; p++) {
        uint_field(e, 1, 1000 + 50 * p);
        uint_field(e, 3, 20000 + rnd(300000));
        uint_field(e, 7, rnd(20000));
        uint_field(e, 10, p < 8 ? 0 : 900);
        msg_field(ps, 1, e);
    }
    packet(m, out, 5, ts, 0, 9, ps);
    for (uint32_t k = 1; k <= 10; k++) {
        uint_field(e, 1, k);
        uint_field(e, 2, 100000 + rnd(4000000));
        msg_field(ps, 1, e);
        uint_field(e, 1, k);
        uint_field(e, 2, rnd(1u << 30));
        msg_field(ps, 2, e);
    }
    packet(m, out, 6, ts, 0, 7, ps);
}

static void clock_snapshot(struct mix *m, struct dynbuf *out, uint64_t ts)
{
    static const uint32_t ids[] = {6, 3, 1};
    const uint64_t at[] = {ts, ts - 5000000000ull, ts + REALTIME_OFF};
    for (int k = 0; k < 3; k++) {
        uint_field(m->sub, 1, ids[k]);
        uint_field(m->sub, 2, at[k]);
        msg_field(m->ev, 1, m->sub);
    }
    packet(m, out, 1, ts, 0, 6, m->ev);
}

/* Everything -m adds to the round ending at TO, counted by kind. */
static void mix_round(struct mix *m, struct dynbuf *out, uint64_t to)
{
    uint64_t from = to - ROUND_NS;
    size_t at = out->len;
    if (m->round == 0) {
        clock_snapshot(m, out, from);
        tev_start(m, out, from);
        perf_start(m, out, from);
        m->frame_ts = from + 17000000;
    }
    for (size_t i = 0; i < NTE; i++)
        tev_round(m, out, i, from, to);
    kind_bytes[K_TEV] += out->len - at;
    at = out->len;
    logcat_round(m, out, from);
    kind_bytes[K_LOG] += out->len - at;
    at = out->len;
    for (; m->frame_ts < to; m->frame_ts += 16666667)
        frame_one(m, out, m->frame_ts);
    kind_bytes[K_FRAME] += out->len - at;
    at = out->len;
    perf_round(m, out, from);
    kind_bytes[K_PERF] += out->len - at;
    at = out->len;
    if (m->round % 5 == 0)
        stats_round(m, out, to - 1);
    kind_bytes[K_STATS] += out->len - at;
    m->round++;
}

static void mix_report(void)
{
    uint64_t all = 0;
    for (int k = 0; k < K_N; k++)
        all += kind_bytes[k];
    for (int k = 0; k < K_N && all; k++)
        fprintf(stderr, "pfgen: %-18s %6.1f MB %5.1f%%\n", kind_names[k], kind_bytes[k] / 1e6,
                100.0 * (double)kind_bytes[k] / (double)all);
}

static uint64_t parse_size(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        die("SIZE: a number with K, M or G");
    switch (*end) {
    case 'K': case 'k': v <<= 10; end++; break;
    case 'M': case 'm': v <<= 20; end++; break;
    case 'G': case 'g': v <<= 30; end++; break;
    }
    if (*end)
        die("SIZE: a number with K, M or G");
    return v;
}

int main(int argc, char **argv)
{
    struct dynbuf out, pkt, mid, sub, ev, arr[11];
    struct cpu cpus[NCPU];
    uint64_t want, written = 0, now = 1000000000000ull;
    FILE *fp;
    struct mix mx;

    mixed = argc > 1 && strcmp(argv[1], "-m") == 0;

    argc -= mixed;
    argv += mixed;
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: pfgen [-m] SIZE OUT [SEED]\n");
        return 2;
    }
    want = parse_size(argv[1]);
    if (argc == 4)
        rng ^= parse_size(argv[3]) * 0x2545f4914f6cdd1dull;
    fp = fopen(argv[2], "wb");
    if (!fp)
        die(strerror(errno));
    dynbuf_init(&out, BUF_MAX);
    dynbuf_init(&pkt, BUF_MAX);
    dynbuf_init(&mid, BUF_MAX);
    dynbuf_init(&sub, BUF_MAX);
    dynbuf_init(&ev, BUF_MAX);
    for (int i = 0; i < 11; i++)
        dynbuf_init(&arr[i], BUF_MAX);

    /* system_info: utsname { sysname, release } */
    str_field(&sub, 1, "Linux");
    str_field(&sub, 3, "5.10.198-android13-4-g0123456789ab");
    msg_field(&mid, 1, &sub);
    uint_field(&pkt, 10, 1);
    msg_field(&pkt, 45, &mid);
    msg_field(&out, 1, &pkt);
    process_tree(&out, &pkt, &mid, &sub);

    for (size_t i = 0; mixed && i < NTE; i++)
        threads[(i * 37) % nthreads].sdk = 1;  /* te_thread(i) */
    memset(&mx, 0, sizeof mx);
    mx.pkt = &pkt;
    mx.mid = &mid;
    mx.sub = &sub;
    mx.ev = &ev;
    memset(cpus, 0, sizeof cpus);
    for (int i = 0; i < NCPU; i++)
        cpus[i].ts = now + rnd(1000);
    while (written + out.len < want) {
        now += ROUND_NS;
        for (uint32_t i = 0; i < NCPU; i++) {
            cpu_round(&cpus[i], i, now, &mid, arr, &ev, &sub);
            uint_field(&pkt, 10, 1);
            msg_field(&pkt, 1, &mid);
            msg_field(&out, 1, &pkt);
        }
        kind_bytes[K_FTRACE] += out.len;
        if (mixed)
            mix_round(&mx, &out, now);
        if (fwrite(out.data, 1, out.len, fp) != out.len)
            die(strerror(errno));
        written += out.len;
        dynbuf_reset(&out);
    }
    if (out.len && fwrite(out.data, 1, out.len, fp) != out.len)
        die(strerror(errno));
    if (fclose(fp) != 0)
        die(strerror(errno));
    if (mixed)
        mix_report();
    dynbuf_free(&out);
    dynbuf_free(&pkt);
    dynbuf_free(&mid);
    dynbuf_free(&sub);
    dynbuf_free(&ev);
    for (int i = 0; i < 11; i++)
        dynbuf_free(&arr[i]);
    return 0;
}
