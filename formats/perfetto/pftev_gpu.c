/*
 * GPU render stages (GpuRenderStageEvent, TracePacket field 53) as
 * trace-event complete slices (pftev.h), one track per hardware queue as
 * Perfetto draws them: the slice is named by its stage, the track by its
 * queue (interned InternedGpuRenderStageSpecification names, or the
 * deprecated per-event specifications' hw_queue / stage lists).  Neither
 * viewer's JSON importer has global GPU tracks, so a GPU is a process
 * ("GPU 0", pid PFTEV_GPU_PID + gpu_id) and each queue a thread of it,
 * named by the queue (tids numbered in the order queues appear).
 * Args: context, submission id, the event's extra data.
 */
#include "pftev_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb.h"

#define NAME_MAX_LEN 256

struct gpu_ev {
    uint64_t dur, queue_iid, stage_iid, context, submission;
    int64_t queue_id, stage_id;     /* deprecated indexes, -1 for none */
    int32_t gpu;
    int has_queue_iid, has_stage_iid;
    const uint8_t *name, *specs;
    size_t nlen, slen;
};

static int read_gpu(const uint8_t *p, size_t n, struct gpu_ev *g)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    memset(g, 0, sizeof(*g));
    g->queue_id = g->stage_id = -1;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.wire == PB_LEN && f.num == 17)
            g->name = f.p, g->nlen = f.len;
        else if (f.wire == PB_LEN && f.num == 7)
            g->specs = f.p, g->slen = f.len;
        else if (f.wire != PB_VARINT)
            continue;
        else if (f.num == 2)
            g->dur = f.v;
        else if (f.num == 13)
            g->queue_iid = f.v, g->has_queue_iid = 1;
        else if (f.num == 14 || f.num == 20)
            g->stage_iid = f.v, g->has_stage_iid = 1;
        else if (f.num == 11)
            g->gpu = (int32_t)f.v;
        else if (f.num == 5)
            g->context = f.v;
        else if (f.num == 10)
            g->submission = f.v;
        else if (f.num == 3)
            g->queue_id = (int64_t)f.v;
        else if (f.num == 4)
            g->stage_id = (int64_t)f.v;
    }
    return k;
}

/* The name of the index-th Description (name 1) of list num (2: hw
 * queues, 3: stages) in the deprecated specifications. */
static void spec_name(const struct gpu_ev *g, uint32_t num, int64_t index, char *out,
                      size_t n)
{
    struct pb_iter it, in;
    struct pb_field f, d;
    int64_t at = 0;
    pb_iter_init(&it, g->specs, g->slen);
    while (index >= 0 && pb_next(&it, &f) == 1) {
        if (f.num != num || f.wire != PB_LEN || at++ != index)
            continue;
        pb_iter_init(&in, f.p, f.len);
        while (pb_next(&in, &d) == 1)
            if (d.num == 1 && d.wire == PB_LEN)
                snprintf(out, n, "%.*s", (int)d.len, (const char *)d.p);
        return;
    }
}

/* A queue's or a stage's name: interned, else from the deprecated
 * specifications, else its number. */
static void gpu_name(struct pftev *v, struct pftev_seq *s, const struct gpu_ev *g, int queue,
                     char *out, size_t n)
{
    out[0] = '\0';
    if (queue ? g->has_queue_iid : g->has_stage_iid) {
        const char *in = pftev_interned(s, PI_GPU, queue ? g->queue_iid : g->stage_iid);
        if (in)
            snprintf(out, n, "%s", in);
        else
            v->st.bad_iid++;
    } else if (g->specs) {
        spec_name(g, queue ? 2 : 3, queue ? g->queue_id : g->stage_id, out, n);
    }
    if (!out[0])
        snprintf(out, n, "%s %lld", queue ? "GPU queue" : "stage",
                 (long long)(queue ? (g->has_queue_iid ? (int64_t)g->queue_iid : g->queue_id)
                                   : (g->has_stage_iid ? (int64_t)g->stage_iid : g->stage_id)));
}

