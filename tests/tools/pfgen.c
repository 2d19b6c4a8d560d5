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

struct thr { uint32_t tid, tgid; char name[16]; };

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
            const struct thr *th = &threads[next - 1];
            uint64_t t = c->ts + 500;
            while (t + 3000 < c->ts + run) {
                char buf[96];
                if (c->depth < 3 && rnd(3)) {
                    snprintf(buf, sizeof buf, "B|%u|%s", th->tgid, slices[rnd(10)]);
                    c->depth++;
                } else if (c->depth) {
                    snprintf(buf, sizeof buf, "E|%u", th->tgid);
                    c->depth--;
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

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: pfgen SIZE OUT [SEED]\n");
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
        if (fwrite(out.data, 1, out.len, fp) != out.len)
            die(strerror(errno));
        written += out.len;
        dynbuf_reset(&out);
    }
    if (out.len && fwrite(out.data, 1, out.len, fp) != out.len)
        die(strerror(errno));
    if (fclose(fp) != 0)
        die(strerror(errno));
    dynbuf_free(&out);
    dynbuf_free(&pkt);
    dynbuf_free(&mid);
    dynbuf_free(&sub);
    dynbuf_free(&ev);
    for (int i = 0; i < 11; i++)
        dynbuf_free(&arr[i]);
    return 0;
}
