/*
 * pfbody [-k] TRACE: prints "TS NAME:BODY" for every ftrace event of a
 * Perfetto trace with the project's event formatter (formats/perfetto/pfevent.h),
 * for comparison with Perfetto's own `select ts, to_ftrace(id) from
 * ftrace_event` (tests/e2e/perfetto_events.sh).  Not the project's trace
 * reader: a small walk of packets, bundles and compact sched that is just
 * enough for test traces (one packet sequence, no compressed packets; a
 * compact switch's prev_* come from the previous switch on its CPU, the
 * first switch of each CPU and wakings before it are dropped, as Perfetto
 * does).  A BODY's newlines are written as "\n" so each event is one line.
 * The kernel version of system_info is used only with -k (to_ftrace itself
 * ignores it, see pfevent.h).  Exit 1 with a message on a malformed trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/perfetto/pb.h"
#include "formats/perfetto/pfevent.h"

#define MAX_CPUS 64
#define MAX_SYMS 4096

struct cpu_state {
    int seen;
    uint64_t first_ts;      /* of its first switch: wakings before are dropped */
    uint32_t pid;
    int32_t prio;
    char comm[64];
};

struct tool {
    struct pfevent_ctx ctx;
    int use_version;
    struct cpu_state cpu[MAX_CPUS];
    uint64_t sym_iid[MAX_SYMS];
    char *sym[MAX_SYMS];
    size_t nsyms;
    struct dynbuf line;
};

static const char *ksym(void *arg, uint64_t iid, size_t *len)
{
    struct tool *t = arg;
    for (size_t i = 0; i < t->nsyms; i++) {
        if (t->sym_iid[i] == iid) {
            *len = strlen(t->sym[i]);
            return t->sym[i];
        }
    }
    return NULL;
}

static void die(const char *what)
{
    fprintf(stderr, "pfbody: %s\n", what);
    exit(1);
}

static void emit(struct tool *t, uint64_t ts, const char *name, size_t name_len)
{
    printf("%" PRIu64 " %.*s:", ts, (int)name_len, name);
    const char *p = t->line.data, *end = p + t->line.len, *nl;
    while (p && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        fwrite(p, 1, (size_t)(nl - p), stdout);
        fputs("\\n", stdout);
        p = nl + 1;
    }
    if (p)
        fwrite(p, 1, (size_t)(end - p), stdout);
    putchar('\n');
    dynbuf_reset(&t->line);
}

static void copy_comm(char *dst, size_t cap, const uint8_t *p, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, p, n);
    dst[n] = '\0';
}

static void one_event(struct tool *t, uint32_t cpu, const uint8_t *p, size_t len)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t ts = 0;
    int r;

    pb_iter_init(&it, p, len);
    while ((r = pb_next(&it, &f)) == 1)
        if (f.num == 1)
            ts = f.v;
    pb_iter_init(&it, p, len);
    while ((r = pb_next(&it, &f)) == 1) {
        const char *name;
        size_t name_len;
        if (f.num == 1 || f.num == 2 || f.num == 5 || f.wire != PB_LEN)
            continue;
        if (f.num == PFEVENT_GENERIC_ID) {
            if (pfevent_generic_name(f.p, f.len, &name, &name_len) != ST_OK)
                die("malformed generic event");
        } else {
            name = pfevent_name(f.num);
            if (!name)
                continue;
            name_len = strlen(name);
        }
        if (f.num == 4 && cpu < MAX_CPUS) {     /* keep prev_* for compact */
            struct pb_iter s;
            struct pb_field g;
            pb_iter_init(&s, f.p, f.len);
            if (!t->cpu[cpu].seen)
                t->cpu[cpu].first_ts = ts;
            t->cpu[cpu].seen = 1;
            while (pb_next(&s, &g) == 1) {
                if (g.num == 5 && g.wire == PB_LEN)
                    copy_comm(t->cpu[cpu].comm, sizeof t->cpu[cpu].comm, g.p, g.len);
                else if (g.num == 6)
                    t->cpu[cpu].pid = (uint32_t)g.v;
                else if (g.num == 7)
                    t->cpu[cpu].prio = (int32_t)g.v;
            }
        }
        if (pfevent_format(&t->ctx, f.num, f.p, f.len, &t->line) != ST_OK)
            die("event the formatter refused");
        emit(t, ts, name, name_len);
    }
    if (r < 0)
        die("malformed ftrace event");
}

