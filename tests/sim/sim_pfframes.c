/*
 * SurfaceFlinger's frame timeline (Android 12+) in the simulated perfetto's
 * trace, written when the config asks for the
 * android.surfaceflinger.frametimeline data source: FrameTimelineEvent
 * packets (TracePacket field 76, frame_timeline_event.proto) as SF's
 * FrameTimeline writes them, on their own packet sequence, in the trace's
 * clock (the ftrace events' boot time, no clock id of their own).
 *
 * A frame is one 60 Hz vsync (k): SystemUI (pid 1500) draws half the time
 * (bursts of 30 vsyncs), the launcher (pid 2000) while it is in front (it
 * was at the session's start, or a launch in the window has drawn its first
 * frame: the launching slice's end, sim_launch.c); SurfaceFlinger (pid 500)
 * composes a display frame for every vsync an app drew in.  Each has an
 * expected and an actual slice (start, then frame_end by cookie); the app's
 * surface frames share the vsync's token and name the display frame's.
 * Which frames are janky comes from a hash of --seed and the frame's number
 * in the session, so a capture of the same length is repeatable: about 1
 * display frame in 12 misses on SurfaceFlinger's side, about 1 surface frame
 * in 7 on the app's; the kinds take turns, so a second of frames has each:
 * SurfaceFlinger's (CPU or GPU deadline, Display HAL, prediction error,
 * scheduling, stuffing, CPU deadline and Display HAL at once: carried to the
 * surface frames of that vsync), the app's (deadline missed, buffer
 * stuffing, resynced jitter, dropped, unknown, deadline and stuffing at
 * once), with the present type each implies (on time, late, early,
 * dropped, unknown).
 *
 * A frame is written once all its events are at or before the time asked
 * for, and only when it lies inside the session's window.
 */
#include "sim_perfetto.h"
#include "sim_tracegen.h"
#include "formats/perfetto/pbw.h"

#include <stdlib.h>
#include <string.h>

#define VSYNC_NS 16666667ull
#define FT_SEQ 7                /* SurfaceFlinger's producer sequence */
#define FT_FIELD 76             /* TracePacket.frame_timeline_event */
#define BUF_MAX (1u << 20)
#define SF_PID 500
#define UI_PID 1500
#define APP_PID 2000
#define MAX_EV 12               /* 3 frames x (2 starts + 2 ends) */

/* JankType bits and PresentType values (frame_timeline_event.proto) */
enum { J_NONE = 1, J_SF_SCHED = 2, J_PREDICTION = 4, J_HAL = 8, J_SF_CPU = 16,
       J_SF_GPU = 32, J_APP = 64, J_STUFFING = 128, J_UNKNOWN = 256, J_SF_STUFFING = 512,
       J_DROPPED = 1024, J_RESYNCED = 4096 };
enum { P_ON_TIME = 1, P_LATE = 2, P_EARLY = 3, P_DROPPED = 4, P_UNKNOWN = 5 };

struct pf_frames {
    uint32_t seed;
    uint64_t begin_ns, end_ns;
    uint64_t first, next;       /* the session's first vsync number, the next */
    unsigned sf_turn, app_turn; /* the next janky frame's kind */
    int app_in_front;           /* the launcher was in front at the start */
    int64_t cookie;
    struct dynbuf pkt, ev, sub;
};

/* One event of a frame: a start (kind 1-4, the oneof's field) or an end. */
struct ft_ev {
    uint64_t ts;
    int kind;                   /* 1-4 starts, 5 frame_end */
    int64_t cookie, token, display_token;
    int pid;
    uint32_t jank;
    int present;
};

struct ft_frame {
    struct ft_ev ev[MAX_EV];
    size_t n;
};

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct pf_frames *pf_frames_new(const struct sim_device *dev, uint64_t begin_ns,
                                uint64_t end_ns, int app_in_front)
{
    struct pf_frames *f = calloc(1, sizeof(*f));
    if (!f)
        return NULL;
    f->seed = dev->opt.seed;
    f->begin_ns = begin_ns;
    f->end_ns = end_ns;
    f->first = f->next = begin_ns / VSYNC_NS + 2;   /* the app's expected frame: a vsync early */
    f->app_in_front = app_in_front;
    dynbuf_init(&f->pkt, BUF_MAX);
    dynbuf_init(&f->ev, BUF_MAX);
    dynbuf_init(&f->sub, BUF_MAX);
    return f;
}

