/* Thread and process names; see pfnames.h.  Two open-addressing hash
 * tables keyed by id, grown by doubling up to their bounds.  A lookup
 * visits at most PFN_PROBE_MAX slots: ids are the trace's to choose, and
 * 262,142 tids that share a slot made every lookup walk them all (9 s for
 * a 3.6 MB trace); an id whose run of slots is full is not remembered,
 * like one past the bound.  The hash mixes every bit of the id into the
 * slot, so real ids (sequential, or a few high bits apart) spread. */
#include "pfnames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dynbuf.h"
#include "lib/esctext.h"
#include "pb.h"

struct pfn_thread {
    uint32_t tid, tgid;
    uint8_t used, prio;
    char name[PFN_NAME];
};

struct pfn_proc {
    uint32_t pid, ppid, uid;
    uint32_t cmd;           /* offset+1 in cmdlines, 0: none */
    uint8_t used;
};

struct pfnames {
    struct pfn_thread *th;
    size_t nth, capth;
    struct pfn_proc *pr;
    size_t npr, cappr;
    struct dynbuf cmdlines;
    uint64_t dropped;
    size_t longest;         /* slots the longest insertion visited */
    uint64_t gen;           /* changes of a thread's name or tgid */
};

struct pfnames *pfnames_new(void)
{
    struct pfnames *n = calloc(1, sizeof(*n));
    if (n)
        dynbuf_init(&n->cmdlines, PFN_CMDLINES);
    return n;
}

void pfnames_free(struct pfnames *n)
{
    if (!n)
        return;
    free(n->th);
    free(n->pr);
    dynbuf_free(&n->cmdlines);
    free(n);
}

static size_t slot(uint32_t id, size_t cap)
{
    id ^= id >> 16;
    id *= 0x7feb352du;
    id ^= id >> 15;
    id *= 0x846ca68bu;
    id ^= id >> 16;
    return (size_t)id & (cap - 1);
}

static const struct pfn_thread *find_th(const struct pfnames *n, uint32_t tid)
{
    if (!n->capth)
        return NULL;
    size_t i = slot(tid, n->capth);
    for (size_t k = 0; k < PFN_PROBE_MAX; k++, i = (i + 1) & (n->capth - 1)) {
        if (!n->th[i].used)
            return NULL;
        if (n->th[i].tid == tid)
            return &n->th[i];
    }
    return NULL;
}

/* The free slot for a new id within PFN_PROBE_MAX of its home, else
 * SIZE_MAX. */
static size_t free_slot(struct pfnames *n, size_t home, size_t cap, size_t stride,
                        const uint8_t *used)
{
    size_t i = home;
    for (size_t k = 0; k < PFN_PROBE_MAX; k++, i = (i + 1) & (cap - 1))
        if (!used[i * stride]) {
            if (k + 1 > n->longest)
                n->longest = k + 1;
            return i;
        }
    return SIZE_MAX;
}

static int grow_th(struct pfnames *n)
{
    size_t cap = n->capth ? n->capth * 2 : 1024;
    struct pfn_thread *t = calloc(cap, sizeof(*t));
    if (!t)
        return -1;
    for (size_t k = 0; k < n->capth; k++) {
        if (!n->th[k].used)
            continue;
        size_t i = free_slot(n, slot(n->th[k].tid, cap), cap, sizeof(*t), &t->used);
        if (i == SIZE_MAX)
            n->dropped++, n->nth--;
        else
            t[i] = n->th[k];
    }
    free(n->th);
    n->th = t;
    n->capth = cap;
    n->gen++;
    return 0;
}

