/*
 * Internals of the adb/ library, shared by its files, its unit tests and
 * fuzz targets; not for agents or the CLI (they use adb.h).
 *
 * Three layers, each a small table of function pointers:
 *   struct adb_conn    a byte pipe to a peer (TCP socket to the adb server;
 *                      later TCP/USB to adbd).  read/write/close.
 *   struct adb_stream  a byte stream to one device service.  Over the
 *                      server it is the conn after the transport switch;
 *                      wire transports multiplex streams over one conn.
 *   struct adb_device  a selected device: opens streams, knows features.
 * Shell, exec and sync are written once against struct adb_stream.
 * Deadlines are absolute CLOCK_MONOTONIC milliseconds, -1 for none.
 */
#ifndef SYSTRACE_ADB_INT_H
#define SYSTRACE_ADB_INT_H

#include <stddef.h>
#include <stdint.h>

#include "adb.h"
#include "lib/printf.h"

#define ADB_ERRLEN 512

/* Settings every blocking object carries. */
struct adb_io {
    int timeout_ms;     /* <= 0: none */
    int cancel_fd;      /* -1: none */
};

int64_t adb_now_ms(void);
/* Now + timeout, or -1 when the timeout is off. */
int64_t adb_deadline(const struct adb_io *io);
/* Wait until fd has one of events (PLAT_POLLIN/PLAT_POLLOUT).  ST_ETIMEOUT at the
 * deadline, ST_EINTR when cancel_fd is readable (checked first). */
enum st_err adb_wait_fd(int fd, short events, int64_t deadline, int cancel_fd,
                        char *err, size_t errlen);
void adb_seterr(char *err, size_t errlen, const char *fmt, ...)
    ST_PRINTF(3, 4);
/* Copy a detail message between objects (src may equal "" or dst). */
void adb_copyerr(char *dst, size_t dstlen, const char *src);

/* ---- conn --------------------------------------------------------------- */

struct adb_conn;

struct adb_conn_ops {
    /* 1..n bytes into p; *got == 0 at EOF. */
    enum st_err (*read)(struct adb_conn *c, void *p, size_t n, size_t *got,
                        int64_t deadline);
    /* All n bytes. */
    enum st_err (*write)(struct adb_conn *c, const void *p, size_t n,
                         int64_t deadline);
    void (*close)(struct adb_conn *c);      /* also frees */
};

struct adb_conn {
    const struct adb_conn_ops *ops;
    struct adb_io io;
    char err[ADB_ERRLEN];
};

enum st_err adb_conn_read(struct adb_conn *c, void *p, size_t n, size_t *got,
                          int64_t deadline);
/* Exactly n bytes; ST_ECLOSED (detail says how many came) on early EOF. */
enum st_err adb_conn_read_full(struct adb_conn *c, void *p, size_t n,
                               int64_t deadline);
enum st_err adb_conn_write(struct adb_conn *c, const void *p, size_t n,
                           int64_t deadline);
void adb_conn_close(struct adb_conn *c);    /* NULL is a no-op */

/* TCP: ST_ECONNECT (detail: host:port and the reason) when nobody answers. */
enum st_err adb_conn_tcp_connect(const char *host, unsigned port,
                                 const struct adb_io *io, struct adb_conn **out,
                                 char *err, size_t errlen);
/* Wrap a connected socket (takes ownership; made non-blocking). */
struct adb_conn *adb_conn_fd_new(int fd, const struct adb_io *io);

/* In-memory conn for tests and fuzzing: reads return the given bytes at
 * most chunk at a time (then EOF), writes are collected. */
struct adb_conn *adb_conn_mem_new(const void *data, size_t len, size_t chunk);
const struct dynbuf *adb_conn_mem_written(const struct adb_conn *c);

/* ---- smart socket (adb_server.c) ---------------------------------------- */

#define ADB_REQUEST_MAX 0xffff      /* what hex4 can say */
#define ADB_REPLY_MAX (1u << 20)    /* largest host reply we accept */

struct adb_addr {
    char host[256];
    unsigned port;
};

/* "tcp:HOST:PORT", "HOST:PORT", "PORT"; [v6]:PORT. */
enum st_err adb_addr_parse(const char *spec, struct adb_addr *a,
                           char *err, size_t errlen);
/* Precedence ADB_SERVER_SOCKET, then ANDROID_ADB_SERVER_ADDRESS/PORT,
 * then 127.0.0.1:5037.  NULL or "" means unset. */
enum st_err adb_addr_from_env(const char *server_socket, const char *address,
                              const char *port, struct adb_addr *a,
                              char *err, size_t errlen);

