/* --update-viewer: libcurl download, verification, atomic store; see download.h. */
#include "download.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "formats/html/viewer.h"

const struct dl_file dl_files[2] = {
    {"catapult/systrace/systrace/systrace_trace_viewer.html", "systrace_trace_viewer.html",
     2624705, "1e47680c9779f29f2f1c0179c47a69cecadfd6653f15796aa9148c195a5647b0"},
    {"catapult/third_party/polymer/components/webcomponentsjs/webcomponents.min.js",
     "webcomponents.min.js", 118419,
     "3858273ab39b299e7c2227f0830534afafaabf4a572c9ea73c2076fecbd8978c"},
};

/* ---- body decoding ---------------------------------------------------- */

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static int b64_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

enum st_err dl_base64_decode(const char *in, size_t n, struct dynbuf *out, struct dynbuf *err)
{
    const unsigned char *p = (const unsigned char *)in;
    unsigned acc = 0;
    size_t chars = 0, pad = 0;
    enum st_err e = ST_OK;
    for (size_t i = 0; i < n && !e; i++) {
        if (b64_space(p[i]))
            continue;
        int v = p[i] == '=' ? 0 : b64_value(p[i]);
        if (v < 0 || (pad && p[i] != '=') || (p[i] == '=' && (chars % 4) < 2)) {
            if (err)
                dynbuf_printf(err, "not base64: byte 0x%02x at offset %zu", p[i], i);
            return ST_EFORMAT;
        }
        pad += p[i] == '=';
        acc = acc << 6 | (unsigned)v;
        if (++chars % 4)
            continue;
        unsigned char b[3] = {(unsigned char)(acc >> 16), (unsigned char)(acc >> 8),
                              (unsigned char)acc};
        e = dynbuf_add(out, b, 3 - pad);
        acc = 0;
    }
    if (!e && chars % 4) {
        if (err)
            dynbuf_printf(err, "base64 text of %zu characters is cut short (a partial "
                               "download?)", chars);
        return ST_ETRUNCATED;
    }
    return e;
}

enum st_err dl_decode_body(const char *in, size_t n, struct dynbuf *out, int *was_base64,
                           struct dynbuf *err)
{
    dynbuf_reset(out);
    struct dynbuf why;
    dynbuf_init(&why, 256);
    enum st_err e = dl_base64_decode(in, n, out, &why);
    if (e == ST_ETRUNCATED && err)
        dynbuf_addstr(err, dynbuf_str(&why));
    dynbuf_free(&why);
    *was_base64 = e != ST_EFORMAT;
    if (e != ST_EFORMAT)
        return e;
    dynbuf_reset(out);
    return dynbuf_add(out, in, n);
}

int dl_verify(const struct dl_file *f, int is_viewer, const void *p, size_t n,
              struct dynbuf *err)
{
    char hex[65];
    viewer_sha256_hex(p, n, hex);
    if (n == f->size && !strcmp(hex, f->sha256))
        return 1;
    const char *test = is_viewer ? getenv("SYSTRACE_TEST_VIEWER_SHA256") : NULL;
    if (test && *test && !strcmp(hex, test))
        return 1;
    dynbuf_printf(err, "got %zu bytes with sha256 %s; expected the pinned file (%llu bytes, "
                       "sha256 %s)", n, hex, (unsigned long long)f->size, f->sha256);
    if (test && *test)
        dynbuf_printf(err, " or sha256 %s from $SYSTRACE_TEST_VIEWER_SHA256", test);
    if (n == f->size)
        dynbuf_addstr(err, " (same size as the pinned file: modified or corrupted)");
    return 0;
}

/* ---- HTTP ------------------------------------------------------------- */

static size_t on_data(char *p, size_t size, size_t nmemb, void *ctx)
{
    return dynbuf_add(ctx, p, size * nmemb) ? 0 : size * nmemb;
}

static void host_of(const char *url, char *host, size_t n)
{
    const char *s = strstr(url, "://");
    s = s ? s + 3 : url;
    size_t l = strcspn(s, "/:?#");
    snprintf(host, n, "%.*s", (int)l, s);
}

/* no_proxy: `*`, or a list of host names / domain suffixes. */
static int no_proxy_for(const char *host)
{
    const char *np = getenv("no_proxy");
    if (!np || !*np)
        np = getenv("NO_PROXY");
    if (!np)
        return 0;
    size_t hl = strlen(host);
    while (*np) {
        size_t l = strcspn(np, ", ");
        const char *e = np;
        size_t el = l;
        if (el && *e == '.')
            e++, el--;
        if ((l == 1 && *np == '*') ||
            (el && el <= hl && !strncmp(host + hl - el, e, el) &&
             (el == hl || host[hl - el - 1] == '.')))
            return 1;
        np += l;
        np += strspn(np, ", ");
    }
    return 0;
}

