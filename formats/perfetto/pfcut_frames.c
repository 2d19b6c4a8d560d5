/*
 * Android's frame timeline across the boundaries of pieces (pfcut.h): a
 * frame (FrameTimelineEvent: an expected or actual display or surface
 * frame's start, its frame_end by cookie) that crosses a piece's end is
 * ended there with a frame_end of its cookie and begun again at the next
 * piece's start with its start event (the original's, its time moved), so
 * that Perfetto finds no frame without its end in one piece and no end
 * without its start in the next.  Frames are not nested, so each is
 * followed by its cookie; as the track events' slices (pfcut_slices.c),
 * the ends and begins are written when the frame's end comes, and a frame
 * never ended is ended at each piece's end but the one holding the
 * trace's last event.  Memory: PFCUT_FRAMES_MAX open frames (SurfaceFlinger
 * has a few dozen at once), each start saved (up to PFCUT_BEGIN_MAX).
 */
#include "pfcut_int.h"

#include <stdlib.h>
#include <string.h>

#include "pb.h"
#include "pbw.h"

/* A packet of the frame timeline on the trace's clock: TracePacket {
 * timestamp, trusted_packet_sequence_id, timestamp_clock_id,
 * frame_timeline_event { FIELD { body } } }. */
static enum st_err frame_packet(struct pfcut *c, int piece, const struct pfcut_frame *f,
                                int64_t ts, uint32_t field, const uint8_t *body, size_t n)
{
    struct dynbuf *ev = &c->c;
    dynbuf_reset(ev);
    if (pbw_bytes(ev, field, body, n))
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    return pfcut_timed_packet(c, piece, f->seq, ts, 76, ev);
}

static enum st_err end_in(struct pfcut *c, void *ctx, uint32_t k)
{
    const struct pfcut_frame *f = ctx;
    uint8_t end[12];
    size_t n = 1;
    end[0] = 0x08;              /* cookie (1), varint */
    uint64_t v = f->cookie;
    do {
        end[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return frame_packet(c, (int)k, f, c->out[k].p.end, 5, end, n);
}

static enum st_err begin_in(struct pfcut *c, void *ctx, uint32_t k)
{
    const struct pfcut_frame *f = ctx;
    return f->start ? frame_packet(c, (int)k, f, c->out[k].p.start, f->field, f->start, f->n)
                    : ST_OK;
}

/* The frame's pieces up to the one holding ts (as a track's slices). */
static enum st_err advance(struct pfcut *c, struct pfcut_frame *f, int64_t ts)
{
    struct pfcut_walk w = {&f->pos, &f->closed, end_in, begin_in, f};
    return pfcut_walk(c, &w, ts);
}

static struct pfcut_frame *find(struct pfcut *c, uint64_t cookie)
{
    for (size_t i = c->nframes; i-- > 0;)
        if (c->frames[i].cookie == cookie)
            return &c->frames[i];
    return NULL;
}

static void drop(struct pfcut *c, struct pfcut_frame *f)
{
    c->saved -= f->start ? f->n : 0;
    free(f->start);
    *f = c->frames[--c->nframes];
}

static enum st_err start(struct pfcut *c, uint32_t seq, int64_t ts, uint32_t field,
                         uint64_t cookie, const uint8_t *p, size_t n)
{
    struct pfcut_frame *f = find(c, cookie);
    if (f)
        drop(c, f);             /* begun again: the later start counts */
    if (c->nframes == PFCUT_FRAMES_MAX) {
        c->st.saved_over++;     /* not followed: it stays as cut by time */
        return ST_OK;
    }
    if (!c->frames && !(c->frames = calloc(PFCUT_FRAMES_MAX, sizeof(*c->frames))))
        return pfcut_fail(c, ST_ENOMEM, "out of memory");
    f = &c->frames[c->nframes++];
    memset(f, 0, sizeof(*f));
    f->cookie = cookie;
    f->seq = seq;
    f->field = field;
    int i = pfcut_piece_of(c, ts, &f->pos);
    f->closed = i < 0;
    if (n <= PFCUT_BEGIN_MAX && c->saved + n <= PFCUT_SAVED_MAX && (f->start = malloc(n ? n : 1))) {
        memcpy(f->start, p, n);
        f->n = n;
        c->saved += n;
    } else {
        c->st.saved_over++;
    }
    return ST_OK;
}

enum st_err pfcut_frame(struct pfcut *c, uint32_t seq, int64_t ts, int *piece,
                        const uint8_t *p, size_t n)
{
    struct pb_iter it, in;
    struct pb_field f, g;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1) {
        if (f.wire != PB_LEN || f.num < 1 || f.num > 5)
            continue;
        uint64_t cookie = 0;
        int has = 0;
        pb_iter_init(&in, f.p, f.len);
        while (pb_next(&in, &g) == 1)
            if (g.num == 1 && g.wire == PB_VARINT)
                cookie = g.v, has = 1;
        if (!has)
            continue;
        if (f.num < 5) {
            e = start(c, seq, ts, f.num, cookie, f.p, f.len);
            continue;
        }
        struct pfcut_frame *o = find(c, cookie);
        if (!o)
            continue;
        int64_t moved;
        *piece = pfcut_end_at_start(c, ts, &moved);
        e = advance(c, o, moved);
        drop(c, o);
    }
    return e;
}

enum st_err pfcut_frames_finish(struct pfcut *c)
{
    enum st_err e = ST_OK;
    for (size_t i = 0; i < c->nframes && !e; i++)
        e = advance(c, &c->frames[i], c->last);
    return e;
}

void pfcut_frames_free(struct pfcut *c)
{
    for (size_t i = 0; i < c->nframes; i++)
        free(c->frames[i].start);
    free(c->frames);
    c->frames = NULL;
    c->nframes = 0;
}
