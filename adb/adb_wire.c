/*
 * The ADB wire protocol, host side (adb_wire.h; reference/adb-protocol.md
 * section c, auth in section d).
 *
 * Handshake: CNXN(0x01000001, 1 MiB, "host::features=...") and then AUTH
 * answers until the device's CNXN; version and maxdata are the minimum of
 * both offers.  Version 0x01000000 peers get byte-sum checksums on every
 * packet (CNXN and AUTH always carry one); received sums are not checked,
 * like adb.  Lengths are checked against the negotiated maximum.
 *
 * Streams: OPEN(local, 0, "service\0") -> OKAY(remote, local) or CLSE.
 * Strict stop-and-wait per stream (no delayed ack): one WRTE in flight
 * until the device's OKAY; device WRTEs are OKAYed at once while less
 * than WINDOW bytes wait unread on that stream, otherwise once read.
 * Single-threaded: a stream that needs a packet reads the next one from
 * the transport, whichever stream it is for.  Receiving is resumable, so
 * a timeout or the cancel fd (ST_EINTR) loses nothing and the connection
 * stays usable (cleanup after Ctrl-C).  Any other transport error or a
 * malformed packet ends the connection; every stream then fails.
 */
#include "adb_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/debug.h"

#define WINDOW (4u << 20)

struct wchunk {
    struct wchunk *next;
    size_t len, off;
    uint8_t data[];
};

enum { WS_OPENING, WS_OPEN, WS_REFUSED };

struct wstream {
    struct adb_stream base;
    struct adb_wire *w;
    struct wstream *next;
    uint32_t local, remote;
    int state;
    int ready;              /* may send a WRTE */
    int peer_closed;
    struct wchunk *head, *tail;
    size_t queued;
    int okay_owed;
};

struct adb_wire {
    struct adb_ptrans *t;
    uint32_t version;
    size_t maxdata;
    int online, checksum;
    enum st_err dead;       /* ST_OK while usable */
    struct adb_banner *banner;
    struct wstream *streams;
    uint32_t next_id;
    int nstreams, owner_gone;
    /* receive state of the packet being read */
    uint8_t hb[ADB_HDR_LEN];
    size_t hhave;
    struct adb_hdr h;
    int have_hdr;
    struct wchunk *pay;
    size_t phave;
    char err[ADB_ERRLEN];
};

static void kill_wire(struct adb_wire *w, enum st_err e)
{
    if (!w->dead)
        w->dead = e ? e : ST_EIO;
}

static enum st_err send_pkt(struct adb_wire *w, uint32_t cmd, uint32_t a0,
                            uint32_t a1, const void *data, size_t n,
                            int64_t deadline)
{
    if (w->dead)
        return w->dead;
    struct adb_hdr h;
    uint8_t hb[ADB_HDR_LEN];
    int ck = w->checksum || cmd == ADB_CMD_CNXN || cmd == ADB_CMD_AUTH;
    adb_hdr_make(&h, cmd, a0, a1, data, n, ck);
    adb_hdr_encode(&h, hb);
    if (st_debug_mask & DBG_WIRE) {
        char name[5];
        ST_DBG(DBG_WIRE, "H->D %s %08x %08x len=%zu", adb_cmd_name(cmd, name),
               a0, a1, n);
    }
    enum st_err e = w->t->ops->send(w->t, hb, data, n, deadline);
    if (e) {
        adb_copyerr(w->err, sizeof w->err, w->t->err);
        if (e != ST_EINTR)
            kill_wire(w, e);
    }
    return e;
}

