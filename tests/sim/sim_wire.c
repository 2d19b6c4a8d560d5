/*
 * Device side of the ADB wire protocol (see sim_wire.h; protocol notes in
 * ../shared/reference/adb-protocol.md section c).
 *
 * The connection thread reads packets and never blocks on a service: it
 * queues WRTE payloads (OKAYing them at once while less than IN_WINDOW
 * bytes are queued, otherwise when the service has consumed them) and
 * wakes service threads on OKAY/CLSE.  Services write through
 * sim_stream_write(), which keeps one WRTE in flight per stream.
 * CNXN: we offer 0x01000001 / 1 MiB (or 0x01000000 / 4096 with
 * --old-protocol, then every packet is checksummed both ways).  A second
 * CNXN resets the connection's streams like adbd does.  Packets before
 * CNXN are ignored; OPEN with a non-zero arg1 (delayed ack) is refused.
 */
#include "sim_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "lib/debug.h"
#include "adb/packet.h"

#define IN_WINDOW (4u << 20)

struct inbuf {
    struct inbuf *next;
    size_t len, off;
    unsigned char data[];
};

struct sim_stream {
    struct sim_stream *next;
    struct sim_conn *c;
    uint32_t local_id, remote_id;
    char *service;
    int ready;          /* the previous WRTE was OKAYed */
    int host_closed;
    struct inbuf *in_head, *in_tail;
    size_t in_bytes;
    int okay_owed;
    unsigned char *obuf;
    size_t olen, ocap;  /* ocap: the maxdata when the stream opened */
};