/* The entry of tid, made if new; NULL past the bound. */
static struct pfn_thread *get_th(struct pfnames *n, uint32_t tid)
{
    struct pfn_thread *t = (struct pfn_thread *)find_th(n, tid);
    if (t)
        return t;
    if ((n->nth + 1) * 2 > n->capth &&
        (n->capth * 2 > PFN_THREADS * 2 || grow_th(n))) {
        n->dropped++;
        return NULL;
    }
    size_t i = free_slot(n, slot(tid, n->capth), n->capth, sizeof(*n->th), &n->th->used);
    if (i == SIZE_MAX) {
        n->dropped++;
        return NULL;
    }
    t = &n->th[i];
    memset(t, 0, sizeof(*t));
    t->used = 1;
    t->tid = tid;
    n->nth++;
    n->gen++;
    return t;
}

static void set_name(struct pfnames *n, struct pfn_thread *t, const char *name, size_t len,
                     int prio)
{
    n->gen++;
    if (len >= PFN_NAME)
        len = PFN_NAME - 1;
    if (len)
        memcpy(t->name, name, len);
    t->name[len] = '\0';
    t->prio = (uint8_t)prio;
}

void pfnames_thread(struct pfnames *n, uint32_t tid, const char *name, size_t len, int prio)
{
    if (!name)
        name = "", len = 0;     /* an event without the comm field */
    const struct pfn_thread *f = find_th(n, tid);
    if (f && f->prio > prio)
        return;
    if (f && f->prio == prio && strlen(f->name) == len && !memcmp(f->name, name, len))
        return;
    struct pfn_thread *t = get_th(n, tid);
    if (t)
        set_name(n, t, name, len, prio);
}

void pfnames_new_thread(struct pfnames *n, uint32_t tid, const char *name, size_t len,
                        uint32_t tgid)
{
    struct pfn_thread *t = get_th(n, tid);
    if (!t)
        return;
    set_name(n, t, name, len, PFN_FTRACE);
    t->tgid = tgid;
}

void pfnames_set_tgid(struct pfnames *n, uint32_t tid, uint32_t tgid)
{
    struct pfn_thread *t = get_th(n, tid);
    if (t && t->tgid != tgid) {
        t->tgid = tgid;
        n->gen++;
    }
}

uint64_t pfnames_gen(const struct pfnames *n)
{
    return n->gen;
}

const char *pfnames_name(const struct pfnames *n, uint32_t tid)
{
    const struct pfn_thread *t = find_th(n, tid);
    return t ? t->name : "";
}

uint32_t pfnames_tgid(const struct pfnames *n, uint32_t tid)
{
    const struct pfn_thread *t = find_th(n, tid);
    return t ? t->tgid : 0;
}

/* ---- processes ---------------------------------------------------------- */

static struct pfn_proc *get_pr(struct pfnames *n, uint32_t pid)
{
    if ((n->npr + 1) * 2 > n->cappr) {
        size_t cap = n->cappr ? n->cappr * 2 : 256;
        struct pfn_proc *p = cap <= PFN_PROCS * 2 ? calloc(cap, sizeof(*p)) : NULL;
        if (!p)
            return NULL;
        for (size_t k = 0; k < n->cappr; k++) {
            if (!n->pr[k].used)
                continue;
            size_t i = free_slot(n, slot(n->pr[k].pid, cap), cap, sizeof(*p), &p->used);
            if (i == SIZE_MAX)
                n->dropped++, n->npr--;
            else
                p[i] = n->pr[k];
        }
        free(n->pr);
        n->pr = p;
        n->cappr = cap;
    }
    size_t i = slot(pid, n->cappr), k = 0;
    for (; k < PFN_PROBE_MAX && n->pr[i].used && n->pr[i].pid != pid; k++)
        i = (i + 1) & (n->cappr - 1);
    if (k == PFN_PROBE_MAX)
        return NULL;    /* the caller counts it dropped */
    if (k + 1 > n->longest)
        n->longest = k + 1;
    if (!n->pr[i].used) {
        memset(&n->pr[i], 0, sizeof(n->pr[i]));
        n->pr[i].used = 1;
        n->pr[i].pid = pid;
        n->npr++;
    }
    return &n->pr[i];
}

/* The cmdline's arguments joined by spaces; control bytes and NULs (a
 * cmdline read raw) become spaces so a dump line stays one line. */
