/*
 * Names for the trace-event converter (tevents.h): the PROCESS DUMP part
 * (read by formats/atrace/psdump.h, as Perfetto reads it: a process's
 * name from the long form, a thread's process and name from the thread
 * form; the latest dump's name counts), and the closing M events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tevents_int.h"

void tev_free_pd(void *v)
{
    struct tev_pd *pd = v;
    if (!pd)
        return;
    free(pd->pname);
    free(pd->tname);
    free(pd);
}

static struct tev_pd *pd_get(struct tevents *t, int64_t id)
{
    struct tev_pd *pd = tmap_get(&t->pdump, &id, sizeof(id));
    if (pd)
        return pd;
    pd = calloc(1, sizeof(*pd));
    if (!pd)
        return NULL;
    pd->tgid = -1;
    if (tmap_put(&t->pdump, &id, sizeof(id), pd)) {
        free(pd);
        t->st.dropped++;
        return NULL;
    }
    return pd;
}

/* The latest dump's name counts (a process renamed between the dumps
 * before and after tracing), as in Perfetto. */
static void set_name(struct tevents *t, char **slot, const char *p, size_t n)
{
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\r'))
        n--;
    if (!n || (*slot && strlen(*slot) == n && !memcmp(*slot, p, n)))
        return;
    char *name = tev_strdup(t, p, n);
    if (!name)
        return;
    if (*slot) {
        t->name_bytes -= strlen(*slot) + 1;
        free(*slot);
    }
    *slot = name;
}

void tev_psdump_line(struct tevents *t, const char *p, size_t n)
{
    struct psdump_row r;
    enum psdump_row_kind k = psdump_line(&t->ps, p, n, &r);
    struct tev_pd *pd = k != PSDUMP_NONE ? pd_get(t, k == PSDUMP_THREAD ? r.tid : r.pid) : NULL;
    if (pd && k == PSDUMP_THREAD) {
        pd->tgid = r.pid;
        set_name(t, &pd->tname, r.name, r.name_len);
    } else if (pd) {
        set_name(t, &pd->pname, r.name, r.name_len);
    }
}

/* ---- closing metadata ------------------------------------------------- */

static enum st_err meta(struct tevents *t, const char *what, int64_t pid, int64_t tid,
                        const char *name)
{
    tev_start(t, what, strlen(what), 'M');
    tev_pidtid(t, pid, tid);
    tev_add(t, ",\"args\":{\"name\":");
    tev_addstr(t, name, strlen(name));
    tev_add(t, "}");
    t->st.metadata++;
    return tev_emit(t);
}

/* Every thread a name is known for, with events or not: the trace's
 * name (task column, sched events) first, then the process dump's. */
static void thread_meta(void *ctx, void *v)
{
    struct tevents *t = ctx;
    struct tev_thread *th = v;
    struct tev_pd *pd = tmap_get(&t->pdump, &(int64_t){th->tid}, sizeof(int64_t));
    const char *name = th->name ? th->name : pd && pd->tname ? pd->tname
                                          : pd && pd->pname ? pd->pname : NULL;
    int64_t pid = th->tgid >= 0 ? th->tgid : pd && pd->tgid >= 0 ? pd->tgid : th->tid;
    if (name)
        meta(t, "thread_name", pid, th->tid, name);
}

static void process_meta(void *ctx, void *v)
{
    struct tevents *t = ctx;
    struct tev_proc *p = v;
    struct tev_pd *pd = tmap_get(&t->pdump, &p->pid, sizeof(p->pid));
    uint32_t tid = (uint32_t)p->pid;
    struct tev_thread *main = p->pid >= 0 && p->pid <= UINT32_MAX
                                  ? tmap_get(&t->threads, &tid, sizeof(tid)) : NULL;
    const char *name = pd && pd->pname ? pd->pname : pd && pd->tname ? pd->tname
                                                   : main ? main->name : NULL;
    if (name)
        meta(t, "process_name", p->pid, p->pid, name);
}

/* What only the process dump names: its processes without events, and
 * threads the trace never mentions. */
static void dump_meta(void *ctx, const void *key, void *v)
{
    struct tevents *t = ctx;
    const int64_t *id = key;
    struct tev_pd *pd = v;
    if (pd->pname && !tmap_get(&t->procs, id, sizeof(*id)))
        meta(t, "process_name", *id, *id, pd->pname);
    uint32_t tid = (uint32_t)*id;
    if (pd->tname && *id > 0 && *id <= UINT32_MAX &&
        !tmap_get(&t->threads, &tid, sizeof(tid)))
        meta(t, "thread_name", pd->tgid >= 0 ? pd->tgid : *id, *id, pd->tname);
}

enum st_err tev_write_metadata(struct tevents *t)
{
    if (t->cpu_used) {
        meta(t, "process_name", TEV_CPU_PID, TEV_CPU_PID, "CPUs");
        tev_start(t, "process_sort_index", 18, 'M');
        tev_pidtid(t, TEV_CPU_PID, TEV_CPU_PID);
        tev_add(t, ",\"args\":{\"sort_index\":-1}");
        t->st.metadata++;
        tev_emit(t);
        for (size_t i = 0; i < t->ncpus; i++) {
            if (!t->cpus[i].used)
                continue;
            char name[32];
            snprintf(name, sizeof(name), "CPU %zu", i);
            meta(t, "thread_name", TEV_CPU_PID, TEV_CPU_PID + 1 + (int64_t)i, name);
        }
    }
    tmap_each(&t->procs, process_meta, t);
    tmap_each(&t->threads, thread_meta, t);
    tmap_each_kv(&t->pdump, dump_meta, t);
    return t->err;
}
