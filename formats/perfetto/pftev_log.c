/*
 * AndroidLogPacket (TracePacket field 39, logcat) as trace-event JSON
 * (pftev.h): each LogEvent a thread instant (category android_log) on its
 * pid / tid, named by its tag, with its priority (logcat's letter), tag
 * and message as args.  A binary (events buffer) entry's message is made
 * of its args as Perfetto's android_logs table shows it: " name=value"
 * each, strings quoted, floats with six decimals.  Timestamps are on
 * REALTIME: converted to the trace's clock through the clock snapshots,
 * as Perfetto does; an entry no snapshot relates is counted in
 * stats.no_clock.
 */
#include "pftev_int.h"

#include <string.h>

#include "pb.h"

#define LOG_MSG_MAX PFTEV_EV_BYTES   /* a binary entry's message made of its args */

struct logev {
    int32_t pid, tid;
    uint64_t ts, prio;
    const char *tag, *msg;
    size_t tlen, mlen;
    const uint8_t *p;       /* the entry, for its args */
    size_t n;
};

/* LogEvent: pid 2, tid 3, timestamp 5, tag 6, prio 7, message 8. */
static int read_log(const uint8_t *p, size_t n, struct logev *e)
{
    struct pb_iter it;
    struct pb_field f;
    int k;
    memset(e, 0, sizeof(*e));
    e->tag = e->msg = "";
    e->p = p;
    e->n = n;
    pb_iter_init(&it, p, n);
    while ((k = pb_next(&it, &f)) == 1) {
        if (f.wire == PB_VARINT && f.num == 2)
            e->pid = (int32_t)f.v;
        else if (f.wire == PB_VARINT && f.num == 3)
            e->tid = (int32_t)f.v;
        else if (f.wire == PB_VARINT && f.num == 5)
            e->ts = f.v;
        else if (f.wire == PB_VARINT && f.num == 7)
            e->prio = f.v;
        else if (f.wire == PB_LEN && f.num == 6)
            e->tag = (const char *)f.p, e->tlen = f.len;
        else if (f.wire == PB_LEN && f.num == 8)
            e->msg = (const char *)f.p, e->mlen = f.len;
    }
    return k;
}

/* Arg: name 1, int_value 2, float_value 3, string_value 4. */
static int arg_text(struct dynbuf *b, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    char num[64];
    int bad = 0;
    pb_iter_init(&it, p, n);
    while (pb_next(&it, &f) == 1) {
        if (f.num == 1 && f.wire == PB_LEN) {
            bad |= dynbuf_add(b, " ", 1) || dynbuf_add(b, f.p, f.len) || dynbuf_add(b, "=", 1);
        } else if (f.num == 2 && f.wire == PB_VARINT) {
            snprintf(num, sizeof(num), "%lld", (long long)(int64_t)f.v);
            bad |= dynbuf_addstr(b, num) != ST_OK;
        } else if (f.num == 3 && f.wire == PB_I32) {
            uint32_t u = (uint32_t)f.v;
            float x;
            memcpy(&x, &u, sizeof(x));
            snprintf(num, sizeof(num), "%f", (double)x);
            bad |= dynbuf_addstr(b, num) != ST_OK;
        } else if (f.num == 4 && f.wire == PB_LEN) {
            bad |= dynbuf_add(b, "\"", 1) || dynbuf_add(b, f.p, f.len) || dynbuf_add(b, "\"", 1);
        }
    }
    return bad;
}

static void message(struct pftev *v, const struct logev *e)
{
    struct pb_iter it;
    struct pb_field f;
    struct dynbuf b;
    int args = 0;
    dynbuf_init(&b, LOG_MSG_MAX);
    pb_iter_init(&it, e->p, e->n);
    while (pb_next(&it, &f) == 1)
        if (f.num == 9 && f.wire == PB_LEN) {
            v->ev_bad |= arg_text(&b, f.p, f.len);    /* the event dropped, counted */
            args = 1;
        }
    if (args && !e->mlen)
        ev_str(v, b.data ? b.data : "", b.len);
    else
        ev_str(v, e->msg, e->mlen);
    dynbuf_free(&b);
}

static enum st_err log_event(struct pftev *v, uint32_t seq, const uint8_t *p, size_t n)
{
    static const char letters[] = "??VDIWEF";
    struct logev e;
    uint64_t ts;
    if (read_log(p, n, &e)) {
        v->st.dropped++;
        return ST_OK;
    }
    if (pftev_time(v, seq, PFCLK_REALTIME, e.ts, &ts))
        return ST_OK;
    ev_start(v, 'i');
    ev_add(v, ",\"name\":");
    ev_str(v, e.tag, e.tlen);
    ev_add(v, ",\"cat\":\"android_log\"");
    ev_ts(v, ts);
    char prio[] = ",\"s\":\"t\",\"args\":{\"priority\":\"?\",\"tag\":";
    prio[sizeof(prio) - 10] = e.prio < 8 ? letters[e.prio] : '?';
    ev_pidtid(v, e.pid, e.tid);
    ev_add(v, prio);
    ev_str(v, e.tag, e.tlen);
    ev_add(v, ",\"message\":");
    message(v, &e);
    ev_add(v, "}");
    v->st.logs++;
    return ev_emit(v);
}

enum st_err pftev_android_log(struct pftev *v, uint32_t seq, const uint8_t *p, size_t n)
{
    struct pb_iter it;
    struct pb_field f;
    enum st_err e = ST_OK;
    pb_iter_init(&it, p, n);
    while (!e && pb_next(&it, &f) == 1)
        if (f.num == 1 && f.wire == PB_LEN)
            e = log_event(v, seq, f.p, f.len);
    return e;
}