static enum st_err add_cmdline(struct pfnames *n, struct pfn_proc *pr, struct dynbuf *cmd)
{
    if (!cmd->len)
        return ST_OK;
    const char *old = pr->cmd ? n->cmdlines.data + pr->cmd - 1 : NULL;
    if (old && strlen(old) == cmd->len && !memcmp(old, cmd->data, cmd->len))
        return ST_OK;
    size_t at = n->cmdlines.len;
    if (dynbuf_add(&n->cmdlines, cmd->data, cmd->len + 1)) {
        n->dropped++;
        return ST_OK;
    }
    pr->cmd = (uint32_t)at + 1;
    return ST_OK;
}

static void add_arg(struct dynbuf *cmd, const uint8_t *p, size_t len)
{
    if (cmd->len)
        dynbuf_addc(cmd, ' ');
    for (size_t i = 0; i < len; i++)
        dynbuf_addc(cmd, p[i] < 0x20 || p[i] == 0x7f ? ' ' : (char)p[i]);
}

static enum st_err process(struct pfnames *n, const uint8_t *p, size_t len)
{
    struct pb_iter it;
    struct pb_field f;
    uint32_t pid = 0, ppid = 0, uid = 0;
    struct dynbuf cmd;
    dynbuf_init(&cmd, 4096);
    pb_iter_init(&it, p, len);
    int r;
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            pid = (uint32_t)f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            ppid = (uint32_t)f.v;
        else if (f.num == 5 && f.wire == PB_VARINT)
            uid = (uint32_t)f.v;
        else if (f.num == 3 && f.wire == PB_LEN)
            add_arg(&cmd, f.p, f.len);
    }
    enum st_err e = r ? ST_EFORMAT : ST_OK;
    struct pfn_proc *pr = e ? NULL : get_pr(n, pid);
    if (!e && !pr)
        n->dropped++;
    if (pr) {
        pr->ppid = ppid;
        pr->uid = uid;
        e = add_cmdline(n, pr, &cmd);
        pfnames_set_tgid(n, pid, pid);
    }
    dynbuf_free(&cmd);
    return e;
}

void pfnames_process(struct pfnames *n, uint32_t pid, uint32_t ppid)
{
    struct pfn_proc *pr = get_pr(n, pid);
    if (!pr) {
        n->dropped++;
        return;
    }
    if (!pr->ppid)
        pr->ppid = ppid;
    pfnames_set_tgid(n, pid, pid);
}