/* The proxy libcurl takes from the environment for url, and its name. */
static const char *proxy_for(const char *url, const char **var)
{
    static const char *const https_vars[] = {"https_proxy", "HTTPS_PROXY", "all_proxy",
                                             "ALL_PROXY", NULL};
    static const char *const http_vars[] = {"http_proxy", "all_proxy", "ALL_PROXY", NULL};
    char host[256];
    host_of(url, host, sizeof(host));
    if (no_proxy_for(host))
        return NULL;
    const char *const *v = strncmp(url, "https:", 6) ? http_vars : https_vars;
    for (; *v; v++) {
        const char *p = getenv(*v);
        if (p && *p) {
            *var = *v;
            return p;
        }
    }
    return NULL;
}

static void explain(CURLcode rc, const char *url, const char *eb, long timeout,
                    curl_off_t got, curl_off_t want, struct dynbuf *err)
{
    char host[256];
    host_of(url, host, sizeof(host));
    const char *var = NULL, *proxy = proxy_for(url, &var);
    switch (rc) {
    case CURLE_COULDNT_RESOLVE_HOST:
        dynbuf_printf(err, "cannot resolve %s: no network or no DNS?", host);
        break;
    case CURLE_COULDNT_RESOLVE_PROXY:
        dynbuf_printf(err, "cannot resolve the proxy %s (from $%s)", proxy ? proxy : "?",
                      var ? var : "?");
        break;
    case CURLE_COULDNT_CONNECT:
        if (proxy)
            dynbuf_printf(err, "cannot connect to the proxy %s (from $%s): %s", proxy, var,
                          eb);
        else
            dynbuf_printf(err, "cannot connect to %s: %s (no network?)", host, eb);
        break;
    case CURLE_OPERATION_TIMEDOUT:
        dynbuf_printf(err, "timed out: no data for %ld s (%s); --timeout=S waits longer",
                      timeout, eb);
        break;
    case CURLE_PARTIAL_FILE:
        dynbuf_printf(err, "the transfer stopped after %lld of %lld bytes (partial "
                           "download)", (long long)got, (long long)want);
        break;
    case CURLE_WRITE_ERROR:
        dynbuf_printf(err, "the response is larger than %u bytes: not the expected file",
                      DL_BODY_MAX);
        break;
    case CURLE_UNSUPPORTED_PROTOCOL:
        dynbuf_printf(err, "unsupported URL (http:// and https:// only)");
        break;
    default:
        dynbuf_printf(err, "%s%s%s", curl_easy_strerror(rc), *eb ? ": " : "", eb);
        if (proxy)
            dynbuf_printf(err, " (through the proxy %s from $%s)", proxy, var);
    }
}

static enum st_err fetch(const char *url, long timeout, struct dynbuf *body,
                         struct dynbuf *err)
{
    CURL *c = curl_easy_init();
    if (!c)
        return ST_ENOMEM;
    char eb[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, eb);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_USERAGENT, "systrace");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, timeout > 0 ? timeout : 30L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, timeout > 0 ? timeout : 60L);
    CURLcode rc = curl_easy_perform(c);
    long code = 0;
    curl_off_t got = 0, want = -1;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &got);
    curl_easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &want);
    curl_easy_cleanup(c);
    enum st_err e = ST_OK;
    if (rc != CURLE_OK) {
        explain(rc, url, eb, timeout > 0 ? timeout : 60L, got, want, err);
        e = rc == CURLE_OPERATION_TIMEDOUT ? ST_ETIMEOUT
            : rc == CURLE_PARTIAL_FILE ? ST_ETRUNCATED : ST_ECONNECT;
    } else if (code >= 400 || (code && code < 200)) {
        dynbuf_printf(err, "HTTP status %ld", code);
        e = ST_EFAIL;
    }
    return e;
}

/* ---- storing ---------------------------------------------------------- */

static int mkdir_p(char *dir)
{
    for (char *s = dir + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int r = mkdir(dir, 0700);
        *s = '/';
        if (r && errno != EEXIST)
            return -1;
    }
    return mkdir(dir, 0700) && errno != EEXIST ? -1 : 0;
}