void pf_frames_free(struct pf_frames *f)
{
    if (!f)
        return;
    dynbuf_free(&f->pkt);
    dynbuf_free(&f->ev);
    dynbuf_free(&f->sub);
    free(f);
}

/* The launcher draws at vsync v: in front at the start, or a launch has
 * drawn its first frame before (system_server's launching slice ended). */
static int app_draws(const struct pf_frames *f, uint64_t v, const struct sim_marker *m,
                     size_t nm)
{
    if (f->app_in_front)
        return 1;
    for (size_t i = 0; i < nm && m[i].ts_ns + VSYNC_NS <= v; i++)
        if (m[i].pid == 1000 && !strncmp(m[i].text, "F|1000|launching: ", 18))
            return 1;
    return 0;
}

/* SurfaceFlinger's own jank at vsync k: mostly none. */
static uint32_t sf_jank(struct pf_frames *f, uint64_t k)
{
    static const uint32_t kinds[] = {J_SF_CPU, J_SF_SCHED, J_HAL, J_PREDICTION, J_SF_GPU,
                                     J_SF_STUFFING, J_SF_CPU | J_HAL};
    if (mix(((uint64_t)f->seed << 32) ^ (k - f->first) ^ 0x5f5f0000ull) % 12)
        return J_NONE;
    return kinds[f->sf_turn++ % (sizeof(kinds) / sizeof(*kinds))];
}

static int sf_present(uint32_t jank)
{
    return jank == J_NONE ? P_ON_TIME : jank == J_SF_SCHED ? P_EARLY : P_LATE;
}

/* An app's own jank at vsync k: mostly none. */
static uint32_t app_jank(struct pf_frames *f, uint64_t k, int pid)
{
    static const uint32_t kinds[] = {J_APP, J_STUFFING, J_DROPPED, J_APP, J_UNKNOWN,
                                     J_RESYNCED, J_APP | J_STUFFING, J_STUFFING};
    if (mix(((uint64_t)f->seed << 32) ^ ((k - f->first) * 131u + (uint64_t)pid)) % 7)
        return 0;
    return kinds[f->app_turn++ % (sizeof(kinds) / sizeof(*kinds))];
}

static struct ft_ev *add_ev(struct ft_frame *fr, uint64_t ts, int kind, int64_t cookie)
{
    struct ft_ev *e = &fr->ev[fr->n++];
    memset(e, 0, sizeof(*e));
    e->ts = ts;
    e->kind = kind;
    e->cookie = cookie;
    return e;
}

/* An expected and an actual slice: [es, es + VSYNC) and [as, as + dur). */
static struct ft_ev *slice_pair(struct pf_frames *f, struct ft_frame *fr, int surface,
                                uint64_t es, uint64_t as, uint64_t dur, int64_t token,
                                int pid)
{
    struct ft_ev *e = add_ev(fr, es, surface ? 3 : 1, ++f->cookie);
    e->token = token;
    e->pid = pid;
    add_ev(fr, es + VSYNC_NS, 5, f->cookie);
    struct ft_ev *a = add_ev(fr, as, surface ? 4 : 2, ++f->cookie);
    a->token = token;
    a->pid = pid;
    add_ev(fr, as + dur, 5, f->cookie);
    return a;
}

/* A surface frame's present type: its own jank's, else SurfaceFlinger's. */
static int surface_present(uint32_t own, uint32_t carried)
{
    if (own & J_DROPPED)
        return P_DROPPED;
    if (own & J_UNKNOWN)
        return P_UNKNOWN;
    if (own & (J_APP | J_RESYNCED | J_STUFFING))
        return P_LATE;
    return carried ? sf_present(carried) : P_ON_TIME;
}

/* The surface frame of app pid at vsync v (token k*2, display token k*2+1). */
static void surface_frame(struct pf_frames *f, struct ft_frame *fr, uint64_t k, int pid,
                          uint32_t sf)
{
    uint64_t v = k * VSYNC_NS, r = mix((k - f->first) ^ ((uint64_t)pid << 40) ^ f->seed);
    uint32_t own = app_jank(f, k, pid);
    uint64_t dur = 3000000 + r % 9000000;
    if (own & (J_APP | J_RESYNCED))
        dur += VSYNC_NS;
    uint64_t start = v - VSYNC_NS + 500000 + (r >> 32) % 1000000;
    struct ft_ev *a = slice_pair(f, fr, 1, v - VSYNC_NS, start, dur, (int64_t)(k * 2), pid);
    a->display_token = (int64_t)(k * 2 + 1);
    fr->ev[fr->n - 4].display_token = a->display_token;    /* the expected one */
    uint32_t carried = sf & (J_SF_CPU | J_SF_GPU | J_HAL | J_PREDICTION | J_SF_SCHED);
    a->jank = own | carried;
    if (!a->jank)
        a->jank = J_NONE;
    a->present = surface_present(own, carried);
}