/* Read until one whole packet is there: ST_OK with w->h / w->pay set. */
static enum st_err recv_pkt(struct adb_wire *w, int64_t deadline)
{
    if (w->dead)
        return w->dead;
    while (!w->have_hdr || w->phave < w->h.data_length) {
        size_t got = 0;
        enum st_err e;
        if (!w->have_hdr)
            e = w->t->ops->read(w->t, w->hb + w->hhave, ADB_HDR_LEN - w->hhave,
                                &got, deadline);
        else
            e = w->t->ops->read(w->t, w->pay->data + w->phave,
                                w->h.data_length - w->phave, &got, deadline);
        if (!e && !got) {
            adb_seterr(w->t->err, sizeof w->t->err, "the device closed the connection");
            e = ST_ECLOSED;
        }
        if (e) {
            adb_copyerr(w->err, sizeof w->err, w->t->err);
            if (e != ST_EINTR && e != ST_ETIMEOUT)
                kill_wire(w, e);
            return e;
        }
        if (w->have_hdr) {
            w->phave += got;
            continue;
        }
        w->hhave += got;
        if (w->hhave < ADB_HDR_LEN)
            continue;
        e = adb_hdr_decode(w->hb, w->online ? w->maxdata : ADB_MAXDATA, &w->h);
        if (e) {
            adb_seterr(w->err, sizeof w->err, "malformed packet from the device (%s)",
                       e == ST_ETOOBIG ? "payload larger than negotiated"
                                       : "bad magic");
            kill_wire(w, ST_EPROTO);
            return ST_EPROTO;
        }
        w->have_hdr = 1;
        w->phave = 0;
        w->pay = malloc(sizeof *w->pay + w->h.data_length);
        if (!w->pay) {
            kill_wire(w, ST_ENOMEM);
            return ST_ENOMEM;
        }
        w->pay->next = NULL;
        w->pay->len = w->h.data_length;
        w->pay->off = 0;
    }
    if (st_debug_mask & DBG_WIRE) {
        char name[5];
        ST_DBG(DBG_WIRE, "D->H %s %08x %08x len=%u", adb_cmd_name(w->h.command, name),
               w->h.arg0, w->h.arg1, w->h.data_length);
    }
    w->have_hdr = 0;
    w->hhave = 0;
    return ST_OK;
}

static struct wstream *find_stream(struct adb_wire *w, uint32_t local)
{
    for (struct wstream *s = w->streams; s; s = s->next)
        if (s->local == local)
            return s;
    return NULL;
}

/* Takes w->pay. */
static void on_wrte(struct adb_wire *w, int64_t deadline)
{
    struct wchunk *c = w->pay;
    w->pay = NULL;
    struct wstream *s = find_stream(w, w->h.arg1);
    if (!s || s->state != WS_OPEN || s->peer_closed || s->remote != w->h.arg0) {
        free(c);
        return;
    }
    if (c->len) {
        if (s->tail)
            s->tail->next = c;
        else
            s->head = c;
        s->tail = c;
        s->queued += c->len;
    } else {
        free(c);
    }
    if (s->queued <= WINDOW)
        send_pkt(w, ADB_CMD_OKAY, s->local, s->remote, NULL, 0, deadline);
    else
        s->okay_owed = 1;
}

static void on_packet(struct adb_wire *w, int64_t deadline)
{
    struct wstream *s;
    switch (w->h.command) {
    case ADB_CMD_WRTE:
        on_wrte(w, deadline);
        return;
    case ADB_CMD_OKAY:
        if ((s = find_stream(w, w->h.arg1))) {
            if (s->state == WS_OPENING) {
                s->state = WS_OPEN;
                s->remote = w->h.arg0;
                s->ready = 1;
            } else if (s->remote == w->h.arg0) {
                s->ready = 1;
            }
        }
        break;
    case ADB_CMD_CLSE:
        if ((s = find_stream(w, w->h.arg1))) {
            if (s->state == WS_OPENING)
                s->state = WS_REFUSED;
            else if (s->remote == w->h.arg0 || !w->h.arg0)
                s->peer_closed = 1;
        }
        break;
    case ADB_CMD_OPEN:      /* reverse services: not offered */
        send_pkt(w, ADB_CMD_CLSE, 0, w->h.arg0, NULL, 0, deadline);
        break;
    case ADB_CMD_CNXN:
        adb_seterr(w->err, sizeof w->err, "the device reset the connection");
        kill_wire(w, ST_ECLOSED);
        break;
    default:                /* AUTH once online, STLS, unknown: ignored */
        break;
    }
    free(w->pay);
    w->pay = NULL;
}