struct sim_conn {
    struct sim_conn *next;      /* registry */
    struct sim_device *dev;
    int fd;
    pthread_mutex_t lock;       /* streams and the flags below */
    pthread_cond_t cond;
    pthread_mutex_t wlock;      /* socket writes */
    uint32_t version;
    size_t maxdata;
    int online;
    int dead;
    int checksum;               /* send and verify data_check */
    struct sim_stream *streams;
    uint32_t next_id;
    int workers;
    struct sim_auth *auth;
    uint64_t rate_t0, rate_bytes;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_conn *registry;
static int registry_count;

/* Socket I/O. */

static int read_full(int fd, void *p, size_t n)
{
    unsigned char *b = p;
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

static int send_iov(int fd, struct iovec *iov, int cnt)
{
    while (cnt) {
        struct msghdr m;
        memset(&m, 0, sizeof(m));
        m.msg_iov = iov;
        m.msg_iovlen = (size_t)cnt;
        ssize_t w = sendmsg(fd, &m, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        size_t done = (size_t)w;
        while (cnt && done >= iov->iov_len) {
            done -= iov->iov_len;
            iov++;
            cnt--;
        }
        if (cnt) {
            iov->iov_base = (char *)iov->iov_base + done;
            iov->iov_len -= done;
        }
    }
    return 0;
}

int sim_conn_send(struct sim_conn *c, uint32_t cmd, uint32_t arg0,
                  uint32_t arg1, const void *data, size_t len)
{
    struct adb_hdr h;
    unsigned char hdr[ADB_HDR_LEN];
    /* CNXN and AUTH are always checksummed (version not yet known). */
    int ck = c->checksum || cmd == ADB_CMD_CNXN || cmd == ADB_CMD_AUTH;
    adb_hdr_make(&h, cmd, arg0, arg1, data, len, ck);
    adb_hdr_encode(&h, hdr);
    if (st_debug_mask & DBG_WIRE) {
        char name[5];
        ST_DBG(DBG_WIRE, "sim D->H %s %08x %08x len=%zu",
               adb_cmd_name(cmd, name), arg0, arg1, len);
    }
    struct iovec iov[2] = {{hdr, sizeof(hdr)}, {(void *)data, len}};
    pthread_mutex_lock(&c->wlock);
    int r = send_iov(c->fd, iov, len ? 2 : 1);
    pthread_mutex_unlock(&c->wlock);
    return r;
}

/* Streams. */

static struct sim_stream *find_stream(struct sim_conn *c, uint32_t local)
{
    for (struct sim_stream *s = c->streams; s; s = s->next)
        if (s->local_id == local)
            return s;
    return NULL;
}

static void unlink_stream(struct sim_conn *c, struct sim_stream *s)
{
    for (struct sim_stream **pp = &c->streams; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            return;
        }
}

static void stream_free(struct sim_stream *s)
{
    while (s->in_head) {
        struct inbuf *b = s->in_head;
        s->in_head = b->next;
        free(b);
    }
    free(s->obuf);
    free(s->service);
    free(s);
}

static int wait_ready(struct sim_stream *s)
{
    struct sim_conn *c = s->c;
    pthread_mutex_lock(&c->lock);
    while (!s->ready && !s->host_closed && !c->dead && !sim_stopping)
        pthread_cond_wait(&c->cond, &c->lock);
    int ok = s->ready && !s->host_closed && !c->dead;
    if (ok)
        s->ready = 0;
    pthread_mutex_unlock(&c->lock);
    return ok ? 0 : -1;
}

static int cancelled_conn(void *arg)
{
    struct sim_conn *c = arg;
    pthread_mutex_lock(&c->lock);
    int d = c->dead;
    pthread_mutex_unlock(&c->lock);
    return d;
}

/* A link left idle saves up at most this much time's worth of bytes: a
 * burst after a pause goes at the link's rate too, as on a real link. */
#define RATE_CREDIT_NS 100000000u

/* --rate: hold the connection below the configured rate. */
static void rate_limit(struct sim_conn *c, size_t n)
{
    uint64_t rate = c->dev->opt.rate;
    if (!rate)
        return;
    uint64_t now = sim_now_ns();
    if (!c->rate_t0 ||
        c->rate_t0 + c->rate_bytes * 1000000000u / rate + RATE_CREDIT_NS < now) {
        c->rate_t0 = now - RATE_CREDIT_NS;
        c->rate_bytes = 0;
    }
    c->rate_bytes += n;
    uint64_t due = c->rate_t0 + c->rate_bytes * 1000000000u / rate;
    if (due > now)
        sim_sleep(due - now, cancelled_conn, c);
}

int sim_stream_flush(struct sim_stream *s)
{
    if (!s->olen)
        return 0;
    if (wait_ready(s))
        return -1;
    rate_limit(s->c, s->olen);
    int r = sim_conn_send(s->c, ADB_CMD_WRTE, s->local_id, s->remote_id,
                          s->obuf, s->olen);
    s->olen = 0;
    return r;
}

int sim_stream_write(struct sim_stream *s, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t max = s->ocap;
    if (sim_stream_closed(s))
        return -1;
    while (n) {
        size_t k = max - s->olen;
        if (k > n)
            k = n;
        memcpy(s->obuf + s->olen, b, k);
        s->olen += k;
        b += k;
        n -= k;
        if (s->olen == max && sim_stream_flush(s))
            return -1;
    }
    return 0;
}

long sim_stream_read(struct sim_stream *s, void *p, size_t n)
{
    struct sim_conn *c = s->c;
    pthread_mutex_lock(&c->lock);
    int empty = !s->in_head;
    pthread_mutex_unlock(&c->lock);
    if (empty && sim_stream_flush(s))
        return 0;

    pthread_mutex_lock(&c->lock);
    while (!s->in_head && !s->host_closed && !c->dead && !sim_stopping)
        pthread_cond_wait(&c->cond, &c->lock);
    size_t got = 0;
    while (s->in_head && got < n) {
        struct inbuf *b = s->in_head;
        size_t k = b->len - b->off;
        if (k > n - got)
            k = n - got;
        memcpy((unsigned char *)p + got, b->data + b->off, k);
        b->off += k;
        got += k;
        s->in_bytes -= k;
        if (b->off == b->len) {
            s->in_head = b->next;
            if (!s->in_head)
                s->in_tail = NULL;
            free(b);
        }
    }
    int send_okay = s->okay_owed && s->in_bytes < IN_WINDOW;
    if (send_okay)
        s->okay_owed = 0;
    pthread_mutex_unlock(&c->lock);
    if (send_okay)
        sim_conn_send(c, ADB_CMD_OKAY, s->local_id, s->remote_id, NULL, 0);
    return (long)got;
}

int sim_stream_read_full(struct sim_stream *s, void *p, size_t n)
{
    unsigned char *b = p;
    while (n) {
        long r = sim_stream_read(s, b, n);
        if (r <= 0)
            return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

int sim_stream_closed(struct sim_stream *s)
{
    pthread_mutex_lock(&s->c->lock);
    int r = s->host_closed || s->c->dead;
    pthread_mutex_unlock(&s->c->lock);
    return r;
}

int sim_stream_cancelled(void *stream)
{
    return sim_stream_closed(stream);
}

void sim_stream_drop_connection(struct sim_stream *s)
{
    ST_DBG(DBG_SIM, "dropping connection on purpose");
    shutdown(s->c->fd, SHUT_RDWR);
    pthread_mutex_lock(&s->c->lock);
    s->c->dead = 1;
    pthread_cond_broadcast(&s->c->cond);
    pthread_mutex_unlock(&s->c->lock);
}

struct sim_device *sim_stream_device(struct sim_stream *s)
{
    return s->c->dev;
}

const char *sim_stream_service(struct sim_stream *s)
{
    return s->service;
}

size_t sim_stream_maxdata(struct sim_stream *s)
{
    return s->ocap;
}

static void *stream_thread(void *arg)
{
    struct sim_stream *s = arg;
    struct sim_conn *c = s->c;
    sim_service_run(s);
    sim_stream_flush(s);
    pthread_mutex_lock(&c->lock);
    int send_close = !s->host_closed && !c->dead;
    unlink_stream(c, s);
    pthread_mutex_unlock(&c->lock);
    if (send_close)
        sim_conn_send(c, ADB_CMD_CLSE, s->local_id, s->remote_id, NULL, 0);
    pthread_mutex_lock(&c->lock);
    c->workers--;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
    stream_free(s);
    return NULL;
}

/* Packet handlers (connection thread). */

static void close_all_streams(struct sim_conn *c)
{
    pthread_mutex_lock(&c->lock);
    for (struct sim_stream *s = c->streams; s; s = s->next)
        s->host_closed = 1;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

static int send_banner(struct sim_conn *c)
{
    char banner[512];
    snprintf(banner, sizeof(banner),
             "device::ro.product.name=sim;ro.product.model=SystraceSim;"
             "ro.product.device=sim;features=%scmd,stat_v2,ls_v2",
             c->dev->opt.no_shell_v2 ? "" : "shell_v2,");
    uint32_t ver = c->dev->opt.old_protocol ? ADB_VERSION_MIN
                                            : ADB_VERSION_SKIP_CHECKSUM;
    size_t max = c->dev->opt.old_protocol ? ADB_MAXDATA_V1 : ADB_MAXDATA;
    if (sim_conn_send(c, ADB_CMD_CNXN, ver, (uint32_t)max, banner,
                      strlen(banner)))
        return -1;
    pthread_mutex_lock(&c->lock);
    c->online = 1;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

static int on_cnxn(struct sim_conn *c, const struct adb_hdr *h)
{
    uint32_t ours = c->dev->opt.old_protocol ? ADB_VERSION_MIN
                                             : ADB_VERSION_SKIP_CHECKSUM;
    size_t max = c->dev->opt.old_protocol ? ADB_MAXDATA_V1 : ADB_MAXDATA;
    close_all_streams(c);
    pthread_mutex_lock(&c->lock);
    c->version = adb_version_negotiate(ours, h->arg0);
    c->maxdata = adb_maxdata_negotiate(max, h->arg1 ? h->arg1 : max);
    if (c->maxdata < 256)
        c->maxdata = 256;
    c->checksum = adb_version_wants_checksum(c->version);
    c->online = 0;
    pthread_mutex_unlock(&c->lock);
    ST_DBG(DBG_SIM, "CNXN version %08x maxdata %zu", c->version, c->maxdata);
    if (sim_auth_begin(c->auth, c))
        return send_banner(c);
    return 0;
}

static void on_open(struct sim_conn *c, const struct adb_hdr *h,
                    const unsigned char *data)
{
    size_t n = h->data_length;
    while (n && data[n - 1] == '\0')
        n--;
    char *name = malloc(n + 1);
    if (!name)
        return;
    memcpy(name, data, n);
    name[n] = '\0';
    sim_log(c->dev, "open", name);
    if (!h->arg0 || h->arg1 || memchr(name, '\0', n) ||
        !sim_service_known(c->dev, name)) {
        sim_conn_send(c, ADB_CMD_CLSE, 0, h->arg0, NULL, 0);
        free(name);
        return;
    }
    struct sim_stream *s = calloc(1, sizeof(*s));
    unsigned char *obuf = malloc(c->maxdata);
    if (!s || !obuf) {
        free(s);
        free(obuf);
        free(name);
        sim_conn_send(c, ADB_CMD_CLSE, 0, h->arg0, NULL, 0);
        return;
    }
    s->c = c;
    s->remote_id = h->arg0;
    s->service = name;
    s->obuf = obuf;
    s->ocap = c->maxdata;
    s->ready = 1;   /* "OPEN implies READY" */
    pthread_mutex_lock(&c->lock);
    s->local_id = ++c->next_id;
    s->next = c->streams;
    c->streams = s;
    c->workers++;
    pthread_mutex_unlock(&c->lock);
    sim_conn_send(c, ADB_CMD_OKAY, s->local_id, s->remote_id, NULL, 0);

    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&t, &attr, stream_thread, s)) {
        pthread_mutex_lock(&c->lock);
        unlink_stream(c, s);
        c->workers--;
        pthread_mutex_unlock(&c->lock);
        sim_conn_send(c, ADB_CMD_CLSE, s->local_id, s->remote_id, NULL, 0);
        stream_free(s);
    }
    pthread_attr_destroy(&attr);
}

static void on_okay(struct sim_conn *c, const struct adb_hdr *h)
{
    pthread_mutex_lock(&c->lock);
    struct sim_stream *s = find_stream(c, h->arg1);
    if (s && s->remote_id == h->arg0) {
        s->ready = 1;
        pthread_cond_broadcast(&c->cond);
    }
    pthread_mutex_unlock(&c->lock);
}

static void on_wrte(struct sim_conn *c, const struct adb_hdr *h,
                    const unsigned char *data)
{
    int send_okay = 0;
    uint32_t local = 0, remote = 0;
    pthread_mutex_lock(&c->lock);
    struct sim_stream *s = find_stream(c, h->arg1);
    if (s && !s->host_closed && h->data_length) {
        struct inbuf *b = malloc(sizeof(*b) + h->data_length);
        if (b) {
            b->next = NULL;
            b->len = h->data_length;
            b->off = 0;
            memcpy(b->data, data, b->len);
            if (s->in_tail)
                s->in_tail->next = b;
            else
                s->in_head = b;
            s->in_tail = b;
            s->in_bytes += b->len;
        }
        if (s->in_bytes < IN_WINDOW)
            send_okay = 1;
        else
            s->okay_owed = 1;
        pthread_cond_broadcast(&c->cond);
    } else if (s && !s->host_closed) {
        send_okay = 1;
    }
    if (s) {
        local = s->local_id;
        remote = s->remote_id;
    }
    pthread_mutex_unlock(&c->lock);
    if (send_okay)
        sim_conn_send(c, ADB_CMD_OKAY, local, remote, NULL, 0);
}

static void on_clse(struct sim_conn *c, const struct adb_hdr *h)
{
    pthread_mutex_lock(&c->lock);
    struct sim_stream *s = find_stream(c, h->arg1);
    if (s && (s->remote_id == h->arg0 || !h->arg0)) {
        s->host_closed = 1;
        pthread_cond_broadcast(&c->cond);
    }
    pthread_mutex_unlock(&c->lock);
}

static int handle(struct sim_conn *c, const struct adb_hdr *h,
                  const unsigned char *data)
{
    if (st_debug_mask & DBG_WIRE) {
        char name[5];
        ST_DBG(DBG_WIRE, "sim H->D %s %08x %08x len=%u",
               adb_cmd_name(h->command, name), h->arg0, h->arg1,
               h->data_length);
    }
    switch (h->command) {
    case ADB_CMD_CNXN:
        return on_cnxn(c, h);
    case ADB_CMD_AUTH:
        if (sim_auth_packet(c->auth, c, h->arg0, data, h->data_length))
            return send_banner(c);
        return 0;
    default:
        break;
    }
    pthread_mutex_lock(&c->lock);
    int online = c->online;
    pthread_mutex_unlock(&c->lock);
    if (!online)
        return 0;
    switch (h->command) {
    case ADB_CMD_OPEN:
        on_open(c, h, data);
        break;
    case ADB_CMD_OKAY:
        on_okay(c, h);
        break;
    case ADB_CMD_WRTE:
        on_wrte(c, h, data);
        break;
    case ADB_CMD_CLSE:
        on_clse(c, h);
        break;
    default:
        break;
    }
    return 0;
}

static void read_loop(struct sim_conn *c)
{
    unsigned char *buf = malloc(ADB_MAXDATA);
    if (!buf)
        return;
    for (;;) {
        unsigned char hb[ADB_HDR_LEN];
        struct adb_hdr h;
        if (read_full(c->fd, hb, sizeof(hb)))
            break;
        /* Accept up to our own maximum; the host honours the minimum. */
        size_t max = c->dev->opt.old_protocol && c->online ? ADB_MAXDATA_V1
                                                           : ADB_MAXDATA;
        enum st_err e = adb_hdr_decode(hb, max, &h);
        if (e) {
            ST_DBG(DBG_SIM, "bad header: %s", st_strerror(e));
            break;
        }
        if (h.data_length && read_full(c->fd, buf, h.data_length))
            break;
        if (c->dev->opt.old_protocol && adb_payload_verify(&h, buf)) {
            ST_DBG(DBG_SIM, "checksum mismatch from host, dropping");
            break;
        }
        if (handle(c, &h, buf))
            break;
    }
    free(buf);
}

void sim_conn_serve(struct sim_device *dev, int fd)
{
    struct sim_conn *c = calloc(1, sizeof(*c));
    if (!c) {
        close(fd);
        return;
    }
    c->dev = dev;
    c->fd = fd;
    c->maxdata = ADB_MAXDATA_V1;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->cond, NULL);
    pthread_mutex_init(&c->wlock, NULL);
    c->auth = sim_auth_new(dev);

    pthread_mutex_lock(&reg_lock);
    c->next = registry;
    registry = c;
    registry_count++;
    pthread_mutex_unlock(&reg_lock);

    read_loop(c);

    shutdown(fd, SHUT_RDWR);
    pthread_mutex_lock(&c->lock);
    c->dead = 1;
    for (struct sim_stream *s = c->streams; s; s = s->next)
        s->host_closed = 1;
    pthread_cond_broadcast(&c->cond);
    while (c->workers)
        pthread_cond_wait(&c->cond, &c->lock);
    pthread_mutex_unlock(&c->lock);

    pthread_mutex_lock(&reg_lock);
    for (struct sim_conn **pp = &registry; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    registry_count--;
    pthread_mutex_unlock(&reg_lock);

    close(fd);
    sim_auth_free(c->auth);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->cond);
    pthread_mutex_destroy(&c->wlock);
    free(c);
}

void sim_conn_drop_all(void)
{
    pthread_mutex_lock(&reg_lock);
    for (struct sim_conn *c = registry; c; c = c->next) {
        shutdown(c->fd, SHUT_RDWR);
        pthread_mutex_lock(&c->lock);
        c->dead = 1;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
    pthread_mutex_unlock(&reg_lock);
}

void sim_conn_shutdown_all(void)
{
    pthread_mutex_lock(&reg_lock);
    for (struct sim_conn *c = registry; c; c = c->next) {
        shutdown(c->fd, SHUT_RDWR);
        pthread_mutex_lock(&c->lock);
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
    pthread_mutex_unlock(&reg_lock);
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&reg_lock);
        int n = registry_count;
        pthread_mutex_unlock(&reg_lock);
        if (!n)
            return;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
}