/* Vsync k's frames: the apps' surface frames and SurfaceFlinger's. */
static void build_frame(struct pf_frames *f, struct ft_frame *fr, uint64_t k,
                        const struct sim_marker *m, size_t nm)
{
    uint64_t v = k * VSYNC_NS;
    int ui = (k / 30) % 2 == 0, app = app_draws(f, v, m, nm);
    fr->n = 0;
    if (!ui && !app)
        return;
    uint32_t sf = sf_jank(f, k);
    if (ui)
        surface_frame(f, fr, k, UI_PID, sf);
    if (app)
        surface_frame(f, fr, k, APP_PID, sf);
    uint64_t dur = 2000000 + mix((k - f->first) ^ f->seed) % 4000000;
    if (sf & (J_SF_CPU | J_SF_GPU | J_SF_STUFFING))
        dur += VSYNC_NS;
    struct ft_ev *a = slice_pair(f, fr, 0, v, v + 300000, dur, (int64_t)(k * 2 + 1), SF_PID);
    a->jank = sf;
    a->present = sf_present(sf);
}

static const char *layer(int pid)
{
    return pid == UI_PID ? "StatusBar#74"
                         : "com.android.launcher3/com.android.launcher3.Launcher#0";
}

/* One event's FrameTimelineEvent (in f->ev). */
static void encode(struct pf_frames *f, const struct ft_ev *e)
{
    struct dynbuf *b = &f->sub;
    pbw_uint(b, 1, (uint64_t)e->cookie);
    if (e->kind != 5) {
        pbw_uint(b, 2, (uint64_t)e->token);
        if (e->kind >= 3) {     /* surface frames: display token, pid, layer */
            pbw_uint(b, 3, (uint64_t)e->display_token);
            pbw_uint(b, 4, (uint64_t)e->pid);
            pbw_str(b, 5, layer(e->pid));
        } else {
            pbw_uint(b, 3, (uint64_t)e->pid);
        }
    }
    uint32_t base = e->kind == 4 ? 6 : 4;   /* present_type's field */
    if (e->kind == 2 || e->kind == 4) {
        pbw_uint(b, base, (uint64_t)e->present);
        pbw_uint(b, base + 1, e->present == P_ON_TIME);            /* on_time_finish */
        pbw_uint(b, base + 2, 0);                                  /* gpu_composition */
        pbw_uint(b, base + 3, e->jank);
        pbw_uint(b, base + 4, e->jank == J_NONE ? 1 : 2);          /* prediction type */
        if (e->kind == 4)
            pbw_uint(b, 11, 1);                                    /* is_buffer */
    }
    pbw_msg(&f->ev, (uint32_t)e->kind, b);
}

static int cmp_ev(const void *a, const void *b)
{
    const struct ft_ev *x = a, *y = b;
    return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : 0;
}

static int write_frame(struct pf_frames *f, struct ft_frame *fr, struct sim_sink *out)
{
    qsort(fr->ev, fr->n, sizeof(*fr->ev), cmp_ev);
    for (size_t i = 0; i < fr->n; i++) {
        encode(f, &fr->ev[i]);
        pbw_uint(&f->pkt, 8, fr->ev[i].ts);
        pbw_uint(&f->pkt, 10, FT_SEQ);
        pbw_msg(&f->pkt, FT_FIELD, &f->ev);
        pbw_msg(&f->sub, 1, &f->pkt);               /* Trace.packet */
        int rc = sink_write(out, f->sub.data, f->sub.len);
        dynbuf_reset(&f->sub);
        if (rc)
            return -1;
    }
    return 0;
}

int pf_frames_upto(struct pf_frames *f, uint64_t upto_ns, const struct sim_marker *marks,
                   size_t nmarks, struct sim_sink *out)
{
    if (upto_ns > f->end_ns)
        upto_ns = f->end_ns;
    if (upto_ns == UINT64_MAX)
        return 0;   /* no end and no time: nothing is known to be over */
    /* the last event of vsync k's frames ends before (k + 3) vsyncs */
    while ((f->next + 3) * VSYNC_NS <= upto_ns) {
        struct ft_frame fr;
        build_frame(f, &fr, f->next++, marks, nmarks);
        if (write_frame(f, &fr, out))
            return -1;
    }
    return 0;
}