static enum st_err pump(struct adb_wire *w, int64_t deadline)
{
    enum st_err e = recv_pkt(w, deadline);
    if (!e)
        on_packet(w, deadline);
    return e ? e : w->dead;
}

/* ---- streams ---------------------------------------------------------- */

static enum st_err ws_fail(struct wstream *s, enum st_err e)
{
    adb_copyerr(s->base.err, sizeof s->base.err, s->w->err);
    return e;
}

static enum st_err ws_read(struct adb_stream *st, void *p, size_t n, size_t *got,
                           int64_t deadline)
{
    struct wstream *s = (struct wstream *)st;
    struct adb_wire *w = s->w;
    *got = 0;
    w->t->io = st->io;
    while (!s->head) {
        if (s->peer_closed)
            return ST_OK;
        enum st_err e = pump(w, deadline);
        if (e && !s->head)
            return ws_fail(s, e);
    }
    uint8_t *out = p;
    while (s->head && *got < n) {
        struct wchunk *c = s->head;
        size_t k = c->len - c->off;
        if (k > n - *got)
            k = n - *got;
        memcpy(out + *got, c->data + c->off, k);
        c->off += k;
        *got += k;
        s->queued -= k;
        if (c->off == c->len) {
            s->head = c->next;
            if (!s->head)
                s->tail = NULL;
            free(c);
        }
    }
    if (s->okay_owed && s->queued <= WINDOW && !s->peer_closed) {
        s->okay_owed = 0;
        send_pkt(w, ADB_CMD_OKAY, s->local, s->remote, NULL, 0, deadline);
    }
    return ST_OK;
}

static enum st_err ws_write(struct adb_stream *st, const void *p, size_t n,
                            int64_t deadline)
{
    struct wstream *s = (struct wstream *)st;
    struct adb_wire *w = s->w;
    const uint8_t *b = p;
    w->t->io = st->io;
    while (n) {
        while (!s->ready && !s->peer_closed) {
            enum st_err e = pump(w, deadline);
            if (e)
                return ws_fail(s, e);
        }
        if (s->peer_closed) {
            adb_seterr(st->err, sizeof st->err, "the service closed its end");
            return ST_ECLOSED;
        }
        size_t k = n < w->maxdata ? n : w->maxdata;
        enum st_err e = send_pkt(w, ADB_CMD_WRTE, s->local, s->remote, b, k, deadline);
        if (e)
            return ws_fail(s, e);
        s->ready = 0;
        b += k;
        n -= k;
    }
    return ST_OK;
}

static void wire_destroy(struct adb_wire *w)
{
    if (w->t)
        w->t->ops->close(w->t);
    adb_banner_free(w->banner);
    free(w->pay);
    free(w);
}