void adb_hex4_encode(char out[4], unsigned n);
enum st_err adb_hex4_decode(const char in[4], unsigned *n);

/* Connect to the server; on refusal ST_ECONNECT with the how-to detail. */
enum st_err adb_server_connect(const struct adb_addr *a, const struct adb_io *io,
                               struct adb_conn **out, char *err, size_t errlen);
/* Send one hex4-framed request. */
enum st_err adb_ss_send(struct adb_conn *c, const char *req, int64_t deadline);
/* OKAY -> ST_OK; FAIL -> ST_EFAIL with the message as c->err. */
enum st_err adb_ss_status(struct adb_conn *c, int64_t deadline);
/* hex4 length + body into out (reset first); longer than max: ST_ETOOBIG. */
enum st_err adb_ss_body(struct adb_conn *c, int64_t deadline, size_t max,
                        struct dynbuf *out);
/* Error code for a server FAIL message about a device. */
enum st_err adb_fail_code(const char *msg);
/* Whole host query: connect, request, OKAY, body; detail in err. */
enum st_err adb_host_query(const struct adb_addr *a, const struct adb_io *io,
                           const char *req, struct dynbuf *out,
                           char *err, size_t errlen);

/* ---- stream and device -------------------------------------------------- */

struct adb_stream;

struct adb_stream_ops {
    enum st_err (*read)(struct adb_stream *s, void *p, size_t n, size_t *got,
                        int64_t deadline);
    enum st_err (*write)(struct adb_stream *s, const void *p, size_t n,
                         int64_t deadline);
    void (*close)(struct adb_stream *s);    /* also frees */
};

struct adb_stream {
    const struct adb_stream_ops *ops;
    struct adb_io io;
    char err[ADB_ERRLEN];
};

/* The service string for a command in mode (adb_shell.c): "shell,v2,raw:CMD",
 * "shell:CMD" or "exec:CMD"; *v2 says whether its output is framed.  Detail
 * in d->err. */
enum st_err adb_shell_service(struct adb_device *d, enum adb_mode mode, const char *cmd,
                              struct dynbuf *svc, int *v2);

/* A stream that is a plain conn (server path after the switch). */
struct adb_stream *adb_stream_from_conn(struct adb_conn *c);

struct adb_device_ops {
    enum st_err (*open)(struct adb_device *d, const char *service,
                        struct adb_stream **out);
    void (*free)(struct adb_device *d);
    /* until usable again or the deadline (adb_device_wait); NULL: the
     * device cannot drop (test fakes) */
    enum st_err (*wait)(struct adb_device *d, int64_t deadline);
};

/* Sleep poll_ms, or until the deadline if that is sooner; ST_EINTR when
 * the cancel fd is readable, ST_ETIMEOUT when the deadline is reached. */
enum st_err adb_nap(const struct adb_io *io, int64_t deadline, int poll_ms,
                    char *err, size_t errlen);

struct adb_device {
    const struct adb_device_ops *ops;
    struct adb_io io;
    struct adb_device_info info;
    char *features;         /* usable ones, comma-separated, never NULL */
    char err[ADB_ERRLEN];
};

/* A device reached through the adb server at addr (adb_device_server.c). */
enum st_err adb_server_device_new(const struct adb_addr *addr,
                                  const struct adb_io *io,
                                  const struct adb_device_info *info,
                                  const char *features, struct adb_device **out);

/* What a direct transport needs from the client (adb_client.c). */
struct adb_direct_params {
    struct adb_io io;
    void (*notify)(void *ctx, const char *msg);
    void *ctx;
    int wait_ms;
    char *err;              /* the client's detail buffer */
    size_t errlen;
};
void adb_client_direct_params(struct adb_client *c, struct adb_direct_params *p);

/* 1 if name is an element of the comma-separated list. */
int adb_feature_in(const char *list, const char *name);
/* Elements of a that are also in b, comma-separated (malloc'd). */
char *adb_feature_intersect(const char *a, const char *b);
void adb_device_info_clear(struct adb_device_info *i);
enum st_err adb_device_info_copy(struct adb_device_info *dst,
                                 const struct adb_device_info *src);

/* A sync: session (adb_sync.c, adb_pull.c). */
struct adb_sync {
    struct adb_stream *st;
    int v2;                 /* STA2 instead of STAT */
    int dead;               /* after FAIL or an aborted reply */
    uint8_t *buf;           /* read buffer; pos..len not yet decoded */
    size_t pos, len;
    char err[ADB_ERRLEN];
};

/* ---- shell v2 framing (adb_shellv2.c) ----------------------------------- */