static int write_tmp(const char *dir, const char *name, const struct dynbuf *b, char *tmp,
                     size_t tn)
{
    snprintf(tmp, tn, "%s/.%s.XXXXXX", dir, name);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < b->len) {
        ssize_t w = write(fd, b->data + off, b->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    int ok = off == b->len && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
    if (close(fd) != 0 || !ok) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* Both files to temporary names, then renamed: polyfill first, so a
 * viewer in the cache always has its polyfill beside it. */
static enum st_err store(const char *cache, struct dynbuf files[2], struct dynbuf *err)
{
    char dir[4096], tmp[2][4200] = {"", ""};
    snprintf(dir, sizeof(dir), "%s", cache);
    if (mkdir_p(dir)) {
        dynbuf_printf(err, "%s: cannot create the cache directory: %s", dir, strerror(errno));
        return ST_EIO;
    }
    enum st_err e = ST_OK;
    for (int i = 1; i >= 0 && !e; i--)
        if (write_tmp(dir, dl_files[i].store_as, &files[i], tmp[i], sizeof(tmp[i]))) {
            dynbuf_printf(err, "%s: cannot write: %s", dir, strerror(errno));
            e = ST_EIO;
        }
    for (int i = 1; i >= 0 && !e; i--) {
        char dst[4200];
        snprintf(dst, sizeof(dst), "%s/%s", dir, dl_files[i].store_as);
        if (rename(tmp[i], dst)) {
            dynbuf_printf(err, "%s: cannot rename into place: %s", dst, strerror(errno));
            e = ST_EIO;
        } else {
            tmp[i][0] = '\0';
        }
    }
    for (int i = 0; i < 2; i++)
        if (tmp[i][0])
            unlink(tmp[i]);
    return e;
}

/* Fetch, decode and verify file i. */
static enum st_err get_one(const struct dl_opts *o, int i, struct dynbuf *out,
                           struct dynbuf *err)
{
    const char *base = o->base_url ? o->base_url : DL_DEFAULT_BASE;
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/')
        bl--;
    char url[4096];
    snprintf(url, sizeof(url), "%.*s/%s?format=TEXT", (int)bl, base, dl_files[i].path);
    struct dynbuf body, why;
    dynbuf_init(&body, DL_BODY_MAX);
    dynbuf_init(&why, 1024);
    int b64 = 0;
    enum st_err e = fetch(url, o->timeout_s, &body, &why);
    if (!e)
        e = dl_decode_body(dynbuf_str(&body), body.len, out, &b64, &why);
    if (!e && !dl_verify(&dl_files[i], i == 0, dynbuf_str(out), out->len, &why))
        e = ST_ECHECKSUM;
    if (e)
        dynbuf_printf(err, "%s: %s", url, dynbuf_str(&why));
    dynbuf_free(&body);
    dynbuf_free(&why);
    return e;
}

enum st_err dl_update_viewer(const struct dl_opts *o, struct dynbuf *msg, struct dynbuf *err)
{
    char cache[4096];
    if (o->cache_dir)
        snprintf(cache, sizeof(cache), "%s", o->cache_dir);
    else if (viewer_cache_dir(cache, sizeof(cache))) {
        dynbuf_printf(err, "no cache directory: set HOME or XDG_CACHE_HOME");
        return ST_ENOENT;
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        dynbuf_printf(err, "libcurl could not start");
        return ST_ENOMEM;
    }
    struct dynbuf files[2];
    enum st_err e = ST_OK;
    for (int i = 0; i < 2; i++)
        dynbuf_init(&files[i], VIEWER_MAX);
    for (int i = 0; i < 2 && !e; i++)
        e = get_one(o, i, &files[i], err);
    if (!e)
        e = store(cache, files, err);
    for (int i = 0; !e && i < 2; i++) {
        char hex[65];
        viewer_sha256_hex(files[i].data, files[i].len, hex);
        dynbuf_printf(msg, "  %s/%s  %zu bytes  sha256 %s\n", cache, dl_files[i].store_as,
                      files[i].len, hex);
    }
    for (int i = 0; i < 2; i++)
        dynbuf_free(&files[i]);
    curl_global_cleanup();
    return e;
}

int cmd_update_viewer(const struct st_options *o)
{
    struct dl_opts d = {o->viewer_url, NULL, o->timeout_s};
    struct dynbuf msg, err;
    dynbuf_init(&msg, 65536);
    dynbuf_init(&err, 65536);
    if (!o->quiet) {
        printf("Downloading the trace viewer from %s\n",
               o->viewer_url ? o->viewer_url : DL_DEFAULT_BASE);
        fflush(stdout);
    }
    enum st_err e = dl_update_viewer(&d, &msg, &err);
    if (e)
        fprintf(stderr, "systrace: --update-viewer: %s; nothing was stored (a cached copy, "
                        "if any, is unchanged)\n", dynbuf_str(&err));
    else if (!o->quiet)
        printf("Verified (sha256) and stored:\n%s", dynbuf_str(&msg));
    dynbuf_free(&msg);
    dynbuf_free(&err);
    return e ? EXIT_ERROR : EXIT_OK;
}