/* Compact sched arrays (CompactSched fields), read into memory. */
struct arr {
    uint64_t *v;
    size_t n;
};

static void arr_read(struct arr *a, const struct pb_field *f)
{
    struct pb_packed pk;
    uint64_t v;
    int r;
    pb_packed_init(&pk, f);
    while ((r = pb_packed_next(&pk, &v)) == 1) {
        uint64_t *nv = realloc(a->v, (a->n + 1) * sizeof *nv);
        if (!nv)
            die("out of memory");
        a->v = nv;
        a->v[a->n++] = v;
    }
    if (r < 0)
        die("malformed packed array");
}

static uint64_t at(const struct arr *a, size_t i)
{
    if (i >= a->n)
        die("compact sched arrays of different lengths");
    return a->v[i];
}

static void compact(struct tool *t, uint32_t cpu, const uint8_t *p, size_t len)
{
    struct arr a[13];
    const uint8_t *intern[256];
    size_t intern_len[256], nintern = 0;
    struct pb_iter it;
    struct pb_field f;
    char next_comm[64], wcomm[64];
    uint64_t ts = 0;

    memset(a, 0, sizeof a);
    pb_iter_init(&it, p, len);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 5 && f.wire == PB_LEN && nintern < 256) {
            intern[nintern] = f.p;
            intern_len[nintern++] = f.len;
        } else if (f.num < 13 && f.num != 5 && f.wire == PB_LEN) {
            arr_read(&a[f.num], &f);
        }
    }
    if (it.bad || cpu >= MAX_CPUS)
        die("malformed compact sched");
    for (size_t i = 0; i < a[1].n; i++) {
        struct cpu_state *c = &t->cpu[cpu];
        uint64_t ci = at(&a[6], i);
        ts += a[1].v[i];
        if (ci >= nintern)
            die("compact sched comm index out of range");
        copy_comm(next_comm, sizeof next_comm, intern[ci], intern_len[ci]);
        if (c->seen) {
            struct pf_switch s = {c->comm, c->pid, c->prio, (int64_t)at(&a[2], i), next_comm,
                                  (uint32_t)at(&a[3], i), (int32_t)at(&a[4], i)};
            if (pfevent_sched_switch(&t->ctx, &s, &t->line) != ST_OK)
                die("switch the formatter refused");
            emit(t, ts, "sched_switch", 12);
        }
        if (!c->seen)
            c->first_ts = ts;
        c->seen = 1;
        c->pid = (uint32_t)at(&a[3], i);
        c->prio = (int32_t)at(&a[4], i);
        /* Perfetto names a switched-out task from its thread table, where
         * pid 0 is "swapper". */
        memcpy(c->comm, c->pid ? next_comm : "swapper", c->pid ? sizeof c->comm : 8);
    }
    ts = 0;
    for (size_t i = 0; i < a[7].n; i++) {
        uint64_t ci = at(&a[11], i);
        ts += a[7].v[i];
        if (ci >= nintern)
            die("compact sched comm index out of range");
        copy_comm(wcomm, sizeof wcomm, intern[ci], intern_len[ci]);
        if (!t->cpu[cpu].seen || ts < t->cpu[cpu].first_ts)
            continue;
        struct pf_waking w = {wcomm, (uint32_t)at(&a[8], i), (uint16_t)at(&a[10], i),
                              (uint16_t)at(&a[9], i)};
        if (pfevent_sched_waking(&t->ctx, &w, &t->line) != ST_OK)
            die("waking the formatter refused");
        emit(t, ts, "sched_waking", 12);
    }
    for (size_t i = 0; i < 13; i++)
        free(a[i].v);
}

