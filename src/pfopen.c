/*
 * --open=perfetto: hand traces to ui.perfetto.dev the way Perfetto's record
 * script (record_android_trace, open_trace_in_browser) does.  The UI may
 * fetch only from http://127.0.0.1:9001 (its content security policy), so
 * each file is served from there, under its base name, with
 * `Access-Control-Allow-Origin: https://ui.perfetto.dev`; the browser is
 * pointed at https://ui.perfetto.dev/#!/?url=http://127.0.0.1:9001/NAME.
 * Serving ends once every file was sent whole, or at the timeout, or on a
 * signal, and says which.
 *
 * Beyond the script: a CORS preflight (OPTIONS, with Chrome's private
 * network access header) is answered, as a browser that treats 127.0.0.1
 * as a private network asks one first; several files (one per device) are
 * served by one listener; a port already taken is a warning, not a hang.
 * One connection at a time, each with a deadline, so a client that says
 * nothing cannot hold the others off for long.  Never an error for the run.
 */
#include "pfopen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "browser.h"
#include "lib/plat.h"

#define UI_ORIGIN "https://ui.perfetto.dev"
#define DEFAULT_PORT 9001
#define DEFAULT_TIMEOUT_S 120
#define REQ_MAX 8192
#define CONN_WAIT_MS 5000
#define MAX_FILES 64

