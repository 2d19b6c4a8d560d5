/*
 * --process with a Perfetto trace as the output (pfcut.h): the scan finds
 * the processes asked for (by pid, or by name: a process's cmdline or its
 * basename, its process_name, its main thread's name as the kernel cuts
 * it to 15 bytes) and notes which process each thread and each track
 * belongs to (process trees, process/thread/track descriptors); the cut
 * then keeps of other processes neither their atrace prints, nor their
 * track events, logcat lines or process stats.  CPU-wide data (sched,
 * frequencies, every other ftrace event) is kept whole, so the CPU tracks
 * stay whole, with other processes' threads on them as they ran.
 */
#include "pfcut_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/procname.h"
#include "pb.h"
#include "pbw.h"

#define MAP_MAX ((size_t)1 << 22)

/* ---- a u64 -> u64 map (key 0 stands for itself + 1 << 63) --------------- */

static uint64_t key_of(uint64_t k)
{
    return k ? k : 1ull << 63;
}

static size_t slot(uint64_t k, size_t cap)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static int map_get(const struct pfcut_map *m, uint64_t k, uint64_t *v)
{
    if (!m->cap)
        return 0;
    k = key_of(k);
    for (size_t i = slot(k, m->cap); m->k[i]; i = (i + 1) & (m->cap - 1))
        if (m->k[i] == k) {
            *v = m->v[i];
            return 1;
        }
    return 0;
}

static int map_put(struct pfcut_map *m, uint64_t k, uint64_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        if (cap > MAP_MAX * 2)
            return -1;
        uint64_t *nk = calloc(cap, sizeof(*nk)), *nv = calloc(cap, sizeof(*nv));
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->k[i])
                continue;
            size_t j = slot(m->k[i], cap);
            while (nk[j])
                j = (j + 1) & (cap - 1);
            nk[j] = m->k[i];
            nv[j] = m->v[i];
        }
        free(m->k);
        free(m->v);
        m->k = nk;
        m->v = nv;
        m->cap = cap;
    }
    k = key_of(k);
    size_t i = slot(k, m->cap);
    while (m->k[i] && m->k[i] != k)
        i = (i + 1) & (m->cap - 1);
    if (!m->k[i])
        m->n++;
    m->k[i] = k;
    m->v[i] = v;
    return 0;
}

static void map_free(struct pfcut_map *m)
{
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof(*m));
}

/* ---- what is asked for -------------------------------------------------- */

enum st_err pfcut_want_procs(struct pfcut *c, const char *const *names, size_t nnames,
                             const int64_t *pids, size_t npids)
{
    struct pfcut_procs *pr = &c->procs;
    pr->names = calloc(nnames ? nnames : 1, sizeof(*pr->names));
    pr->pids = calloc(npids ? npids : 1, sizeof(*pr->pids));
    pr->found = calloc(nnames + npids + 1, 1);
    if (!pr->names || !pr->pids || !pr->found)
        return ST_ENOMEM;
    for (size_t i = 0; i < nnames; i++)
        if (!(pr->names[i] = strdup(names[i])))
            return ST_ENOMEM;
    pr->nnames = nnames;
    memcpy(pr->pids, pids, npids * sizeof(*pids));
    pr->npids = npids;
    pr->active = 1;
    return ST_OK;
}

const char *pfcut_procs_missing(const struct pfcut *c, char *buf, size_t n)
{
    const struct pfcut_procs *pr = &c->procs;
    for (size_t i = 0; i < pr->nnames; i++)
        if (!pr->found[i])
            return pr->names[i];
    for (size_t i = 0; i < pr->npids; i++)
        if (!pr->found[pr->nnames + i]) {
            snprintf(buf, n, "%lld", (long long)pr->pids[i]);
            return buf;
        }
    return NULL;
}

void pfcut_take_procs(struct pfcut *to, struct pfcut *from)
{
    pfcut_procs_free(to);
    to->procs = from->procs;
    memset(&from->procs, 0, sizeof(from->procs));
}

void pfcut_procs_free(struct pfcut *c)
{
    struct pfcut_procs *pr = &c->procs;
    for (size_t i = 0; pr->names && i < pr->nnames; i++)
        free(pr->names[i]);
    free(pr->names);
    free(pr->pids);
    free(pr->found);
    map_free(&pr->tgid);
    map_free(&pr->track_pid);
    map_free(&pr->track_parent);
    map_free(&pr->keep);
    memset(pr, 0, sizeof(*pr));
}

/* ---- the scan ----------------------------------------------------------- */

/* A process of the trace: pid, and a name it goes by (may be NULL). */
static void process(struct pfcut *c, uint64_t pid, const uint8_t *name, size_t n)
{
    struct pfcut_procs *pr = &c->procs;
    for (size_t i = 0; i < pr->npids; i++)
        if ((uint64_t)pr->pids[i] == pid) {
            pr->found[pr->nnames + i] = 1;
            if (map_put(&pr->keep, pid, 1))
                c->st.saved_over++;
        }
    for (size_t i = 0; name && i < pr->nnames; i++)
        if (procname_matches((const char *)name, n, pr->names[i])) {
            pr->found[i] = 1;
            if (map_put(&pr->keep, pid, 1))
                c->st.saved_over++;
        }
}

static void thread(struct pfcut *c, uint64_t tid, uint64_t tgid)
{
    if (tid && tgid && map_put(&c->procs.tgid, tid, tgid))
        c->st.saved_over++;
}