static enum st_err thread(struct pfnames *n, const uint8_t *p, size_t len)
{
    struct pb_iter it;
    struct pb_field f;
    uint32_t tid = 0, tgid = 0;
    const uint8_t *name = NULL;
    size_t nlen = 0;
    pb_iter_init(&it, p, len);
    int r;
    while ((r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            tid = (uint32_t)f.v;
        else if (f.num == 3 && f.wire == PB_VARINT)
            tgid = (uint32_t)f.v;
        else if (f.num == 2 && f.wire == PB_LEN) {
            name = f.p;
            nlen = f.len;
        }
    }
    if (r)
        return ST_EFORMAT;
    if (tgid)
        pfnames_set_tgid(n, tid, tgid);
    if (name)
        pfnames_thread(n, tid, (const char *)name, nlen, PFN_PTREE);
    return ST_OK;
}

enum st_err pfnames_tree(struct pfnames *n, const uint8_t *p, size_t len)
{
    struct pb_iter it;
    struct pb_field f;
    pb_iter_init(&it, p, len);
    int r;
    enum st_err e = ST_OK;
    while (!e && (r = pb_next(&it, &f)) == 1) {
        if (f.num == 1 && f.wire == PB_LEN)
            e = process(n, f.p, f.len);
        else if (f.num == 2 && f.wire == PB_LEN)
            e = thread(n, f.p, f.len);
    }
    return e ? e : r ? ST_EFORMAT : ST_OK;
}

/* ---- the dump ---------------------------------------------------------- */

size_t pfnames_processes(const struct pfnames *n)
{
    return n->npr;
}

uint64_t pfnames_dropped(const struct pfnames *n)
{
    return n->dropped;
}

size_t pfnames_longest_probe(const struct pfnames *n)
{
    return n->longest;
}

/* A thread name as a dump column: control characters (a newline or tab
 * would forge a dump line or column, ESC reach a terminal showing it) as
 * \xHH, as esctext.h writes them; blanks as '_' where the column is not
 * the last. */
struct dname {
    char s[PFN_NAME * 4];
};

static const char *dump_name(struct dname *d, const char *name, int blanks)
{
    esc_text(d->s, sizeof(d->s), name, strlen(name), 0);
    for (char *c = d->s; !blanks && *c; c++)
        if (*c == ' ')
            *c = '_';
    return d->s;
}

/* A ps NAME column: the first word of the cmdline, else the main thread's
 * name; never empty, never a blank inside. */
static void ps_name(const struct pfnames *n, const struct pfn_proc *pr, char *out, size_t sz)
{
    const char *cmd = pr->cmd ? n->cmdlines.data + pr->cmd - 1 : "";
    struct dname d;
    if (!*cmd)
        cmd = dump_name(&d, pfnames_name(n, pr->pid), 1);
    size_t l = strcspn(cmd, " ");
    snprintf(out, sz, "%.*s", (int)l, l ? cmd : "<unknown>");
}

static enum st_err emit(struct dynbuf *b, st_write_fn write, void *ctx, int last)
{
    if (b->len < 65536 && !last)
        return ST_OK;
    enum st_err e = write(ctx, b->data, b->len);
    dynbuf_reset(b);
    return e;
}

static enum st_err dump_threads(const struct pfnames *n, struct dynbuf *b, st_write_fn write,
                                void *ctx)
{
    enum st_err e = dynbuf_printf(b, "%-12s %5s %5s %-15s\n", "USER", "PID", "TID", "CMD");
    for (size_t i = 0; !e && i < n->capth; i++) {
        const struct pfn_thread *t = &n->th[i];
        if (!t->used || !t->tgid || !t->name[0])
            continue;
        struct dname d;
        e = dynbuf_printf(b, "%-12s %5u %5u %s\n", "root", t->tgid, t->tid,
                          dump_name(&d, t->name, 0));
        if (!e)
            e = emit(b, write, ctx, 0);
    }
    return e;
}

enum st_err pfnames_dump(const struct pfnames *n, st_write_fn write, void *ctx)
{
    if (!n->npr)
        return ST_ENOTRACE;
    struct dynbuf b;
    dynbuf_init(&b, 1 << 20);
    enum st_err e = dynbuf_printf(&b, "PROCESS DUMP\n%-12s %5s %5s %7s %6s %-6s %12s %-1s "
                                      "%-27s %-27s\n", "USER", "PID", "PPID", "VSZ", "RSS",
                                  "WCHAN", "PC", "S", "NAME", "COMM");
    for (size_t i = 0; !e && i < n->cappr; i++) {
        const struct pfn_proc *pr = &n->pr[i];
        if (!pr->used)
            continue;
        char name[256];
        ps_name(n, pr, name, sizeof(name));
        struct dname d;
        const char *comm = dump_name(&d, pfnames_name(n, pr->pid), 1);
        e = dynbuf_printf(&b, "%-12u %5u %5u %7d %6d %-6s %12d %-1s %-27s %-27s\n", pr->uid,
                          pr->pid, pr->ppid, 0, 0, "0", 0, "S", name, *comm ? comm : name);
        if (!e)
            e = emit(&b, write, ctx, 0);
    }
    if (!e)
        e = dump_threads(n, &b, write, ctx);
    if (!e)
        e = emit(&b, write, ctx, 1);
    dynbuf_free(&b);
    return e;
}