struct served {
    const char *path;
    char name[256];         /* URL path component, percent-encoded */
    int fetched;
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

static double now_s(void)
{
    return (double)plat_now_ms() / 1e3;
}

static int listen_on(int port, char *err, size_t n)
{
    int fd = plat_listen_loopback(port);
    if (fd < 0)
        snprintf(err, n, "%s", plat_strerror(errno));
    return fd;
}

static int send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = plat_sock_write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int send_head(int fd, const char *status, const char *extra, long long len)
{
    char h[1024];
    int n = snprintf(h, sizeof(h), "HTTP/1.1 %s\r\nAccess-Control-Allow-Origin: " UI_ORIGIN
                     "\r\nCache-Control: no-cache\r\nConnection: close\r\n%s"
                     "Content-Length: %lld\r\n\r\n", status, extra, len);
    return n > 0 && (size_t)n < sizeof(h) ? send_all(fd, h, (size_t)n) : -1;
}

/* The whole file after its header; 0 when every byte went out. */
static int send_file(int fd, const struct served *f, int head_only)
{
    FILE *in = plat_fopen(f->path, "rb");
    struct plat_stat st;
    if (!in || plat_fstat(fileno(in), &st) != 0) {
        if (in)
            fclose(in);
        return send_head(fd, "404 Not Found", "", 0), -1;
    }
    int rc = send_head(fd, "200 OK", "Content-Type: application/octet-stream\r\n",
                       (long long)st.size);
    long long left = (long long)st.size;
    char *buf = malloc(1 << 16);
    if (!buf)
        rc = -1;
    while (!rc && !head_only && left > 0) {
        size_t r = fread(buf, 1, 1 << 16, in);
        if (!r)
            break;
        rc = send_all(fd, buf, r);
        left -= (long long)r;
    }
    free(buf);
    fclose(in);
    return rc || (!head_only && left) ? -1 : 0;
}

/* Read the request head (bounded, with a deadline); its method and path. */
static int read_request(int fd, char *req, size_t n, char **method, char **path)
{
    size_t len = 0;
    double until = now_s() + CONN_WAIT_MS / 1000.0;
    while (!strstr(req, "\r\n\r\n") && !strstr(req, "\n\n")) {
        int left = (int)((until - now_s()) * 1000);
        struct plat_pollfd p = {fd, PLAT_POLLIN, 0};
        if (left <= 0 || len + 1 >= n || plat_poll(&p, 1, left) <= 0)
            return -1;
        ssize_t r = plat_sock_read(fd, req + len, n - 1 - len);
        if (r <= 0)
            return -1;
        len += (size_t)r;
        req[len] = '\0';
    }
    *method = req;
    char *sp = strchr(req, ' ');
    if (!sp)
        return -1;
    *sp = '\0';
    *path = sp + 1;
    (*path)[strcspn(*path, " ?#\r\n")] = '\0';
    return 0;
}

static void one_client(int fd, struct served *files, size_t n)
{
    char req[REQ_MAX] = "";
    char *method, *path;
    if (read_request(fd, req, sizeof(req), &method, &path))
        return;
    struct served *f = NULL;
    for (size_t i = 0; i < n && !f; i++)
        if (path[0] == '/' && !strcmp(path + 1, files[i].name))
            f = &files[i];
    if (!strcmp(method, "OPTIONS"))
        send_head(fd, "204 No Content", "Access-Control-Allow-Methods: GET\r\n"
                  "Access-Control-Allow-Headers: *\r\n"
                  "Access-Control-Allow-Private-Network: true\r\n", 0);
    else if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        send_head(fd, "405 Method Not Allowed", "Allow: GET, HEAD, OPTIONS\r\n", 0);
    else if (!f)
        send_head(fd, "404 Not Found", "", 0);
    else if (send_file(fd, f, !strcmp(method, "HEAD")) == 0 && strcmp(method, "HEAD"))
        f->fetched = 1;
}

static size_t count_fetched(const struct served *files, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += files[i].fetched != 0;
    return k;
}

/* Accept and answer until all were fetched; 0 done, 1 timeout, 2 signal. */
static int serve(int lfd, struct served *files, size_t n, int timeout_s, int stop_fd)
{
    double until = now_s() + timeout_s;
    while (count_fetched(files, n) < n) {
        int left = (int)((until - now_s()) * 1000);
        if (left <= 0)
            return 1;
        struct plat_pollfd p[2] = {{lfd, PLAT_POLLIN, 0}, {stop_fd, PLAT_POLLIN, 0}};
        int r = plat_poll(p, stop_fd >= 0 ? 2 : 1, left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return 2;
        if (stop_fd >= 0 && p[1].revents)
            return 2;
        if (!(p[0].revents & PLAT_POLLIN))
            continue;
        int c = plat_accept(lfd);
        if (c < 0)
            continue;
        one_client(c, files, n);
        plat_sock_close(c);
    }
    return 0;
}

static void warn_all(const struct served *files, size_t n, const char *why)
{
    for (size_t i = 0; i < n; i++)
        if (!files[i].fetched)
            fprintf(stderr, "systrace: warning: --open=perfetto: %s; open %s in "
                            "ui.perfetto.dev yourself (Open trace file)\n", why, files[i].path);
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
    if (!k)
        return;
    int port = (int)env_number("SYSTRACE_OPEN_PORT", DEFAULT_PORT, 1, 65535);
    int timeout_s = (int)env_number("SYSTRACE_OPEN_TIMEOUT", DEFAULT_TIMEOUT_S, 1, 86400);
    char err[200], why[512];
    int lfd = listen_on(port, err, sizeof(err));
    if (lfd < 0) {
        snprintf(why, sizeof(why), "cannot serve on 127.0.0.1:%d (%s; is another trace being "
                 "served, or a trace processor with --httpd running?)", port, err);
        warn_all(files, k, why);
        return;
    }
    for (size_t i = 0; i < k; i++) {
        char url[512];
        snprintf(url, sizeof(url), UI_ORIGIN "/#!/?url=http://127.0.0.1:%d/%s", port,
                 files[i].name);
        char bwarn[1400];
        int opened = browser_open_url(url, bwarn, sizeof(bwarn)) == 0;
        if (opened && !quiet)
            printf("Opening in ui.perfetto.dev: %s\n", url);
        else if (!opened)
            printf("%s\n", bwarn + (strncmp(bwarn, "--open: ", 8) ? 0 : 8));
    }
    if (!quiet)
        printf("Serving %s once from http://127.0.0.1:%d (for %d s at most; Ctrl-C stops)\n",
               k == 1 ? files[0].path : "the traces", port, timeout_s);
    fflush(stdout);
    int r = serve(lfd, files, k, timeout_s, stop_fd);
    plat_sock_close(lfd);
    if (r == 1) {
        snprintf(why, sizeof(why), "not fetched within %d s, stopped serving", timeout_s);
        warn_all(files, k, why);
    } else if (r == 2) {
        warn_all(files, k, "interrupted, stopped serving");
    } else if (!quiet) {
        printf("ui.perfetto.dev fetched %s; stopped serving\n",
               k == 1 ? files[0].path : "every trace");
        fflush(stdout);
    }
}
