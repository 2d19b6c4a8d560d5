/*
 * --open=perfetto: hand traces to ui.perfetto.dev the way Perfetto's record
 * script (record_android_trace, open_trace_in_browser) does.  The UI may
 * fetch only from http://127.0.0.1:9001 (its content security policy), so
 * each file is served from there, under its base name, with
 * `Access-Control-Allow-Origin: https://ui.perfetto.dev`; the browser is
 * pointed at https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/NAME.
 * Serving ends once the UI fetched every file whole (a GET of its path
 * from that origin), or at the timeout, or on a signal, and says which.
 *
 * Beyond the script: a CORS preflight (OPTIONS, with Chrome's private
 * network access header for the UI's origin) is answered and does not end
 * serving, nor does any other request; a request whose Host is not
 * 127.0.0.1:PORT or localhost:PORT is refused (a page reaching us by DNS
 * rebinding would otherwise read the trace).  Up to MAX_CONNS connections
 * are served at once, without blocking: one waiting for its request has
 * CONN_WAIT_MS, one that stops reading its answer CONN_STALL_MS, and when
 * all are taken the one waiting longest for its request is dropped, so idle
 * or stalled clients can neither hold the tool past the timeout nor keep
 * the UI out.  Several files (one per device) share one listener; a port
 * already taken is a warning, not a hang.  Never an error for the run.
 */
#include "pfopen.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "lib/plat.h"
#include "pfopen_req.h"

#define UI_ORIGIN "https://ui.perfetto.dev"
#define DEFAULT_PORT 9001
#define DEFAULT_TIMEOUT_S 120
#define REQ_MAX 8192
#define CONN_WAIT_MS 5000
#define CONN_STALL_MS 10000
#define LINGER_MS 3000          /* for the UI to read the end and close */
#define MAX_CONNS 32            /* with the listener and the stop fd: < PLAT_POLL_MAX */
#define MAX_FILES 64
#define CHUNK (1 << 16)

struct served {
    const char *path;
    char name[256];         /* URL path component, percent-encoded */
    int fetched;
};

/* One client: reading its request head, then sending the answer. */
struct conn {
    int fd;                 /* -1: a free slot */
    int sending;
    int linger;             /* the UI's fetch sent: until it closes */
    int64_t deadline;       /* plat_now_ms() */
    size_t len;             /* request bytes (reading) */
    char req[REQ_MAX];
    char head[1024];        /* the answer's head, then CHUNKs of the file */
    size_t head_len, off;
    FILE *in;
    long long left;         /* file bytes not yet read */
    char *buf;
    size_t buf_len;
    struct served *counts;  /* the UI's fetch of this file, or NULL */
};

struct server {
    int port;
    struct served *files;
    size_t n;
    struct conn c[MAX_CONNS];
};

static long env_number(const char *var, long dflt, long lo, long hi)
{
    const char *s = getenv(var);
    if (!s || !*s)
        return dflt;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno || *end || v < lo || v > hi ? dflt : v;
}

/* The base name with everything but unreserved characters %-encoded. */
static int url_name(const char *path, char *out, size_t n)
{
    const char *base = plat_last_sep(path);
    base = base ? base + 1 : path;
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)base; *p; p++) {
        if (k + 4 > n)
            return -1;
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~", *p))
            out[k++] = (char)*p;
        else
            k += (size_t)snprintf(out + k, n - k, "%%%02X", *p);
    }
    out[k] = '\0';
    return k ? 0 : -1;
}

static void conn_close(struct conn *c)
{
    if (c->fd >= 0)
        plat_sock_close(c->fd);
    if (c->in)
        fclose(c->in);
    free(c->buf);
    c->fd = -1;
    c->in = NULL;
    c->buf = NULL;
}

/* Queue the answer's head; the connection then sends it (and the file). */
static void answer(struct conn *c, const char *status, const char *extra, long long len)
{
    int n = snprintf(c->head, sizeof(c->head), "HTTP/1.1 %s\r\nAccess-Control-Allow-Origin: "
                     UI_ORIGIN "\r\nCache-Control: no-cache\r\nConnection: close\r\n%s"
                     "Content-Length: %lld\r\n\r\n", status, extra, len);
    c->head_len = n > 0 && (size_t)n < sizeof(c->head) ? (size_t)n : 0;
    c->off = 0;
    c->sending = 1;
    c->deadline = plat_now_ms() + CONN_STALL_MS;
}

/* 200 with the file to follow (GET), or 404 when it cannot be read. */
static void answer_file(struct conn *c, struct served *f, int head_only, int counts)
{
    struct plat_stat st;
    FILE *in = plat_fopen(f->path, "rb");
    if (!in || plat_fstat(fileno(in), &st) != 0 || (!head_only && !(c->buf = malloc(CHUNK)))) {
        if (in)
            fclose(in);
        answer(c, "404 Not Found", "", 0);
        return;
    }
    answer(c, "200 OK", "Content-Type: application/octet-stream\r\n", (long long)st.size);
    if (head_only) {
        fclose(in);
        return;
    }
    c->in = in;
    c->left = (long long)st.size;
    c->counts = counts ? f : NULL;
}