/* ProcessTree { processes { pid 1, cmdline 3 } threads { tid 1, name 2, tgid 3 } } */
static void tree(struct pfcut *c, const uint8_t *p, size_t n)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.wire != PB_LEN || (f.num != 1 && f.num != 2))
            continue;
        uint64_t id = 0, tgid = 0;
        const uint8_t *name = NULL;
        size_t len = 0;
        pb_iter_init(&in, f.p, f.len);
        while (pb_next(&in, &g) == 1) {
            if (g.num == 1 && g.wire == PB_VARINT)
                id = g.v;
            else if (g.num == 3 && g.wire == PB_VARINT && f.num == 2)
                tgid = g.v;
            else if (g.wire == PB_LEN && ((f.num == 1 && g.num == 3) || (f.num == 2 && g.num == 2))
                     && !name)
                name = g.p, len = g.len;
        }
        if (f.num == 1) {
            process(c, id, name, len);
            continue;
        }
        thread(c, id, tgid);
        process(c, tgid, id == tgid ? name : NULL, len);    /* its main thread's name */
    }
}

/* ProcessDescriptor { pid 1, cmdline 2, process_name 6 }: its pid. */
static uint64_t proc_desc(struct pfcut *c, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t pid = 0;
    const uint8_t *names[2] = {NULL, NULL};
    size_t lens[2] = {0, 0};
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            pid = f.v;
        else if (f.num == 2 && f.wire == PB_LEN && !names[0])
            names[0] = f.p, lens[0] = f.len;
        else if (f.num == 6 && f.wire == PB_LEN)
            names[1] = f.p, lens[1] = f.len;
    }
    process(c, pid, names[0], lens[0]);
    process(c, pid, names[1], lens[1]);
    return pid;
}

/* ThreadDescriptor { pid 1, tid 2 }: its pid (the process). */
static uint64_t thread_desc(struct pfcut *c, const uint8_t *p, size_t n, uint64_t *tid)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t pid = 0;
    *tid = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            pid = f.v;
        else if (f.num == 2 && f.wire == PB_VARINT)
            *tid = f.v;
    }
    thread(c, *tid, pid);
    process(c, pid, NULL, 0);
    return pid;
}

/* TrackDescriptor { uuid 1, parent_uuid 5, process 3, thread 4 } */
static void track_desc(struct pfcut *c, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t uuid = 0, parent = 0, pid = 0, tid;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_VARINT)
            uuid = f.v;
        else if (f.num == 5 && f.wire == PB_VARINT)
            parent = f.v;
        else if (f.num == 3 && f.wire == PB_LEN)
            pid = proc_desc(c, f.p, f.len);
        else if (f.num == 4 && f.wire == PB_LEN)
            pid = thread_desc(c, f.p, f.len, &tid);
    }
    struct pfcut_procs *pr = &c->procs;
    if (uuid && pid && map_put(&pr->track_pid, uuid, pid))
        c->st.saved_over++;
    if (uuid && parent && map_put(&pr->track_parent, uuid, parent))
        c->st.saved_over++;
}

void pfcut_procs_packet(struct pfcut *c, uint32_t seq, uint32_t num, const uint8_t *p, size_t n)
{
    uint64_t tid;
    if (!c->procs.active)
        return;
    if (num == 2 && c->scanning)
        tree(c, p, n);
    else if (num == 43 && c->scanning)
        proc_desc(c, p, n);
    else if (num == 60 && c->scanning)
        track_desc(c, p, n);
    else if (num == 44) {       /* a sequence's thread, for its legacy track events */
        thread_desc(c, p, n, &tid);
        if (map_put(&c->procs.tgid, (1ull << 40) | seq, tid))
            c->st.saved_over++;
    }
}

/* ---- the cut ------------------------------------------------------------ */

int pfcut_tid_kept(const struct pfcut *c, uint64_t tid)
{
    const struct pfcut_procs *pr = &c->procs;
    uint64_t tgid, v;
    if (!pr->active)
        return 1;
    if (map_get(&pr->keep, tid, &v))
        return 1;
    return map_get(&pr->tgid, tid, &tgid) && map_get(&pr->keep, tgid, &v);
}

int pfcut_track_kept(const struct pfcut *c, uint32_t seq, uint64_t uuid)
{
    const struct pfcut_procs *pr = &c->procs;
    uint64_t pid, v, tid;
    if (!pr->active)
        return 1;
    if (!uuid)          /* legacy: the sequence's thread */
        return !map_get(&pr->tgid, (1ull << 40) | seq, &tid) || pfcut_tid_kept(c, tid);
    for (int depth = 0; depth < 16; depth++) {
        if (map_get(&pr->track_pid, uuid, &pid))
            return map_get(&pr->keep, pid, &v);
        if (!map_get(&pr->track_parent, uuid, &uuid))
            return 1;   /* of no process: global */
    }
    return 1;
}

/* ProcessStats { processes { pid 1 } ... }: the kept processes' into out. */
enum st_err pfcut_procs_stats(struct pfcut *c, const uint8_t *p, size_t n, struct dynbuf *out,
                              size_t *kept)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    enum st_err e = ST_OK;
    *kept = 0;
    dynbuf_reset(out);
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        uint64_t pid = 0;
        if (f.num == 1 && f.wire == PB_LEN) {
            pb_iter_init(&in, f.p, f.len);
            while (pb_next(&in, &g) == 1)
                if (g.num == 1 && g.wire == PB_VARINT)
                    pid = g.v;
            if (!pfcut_tid_kept(c, pid))
                continue;
            (*kept)++;
        }
        e = f.wire == PB_LEN ? pbw_bytes(out, f.num, f.p, f.len) : pbw_uint(out, f.num, f.v);
    }
    return e;
}