/* FNV-1a of the GPU and queue name: the key of the queue's thread. */
static uint64_t queue_key(int32_t gpu, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ (uint32_t)gpu;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    return h;
}

/* The queue's thread (tid 1, 2, ... in order of appearance), named. */
static enum st_err queue_tid(struct pftev *v, int32_t pid, int32_t gpu, const char *name,
                             int32_t *tid)
{
    uint64_t key = queue_key(gpu, name);
    int32_t *t = pmap_get(&v->gpu_queues, key);
    if (!t) {
        if (v->gpu_queues.count >= PFTEV_TRACKS_MAX || !(t = malloc(sizeof(*t))))
            return ST_ENOMEM;
        *t = (int32_t)v->gpu_queues.count + 1;
        if (pmap_put(&v->gpu_queues, key, t)) {
            free(t);
            return ST_ENOMEM;
        }
    }
    *tid = *t;
    char pname[32];
    int pn = snprintf(pname, sizeof(pname), "GPU %ld", (long)gpu);
    enum st_err e = pftev_name_process(v, pid, (const uint8_t *)pname, (size_t)pn);
    return e ? e : pftev_name_thread(v, pid, *tid, (const uint8_t *)name, strlen(name));
}

static void extra_data(struct pftev *v, const uint8_t *p, size_t n)
{
    struct pb_iter it, in;
    struct pb_field f, d;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num != 6 || f.wire != PB_LEN)
            continue;
        const uint8_t *key = (const uint8_t *)"", *val = (const uint8_t *)"";
        size_t klen = 0, vlen = 0;
        pb_iter_init(&in, f.p, f.len);
        while (pb_next(&in, &d) == 1)
            if (d.wire == PB_LEN && d.num == 1)
                key = d.p, klen = d.len;
            else if (d.wire == PB_LEN && d.num == 2)
                val = d.p, vlen = d.len;
        if (!klen || (klen == 10 && !memcmp(key, "context_id", 10)) ||
            (klen == 13 && !memcmp(key, "submission_id", 13)))
            continue;   /* a key written already would make the object invalid */
        ev_add(v, ",");
        ev_str(v, (const char *)key, klen);
        ev_add(v, ":");
        ev_str(v, (const char *)val, vlen);
    }
}

enum st_err pftev_gpu_stage(struct pftev *v, struct pftev_seq *s, uint64_t ts,
                            const uint8_t *p, size_t n)
{
    struct gpu_ev g;
    char queue[NAME_MAX_LEN], stage[NAME_MAX_LEN];
    int32_t tid;
    if (read_gpu(p, n, &g) || g.gpu < 0 || g.gpu > 0xffff) {
        v->st.dropped++;
        return ST_OK;
    }
    int32_t pid = PFTEV_GPU_PID + g.gpu;
    gpu_name(v, s, &g, 1, queue, sizeof(queue));
    if (g.name)
        snprintf(stage, sizeof(stage), "%.*s", (int)g.nlen, (const char *)g.name);
    else
        gpu_name(v, s, &g, 0, stage, sizeof(stage));
    enum st_err e = queue_tid(v, pid, g.gpu, queue, &tid);
    if (e == ST_ENOMEM && v->gpu_queues.count >= PFTEV_TRACKS_MAX) {
        v->st.dropped++;
        return ST_OK;
    }
    if (e)
        return e;
    ev_start(v, 'X');
    ev_add(v, ",\"name\":");
    ev_str(v, stage, strlen(stage));
    ev_add(v, ",\"cat\":\"gpu_render_stage\"");
    ev_ts(v, ts);
    ev_addf(v, ",\"dur\":%llu.%03llu,\"pid\":%ld,\"tid\":%ld", (unsigned long long)(g.dur / 1000),
            (unsigned long long)(g.dur % 1000), (long)pid, (long)tid);
    ev_addf(v, ",\"args\":{\"context_id\":%llu,\"submission_id\":%llu",
            (unsigned long long)g.context, (unsigned long long)g.submission);
    extra_data(v, p, n);
    ev_add(v, "}");
    v->st.gpu_stages++;
    return ev_emit(v);
}