static void route(struct server *s, struct conn *c, struct pfreq *r)
{
    int ui = r->origin && !strcmp(r->origin, UI_ORIGIN);
    struct served *f = NULL;
    for (size_t i = 0; i < s->n && !f; i++)
        if (r->path[0] == '/' && !strcmp(r->path + 1, s->files[i].name))
            f = &s->files[i];
    if (!pfreq_host_ok(r, s->port))
        answer(c, "403 Forbidden", "", 0);
    else if (!strcmp(r->method, "OPTIONS"))
        answer(c, "204 No Content", ui ? "Access-Control-Allow-Methods: GET\r\n"
                                         "Access-Control-Allow-Headers: *\r\n"
                                         "Access-Control-Allow-Private-Network: true\r\n"
                                       : "Access-Control-Allow-Methods: GET\r\n", 0);
    else if (strcmp(r->method, "GET") && strcmp(r->method, "HEAD"))
        answer(c, "405 Method Not Allowed", "Allow: GET, HEAD, OPTIONS\r\n", 0);
    else if (!f)
        answer(c, "404 Not Found", "", 0);
    else
        answer_file(c, f, !strcmp(r->method, "HEAD"), ui && !strcmp(r->method, "GET"));
}

/* Readable: more of the request; once whole, the answer.  0, or -1 to drop. */
static int conn_read(struct server *s, struct conn *c)
{
    if (c->linger) {    /* anything but the client's close is ignored */
        char junk[512];
        ssize_t r = plat_sock_read(c->fd, junk, sizeof(junk));
        return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? 0
               : r > 0                                                             ? 0 : -1;
    }
    ssize_t r = plat_sock_read(c->fd, c->req + c->len, sizeof(c->req) - 1 - c->len);
    if (r < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
    if (r == 0)
        return -1;
    c->len += (size_t)r;
    size_t head = pfreq_head_len(c->req, c->len);
    if (!head)
        return c->len + 1 < sizeof(c->req) ? 0 : -1;
    c->req[head] = '\0';
    struct pfreq q;
    if (pfreq_parse(c->req, &q))
        return -1;
    route(s, c, &q);
    return 0;
}

/* The next bytes to send: the head, then the file chunk by chunk; NULL at
 * the end (c->left tells whether all of the file went out). */
static const char *pending(struct conn *c, size_t *n)
{
    if (c->off < c->head_len) {
        *n = c->head_len - c->off;
        return c->head + c->off;
    }
    size_t at = c->off - c->head_len;
    if (at == c->buf_len && c->in && c->left > 0) {
        c->buf_len = fread(c->buf, 1, CHUNK, c->in);
        c->left -= (long long)c->buf_len;
        c->off = c->head_len;
        at = 0;
    }
    *n = c->buf_len - at;
    return *n ? c->buf + at : NULL;
}

/* Writable: send what the socket takes.  1 when the answer is all out,
 * 0 to go on (the UI's fetch then lingers until the UI closed: ending
 * serving and the process at once could cut what the UI has yet to read),
 * -1 to drop. */
static int conn_send(struct conn *c)
{
    size_t n;
    const char *p;
    while ((p = pending(c, &n))) {
        ssize_t w = plat_sock_write(c->fd, p, n);
        if (w < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        c->off += (size_t)w;
        c->deadline = plat_now_ms() + CONN_STALL_MS;
    }
    if (c->in && c->left)
        return -1;      /* the file shrank or could not be read */
    if (!c->counts)
        return 1;
    c->counts->fetched = 1;
    c->sending = 0;
    c->linger = 1;
    c->deadline = plat_now_ms() + LINGER_MS;
    return 0;
}

/* A new client, in a free slot or the one of the client waiting longest
 * for its request to come; dropped when every slot is sending. */
static void conn_accept(struct server *s, int lfd)
{
    int fd = plat_accept(lfd);
    if (fd < 0)
        return;
    struct conn *slot = NULL;
    for (size_t i = 0; i < MAX_CONNS && (!slot || slot->fd >= 0); i++) {
        const struct conn *c = &s->c[i];
        if (c->fd < 0 || (!c->sending && !c->linger && (!slot || c->deadline < slot->deadline)))
            slot = &s->c[i];
    }
    if (!slot || plat_sock_nonblock(fd)) {
        plat_sock_close(fd);
        return;
    }
    conn_close(slot);
    memset(slot, 0, sizeof(*slot));
    slot->fd = fd;
    slot->deadline = plat_now_ms() + CONN_WAIT_MS;
}

static size_t count_fetched(const struct served *files, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += files[i].fetched != 0;
    return k;
}

static int lingering(const struct server *s)
{
    for (size_t i = 0; i < MAX_CONNS; i++)
        if (s->c[i].fd >= 0 && s->c[i].linger)
            return 1;
    return 0;
}

/* Poll the listener, the stop fd and every client once; -1 on the stop. */
static int serve_step(struct server *s, int lfd, int stop_fd, int64_t until)
{
    struct plat_pollfd p[MAX_CONNS + 2] = {{lfd, PLAT_POLLIN, 0}, {stop_fd, PLAT_POLLIN, 0}};
    int64_t wake = until;
    for (size_t i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &s->c[i];
        p[i + 2] = (struct plat_pollfd){c->fd, c->sending ? PLAT_POLLOUT : PLAT_POLLIN, 0};
        if (c->fd >= 0 && c->deadline < wake)
            wake = c->deadline;
    }
    int64_t left = wake - plat_now_ms();
    int r = plat_poll(p, MAX_CONNS + 2, left < 0 ? 0 : (int)left);
    if (r < 0)
        return errno == EINTR ? 0 : -1;
    if (stop_fd >= 0 && p[1].revents)
        return -1;
    int64_t now = plat_now_ms();
    for (size_t i = 0; i < MAX_CONNS; i++) {
        struct conn *c = &s->c[i];
        int rc = 0;
        if (c->fd >= 0 && p[i + 2].revents)
            rc = c->sending ? conn_send(c) : conn_read(s, c);
        if (rc || (c->fd >= 0 && now >= c->deadline))
            conn_close(c);
    }
    if (p[0].revents & PLAT_POLLIN)
        conn_accept(s, lfd);
    return 0;
}

/* Accept and answer until all were fetched; 0 done, 1 timeout, 2 stopped. */
static int serve(struct server *s, int lfd, int timeout_s, int stop_fd)
{
    int64_t until = plat_now_ms() + (int64_t)timeout_s * 1000;
    int r = 0;
    while (count_fetched(s->files, s->n) < s->n || lingering(s)) {
        if (plat_now_ms() >= until) {
            r = 1;
            break;
        }
        if (serve_step(s, lfd, stop_fd, until)) {
            r = 2;
            break;
        }
    }
    for (size_t i = 0; i < MAX_CONNS; i++)
        conn_close(&s->c[i]);
    return count_fetched(s->files, s->n) == s->n ? 0 : r;    /* cut while lingering: done */
}

static void warn_all(const struct served *files, size_t n, const char *why)
{
    for (size_t i = 0; i < n; i++)
        if (!files[i].fetched)
            fprintf(stderr, "systrace: warning: --open=perfetto: %s; open %s in "
                            "ui.perfetto.dev yourself (Open trace file)\n", why, files[i].path);
}

static void open_tabs(const struct server *s, int quiet)
{
    for (size_t i = 0; i < s->n; i++) {
        char url[512];
        snprintf(url, sizeof(url), UI_ORIGIN "/#!/?url=http://127.0.0.1:%d/%s", s->port,
                 s->files[i].name);
        char bwarn[1400];
        int opened = browser_open_url(url, bwarn, sizeof(bwarn)) == 0;
        if (opened && !quiet)
            printf("Opening in ui.perfetto.dev: %s\n", url);
        else if (!opened)
            printf("%s\n", bwarn + (strncmp(bwarn, "--open: ", 8) ? 0 : 8));
    }
}

void pfopen_serve(const char *const *paths, size_t n, int quiet, int stop_fd)
{
    struct served files[MAX_FILES];
    size_t k = 0;
    for (size_t i = 0; i < n && k < MAX_FILES; i++) {
        files[k] = (struct served){paths[i], "", 0};
        if (url_name(paths[i], files[k].name, sizeof(files[k].name)) == 0)
            k++;
    }
    struct server *s = k ? calloc(1, sizeof(*s)) : NULL;
    if (!s)
        return;
    s->port = (int)env_number("SYSTRACE_OPEN_PORT", DEFAULT_PORT, 1, 65535);
    s->files = files;
    s->n = k;
    for (size_t i = 0; i < MAX_CONNS; i++)
        s->c[i].fd = -1;
    int timeout_s = (int)env_number("SYSTRACE_OPEN_TIMEOUT", DEFAULT_TIMEOUT_S, 1, 86400);
    char why[512];
    int lfd = plat_listen_loopback(s->port);
    if (lfd < 0) {
        snprintf(why, sizeof(why), "cannot serve on 127.0.0.1:%d (%s; is another trace being "
                 "served, or a trace processor with --httpd running?)", s->port,
                 plat_strerror(errno));
        warn_all(files, k, why);
        free(s);
        return;
    }
    open_tabs(s, quiet);
    if (!quiet)
        printf("Serving %s once from http://127.0.0.1:%d (for %d s at most; Ctrl-C stops)\n",
               k == 1 ? files[0].path : "the traces", s->port, timeout_s);
    fflush(stdout);
    int r = serve(s, lfd, timeout_s, stop_fd);
    plat_sock_close(lfd);
    free(s);
    if (r == 1) {
        snprintf(why, sizeof(why), "not fetched within %d s, stopped serving", timeout_s);
        warn_all(files, k, why);
    } else if (r == 2) {
        warn_all(files, k, "interrupted, stopped serving (the output is kept)");
    } else if (!quiet) {
        printf("ui.perfetto.dev fetched %s; stopped serving\n",
               k == 1 ? files[0].path : "every trace");
        fflush(stdout);
    }
}