static void ws_close(struct adb_stream *st)
{
    struct wstream *s = (struct wstream *)st;
    struct adb_wire *w = s->w;
    if (s->state == WS_OPEN && !s->peer_closed && !w->dead) {
        struct adb_io io = {st->io.timeout_ms > 0 && st->io.timeout_ms < 2000
                            ? st->io.timeout_ms : 2000, -1};
        w->t->io = io;
        send_pkt(w, ADB_CMD_CLSE, s->local, s->remote, NULL, 0, adb_deadline(&io));
    }
    for (struct wstream **pp = &w->streams; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    while (s->head) {
        struct wchunk *c = s->head;
        s->head = c->next;
        free(c);
    }
    free(s);
    if (--w->nstreams == 0 && w->owner_gone)
        wire_destroy(w);
}

static const struct adb_stream_ops wstream_ops = {ws_read, ws_write, ws_close};

enum st_err adb_wire_open(struct adb_wire *w, const struct adb_io *io,
                          const char *service, struct adb_stream **out,
                          char *err, size_t errlen)
{
    *out = NULL;
    if (w->dead) {
        adb_seterr(err, errlen, "connection to the device is gone: %s", w->err);
        return w->dead;
    }
    size_t len = strlen(service) + 1;
    if (len > w->maxdata) {
        adb_seterr(err, errlen, "service name too long (%zu bytes)", len);
        return ST_ETOOBIG;
    }
    struct wstream *s = calloc(1, sizeof *s);
    if (!s)
        return ST_ENOMEM;
    s->base.ops = &wstream_ops;
    s->base.io = *io;
    s->w = w;
    s->local = ++w->next_id ? w->next_id : ++w->next_id;
    s->next = w->streams;
    w->streams = s;
    w->nstreams++;
    w->t->io = *io;
    int64_t deadline = adb_deadline(io);
    enum st_err e = send_pkt(w, ADB_CMD_OPEN, s->local, 0, service, len, deadline);
    while (!e && s->state == WS_OPENING)
        e = pump(w, deadline);
    if (!e && s->state == WS_REFUSED) {
        adb_seterr(err, errlen, "the device refused service '%.200s' (closed)", service);
        e = ST_EFAIL;
    } else if (e) {
        adb_seterr(err, errlen, "opening '%.200s': %s", service, w->err);
    }
    if (e) {
        s->state = WS_REFUSED;      /* nothing to CLSE */
        ws_close(&s->base);
        return e;
    }
    ST_DBG(DBG_ADB, "opened %s as %u/%u", service, s->local, s->remote);
    *out = &s->base;
    return ST_OK;
}

/* ---- handshake ------------------------------------------------------- */

struct hs {
    struct adb_wire *w;
    const struct adb_wire_auth *auth;
    struct adb_keyring keys;
    int loaded;
    size_t next_key;
    int pub_sent;
    int64_t deadline;
    char *err;
    size_t errlen;
};

static enum st_err send_pubkey(struct hs *h)
{
    if (!h->keys.n) {
        adb_seterr(h->err, h->errlen, "the device wants authentication and there is "
                   "no key to offer");
        return ST_EUNAUTH;
    }
    struct dynbuf b;
    dynbuf_init(&b, ADB_MAXDATA_V1);
    char who[256];
    adb_auth_user_host(who, sizeof who);
    enum st_err e = adb_key_pub_b64(h->keys.v[0], &b);
    if (!e)
        e = dynbuf_printf(&b, " %s", who);
    if (!e)
        e = dynbuf_addc(&b, '\0');
    if (!e)
        e = send_pkt(h->w, ADB_CMD_AUTH, ADB_AUTH_RSAPUBLICKEY, 0, b.data, b.len,
                     h->deadline);
    dynbuf_free(&b);
    if (e)
        return e;
    h->pub_sent = 1;
    int wait = h->auth->wait_ms > 0 ? h->auth->wait_ms : 60000;
    h->deadline = adb_now_ms() + wait;
    if (h->auth->notify) {
        char msg[4096 + 200];
        snprintf(msg, sizeof msg, "the device refused every key; accept the "
                 "\"Allow USB debugging?\" prompt on the device for the key %s "
                 "(waiting %d s)", h->keys.user_path, wait / 1000);
        h->auth->notify(h->auth->ctx, msg);
    }
    return ST_OK;
}

static enum st_err on_token(struct hs *h, const uint8_t *tok, size_t len)
{
    if (len != ADB_AUTH_TOKEN_LEN || h->pub_sent)
        return ST_OK;       /* a new token after the prompt: keep waiting */
    if (!h->loaded) {
        enum st_err e = adb_keyring_load(&h->keys, h->auth->home, h->auth->vendor_keys,
                                         1, h->err, h->errlen);
        if (e)
            return e;
        h->loaded = 1;
    }
    if (h->next_key >= h->keys.n)
        return send_pubkey(h);
    uint8_t sig[ADB_AUTH_SIG_MAX];
    size_t slen = 0;
    enum st_err e = adb_key_sign(h->keys.v[h->next_key++], tok, len, sig, &slen);
    if (e) {
        adb_seterr(h->err, h->errlen, "signing the device's token failed");
        return e;
    }
    ST_DBG(DBG_ADB, "auth: signature with key %zu", h->next_key);
    return send_pkt(h->w, ADB_CMD_AUTH, ADB_AUTH_SIGNATURE, 0, sig, slen, h->deadline);
}

static enum st_err on_cnxn(struct adb_wire *w, char *err, size_t errlen)
{
    w->version = adb_version_negotiate(ADB_VERSION_SKIP_CHECKSUM, w->h.arg0);
    w->maxdata = adb_maxdata_negotiate(ADB_MAXDATA, w->h.arg1);
    if (w->version < ADB_VERSION_MIN || w->maxdata < 256) {
        adb_seterr(err, errlen, "device offers version %08x, maxdata %u: unusable",
                   w->h.arg0, w->h.arg1);
        return ST_EPROTO;
    }
    w->checksum = adb_version_wants_checksum(w->version);
    enum st_err e = adb_banner_parse(w->pay->data, w->pay->len, &w->banner);
    if (e) {
        adb_seterr(err, errlen, "malformed CNXN banner from the device");
        return ST_EPROTO;
    }
    w->online = 1;
    ST_DBG(DBG_ADB, "online: version %08x maxdata %zu type %s", w->version,
           w->maxdata, w->banner->type);
    return ST_OK;
}

static enum st_err handshake(struct hs *h)
{
    struct adb_wire *w = h->w;
    char banner[256];
    snprintf(banner, sizeof banner, "host::features=%s", ADB_HOST_FEATURES);
    enum st_err e = send_pkt(w, ADB_CMD_CNXN, ADB_VERSION_SKIP_CHECKSUM, ADB_MAXDATA,
                             banner, strlen(banner), h->deadline);
    while (!e && !w->online) {
        e = recv_pkt(w, h->deadline);
        if (e)
            break;
        if (w->h.command == ADB_CMD_CNXN)
            e = on_cnxn(w, h->err, h->errlen);
        else if (w->h.command == ADB_CMD_AUTH && w->h.arg0 == ADB_AUTH_TOKEN)
            e = on_token(h, w->pay->data, w->pay->len);
        free(w->pay);
        w->pay = NULL;
    }
    if (e && !h->err[0])
        adb_copyerr(h->err, h->errlen, w->err);
    if (e == ST_ETIMEOUT && h->pub_sent) {
        adb_seterr(h->err, h->errlen, "the device did not accept our key in time: "
                   "unlock it, accept the \"Allow USB debugging?\" prompt (key %s) "
                   "and try again", h->keys.user_path);
        e = ST_EUNAUTH;
    } else if (e == ST_ECLOSED && h->next_key) {
        adb_seterr(h->err, h->errlen, "the device closed the connection during "
                   "authentication (after %zu signature(s)%s)", h->next_key,
                   h->pub_sent ? " and our public key" : "");
        e = ST_EUNAUTH;
    }
    return e;
}

enum st_err adb_wire_connect(struct adb_ptrans *t, const struct adb_wire_auth *auth,
                             struct adb_wire **out, char *err, size_t errlen)
{
    *out = NULL;
    struct adb_wire *w = calloc(1, sizeof *w);
    if (!w) {
        t->ops->close(t);
        return ST_ENOMEM;
    }
    w->t = t;
    w->maxdata = ADB_MAXDATA_V1;
    w->version = ADB_VERSION_MIN;
    struct adb_wire_auth none = {0};
    struct hs h = {.w = w, .auth = auth ? auth : &none, .err = err, .errlen = errlen,
                   .deadline = adb_deadline(&t->io)};
    if (errlen)
        err[0] = '\0';
    enum st_err e = handshake(&h);
    adb_keyring_clear(&h.keys);
    if (e) {
        wire_destroy(w);
        return e;
    }
    *out = w;
    return ST_OK;
}

void adb_wire_free(struct adb_wire *w)
{
    if (!w)
        return;
    w->owner_gone = 1;
    if (!w->nstreams)
        wire_destroy(w);
}

enum st_err adb_wire_dead(const struct adb_wire *w)
{
    return w->dead;
}

uint32_t adb_wire_version(const struct adb_wire *w)
{
    return w->version;
}

size_t adb_wire_maxdata(const struct adb_wire *w)
{
    return w->maxdata;
}

const struct adb_banner *adb_wire_banner(const struct adb_wire *w)
{
    return w->banner;
}
