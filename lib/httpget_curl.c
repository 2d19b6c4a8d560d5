/*
 * lib/httpget.h on libcurl (Linux, macOS): redirects followed, http and
 * https only, the proxy from the environment as libcurl takes it (named in
 * failures: httpenv.h), and failures in the user's terms.
 *
 * libcurl is opened with dlopen at the first download, not linked: linked,
 * it and the ~28 libraries it needs (TLS, HTTP/2, IDN, Kerberos, LDAP...)
 * cost every run of systrace ~11 ms of dynamic linking (20.5 ms against
 * 9.4 ms for an empty program here), and only --update-viewer uses it.
 * curl.h still gives the types and constants; the calls go through the
 * pointers in curl_api.  Without the library, a download fails with one
 * line saying how to install it; everything else works.
 */
#include "httpget.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "httpenv.h"

#ifdef __APPLE__
#define CURL_SONAME "libcurl.4.dylib"
#else
#define CURL_SONAME "libcurl.so.4"
#endif

/* Loaded once per process and never closed (libcurl and its TLS library
 * do not promise to unload cleanly).  Process-wide by nature, like the
 * dynamic linker's own state: the one file-scope table here. */
static struct {
    CURLcode (*global_init)(long flags);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *c);
    CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
    CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *c);
    const char *(*easy_strerror)(CURLcode rc);
    char why[512]; /* why loading failed; empty when loaded */
} curl_api;
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_failed(const char *fallback)
{
    const char *e = dlerror();
    snprintf(curl_api.why, sizeof(curl_api.why), "%s", e ? e : fallback);
}

/* POSIX lets dlsym's void * hold a function; ISO C has no cast from it to
 * a function pointer, so the bytes are copied. */
static int curl_sym(void *lib, const char *name, void *fnp)
{
    void *f = dlsym(lib, name);
    if (!f) {
        curl_failed("a function is missing");
        return -1;
    }
    memcpy(fnp, &f, sizeof(f));
    return 0;
}

static void curl_load(void)
{
    void *lib = dlopen(CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        curl_failed("dlopen failed");
        return;
    }
    if (curl_sym(lib, "curl_global_init", &curl_api.global_init) ||
        curl_sym(lib, "curl_global_cleanup", &curl_api.global_cleanup) ||
        curl_sym(lib, "curl_easy_init", &curl_api.easy_init) ||
        curl_sym(lib, "curl_easy_cleanup", &curl_api.easy_cleanup) ||
        curl_sym(lib, "curl_easy_setopt", &curl_api.easy_setopt) ||
        curl_sym(lib, "curl_easy_getinfo", &curl_api.easy_getinfo) ||
        curl_sym(lib, "curl_easy_perform", &curl_api.easy_perform) ||
        curl_sym(lib, "curl_easy_strerror", &curl_api.easy_strerror))
        dlclose(lib);
}

/* 0 when libcurl's functions are in curl_api; else the reason in err. */
static int curl_ready(struct dynbuf *err)
{
    pthread_once(&curl_once, curl_load);
    if (!curl_api.why[0])
        return 0;
    dynbuf_printf(err, "libcurl (%s) could not be loaded: %s; install it (Debian: "
                       "apt-get install libcurl4)", CURL_SONAME, curl_api.why);
    return -1;
}

static size_t on_data(char *p, size_t size, size_t nmemb, void *ctx)
{
    return dynbuf_add(ctx, p, size * nmemb) ? 0 : size * nmemb;
}

static void explain(CURLcode rc, const char *url, const char *eb, long timeout,
                    curl_off_t got, curl_off_t want, size_t max, struct dynbuf *err)
{
    char host[256];
    http_host_of(url, host, sizeof(host));
    const char *var = NULL, *proxy = http_env_proxy(url, &var);
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
        dynbuf_printf(err, "the response is larger than %zu bytes: not the expected file",
                      max);
        break;
    case CURLE_UNSUPPORTED_PROTOCOL:
        dynbuf_printf(err, "unsupported URL (http:// and https:// only)");
        break;
    default:
        dynbuf_printf(err, "%s%s%s", curl_api.easy_strerror(rc), *eb ? ": " : "", eb);
        if (proxy)
            dynbuf_printf(err, " (through the proxy %s from $%s)", proxy, var);
    }
}

enum st_err http_get(const char *url, long timeout, struct dynbuf *body, struct dynbuf *err)
{
    if (curl_ready(err))
        return ST_EUNSUPPORTED;
    if (curl_api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        dynbuf_printf(err, "libcurl could not start");
        return ST_ENOMEM;
    }
    CURL *c = curl_api.easy_init();
    if (!c) {
        curl_api.global_cleanup();
        return ST_ENOMEM;
    }
    char eb[CURL_ERROR_SIZE] = "";
    curl_api.easy_setopt(c, CURLOPT_URL, url);
    curl_api.easy_setopt(c, CURLOPT_ERRORBUFFER, eb);
    curl_api.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_api.easy_setopt(c, CURLOPT_WRITEDATA, body);
    curl_api.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_api.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_api.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_api.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_api.easy_setopt(c, CURLOPT_USERAGENT, "systrace");
    curl_api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_api.easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_api.easy_setopt(c, CURLOPT_CONNECTTIMEOUT, timeout > 0 ? timeout : 30L);
    curl_api.easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_api.easy_setopt(c, CURLOPT_LOW_SPEED_TIME, timeout > 0 ? timeout : 60L);
    CURLcode rc = curl_api.easy_perform(c);
    long code = 0;
    curl_off_t got = 0, want = -1;
    curl_api.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_api.easy_getinfo(c, CURLINFO_SIZE_DOWNLOAD_T, &got);
    curl_api.easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &want);
    curl_api.easy_cleanup(c);
    curl_api.global_cleanup();
    enum st_err e = ST_OK;
    if (rc != CURLE_OK) {
        explain(rc, url, eb, timeout > 0 ? timeout : 60L, got, want, body->max, err);
        e = rc == CURLE_OPERATION_TIMEDOUT ? ST_ETIMEOUT
            : rc == CURLE_PARTIAL_FILE ? ST_ETRUNCATED : ST_ECONNECT;
    } else if (code >= 400 || (code && code < 200)) {
        dynbuf_printf(err, "HTTP status %ld", code);
        e = ST_EFAIL;
    }
    return e;
}

