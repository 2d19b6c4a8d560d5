/*
 * Android's frame timeline (FrameTimelineEvent, TracePacket field 76,
 * written by SurfaceFlinger) as trace-event async slices (pftev.h): each
 * expected / actual surface frame on its app's process, each expected /
 * actual display frame on SurfaceFlinger's, named "Expected Timeline" or
 * "Actual Timeline" as Perfetto names their tracks, from a *_start to the
 * frame_end of the same cookie (the async id, scoped to the process).
 * Args carry what Perfetto's actual_frame_timeline_slice holds, in its
 * words: tokens, layer name, present type, on time finish, GPU
 * composition, jank type (its bits joined by ", "), prediction type,
 * jank severity, is buffer.
 * Deviation (docs/perfetto.md): Perfetto names a frame's slice by its
 * token and its JSON importer names an async track after its slices, so
 * the slice here is named by the track and the token is an arg.
 * Open frames are kept by cookie up to PFTEV_FRAMES_MAX; an end whose
 * cookie never started counts as an end without a begin.  Actual frames
 * are also told, as they begin and end, to pftev_set_frames' listener
 * (the summary's frame timeline metric).
 */
#include "pftev_int.h"

#include <stdlib.h>
#include <string.h>

#include "pb.h"

#define FRAME_CAT "android.frame_timeline"

enum role { R_NONE, R_COOKIE, R_TOKEN, R_DTOKEN, R_PID, R_LAYER, R_PRESENT, R_ONTIME,
            R_GPU, R_JANK, R_PRED, R_ISBUF, R_SEV, R_N };

/* Field numbers to roles: display frame starts (1, 2), surface (3, 4). */
static const uint8_t display_roles[] = {R_NONE, R_COOKIE, R_TOKEN, R_PID, R_PRESENT,
                                        R_ONTIME, R_GPU, R_JANK, R_PRED, R_SEV};
static const uint8_t surface_roles[] = {R_NONE, R_COOKIE, R_TOKEN, R_DTOKEN, R_PID,
                                        R_LAYER, R_PRESENT, R_ONTIME, R_GPU, R_JANK,
                                        R_PRED, R_ISBUF, R_SEV};

struct fstart {
    uint64_t val[R_N];
    unsigned has;               /* 1 << role */
    const uint8_t *layer;
    size_t llen;
};

struct open_frame {
    int32_t pid;
    uint8_t actual;
    struct pftev_frame_info info;   /* actual frames: for the summary */
};

/* An actual frame to the summary's listener (pftev_set_frames). */
static void tell(struct pftev *v, struct open_frame *o, const struct fstart *s, uint64_t ts)
{
    struct pftev_frame_info *i = &o->info;
    if (s) {
        memset(i, 0, sizeof(*i));
        i->pid = o->pid;
        i->token = (int64_t)s->val[R_TOKEN];
        i->ts = ts;
        i->jank = (uint32_t)s->val[R_JANK];
        i->present = s->has & 1u << R_PRESENT ? (int)s->val[R_PRESENT] : -1;
    } else {
        i->ended = 1;
        i->dur_ns = ts >= i->ts ? ts - i->ts : 0;
    }
    if (o->actual && v->frame_fn)
        v->frame_fn(v->frame_ctx, i);
}

static int read_start(const uint8_t *p, size_t n, int surface, struct fstart *s)
{
    const uint8_t *roles = surface ? surface_roles : display_roles;
    size_t nroles = surface ? sizeof(surface_roles) : sizeof(display_roles);
    struct pb_iter it;
    struct pb_field f;
    int k;
    memset(s, 0, sizeof(*s));
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        uint8_t r = f.num < nroles ? roles[f.num] : R_NONE;
        if (r == R_LAYER && f.wire == PB_LEN)
            s->layer = f.p, s->llen = f.len, s->has |= 1u << r;
        else if (r != R_NONE && r != R_LAYER && f.wire == PB_VARINT)
            s->val[r] = f.v, s->has |= 1u << r;
    }
    return k || !(s->has & 1u << R_COOKIE) || !(s->has & 1u << R_PID);
}

/* ---- Perfetto's words for the enums ------------------------------------- */

static const char *const present_types[] = {"Unspecified Present", "On-time Present",
                                            "Late Present", "Early Present",
                                            "Dropped Frame", "Unknown Present"};
static const char *const prediction_types[] = {"Unspecified Prediction", "Valid Prediction",
                                               "Expired Prediction", "Unknown Prediction"};
static const char *const severities[] = {"Unknown", "None", "Partial", "Full"};
/* JankType bits, in the order Perfetto lists them. */
static const struct {
    uint32_t bit;
    const char *name;
} jank_bits[] = {
    {2, "SurfaceFlinger Scheduling"}, {4, "Prediction Error"}, {8, "Display HAL"},
    {16, "SurfaceFlinger CPU Deadline Missed"}, {32, "SurfaceFlinger GPU Deadline Missed"},
    {64, "App Deadline Missed"}, {4096, "App Resynced Jitter"}, {128, "Buffer Stuffing"},
    {256, "Unknown Jank"}, {512, "SurfaceFlinger Stuffing"}, {1024, "Dropped Frame"},
    {2048, "Non Animating"}, {8192, "Display not ON"}};