enum {
    ADB_SHV2_STDIN = 0,
    ADB_SHV2_STDOUT = 1,
    ADB_SHV2_STDERR = 2,
    ADB_SHV2_EXIT = 3,
    ADB_SHV2_CLOSE_STDIN = 4,
    ADB_SHV2_WINSIZE = 5,
    ADB_SHV2_INVALID = 255,
};
#define ADB_SHV2_HDR 5
/* adbd frames at most ~1 MiB; a larger length means the stream is not
 * shell v2 (or is corrupt). */
#define ADB_SHV2_MAX_FRAME (4u << 20)

enum adb_shv2_evtype { ADB_SHV2_EV_NONE, ADB_SHV2_EV_OUT, ADB_SHV2_EV_ERR,
                       ADB_SHV2_EV_EXIT };

struct adb_shv2_ev {
    enum adb_shv2_evtype type;
    const uint8_t *p;       /* OUT/ERR: bytes inside the fed buffer */
    size_t n;
    int code;               /* EXIT: 0..255 */
};

struct adb_shv2_dec {
    uint8_t hdr[ADB_SHV2_HDR];
    size_t have;            /* header bytes collected */
    uint8_t id;
    uint32_t left;          /* payload bytes still to come in this frame */
    int in_frame;
};

void adb_shv2_init(struct adb_shv2_dec *d);
/* Consume up to n bytes; stops after the first event (ev->type != NONE)
 * and reports in *used how much it took.  Payloads of one frame may come
 * as several OUT/ERR events.  ST_EPROTO for an oversize frame or an exit
 * frame whose length is not 1. */
enum st_err adb_shv2_feed(struct adb_shv2_dec *d, const uint8_t *p, size_t n,
                          size_t *used, struct adb_shv2_ev *ev);
/* At EOF: ST_ETRUNCATED if a frame is incomplete. */
enum st_err adb_shv2_finish(const struct adb_shv2_dec *d);
void adb_shv2_header(uint8_t out[ADB_SHV2_HDR], uint8_t id, uint32_t len);

/* ---- sync records (adb_sync_codec.c) ------------------------------------ */

#define ADB_ID(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 |             \
                            (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define ADB_SYNC_DATA_MAX 65536u
#define ADB_SYNC_PATH_MAX 1024u
#define ADB_SYNC_NAME_MAX 1024u     /* DENT names; NAME_MAX is 255 */
#define ADB_SYNC_MSG_KEEP 512u      /* FAIL text kept (longer is cut) */

enum adb_sync_expect { ADB_SYNC_X_STAT, ADB_SYNC_X_STAT2, ADB_SYNC_X_LIST,
                       ADB_SYNC_X_RECV };
enum adb_sync_evtype { ADB_SYNC_EV_NONE, ADB_SYNC_EV_STAT, ADB_SYNC_EV_DENT,
                       ADB_SYNC_EV_DATA, ADB_SYNC_EV_DONE, ADB_SYNC_EV_FAIL };

struct adb_sync_ev {
    enum adb_sync_evtype type;
    struct adb_stat st;     /* STAT, DENT */
    const char *name;       /* DENT (NUL-terminated), FAIL message */
    size_t name_len;
    const uint8_t *data;    /* DATA: bytes inside the fed buffer */
    size_t len;
};

struct adb_sync_dec {
    enum adb_sync_expect expect;
    int state;
    uint32_t id;
    uint8_t rec[80];        /* fixed part of the current record */
    size_t have, need;
    uint32_t left;          /* DATA / name / message bytes to come */
    char text[ADB_SYNC_NAME_MAX + 1];
    size_t text_len;
};

/* Start decoding the reply to one request. */
void adb_sync_dec_init(struct adb_sync_dec *d, enum adb_sync_expect x);
/* Like adb_shv2_feed.  After DONE or FAIL the reply is complete and more
 * bytes are ST_EPROTO.  Unknown ids and over-long lengths: ST_EPROTO. */
enum st_err adb_sync_dec_feed(struct adb_sync_dec *d, const uint8_t *p, size_t n,
                              size_t *used, struct adb_sync_ev *ev);
/* 1 once DONE or FAIL (or a STAT reply) has been decoded. */
int adb_sync_dec_complete(const struct adb_sync_dec *d);

/* Request: id + LE length + path.  Writes into out (cap >= 8 + path);
 * ST_ETOOBIG for a path over ADB_SYNC_PATH_MAX. */
enum st_err adb_sync_req(uint8_t *out, size_t cap, size_t *len, uint32_t id,
                         const char *path);

static inline uint32_t adb_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t adb_get64(const uint8_t *p)
{
    return (uint64_t)adb_get32(p) | (uint64_t)adb_get32(p + 4) << 32;
}

static inline void adb_set32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

#endif