static void bundle(struct tool *t, const uint8_t *p, size_t len)
{
    struct pb_iter it;
    struct pb_field f;
    uint32_t cpu = 0;
    int r;

    pb_iter_init(&it, p, len);
    while ((r = pb_next(&it, &f)) == 1)
        if (f.num == 1)
            cpu = (uint32_t)f.v;
    pb_iter_init(&it, p, len);
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 2 && f.wire == PB_LEN)
            one_event(t, cpu, f.p, f.len);
        else if (f.num == 4 && f.wire == PB_LEN)
            compact(t, cpu, f.p, f.len);
    }
    if (r < 0)
        die("malformed bundle");
}

static void system_info(struct tool *t, const uint8_t *p, size_t len)
{
    struct pb_iter it, u;
    struct pb_field f, g;
    pb_iter_init(&it, p, len);
    while (pb_next(&it, &f) == 1) {
        const char *sys = "", *rel = "";
        size_t sys_len = 0, rel_len = 0;
        if (f.num != 1 || f.wire != PB_LEN)
            continue;
        pb_iter_init(&u, f.p, f.len);
        while (pb_next(&u, &g) == 1) {
            if (g.num == 1 && g.wire == PB_LEN) {
                sys = (const char *)g.p;
                sys_len = g.len;
            } else if (g.num == 3 && g.wire == PB_LEN) {
                rel = (const char *)g.p;
                rel_len = g.len;
            }
        }
        if (t->use_version)
            pfevent_ctx_uname(&t->ctx, sys, sys_len, rel, rel_len);
    }
}

static void interned(struct tool *t, const uint8_t *p, size_t len)
{
    struct pb_iter it, s;
    struct pb_field f, g;
    pb_iter_init(&it, p, len);
    while (pb_next(&it, &f) == 1) {
        uint64_t iid = 0;
        const uint8_t *str = NULL;
        size_t n = 0;
        if (f.num != 26 || f.wire != PB_LEN || t->nsyms == MAX_SYMS)
            continue;
        pb_iter_init(&s, f.p, f.len);
        while (pb_next(&s, &g) == 1) {
            if (g.num == 1)
                iid = g.v;
            else if (g.num == 2 && g.wire == PB_LEN) {
                str = g.p;
                n = g.len;
            }
        }
        t->sym_iid[t->nsyms] = iid;
        t->sym[t->nsyms] = strndup(str ? (const char *)str : "", n);
        if (!t->sym[t->nsyms++])
            die("out of memory");
    }
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!fp) {
        fprintf(stderr, "pfbody: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 20;
            buf = realloc(buf, cap);
            if (!buf)
                die("out of memory");
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
    } while (got);
    fclose(fp);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    static struct tool t;
    struct pb_iter it, pk;
    struct pb_field f, g;
    size_t len;
    uint8_t *buf;

    if (argc == 3 && strcmp(argv[1], "-k") == 0) {
        t.use_version = 1;
        argv++;
        argc--;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: pfbody [-k] TRACE\n");
        return 2;
    }
    buf = slurp(argv[1], &len);
    t.ctx.ksym = ksym;
    t.ctx.ksym_arg = &t;
    dynbuf_init(&t.line, 1 << 20);
    /* Two passes: system info and symbols first, as Perfetto knows them
     * before it prints anything. */
    for (int pass = 0; pass < 2; pass++) {
        pb_iter_init(&it, buf, len);
        while (pb_next(&it, &f) == 1) {
            if (f.num != 1 || f.wire != PB_LEN)
                continue;
            pb_iter_init(&pk, f.p, f.len);
            while (pb_next(&pk, &g) == 1) {
                if (g.wire != PB_LEN)
                    continue;
                if (pass == 0 && g.num == 45)
                    system_info(&t, g.p, g.len);
                else if (pass == 0 && g.num == 12)
                    interned(&t, g.p, g.len);
                else if (pass == 1 && g.num == 1)
                    bundle(&t, g.p, g.len);
            }
        }
        if (it.bad)
            die("malformed trace");
    }
    for (size_t i = 0; i < t.nsyms; i++)
        free(t.sym[i]);
    dynbuf_free(&t.line);
    free(buf);
    return 0;
}