#define NOF(a) (sizeof(a) / sizeof(*(a)))

static void enum_arg(struct pftev *v, const char *key, const struct fstart *s, enum role r,
                     const char *const *names, size_t n)
{
    if (!(s->has & 1u << r))
        return;
    ev_addf(v, ",\"%s\":", key);
    if (s->val[r] < n)
        ev_str(v, names[s->val[r]], strlen(names[s->val[r]]));
    else
        ev_addf(v, "\"%llu\"", (unsigned long long)s->val[r]);
}

static void jank_arg(struct pftev *v, uint64_t jank)
{
    ev_add(v, ",\"Jank type\":\"");
    if (jank <= 1)
        ev_add(v, jank ? "None" : "Unspecified");
    for (size_t b = 0, first = 1; b < NOF(jank_bits); b++)
        if (jank & jank_bits[b].bit) {
            ev_addf(v, "%s%s", first ? "" : ", ", jank_bits[b].name);
            first = 0;
        }
    ev_add(v, "\"");
}

/* Absent is false, as Perfetto reads it. */
static void bool_arg(struct pftev *v, const char *key, const struct fstart *s, enum role r)
{
    ev_addf(v, ",\"%s\":%d", key, (s->has & 1u << r) && s->val[r]);
}

static void args(struct pftev *v, const struct fstart *s, int surface, int actual)
{
    ev_addf(v, ",\"args\":{\"%s frame token\":%lld", surface ? "Surface" : "Display",
            (long long)s->val[R_TOKEN]);
    if (s->has & 1u << R_DTOKEN)
        ev_addf(v, ",\"Display frame token\":%lld", (long long)s->val[R_DTOKEN]);
    if (s->layer) {
        ev_add(v, ",\"Layer name\":");
        ev_str(v, (const char *)s->layer, s->llen);
    }
    if (actual) {
        enum_arg(v, "Present type", s, R_PRESENT, present_types, NOF(present_types));
        bool_arg(v, "On time finish", s, R_ONTIME);
        bool_arg(v, "GPU composition", s, R_GPU);
        if (s->has & 1u << R_JANK)
            jank_arg(v, s->val[R_JANK]);
        enum_arg(v, "Jank severity type", s, R_SEV, severities, NOF(severities));
        enum_arg(v, "Prediction type", s, R_PRED, prediction_types, NOF(prediction_types));
        if (s->has & 1u << R_ISBUF)
            ev_addf(v, ",\"Is Buffer?\":\"%s\"", s->val[R_ISBUF] ? "Yes" : "No");
    }
    ev_add(v, "}");
}

/* ---- slices ------------------------------------------------------------- */

static void frame_head(struct pftev *v, char ph, int actual, uint64_t ts, int32_t pid,
                       uint64_t cookie)
{
    ev_start(v, ph);
    ev_addf(v, ",\"name\":\"%s Timeline\",\"cat\":\"" FRAME_CAT "\"",
            actual ? "Actual" : "Expected");
    ev_ts(v, ts);
    ev_addf(v, ",\"pid\":%ld,\"tid\":%ld,\"id2\":{\"local\":\"0x%llx\"}", (long)pid,
            (long)pid, (unsigned long long)cookie);
}

/* kind: the oneof's field number (1-4). */
static enum st_err frame_start(struct pftev *v, uint64_t ts, uint32_t kind, const uint8_t *p,
                               size_t n)
{
    int surface = kind >= 3, actual = kind == 2 || kind == 4;
    struct fstart s;
    struct open_frame *o = NULL;
    if (read_start(p, n, surface, &s) || (int32_t)s.val[R_PID] < 0) {
        v->st.dropped++;
        return ST_OK;
    }
    if (v->frames.count >= PFTEV_FRAMES_MAX || !(o = malloc(sizeof(*o)))) {
        v->st.dropped++;
        return ST_OK;
    }
    if (pmap_put(&v->frames, s.val[R_COOKIE], o)) {
        free(o);
        return ST_ENOMEM;
    }
    o->pid = (int32_t)s.val[R_PID];
    o->actual = (uint8_t)actual;
    tell(v, o, &s, ts);
    frame_head(v, 'b', actual, ts, o->pid, s.val[R_COOKIE]);
    args(v, &s, surface, actual);
    v->st.frames++;
    return ev_emit(v);
}

static enum st_err frame_end(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    uint64_t cookie = 0;
    int k, has = 0;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1)
        if (f.num == 1 && f.wire == PB_VARINT)
            cookie = f.v, has = 1;
    struct open_frame *o = k || !has ? NULL : pmap_get(&v->frames, cookie);
    if (!o) {
        if (k || !has)
            v->st.dropped++;
        else
            v->st.unmatched_end++;
        return ST_OK;
    }
    tell(v, o, NULL, ts);
    frame_head(v, 'e', o->actual, ts, o->pid, cookie);
    pmap_del(&v->frames, cookie);
    return ev_emit(v);
}

enum st_err pftev_frame(struct pftev *v, uint64_t ts, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.wire != PB_LEN)
            continue;
        if (f.num >= 1 && f.num <= 4)
            e = frame_start(v, ts, f.num, f.p, f.len);
        else if (f.num == 5)
            e = frame_end(v, ts, f.p, f.len);
    }
    return e;
}
